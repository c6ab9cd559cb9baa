"""The Black Spy rules engine (the rulings are in the package docstring).

Built for speed, since bots and benchmarks play thousands of deals:

- cards are small ints and a hand is a 60-bit mask (see ``cards``); the hands of all
  seats are packed into one int, 60 bits per seat;
- ``State`` is a plain tuple, read with the index constants below, holding what changes
  card by card (whose turn, the hands, the trick, the cards the player to act may play,
  the log of tricks, the pass), the game's ``Config`` and one ``Deal`` record for what
  stays put while the cards are played (deal number, dealer, scores, history, called
  colour, The Mole);
- a card played builds one new tuple; ``apply`` never changes the state it is given;
- ``legal`` reads the playable cards precomputed in the state and lists them from
  tables of shared, read-only action dicts;
- card codes appear only at the protocol's edge (actions and views).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final, NamedTuple, cast

from games.core import IllegalAction, InvalidOptions, Option, Outcome, chance, validate_options

from . import scoring
from .cards import (
    BIT,
    BLACK,
    BLACK_CARDS,
    BLACK_SPY,
    CARD_ID,
    CODES,
    COLOUR_ID,
    COLOUR_MASK,
    COLOUR_OF,
    COLOURS,
    DECK,
    DECK_ID,
    FOLLOW,
    IS_BLACK,
    LOW55,
    NON_BLACK,
    PASS_CHUNKS,
    PLAY_CHUNKS,
    RANK_OF,
    RED_1,
    SAME_RANK,
    SPY_BITS,
    SPY_FILL,
    SPY_TOP,
    VALUE,
    VALUE_NO_GOOD_SPIES,
    FrozenAction,
    codes_of,
    hand_of,
)

Action = dict[str, Any]

PASS, MOLE, CALL, PLAY, ALL_BLACK, OVER = range(6)
PHASES = ("pass", "mole", "call", "play", "all_black", "over")
PASS_CARDS = 3
MOLE_CARDS = 3
HAND_BITS = 60
HAND_MASK = (1 << HAND_BITS) - 1
SHIFT: tuple[int, ...] = tuple(HAND_BITS * seat for seat in range(6))
RANK_NAMES = (
    "",
    "Informer",
    "Interrogator",
    "Infiltrator",
    "Saboteur",
    "Assassin",
    "Agent",
    "Spy",
    "Double Agent",
    "Code Breaker",
    "Deputy Director",
    "Director",
)
CALL_ACTIONS: tuple[FrozenAction, ...] = tuple(FrozenAction(type="call", color=c) for c in COLOURS[:BLACK])
ALL_BLACK_ACTIONS: tuple[FrozenAction, ...] = (
    FrozenAction(type="all_black", choice="give"),
    FrozenAction(type="all_black", choice="subtract"),
)
SINGLE: tuple[frozenset[int], ...] = tuple(frozenset((seat,)) for seat in range(6))
NOBODY: frozenset[int] = frozenset()
NO_RANK_FOLLOW: tuple[int, ...] = (0,) * len(SAME_RANK)
# STRENGTH[colour led][card]: the card's rank if it can win the trick, else 0.
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(RANK_OF[cid] if COLOUR_OF[cid] == led else 0 for cid in range(len(CODES))) for led in range(5)
)
DIRECTIONS = {1: "left", -1: "right", 2: "across"}


def _check_end_value(value: int) -> str | None:
    return None if value > 0 else "must be a positive whole number of points"


def _check_youngest(value: list[Any]) -> str | None:
    if not all(isinstance(seat, int) and not isinstance(seat, bool) for seat in value):
        return "must be a list of seat numbers, youngest player first"
    return None


OPTIONS: dict[str, Option] = {
    "no_good_spies": Option(bool, False, "No Good Spies: the coloured Spies are worth 0; deals total 80."),
    "capture_or_release": Option(
        bool, False, "Capture or Release: the taker of all 16 black cards may subtract 60 from their score."
    ),
    "the_mole": Option(bool, False, "The Mole: from the second deal, 3 cards per player are drafted."),
    "calling_color": Option(bool, False, "Calling Color: the dealer calls the colour of the first lead."),
    "following_rank": Option(
        bool, False, "Following Rank: a card may also match the rank played just before."
    ),
    "going_back": Option(
        bool, False, "Going Back: exceed the end value to end; exactly it, or half, halves."
    ),
    "end_value": Option(
        int, None, "The score that ends the game (default 200/150/120/100).", _check_end_value
    ),
    "youngest_first": Option(
        list,
        None,
        "The Mole: seats from youngest to oldest, to break ties (default seat order).",
        _check_youngest,
    ),
}


def describe(cid: int) -> str:
    """``Red 1 (Informer)``: a card as a person names it."""
    return f"{COLOURS[COLOUR_OF[cid]].capitalize()} {RANK_OF[cid]} ({RANK_NAMES[RANK_OF[cid]]})"


@dataclass(frozen=True, slots=True)
class Config:
    """What a game fixes at the start and never changes."""

    players: int
    seed: int
    options: tuple[tuple[str, Any], ...]
    no_good_spies: bool
    capture_or_release: bool
    the_mole: bool
    calling_color: bool
    following_rank: bool
    going_back: bool
    end_value: int
    youngest_first: tuple[int, ...]
    first_dealer: int
    draws: tuple[tuple[tuple[int, int], ...], ...]  # rounds of (seat, card id) drawn for the first deal
    values: tuple[int, ...]  # deal points of each card id
    same_rank: tuple[int, ...]  # Following Rank: cards matching the rank just played (else no cards)
    next_seat: tuple[int, ...]  # the seat to the left of each seat
    pass_offsets: tuple[int, ...]  # seat offset of the pass by deal: left +1, right -1, across +2
    everyone: frozenset[int]


class DealRecord(NamedTuple):
    """One line of the score sheet."""

    deal: int
    dealer: int
    points: tuple[int, ...]
    scores: tuple[int, ...]  # running totals after the deal, Going Back applied
    all_black: int  # the seat that took all 16 black cards, or -1
    choice: str | None  # Capture or Release: "give" or "subtract"
    went_back: tuple[int, ...]  # seats whose score was halved (Going Back)


class Deal(NamedTuple):
    """What stays put while the cards of a deal are played."""

    number: int  # from 1
    dealer: int
    scores: tuple[int, ...]  # running totals before this deal is scored
    history: tuple[DealRecord, ...]
    called: int  # Calling Color: the colour called, or -1
    mole: tuple[int, ...]  # The Mole: card ids still in it, sorted
    mole_order: tuple[int, ...]  # The Mole: seats in choosing order
    mole_taken: tuple[tuple[int, ...], ...]  # The Mole: the cards each seat took


Trick = tuple[int, tuple[int, ...], int]  # leader, card ids in play order, winner

# A state is a plain tuple (building one is the hot path's main cost), read with these
# indices. It holds what changes card by card, plus the ``Config`` and the ``Deal``.
State = tuple[
    int,  # PHASE
    int,  # TURN: the seat to act in a turn phase; -1 during the pass and once the game is over
    frozenset[int],  # ACTING: the seats that may act now
    int,  # HANDS: every hand, 60 bits per seat (see cards.py)
    tuple[int, ...],  # TRICK: the card ids of the current trick, in play order
    int,  # ALLOWED: while playing, the cards the seat to play may play (bits 0..54)
    int,  # LEADER: the seat that leads (or led) the current trick
    tuple[Trick, ...],  # TRICKS: the tricks taken so far in this deal
    tuple[tuple[int, ...], ...],  # PASSES: the cards each seat passes this deal
    Config,  # CFG
    Deal,  # DEAL
]
PHASE: Final = 0
TURN: Final = 1
ACTING: Final = 2
HANDS: Final = 3
TRICK: Final = 4
ALLOWED: Final = 5
LEADER: Final = 6
TRICKS: Final = 7
PASSES: Final = 8
CFG: Final = 9
DEAL: Final = 10
FIELDS = ("phase", "turn", "acting", "hands", "trick", "allowed", "leader", "tricks", "passes", "cfg", "deal")
FIELD_INDEX = {name: index for index, name in enumerate(FIELDS)}

PC0, PC1, PC2, PC3, PC4 = PLAY_CHUNKS
SC0, SC1, SC2, SC3, SC4 = PASS_CHUNKS


def evolve(state: State, **changes: Any) -> State:
    """A copy of ``state`` with some fields changed, by name (for the rarer steps)."""
    fields = list(state)
    for name, value in changes.items():
        fields[FIELD_INDEX[name]] = value
    return cast(State, tuple(fields))


def hand_at(hands: int, seat: int) -> int:
    """One seat's hand from the packed hands."""
    return hands >> SHIFT[seat] & HAND_MASK


def _with_hand(hands: int, seat: int, hand: int) -> int:
    shift = SHIFT[seat]
    return hands & ~(HAND_MASK << shift) | hand << shift


def _draw_first_dealer(players: int, seed: int) -> tuple[int, tuple[tuple[tuple[int, int], ...], ...]]:
    """Each contender draws a card; the lone highest rank deals, tied players draw again."""
    contenders = list(range(players))
    rounds: list[tuple[tuple[int, int], ...]] = []
    while True:
        cards = chance(seed, "first-dealer", len(rounds)).sample(DECK, len(contenders))
        drawn = tuple((seat, DECK_ID[card]) for seat, card in zip(contenders, cards, strict=True))
        rounds.append(drawn)
        top = max(RANK_OF[cid] for _, cid in drawn)
        contenders = [seat for seat, cid in drawn if RANK_OF[cid] == top]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


def _shuffled_deck(seed: int, deal: int) -> list[int]:
    """The deck of deal ``deal``: sorted by a random key per card, a uniform shuffle."""
    draw = chance(seed, "deal", deal).random
    return sorted(DECK, key=lambda _: draw())


def _begin_deal(
    cfg: Config, number: int, dealer: int, scores: tuple[int, ...], history: tuple[DealRecord, ...]
) -> State:
    n = cfg.players
    deck = _shuffled_deck(cfg.seed, number)
    mole: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    if cfg.the_mole and number >= 2:
        # The dealer sets aside three cards per player before dealing.
        aside = MOLE_CARDS * n
        mole = tuple(sorted(DECK_ID[card] for card in deck[:aside]))
        deck = deck[aside:]
        young = {seat: i for i, seat in enumerate(cfg.youngest_first)}
        order = tuple(sorted(range(n), key=lambda seat: (-scores[seat], young[seat])))
    # One card at a time to each player, starting with the dealer's left.
    hands = 0
    for offset in range(n):
        hands |= hand_of(deck[offset::n]) << SHIFT[(dealer + 1 + offset) % n]
    deal = Deal(number, dealer, scores, history, -1, mole, order, ((),) * n)
    if mole:
        return (MOLE, order[0], SINGLE[order[0]], hands, (), 0, -1, (), ((),) * n, cfg, deal)
    return (PASS, -1, cfg.everyone, hands, (), 0, -1, (), ((),) * n, cfg, deal)


def _after_pass(state: State) -> State:
    """Every seat has passed: hand the cards over, then the call or the first lead."""
    cfg = state[CFG]
    n = cfg.players
    offset = cfg.pass_offsets[(state[DEAL].number - 1) % len(cfg.pass_offsets)]
    hands = state[HANDS]
    for seat, cards in enumerate(state[PASSES]):
        shift = SHIFT[(seat + offset) % n]
        hand = hands >> shift & HAND_MASK
        hands ^= hand << shift
        hands |= _add_cards(hand, cards) << shift
    if cfg.calling_color:
        dealer = state[DEAL].dealer
        return evolve(state, hands=hands, phase=CALL, turn=dealer, acting=SINGLE[dealer])
    leader = next(seat for seat in range(n) if hands >> SHIFT[seat] & BIT[RED_1])
    allowed = hands >> SHIFT[leader] & NON_BLACK
    return (PLAY, leader, SINGLE[leader], hands, (), allowed, leader, (), state[PASSES], cfg, state[DEAL])


def _first_lead(state: State, leader: int, lead_mask: int) -> State:
    allowed = hand_at(state[HANDS], leader) & lead_mask
    return evolve(state, phase=PLAY, turn=leader, acting=SINGLE[leader], leader=leader, allowed=allowed)


def _end_deal(state: State) -> State:
    """The last trick is taken: score the deal (or ask the taker of all black cards)."""
    cfg = state[CFG]
    n = cfg.players
    values = cfg.values
    won: list[list[int]] = [[] for _ in range(n)]
    for _, cards, winner in state[TRICKS]:
        won[winner] += cards
    points = [sum(map(values.__getitem__, cards)) for cards in won]
    blacks = [sum(map(IS_BLACK.__getitem__, cards)) for cards in won]
    if BLACK_CARDS in blacks:
        taker = blacks.index(BLACK_CARDS)
        if cfg.capture_or_release:
            return evolve(state, phase=ALL_BLACK, turn=taker, acting=SINGLE[taker], allowed=0)
        return _score_deal(state, scoring.all_black_points(n, taker), taker, None)
    return _score_deal(state, tuple(points), -1, None)


def _score_deal(state: State, points: tuple[int, ...], taker: int, choice: str | None) -> State:
    cfg = state[CFG]
    deal = state[DEAL]
    scores, went_back = scoring.add_deal(deal.scores, points, cfg.end_value, cfg.going_back)
    history = (*deal.history, DealRecord(deal.number, deal.dealer, points, scores, taker, choice, went_back))
    if scoring.game_over(scores, cfg.end_value, cfg.going_back):
        return evolve(
            state,
            phase=OVER,
            turn=-1,
            acting=NOBODY,
            allowed=0,
            deal=deal._replace(scores=scores, history=history),
        )
    return _begin_deal(cfg, deal.number + 1, cfg.next_seat[deal.dealer], scores, history)


def _card_of(action: Action, kind: str) -> int:
    """The card id of a one-card action of ``kind``, or IllegalAction with the reason."""
    if not isinstance(action, dict):
        raise IllegalAction(f"An action must be a JSON object, not {action!r}.")
    if action.get("type") != kind:
        raise IllegalAction(f"Expected a {kind!r} action now, not {action.get('type')!r}.")
    code = action.get("card")
    if not isinstance(code, str) or code not in CARD_ID:
        raise IllegalAction(f"{code!r} is not a Black Spy card (blue-1 .. black-11).")
    if set(action) != {"type", "card"}:
        raise IllegalAction(f"A {kind!r} action has exactly the keys 'type' and 'card'.")
    return CARD_ID[code]


class BlackSpyEngine:
    """Black Spy for 3 to 6 players with every variant of the rule book."""

    slug = "black-spy"
    title = "Black Spy"
    seats = range(3, 7)
    options: Mapping[str, Any] = OPTIONS  # the option schema (games.core.Option by name)

    # -- the protocol ------------------------------------------------------------------------

    def start(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> State:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in self.seats:
            raise InvalidOptions(f"Black Spy is for 3 to 6 players, not {seats!r}.")
        opts = validate_options(options, OPTIONS)
        youngest = opts["youngest_first"]
        if youngest is None:
            youngest = list(range(seats))
        if sorted(youngest) != list(range(seats)):
            raise InvalidOptions(
                f"Option 'youngest_first' must list every seat 0..{seats - 1} once, youngest first, "
                f"not {youngest!r}."
            )
        opts["youngest_first"] = list(youngest)
        first_dealer, draws = _draw_first_dealer(seats, seed)
        cfg = Config(
            players=seats,
            seed=seed,
            options=tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(opts.items())),
            no_good_spies=opts["no_good_spies"],
            capture_or_release=opts["capture_or_release"],
            the_mole=opts["the_mole"],
            calling_color=opts["calling_color"],
            following_rank=opts["following_rank"],
            going_back=opts["going_back"],
            end_value=scoring.end_value_for(seats, opts["end_value"]),
            youngest_first=tuple(youngest),
            first_dealer=first_dealer,
            draws=draws,
            values=VALUE_NO_GOOD_SPIES if opts["no_good_spies"] else VALUE,
            same_rank=SAME_RANK if opts["following_rank"] else NO_RANK_FOLLOW,
            next_seat=tuple((seat + 1) % seats for seat in range(seats)),
            pass_offsets=(1, -1, 2) if seats == 4 else (1, -1),
            everyone=frozenset(range(seats)),
        )
        return _begin_deal(cfg, 1, first_dealer, (0,) * seats, ())

    def to_act(self, state: State) -> frozenset[int]:
        acting: frozenset[int] = state[ACTING]
        return acting

    def legal(self, state: State, seat: int) -> list[Action]:
        if seat == state[TURN] and state[PHASE] == PLAY:
            m = state[ALLOWED]
            return [
                *PC0[m & 2047],
                *PC1[m >> 11 & 2047],
                *PC2[m >> 22 & 2047],
                *PC3[m >> 33 & 2047],
                *PC4[m >> 44 & 2047],
            ]
        if state[PHASE] == PASS:
            if seat not in state[ACTING]:
                return []
            m = hand_at(state[HANDS], seat)
            return [
                *SC0[m & 2047],
                *SC1[m >> 11 & 2047],
                *SC2[m >> 22 & 2047],
                *SC3[m >> 33 & 2047],
                *SC4[m >> 44 & 2047],
            ]
        if seat != state[TURN]:
            return []
        if state[PHASE] == CALL:
            return list(CALL_ACTIONS)
        if state[PHASE] == ALL_BLACK:
            return list(ALL_BLACK_ACTIONS)
        # The Mole: every choice of three cards, each listed once, in deck order.
        return [
            {"type": "mole", "cards": [CODES[cid] for cid in combo]}
            for combo in sorted(set(combinations(state[DEAL].mole, MOLE_CARDS)))
        ]

    def apply(self, state: State, seat: int, action: Action) -> State:
        if seat == state[TURN] and state[PHASE] == PLAY:
            # The hot path: a card played.
            try:
                cid = CARD_ID[action["card"]]
                well_formed = action["type"] == "play" and len(action) == 2
            except (KeyError, TypeError):
                well_formed = False
            if not well_formed:
                cid = _card_of(action, "play")  # raises with the reason
            if not BIT[cid] & state[ALLOWED]:
                raise IllegalAction(self._play_problem(state, seat, cid))
            hands = state[HANDS]
            if cid == BLACK_SPY:
                hands ^= SPY_TOP[(hands >> SHIFT[seat] & SPY_BITS).bit_count()] << SHIFT[seat]
            else:
                hands ^= BIT[cid] << SHIFT[seat]
            cfg = state[CFG]
            trick = state[TRICK] + (cid,)
            nxt = cfg.next_seat[seat]
            leader = state[LEADER]
            if nxt != leader:
                hand = hands >> SHIFT[nxt] & LOW55
                follow = FOLLOW[trick[0]] | cfg.same_rank[cid]
                allowed = hand & follow or hand
                return (
                    PLAY,
                    nxt,
                    SINGLE[nxt],
                    hands,
                    trick,
                    allowed,
                    leader,
                    state[TRICKS],
                    state[PASSES],
                    cfg,
                    state[DEAL],
                )
            # The trick is complete: the highest card of the colour led takes it; ``index``
            # finds the first of equal cards, so the first Black Spy played wins among equals.
            ranks = tuple(map(STRENGTH[COLOUR_OF[trick[0]]].__getitem__, trick))
            winner = (leader + ranks.index(max(ranks))) % cfg.players
            tricks = state[TRICKS] + ((leader, trick, winner),)
            hand = hands >> SHIFT[winner] & LOW55
            done: State = (
                PLAY,
                winner,
                SINGLE[winner],
                hands,
                (),
                hand,
                winner,
                tricks,
                state[PASSES],
                cfg,
                state[DEAL],
            )
            return done if hand else _end_deal(done)
        phase = state[PHASE]
        if phase == PASS:
            return self._pass(state, seat, action)
        if isinstance(seat, bool) or not isinstance(seat, int) or seat != state[TURN]:
            raise IllegalAction(self._not_your_turn(state, seat))
        if phase == MOLE:
            return self._mole(state, seat, action)
        if phase == CALL:
            return self._call(state, seat, action)
        if phase == ALL_BLACK:
            return self._all_black(state, seat, action)
        raise IllegalAction(self._not_your_turn(state, seat))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        cfg = state[CFG]
        deal = state[DEAL]
        n = cfg.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"No seat {seat!r} at a {n}-player table.")
        offset = cfg.pass_offsets[(deal.number - 1) % len(cfg.pass_offsets)]
        passed = state[PHASE] not in (PASS, MOLE)
        leader = state[LEADER]
        tricks_won = [0] * n
        for _, _, winner in state[TRICKS]:
            tricks_won[winner] += 1
        view: dict[str, Any] = {
            "game": "black-spy",
            "players": n,
            "seat": seat,
            "phase": PHASES[state[PHASE]],
            "deal": deal.number,
            "dealer": deal.dealer,
            "first_dealer": cfg.first_dealer,
            "first_dealer_draws": [
                [{"seat": s, "card": CODES[cid]} for s, cid in drawn] for drawn in cfg.draws
            ],
            "end_value": cfg.end_value,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in cfg.options},
            "scores": list(deal.scores),
            "history": [
                {
                    "deal": rec.deal,
                    "dealer": rec.dealer,
                    "points": list(rec.points),
                    "scores": list(rec.scores),
                    "all_black": None if rec.all_black < 0 else rec.all_black,
                    "choice": rec.choice,
                    "went_back": list(rec.went_back),
                }
                for rec in deal.history
            ],
            "to_act": sorted(state[ACTING]),
            "turn": None if state[TURN] < 0 else state[TURN],
            "pass_direction": DIRECTIONS[offset],
            "pass_to": None if seat is None else (seat + offset) % n,
            "hand": [] if seat is None else codes_of(hand_at(state[HANDS], seat)),
            "hand_counts": [hand_at(state[HANDS], s).bit_count() for s in range(n)],
            "passed_seats": [s for s in range(n) if len(state[PASSES][s]) == PASS_CARDS],
            "passing": [] if seat is None else [CODES[cid] for cid in state[PASSES][seat]],
            "received": (
                [CODES[cid] for cid in state[PASSES][(seat - offset) % n]]
                if seat is not None and passed
                else []
            ),
            "called_color": None if deal.called < 0 else COLOURS[deal.called],
            "trick": [{"seat": (leader + i) % n, "card": CODES[cid]} for i, cid in enumerate(state[TRICK])],
            "trick_leader": None if leader < 0 else leader,
            "tricks_taken": tricks_won,
            "last_trick": None,
            "mole": None,
            "all_black": {"taker": state[TURN]} if state[PHASE] == ALL_BLACK else None,
        }
        if state[TRICKS]:
            lead, cards, winner = state[TRICKS][-1]
            view["last_trick"] = {
                "cards": [{"seat": (lead + i) % n, "card": CODES[cid]} for i, cid in enumerate(cards)],
                "winner": winner,
            }
        if deal.mole_order:
            chooser = state[TURN] if state[PHASE] == MOLE else None
            view["mole"] = {
                "order": list(deal.mole_order),
                "chooser": chooser,
                "cards_left": len(deal.mole),
                "cards": [CODES[cid] for cid in deal.mole] if seat is not None and seat == chooser else None,
                "taken": None if seat is None else [CODES[cid] for cid in deal.mole_taken[seat]],
            }
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state[PHASE] != OVER:
            return None
        deal = state[DEAL]
        return Outcome(
            scores=deal.scores,
            places=scoring.places(deal.scores),
            detail={
                "deals": deal.number,
                "end_value": state[CFG].end_value,
                "deal_points": [list(rec.points) for rec in deal.history],
            },
        )

    # -- the other phases -----------------------------------------------------------------------

    def _pass(self, state: State, seat: int, action: Action) -> State:
        try:
            may_pass = seat in state[ACTING]
        except TypeError:  # an unhashable seat
            may_pass = False
        if not may_pass:
            if isinstance(seat, int) and 0 <= seat < state[CFG].players:
                raise IllegalAction("You have already passed your three cards; wait for the others.")
            raise IllegalAction(f"There is no seat {seat!r} at this table.")
        try:
            cid = CARD_ID[action["card"]]
            well_formed = action["type"] == "pass" and len(action) == 2
        except (KeyError, TypeError):
            well_formed = False
        if not well_formed:
            cid = _card_of(action, "pass")  # raises with the reason
        shift = SHIFT[seat]
        hands = state[HANDS]
        if not hands >> shift & BIT[cid]:
            raise IllegalAction(f"You do not hold the {describe(cid)}.")
        if cid == BLACK_SPY:
            hands ^= SPY_TOP[(hands >> shift & SPY_BITS).bit_count()] << shift
        else:
            hands ^= BIT[cid] << shift
        passes = list(state[PASSES])
        passes[seat] += (cid,)
        acting = state[ACTING]
        if len(passes[seat]) == PASS_CARDS:
            acting = acting - SINGLE[seat]
        new: State = (PASS, -1, acting, hands, (), 0, -1, (), tuple(passes), state[CFG], state[DEAL])
        return new if acting else _after_pass(new)

    def _mole(self, state: State, seat: int, action: Action) -> State:
        if not isinstance(action, dict) or action.get("type") != "mole":
            raise IllegalAction("Choose three cards from The Mole: {'type': 'mole', 'cards': [c1, c2, c3]}.")
        cards = action.get("cards")
        if set(action) != {"type", "cards"} or not isinstance(cards, list) or len(cards) != MOLE_CARDS:
            raise IllegalAction("A 'mole' action has the keys 'type' and 'cards', a list of three cards.")
        if not all(isinstance(code, str) and code in CARD_ID for code in cards):
            raise IllegalAction(f"{cards!r} are not all Black Spy cards (blue-1 .. black-11).")
        combo = tuple(CARD_ID[code] for code in cards)
        deal = state[DEAL]
        if Counter(combo) - Counter(deal.mole):
            raise IllegalAction(f"The Mole does not hold all of {', '.join(cards)}.")
        if list(combo) != sorted(combo):
            raise IllegalAction(
                "List the three Mole cards in deck order (blue, yellow, red, green, black; by rank)."
            )
        left = list(deal.mole)
        for cid in combo:
            left.remove(cid)
        hands = _with_hand(state[HANDS], seat, _add_cards(hand_at(state[HANDS], seat), combo))
        taken = list(deal.mole_taken)
        taken[seat] = combo
        order = deal.mole_order
        nxt = order[order.index(seat) + 1]
        if nxt != order[-1]:
            return evolve(
                state,
                hands=hands,
                turn=nxt,
                acting=SINGLE[nxt],
                deal=deal._replace(mole=tuple(left), mole_taken=tuple(taken)),
            )
        # The lowest score takes the last three cards; then everyone passes.
        taken[nxt] = tuple(left)
        hands = _with_hand(hands, nxt, _add_cards(hand_at(hands, nxt), left))
        return evolve(
            state,
            phase=PASS,
            hands=hands,
            turn=-1,
            acting=state[CFG].everyone,
            deal=deal._replace(mole=(), mole_taken=tuple(taken)),
        )

    def _call(self, state: State, seat: int, action: Action) -> State:
        if not isinstance(action, dict) or action.get("type") != "call" or set(action) != {"type", "color"}:
            raise IllegalAction("As dealer, call a colour: {'type': 'call', 'color': 'blue'}.")
        colour = COLOUR_ID.get(action["color"]) if isinstance(action["color"], str) else None
        if colour is None or colour == BLACK:
            raise IllegalAction(f"Call blue, yellow, red or green, not {action['color']!r}.")
        n = state[CFG].players
        mask = COLOUR_MASK[colour]
        # The dealer's left leads the colour called; if they cannot, the lead passes left.
        seats = ((state[DEAL].dealer + k) % n for k in range(1, n + 1))
        leader = next(s for s in seats if hand_at(state[HANDS], s) & mask)
        return _first_lead(evolve(state, deal=state[DEAL]._replace(called=colour)), leader, mask)

    def _all_black(self, state: State, seat: int, action: Action) -> State:
        if (
            not isinstance(action, dict)
            or action.get("type") != "all_black"
            or set(action) != {"type", "choice"}
            or action["choice"] not in ("give", "subtract")
        ):
            raise IllegalAction(
                "You took all 16 black cards: choose {'type': 'all_black', 'choice': 'give'} (60 points to "
                "every other player) or 'subtract' (60 points off your own score)."
            )
        choice: str = action["choice"]
        return _score_deal(state, scoring.all_black_points(state[CFG].players, seat, choice), seat, choice)

    # -- reasons --------------------------------------------------------------------------------

    def _not_your_turn(self, state: State, seat: int) -> str:
        if state[PHASE] == OVER:
            return "The game is over."
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state[CFG].players:
            return f"There is no seat {seat!r} at this table."
        what = {MOLE: "choose from The Mole", CALL: "call a colour", PLAY: "play", ALL_BLACK: "choose"}
        return f"It is not your turn: seat {state[TURN]} is to {what[state[PHASE]]}."

    def _play_problem(self, state: State, seat: int, cid: int) -> str:
        hand = hand_at(state[HANDS], seat)
        if not hand & BIT[cid]:
            return f"You do not hold the {describe(cid)}."
        if not state[TRICK]:
            if state[DEAL].called >= 0:
                return f"The first trick must be led in the colour called, {COLOURS[state[DEAL].called]}."
            return "A black card may not be led on the first trick."
        lead = state[TRICK][0]
        extra = (
            f", or rank {RANK_OF[state[TRICK][-1]]} like the card just played"
            if state[CFG].following_rank
            else ""
        )
        return (
            f"You must follow the {describe(lead)}: play {COLOURS[COLOUR_OF[lead]]} or rank {RANK_OF[lead]}"
            f"{extra}. The {describe(cid)} does not follow."
        )


def _add_cards(hand: int, cards: tuple[int, ...] | list[int]) -> int:
    spies = 0
    for cid in cards:
        if cid == BLACK_SPY:
            spies += 1
        else:
            hand |= BIT[cid]
    if spies:
        hand = hand & ~SPY_BITS | SPY_FILL[(hand & SPY_BITS).bit_count() + spies]
    return hand


ENGINE = BlackSpyEngine()
