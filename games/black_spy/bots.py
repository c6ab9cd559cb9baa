"""Bots for Black Spy. They see only ``view(state, seat)`` and ``legal(state, seat)``.

``BOTS["random"]`` plays a uniformly random legal action. ``BOTS["heuristic"]`` plays the
way a careful beginner does: it passes its most dangerous cards (Black Spies, high black
cards, high cards), leads low, ducks under the winning card when it can, sheds its most
dangerous card when it cannot follow (a card that cannot win is a free discard), and when
it must take a trick it takes it with its highest safe card.

``BOTS["intermediate"]`` and ``BOTS["expert"]`` (``ExpertBot``) search: for each legal action
they sample full states the game could be in, consistent with their view (``determinize``:
the other hands and the face-down tricks dealt at random, respecting what the view shows a
seat lacks and where the cards it passed went), play the deal out with the heuristic in every
seat and judge its end by the chance to win the game from the scores (``win_chance``). The
expert samples more; both stop at a time budget (``max_seconds``).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import pairwise
from typing import Any, Final

from games.core import Action, Bot, RandomBot
from games.core.search import GuidedSearchBot

from . import scoring
from .cards import (
    BIT,
    CARD_ID,
    COLOUR_ID,
    COLOUR_MASK,
    DECK_ID,
    FOLLOW,
    LOW55,
    NON_BLACK,
    RED_1,
    add_card,
)
from .engine import (
    ENGINE,
    MOLE,
    MOLE_CARDS,
    PASS,
    PASS_CARDS,
    PHASES,
    PLAY,
    SUBSETS,
    BlackSpyEngine,
    Config,
    Deal,
    DealRecord,
    State,
    pack_taken,
    pack_trick,
)

BLACK_POINTS = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 10, 8: 2, 9: 3, 10: 4, 11: 5}


def parse(code: str) -> tuple[str, int]:
    colour, rank = code.split("-")
    return colour, int(rank)


def points(code: str, no_good_spies: bool) -> int:
    """Deal points of one card taken."""
    colour, rank = parse(code)
    if colour == "black":
        return BLACK_POINTS[rank]
    return -5 if rank == 7 and not no_good_spies else 0


def danger(code: str) -> int:
    """How much a card threatens its holder: Black Spies most, then high black, then high cards."""
    colour, rank = parse(code)
    if colour == "black":
        return 100 if rank == 7 else 40 + 2 * BLACK_POINTS[rank] + rank
    if rank == 7:
        return rank - 6  # a coloured Spy is worth taking: keep it, never feed it to the winner
    return rank


class HeuristicBot:
    name = "heuristic"
    label = "Beginner"

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        kind = legal[0]["type"]
        if kind == "pass":
            return max(legal, key=lambda a: (danger(a["card"]), rng.random()))
        if kind == "mole":
            return min(legal, key=lambda a: (sum(danger(c) for c in a["cards"]), rng.random()))
        if kind == "call":
            return self._call(view, legal)
        if kind == "all_black":
            return self._all_black(view, legal)
        return self._play(view, legal, rng)

    def _call(self, view: dict[str, Any], legal: list[Action]) -> Action:
        # Call a colour I am short in: others must lead it and I may shed on it.
        hand = [parse(code) for code in view["hand"]]

        def weight(action: Action) -> tuple[int, int]:
            ranks = [rank for colour, rank in hand if colour == action["color"]]
            return (len(ranks), max(ranks, default=0))

        return min(legal, key=weight)

    def _all_black(self, view: dict[str, Any], legal: list[Action]) -> Action:
        seat = view["seat"]
        scores = list(view["scores"])
        given = [score + (0 if s == seat else 60) for s, score in enumerate(scores)]
        # Give 60 to everyone else when that ends the game with me alone in the lead.
        if any(score >= view["end_value"] for score in given) and all(
            given[seat] < score for s, score in enumerate(given) if s != seat
        ):
            return next(a for a in legal if a["choice"] == "give")
        return next(a for a in legal if a["choice"] == "subtract")

    def _play(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        trick = view["trick"]
        cards = [a["card"] for a in legal]
        no_good_spies = bool(view["options"].get("no_good_spies"))
        if not trick:
            # Lead low, in colour; black only when there is nothing else.
            coloured = [c for c in cards if parse(c)[0] != "black"]
            pool = coloured or cards
            choice = min(
                pool, key=lambda c: (danger(c) if parse(c)[0] == "black" else parse(c)[1], rng.random())
            )
            return legal[cards.index(choice)]
        led = parse(trick[0]["card"])[0]
        best = max(parse(t["card"])[1] for t in trick if parse(t["card"])[0] == led)
        at_stake = sum(points(t["card"], no_good_spies) for t in trick)
        last = len(trick) == view["players"] - 1

        def wins(code: str) -> bool:
            colour, rank = parse(code)
            return colour == led and rank > best

        losing = [c for c in cards if not wins(c)]
        winning = [c for c in cards if wins(c)]
        if last and winning and at_stake < 0:
            # Take a trick of coloured Spies with my highest safe card.
            safe = [c for c in winning if parse(c)[0] != "black"] or winning
            choice = max(safe, key=lambda c: (parse(c)[1], rng.random()))
        elif losing:
            # Duck: shed the most dangerous card that does not take the trick.
            choice = max(losing, key=lambda c: (danger(c), rng.random()))
        elif last:
            # The trick is mine anyway: take it with my highest card that adds no points.
            choice = max(winning, key=lambda c: (-points(c, no_good_spies), parse(c)[1], rng.random()))
        else:
            # Play low and hope a later player goes over.
            choice = min(winning, key=lambda c: (points(c, no_good_spies), parse(c)[1], rng.random()))
        return legal[cards.index(choice)]


# The expert: search over hidden states ---------------------------------------------------
#
# Card ids (``cards``: colour * 11 + rank - 1, every Black Spy 50) are used below; codes only
# at the edges. A seat sees its hand, the current trick, the last trick taken, the cards it
# passed and received and how many cards each hand holds; the earlier tricks are face down
# (ruling 6), so the cards in them are as unknown as the other hands.

_DEAL_IDS: Final[Counter[int]] = Counter(DECK_ID)
_CONFIGS: dict[tuple[int, tuple[tuple[str, Any], ...]], Config] = {}


def _base_config(view: dict[str, Any], engine: BlackSpyEngine) -> Config:
    """The Config of the view's table size and options (its seed and draws still the start's)."""
    options = view["options"]
    key = (
        view["players"],
        tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items())),
    )
    cfg = _CONFIGS.get(key)
    if cfg is None:
        if len(_CONFIGS) > 64:
            _CONFIGS.clear()
        cfg = _CONFIGS[key] = engine.start(view["players"], 0, options).cfg
    return cfg


def _config(view: dict[str, Any], seed: int, engine: BlackSpyEngine) -> Config:
    draws = tuple(
        tuple((d["seat"], CARD_ID[d["card"]]) for d in drawn) for drawn in view["first_dealer_draws"]
    )
    return _base_config(view, engine).dealt(seed, view["first_dealer"], draws)


def _history(view: dict[str, Any]) -> tuple[DealRecord, ...]:
    return tuple(
        DealRecord(
            rec["deal"],
            rec["dealer"],
            tuple(rec["points"]),
            tuple(rec["scores"]),
            -1 if rec["all_black"] is None else rec["all_black"],
            rec["choice"],
            tuple(rec["went_back"]),
        )
        for rec in view["history"]
    )


def _ids(codes: list[str]) -> list[int]:
    return [CARD_ID[code] for code in codes]


def _mask(ids: list[int]) -> int:
    hand = 0
    for cid in ids:
        hand = add_card(hand, cid)
    return hand


def _voids(view: dict[str, Any], cfg: Config) -> dict[int, int]:
    """The cards each seat cannot hold, from the visible tricks: a seat that did not follow had
    no card of the colour or rank led (nor, with Following Rank, of the rank just played); the
    first trick's leader held the Red 1, or, with Calling Color, the seats before it none of
    the colour called. Hands only shrink, so what a seat lacked then it lacks now."""
    n = view["players"]
    voids: dict[int, int] = {}
    tricks = []
    if view["last_trick"] is not None:
        tricks.append(view["last_trick"]["cards"])
    if view["trick"]:
        tricks.append(view["trick"])
    for trick in tricks:
        lead = CARD_ID[trick[0]["card"]]
        for before, played in pairwise(trick):
            follow = FOLLOW[lead] | cfg.same_rank[CARD_ID[before["card"]]]
            if not BIT[CARD_ID[played["card"]]] & follow:
                voids[played["seat"]] = voids.get(played["seat"], 0) | follow
    first = _first_leader(view)
    called = view["called_color"]
    if first is not None and called is not None:
        dealer = view["dealer"]
        seat = (dealer + 1) % n
        while seat != first:
            voids[seat] = voids.get(seat, 0) | COLOUR_MASK[COLOUR_ID[called]]
            seat = (seat + 1) % n
    return voids


def _seen_played(view: dict[str, Any]) -> dict[int, list[int]]:
    """The cards each seat played to the visible tricks (the current and the last one)."""
    out: dict[int, list[int]] = {}
    cards = list(view["trick"])
    if view["last_trick"] is not None:
        cards += view["last_trick"]["cards"]
    for played in cards:
        out.setdefault(played["seat"], []).append(CARD_ID[played["card"]])
    return out


def _first_leader(view: dict[str, Any]) -> int | None:
    """The seat that led the deal's first trick, when that trick is still in sight."""
    taken = sum(view["tricks_taken"])
    if view["phase"] != "play" or taken > 1:
        return None
    if taken == 1:
        return int(view["last_trick"]["cards"][0]["seat"])
    return int(view["trick_leader"] if view["trick"] else view["turn"])


class _Sampler:
    """Cards dealt at random into boxes of given sizes, each card only into the boxes it may
    be in (the most constrained cards first, each into a box with room, chosen in proportion
    to its room: a uniform deal when nothing constrains it)."""

    def __init__(self, sizes: list[int]) -> None:
        self.sizes = sizes
        self.cards: list[tuple[int, list[int]]] = []

    def add(self, cid: int, boxes: list[int]) -> None:
        self.cards.append((cid, boxes))

    def deal(self, rng: random.Random, tries: int = 8) -> list[list[int]]:
        cards = list(self.cards)
        rng.shuffle(cards)
        cards.sort(key=lambda card: len(card[1]))
        for attempt in range(tries + 1):
            relax = attempt == tries  # the last try: any box with room (the view allows it)
            room = list(self.sizes)
            out: list[list[int]] = [[] for _ in room]
            for cid, boxes in cards:
                choices = [b for b in (range(len(room)) if relax else boxes) if room[b]]
                if not choices:
                    break
                total = sum(room[b] for b in choices)
                pick = rng.randrange(total)
                for box in choices:
                    pick -= room[box]
                    if pick < 0:
                        break
                room[box] -= 1
                out[box].append(cid)
            else:
                return out
        raise AssertionError("cards and boxes do not add up")


def determinize(view: dict[str, Any], rng: random.Random, engine: BlackSpyEngine | None = None) -> State:
    """A full state the game could be in, given ``view``: the other hands, the cards in the
    earlier (face-down) tricks of the deal, the cards in transit during the pass, The Mole
    and the other seats' Mole choices are sampled; future deals get a fresh seed. The cards
    a seat has shown it lacks (not following), the Red 1 of the first leader and the cards
    this seat passed (with the seat it passed them to, in hand or played) are respected.
    ``engine.view(state, view["seat"]) == view``."""
    engine = engine or ENGINE
    n: int = view["players"]
    me: int = view["seat"]
    phase = PHASES.index(view["phase"])
    cfg = _config(view, rng.getrandbits(63), engine)
    per_seat = 60 // n
    offset = cfg.pass_offsets[(view["deal"] - 1) % len(cfg.pass_offsets)]
    counts: list[int] = view["hand_counts"]
    mine = _ids(view["hand"])
    passing = _ids(view["passing"])
    received = _ids(view["received"])
    trick = _ids([t["card"] for t in view["trick"]])
    last = view["last_trick"]
    last_cards = _ids([t["card"] for t in last["cards"]]) if last is not None else []
    mole = view["mole"]
    mole_cards = _ids(mole["cards"]) if mole is not None and mole["cards"] is not None else None
    unknown = _DEAL_IDS.copy()
    unknown.subtract(mine + trick + last_cards)
    others = [s for s in range(n) if s != me]
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[me] = mine
    passes: list[tuple[int, ...]] = [() for _ in range(n)]
    played: list[list[int]] = [[] for _ in range(n)]  # by seat: its cards in the earlier tricks
    mole_left: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    if phase in (PASS, MOLE):
        # Before the cards change hands: the other hands, the cards they have set aside to
        # pass and (while it is drafted) The Mole.
        if phase == PASS:
            unknown.subtract(passing)
        if mole_cards is not None:
            unknown.subtract(mole_cards)
            mole_left = tuple(mole_cards)
        sizes = [counts[s] for s in others]
        if phase == PASS:
            sizes += [per_seat - counts[s] for s in others]
        elif mole_cards is None and mole is not None:
            sizes.append(mole["cards_left"])
        sampler = _Sampler(sizes)
        for cid in unknown.elements():
            sampler.add(cid, list(range(len(sizes))))
        boxes = sampler.deal(rng)
        for i, s in enumerate(others):
            hands[s] = boxes[i]
            if phase == PASS:
                passes[s] = tuple(boxes[len(others) + i])
        if phase == PASS:
            passes[me] = tuple(passing)
        elif mole_cards is None and mole is not None:
            mole_left = tuple(sorted(boxes[-1]))
    else:
        # The cards have changed hands: the other hands and the cards played in the earlier
        # tricks, one pile per seat (each seat played one card to each trick).
        taken = sum(view["tricks_taken"])
        early = max(0, taken - 1)
        voids = _voids(view, cfg)
        target = (me + offset) % n
        box_of_hand = {s: i for i, s in enumerate(others)}
        pile = {s: len(others) + s for s in range(n)}
        sampler = _Sampler([counts[s] for s in others] + [early] * n)
        first = _first_leader(view)
        red_1_holder = first if first is not None and view["called_color"] is None else None
        seen_from = _seen_played(view)
        passed_left = Counter(passing)
        passed_left.subtract(seen_from.get(target, []))
        received_left = Counter(received)
        received_left.subtract(mine + seen_from.get(me, []))
        for cid in unknown.elements():
            if passed_left[cid] > 0:
                passed_left[cid] -= 1
                seats = [target]
                piles = [pile[target]]
            elif received_left[cid] > 0:
                received_left[cid] -= 1
                seats = []
                piles = [pile[me]]
            else:
                seats = others
                piles = list(pile.values())
            if cid == RED_1 and red_1_holder is not None and red_1_holder != me:
                seats, piles = [red_1_holder], []
            boxes_for = [box_of_hand[s] for s in seats if not voids.get(s, 0) & BIT[cid]] + piles
            sampler.add(cid, boxes_for)
        boxes = sampler.deal(rng)
        for s in others:
            hands[s] = boxes[box_of_hand[s]]
        played = [boxes[pile[s]] for s in range(n)]
        for s in range(n):
            rng.shuffle(played[s])
        tricks = _earlier_tricks(view, played, early, rng)
        if last is not None:
            lead_seat = last["cards"][0]["seat"]
            tricks = (*tricks, pack_taken((lead_seat, tuple(last_cards), last["winner"])))
        # The passes: this seat's, the one it received, and the others' from their takers' cards.
        passes[me] = tuple(passing)
        passes[(me - offset) % n] = tuple(received)
        for s in others:
            if s != (me - offset) % n and s in view["passed_seats"]:
                to = (s + offset) % n
                holding = hands[to] + played[to]
                if len(holding) < PASS_CARDS:  # (a hand too small to hold them: any cards)
                    holding = [*holding, *seen_from.get(to, []), *DECK_ID][:PASS_CARDS]
                passes[s] = tuple(rng.sample(holding, PASS_CARDS))
    holdings = [hands[s] + list(passes[s]) + played[s] for s in range(n)]
    masks = [_mask(hands[s]) for s in range(n)] + [0] * (6 - n)
    # The Mole's choices: this seat's as it saw them, the others' from their holdings.
    mole_taken: list[tuple[int, ...]] = [() for _ in range(n)]
    order: tuple[int, ...] = ()
    if mole is not None:
        order = tuple(mole["order"])
        mole_taken[me] = tuple(_ids(mole["taken"]))
        done = order[: order.index(view["turn"])] if phase == MOLE else order
        for s in done:
            if s != me:
                holding = holdings[s]
                if len(holding) < MOLE_CARDS:  # (a hand too small to hold them: any cards)
                    holding = [*holding, *DECK_ID][:MOLE_CARDS]
                mole_taken[s] = tuple(sorted(rng.sample(holding, MOLE_CARDS)))
    called = view["called_color"]
    deal = Deal(
        view["deal"],
        view["dealer"],
        tuple(view["scores"]),
        _history(view),
        -1 if called is None else COLOUR_ID[called],
        mole_left,
        order,
        tuple(mole_taken),
    )
    turn = -1 if view["turn"] is None else view["turn"]
    leader = -1 if view["trick_leader"] is None else view["trick_leader"]
    allowed = 0
    if phase == PLAY:
        hand = masks[turn] & LOW55
        if trick:
            follow = FOLLOW[trick[0]] | cfg.same_rank[trick[-1]]
            allowed = hand & follow or hand
        elif tricks:
            allowed = hand
        else:
            allowed = hand & (COLOUR_MASK[deal.called] if deal.called >= 0 else NON_BLACK)
    acting = SUBSETS[sum(1 << s for s in view["to_act"])]
    return State(
        phase,
        turn,
        acting,
        masks[0],
        masks[1],
        masks[2],
        masks[3],
        masks[4],
        masks[5],
        pack_trick(trick),
        allowed,
        leader,
        tricks,
        tuple(passes),
        cfg,
        deal,
    )


def _earlier_tricks(
    view: dict[str, Any], played: list[list[int]], early: int, rng: random.Random
) -> tuple[int, ...]:
    """The face-down tricks before the last one, from the cards each seat played in them: each
    led by the previous one's taker, taken as often by each seat as the view counts (the last
    of them by the last trick's leader)."""
    if not early:
        return ()
    n = view["players"]
    last = view["last_trick"]
    wins = list(view["tricks_taken"])
    wins[last["winner"]] -= 1
    lead_last = last["cards"][0]["seat"]
    wins[lead_last] -= 1
    winners = [s for s in range(n) for _ in range(wins[s])]
    rng.shuffle(winners)
    winners.append(lead_last)
    leader = rng.randrange(n)
    out = []
    for k in range(early):
        cards = tuple(played[(leader + i) % n][k] for i in range(n))
        winner = winners[k]
        out.append(pack_taken((leader, cards, winner)))
        leader = winner
    return tuple(out)


# Judging a deal's end: the chance to win the game from the scores ------------------------

#: A seat's points in one deal between heuristic players: their spread by table size.
DEAL_SPREAD: Final = {3: 21.0, 4: 19.5, 5: 17.7, 6: 15.8}
#: Gauss-Hermite nodes and weights for a standard normal (five points).
_NODES: Final = (
    (0.0, 0.5333333333333333),
    (1.3556261799742657, 0.2220759220056126),
    (-1.3556261799742657, 0.2220759220056126),
    (2.8569700138728056, 0.011257411327720691),
    (-2.8569700138728056, 0.011257411327720691),
)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def win_chance(scores: tuple[int, ...] | list[int], seat: int, end_value: int, per_deal: float) -> float:
    """The chance that ``seat`` ends the game with the lowest score, from the scores between
    deals: every seat's future points as independent normal draws, over the deals expected
    until the highest score reaches the end value."""
    n = len(scores)
    spread = DEAL_SPREAD.get(n, 18.0)
    left = max(0.35, (end_value - max(scores)) / (per_deal + 0.4 * spread))
    scale = spread * math.sqrt(left)
    mine = scores[seat]
    gaps = [(score - mine) / scale for s, score in enumerate(scores) if s != seat]
    chance = 0.0
    for node, weight in _NODES:
        product = weight
        for gap in gaps:
            product *= _phi(gap - node)
        chance += product
    return chance


def first_share(places: tuple[int, ...] | list[int], seat: int) -> float:
    """A finished game's worth to ``seat``: its share of first place (ties split)."""
    if places[seat] != 1:
        return 0.0
    return 1.0 / sum(1 for p in places if p == 1)


def evaluate(engine: BlackSpyEngine, state: State, seat: int) -> float:
    """A state between deals (or at the end) as ``seat``'s chance to win the game."""
    outcome = engine.outcome(state)
    if outcome is not None:
        return first_share(tuple(outcome.places), seat)
    cfg = state.cfg
    per_deal = scoring.deal_total(cfg.no_good_spies) / cfg.players
    return win_chance(state.deal.scores, seat, cfg.end_value, per_deal)


def rollout(engine: BlackSpyEngine, state: State, seat: int, policy: Bot, rng: random.Random) -> float:
    """Play the deal out with ``policy`` in every seat; the chance to win from its scores."""
    number = state.deal.number
    while state.acting and state.deal.number == number:
        s = min(state.acting)
        state = engine.apply(state, s, policy.choose(engine.view(state, s), engine.legal(state, s), rng))
    return evaluate(engine, state, seat)


#: The Mole's choices the expert searches: the heuristic's best few (there may be hundreds).
MOLE_CHOICES: Final = 8


class ExpertBot(GuidedSearchBot):
    """The heuristic's choice, unless a search over hidden hands finds a better one
    (``GuidedSearchBot``); of The Mole's picks, the heuristic's best ``MOLE_CHOICES``."""

    def __init__(self, name: str, label: str, samples: int, max_seconds: float = 0.5) -> None:
        super().__init__(
            ENGINE,
            determinize,
            name=name,
            label=label,
            policy=HeuristicBot(),
            samples=samples,
            max_seconds=max_seconds,
            rollout=rollout,
        )

    def options(self, view: dict[str, Any], legal: list[Action], guess: Action) -> list[Action]:
        others = [a for a in legal if a != guess]
        if guess["type"] == "mole":
            others.sort(key=lambda a: sum(danger(c) for c in a["cards"]))
            others = others[: MOLE_CHOICES - 1]
        return others


BOTS: Final[dict[str, Bot]] = {
    "random": RandomBot(),
    "heuristic": HeuristicBot(),
    "intermediate": ExpertBot("intermediate", "Intermediate", 8),
    "expert": ExpertBot("expert", "Expert", 40),
}
