"""The Black Spy rules engine (the rulings are in the package docstring).

One idea in one file: a deal's rules as one state machine over the bit masks below, so that
the representation and every rule that reads it stay side by side (the cards are ``cards``', the
scoring ``scoring``'s, the variants' scorepad ``scorepad``'s).

Built for speed, since bots and benchmarks play thousands of deals:

- cards are small ints and a hand is a 60-bit mask (see ``cards``), small enough for a
  machine word when compiled; a state keeps one hand per seat (``h0`` .. ``h5``);
- a ``State`` holds what changes card by card (whose turn, the hands, the trick, the
  cards the player to act may play, the log of tricks, the pass), the game's ``Config``
  and one ``Deal`` record for what stays put while the cards are played (deal number,
  dealer, scores, history, called colour, The Mole); it reads by attribute, and by
  index like the tuple it once was (``state[HANDS]``);
- the current trick is one int (``trick``: card id + 1 in six bits per card, in play
  order) and each taken trick too (with its leader and winner above the cards), so that
  a card played allocates nothing but the new state;
- a card played builds one new state; ``apply`` never changes the state it is given;
- ``legal`` reads the playable cards precomputed in the state and lists them from
  tables of shared, read-only action dicts;
- card codes appear only at the protocol's edge (actions and views).

The module is compiled by mypyc when ``scripts/build-engines`` has run (see the package
docstring), and must behave the same compiled and as plain Python. For the compiler:
module constants are ``Final`` (compiled code reads them directly instead of looking
them up), ``State`` and ``Config`` become native classes whose fields are read without
a lookup (and a hand, under 2**62, without a Python int), the hot paths are plain
loops over ints and tuples, ``apply`` knows the shared actions of ``legal`` by identity,
and the public methods take ``Any`` where a caller may pass something malformed, so that
a bad seat or action is refused with the same ``IllegalAction`` (not a compiled
``TypeError``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar, final

from games.core import IllegalAction, InvalidOptions, Option, Outcome, validate_options

from . import scoring
from .actions import FrozenAction
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
    DEAL_EVENT,
    DECK_ID,
    DRAW_EVENT,
    FOLLOW,
    IS_BLACK,
    LOW55,
    N_IDS,
    NON_BLACK,
    PASS_ACTION,
    PASS_CHUNKS,
    PLAY_ACTION,
    PLAY_CHUNKS,
    RANK_OF,
    RED_1,
    SAME_RANK,
    SPY_BITS,
    SPY_FILL,
    VALUE,
    VALUE_NO_GOOD_SPIES,
    codes_of,
    remove_card,
    settle_spies,
    shuffled,
    spy_count,
)

if TYPE_CHECKING:
    from mypy_extensions import i64  # a machine integer when compiled (mypyc), else an int

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # (plain Python without mypy installed: only mypyc reads the attributes)

    def mypyc_attr(*args: object, **attrs: object) -> Callable[[_C], _C]:  # type: ignore[misc]
        return lambda cls: cls


Action = dict[str, Any]
_C = TypeVar("_C")

PASS: Final = 0
MOLE: Final = 1
CALL: Final = 2
PLAY: Final = 3
ALL_BLACK: Final = 4
OVER: Final = 5
PHASES: Final = ("pass", "mole", "call", "play", "all_black", "over")
PASS_CARDS: Final = 3
MOLE_CARDS: Final = 3
RANK_NAMES: Final = (
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
CALL_ACTIONS: Final[tuple[FrozenAction, ...]] = tuple(
    FrozenAction(type="call", color=c) for c in COLOURS[:BLACK]
)
ALL_BLACK_ACTIONS: Final[tuple[FrozenAction, ...]] = (
    FrozenAction(type="all_black", choice="give"),
    FrozenAction(type="all_black", choice="subtract"),
)
# Every set of seats that may act, one shared frozenset per subset (by bitmask), so that a
# seat leaving the pass is a lookup, not a new set.
SUBSETS: Final[tuple[frozenset[int], ...]] = tuple(
    frozenset(seat for seat in range(6) if mask >> seat & 1) for mask in range(64)
)
SINGLE: Final[tuple[frozenset[int], ...]] = tuple(SUBSETS[1 << seat] for seat in range(6))
# WITHOUT[seat][seats]: the shared set ``seats`` without ``seat``.
WITHOUT: Final[tuple[dict[frozenset[int], frozenset[int]], ...]] = tuple(
    {SUBSETS[mask]: SUBSETS[mask & ~(1 << seat)] for mask in range(64)} for seat in range(6)
)
NOBODY: Final[frozenset[int]] = frozenset()
NO_RANK_FOLLOW: Final[tuple[int, ...]] = (0,) * len(SAME_RANK)
# STRENGTH[colour led][card]: the card's rank if it can win the trick, else 0.
STRENGTH: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(RANK_OF[cid] if COLOUR_OF[cid] == led else 0 for cid in range(len(CODES))) for led in range(5)
)
DIRECTIONS: Final = {1: "left", -1: "right", 2: "across"}


def _check_end_value(value: int) -> str | None:
    return None if value > 0 else "must be a positive whole number of points"


def _check_youngest(value: list[Any]) -> str | None:
    if not all(isinstance(seat, int) and not isinstance(seat, bool) for seat in value):
        return "must be a list of seat numbers, youngest player first"
    return None


OPTIONS: Final[dict[str, Option]] = {
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


class Record:
    """Base of the engine's small records (``Config``, ``Deal``, ``DealRecord``): equal,
    hashed, shown and pickled by their fields (``FIELDS``), the same compiled or not.

    Plain classes with an ``__init__`` of their own, not dataclasses: compiled, a record
    is then built without a call into the dataclass machinery. Their fields are ``Final``
    (set once, checked by mypy).
    """

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()

    def field_values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, Record)
            and self.field_values() == other.field_values()
        )

    def __hash__(self) -> int:
        return hash(self.field_values())

    def __repr__(self) -> str:
        inner = ", ".join(
            f"{name}={value!r}" for name, value in zip(self.FIELDS, self.field_values(), strict=True)
        )
        return f"{type(self).__name__}({inner})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), self.field_values())


@final
class Config(Record):
    """What a game fixes at the start and never changes."""

    __slots__ = (
        "calling_color",
        "capture_or_release",
        "draws",
        "end_value",
        "everyone",
        "first_dealer",
        "following_rank",
        "going_back",
        "next_seat",
        "no_good_spies",
        "options",
        "pass_offsets",
        "players",
        "same_rank",
        "seed",
        "the_mole",
        "values",
        "youngest_first",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "players",
        "seed",
        "options",
        "no_good_spies",
        "capture_or_release",
        "the_mole",
        "calling_color",
        "following_rank",
        "going_back",
        "end_value",
        "youngest_first",
        "first_dealer",
        "draws",
        "values",
        "same_rank",
        "next_seat",
        "pass_offsets",
        "everyone",
    )

    def __init__(
        self,
        players: int,
        seed: int,
        options: tuple[tuple[str, Any], ...],
        no_good_spies: bool,
        capture_or_release: bool,
        the_mole: bool,
        calling_color: bool,
        following_rank: bool,
        going_back: bool,
        end_value: int,
        youngest_first: tuple[int, ...],
        first_dealer: int,
        draws: tuple[tuple[tuple[int, int], ...], ...],
        values: tuple[int, ...],
        same_rank: tuple[int, ...],
        next_seat: tuple[int, ...],
        pass_offsets: tuple[int, ...],
        everyone: frozenset[int],
    ) -> None:
        self.players: Final = players
        self.seed: Final = seed
        self.options: Final = options
        self.no_good_spies: Final = no_good_spies
        self.capture_or_release: Final = capture_or_release
        self.the_mole: Final = the_mole
        self.calling_color: Final = calling_color
        self.following_rank: Final = following_rank
        self.going_back: Final = going_back
        self.end_value: Final = end_value
        self.youngest_first: Final = youngest_first
        self.first_dealer: Final = first_dealer
        self.draws: Final = draws  # rounds of (seat, card id) drawn for the first deal
        self.values: Final = values  # deal points of each card id
        self.same_rank: Final = (
            same_rank  # Following Rank: cards matching the rank just played (else no cards)
        )
        self.next_seat: Final = next_seat  # the seat to the left of each seat
        self.pass_offsets: Final = (
            pass_offsets  # seat offset of the pass by deal: left +1, right -1, across +2
        )
        self.everyone: Final = everyone

    def dealt(self, seed: int, first_dealer: int, draws: tuple[tuple[tuple[int, int], ...], ...]) -> Config:
        """These settings for the game of ``seed``, whose first dealer ``first_dealer`` was
        drawn as ``draws`` (rounds of (seat, card id))."""
        return Config(
            self.players,
            seed,
            self.options,
            self.no_good_spies,
            self.capture_or_release,
            self.the_mole,
            self.calling_color,
            self.following_rank,
            self.going_back,
            self.end_value,
            self.youngest_first,
            first_dealer,
            draws,
            self.values,
            self.same_rank,
            self.next_seat,
            self.pass_offsets,
            self.everyone,
        )


@final
class DealRecord(Record):
    """One line of the score sheet."""

    __slots__ = (
        "all_black",
        "choice",
        "deal",
        "dealer",
        "points",
        "scores",
        "went_back",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "deal",
        "dealer",
        "points",
        "scores",
        "all_black",
        "choice",
        "went_back",
    )

    def __init__(
        self,
        deal: int,
        dealer: int,
        points: tuple[int, ...],
        scores: tuple[int, ...],
        all_black: int,
        choice: str | None,
        went_back: tuple[int, ...],
    ) -> None:
        self.deal: Final = deal
        self.dealer: Final = dealer
        self.points: Final = points
        self.scores: Final = scores  # running totals after the deal, Going Back applied
        self.all_black: Final = all_black  # the seat that took all 16 black cards, or -1
        self.choice: Final = choice  # Capture or Release: "give" or "subtract"
        self.went_back: Final = went_back  # seats whose score was halved (Going Back)


@final
class Deal(Record):
    """What stays put while the cards of a deal are played."""

    __slots__ = (
        "called",
        "dealer",
        "history",
        "mole",
        "mole_order",
        "mole_taken",
        "number",
        "scores",
    )
    FIELDS: ClassVar[tuple[str, ...]] = (
        "number",
        "dealer",
        "scores",
        "history",
        "called",
        "mole",
        "mole_order",
        "mole_taken",
    )

    def __init__(
        self,
        number: int,
        dealer: int,
        scores: tuple[int, ...],
        history: tuple[DealRecord, ...],
        called: int,
        mole: tuple[int, ...],
        mole_order: tuple[int, ...],
        mole_taken: tuple[tuple[int, ...], ...],
    ) -> None:
        self.number: Final = number  # from 1
        self.dealer: Final = dealer
        self.scores: Final = scores  # running totals before this deal is scored
        self.history: Final = history
        self.called: Final = called  # Calling Color: the colour called, or -1
        self.mole: Final = mole  # The Mole: card ids still in it, sorted
        self.mole_order: Final = mole_order  # The Mole: seats in choosing order
        self.mole_taken: Final = mole_taken  # The Mole: the cards each seat took

    def _replace(self, **changes: Any) -> Deal:
        """A copy with some fields changed (as a named tuple's ``_replace``)."""
        values = dict(zip(self.FIELDS, self.field_values(), strict=True))
        values.update(changes)
        return Deal(**values)


Trick = tuple[int, tuple[int, ...], int]  # leader, card ids in play order, winner

# A trick in play is an int: card id + 1 in six bits per card, the lead in the lowest bits
# (0: no card). A taken trick adds its leader and its winner above the cards.
CARD_BITS: Final = 6
CARDS_MASK: Final = (1 << 36) - 1
LEADER_SHIFT: Final = 36
WINNER_SHIFT: Final = 39


def trick_cards(packed: int) -> tuple[int, ...]:
    """The card ids of a packed trick, in play order."""
    cards: list[int] = []
    packed &= CARDS_MASK
    while packed:
        cards.append((packed & 63) - 1)
        packed >>= CARD_BITS
    return tuple(cards)


def pack_trick(cards: tuple[int, ...] | list[int]) -> int:
    """A trick's card ids (in play order) as one int."""
    if len(cards) > 6:
        raise ValueError(f"A trick has one card per player, at most 6, not {len(cards)}.")
    packed = 0
    for i, cid in enumerate(cards):
        packed |= (cid + 1) << CARD_BITS * i
    return packed


def taken_trick(packed: int) -> Trick:
    """A taken trick (from ``State.tricks``) as (leader, card ids, winner)."""
    return (packed >> LEADER_SHIFT & 7, trick_cards(packed), packed >> WINNER_SHIFT & 7)


def pack_taken(trick: Trick) -> int:
    leader, cards, winner = trick
    return pack_trick(cards) | leader << LEADER_SHIFT | winner << WINNER_SHIFT


# The index of each field of a state, for ``state[INDEX]`` (the fields in ``FIELDS`` order).
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
FIELDS: Final = (
    "phase",
    "turn",
    "acting",
    "hands",
    "trick",
    "allowed",
    "leader",
    "tricks",
    "passes",
    "cfg",
    "deal",
)
FIELD_INDEX: Final = {name: index for index, name in enumerate(FIELDS)}


@final
@mypyc_attr(free_list_len=1)  # compiled: the state just freed is reused, not reallocated
class State:
    """A game state: what changes card by card, plus the game's ``Config`` and the ``Deal``.

    A state never changes once ``start`` or ``apply`` has returned it (the engine sets
    fields only on a state it is still building). Read it by attribute, or by index with
    the constants above (``state[HANDS]`` is the tuple of hands by seat). The hands are
    kept one field per seat (``h0`` .. ``h5``, 0 past the last seat) so that playing a
    card copies no tuple of hands, and the trick and the tricks taken are packed ints
    (``trick_cards``, ``taken_trick``); read by index, they are tuples of card ids.
    """

    __slots__ = (
        "acting",
        "allowed",
        "cfg",
        "deal",
        "h0",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "leader",
        "passes",
        "phase",
        "trick",
        "tricks",
        "turn",
    )

    def __init__(
        self,
        phase: i64,
        turn: i64,
        acting: frozenset[int],
        h0: i64,
        h1: i64,
        h2: i64,
        h3: i64,
        h4: i64,
        h5: i64,
        trick: i64,
        allowed: i64,
        leader: i64,
        tricks: tuple[int, ...],
        passes: tuple[tuple[int, ...], ...],
        cfg: Config,
        deal: Deal,
    ) -> None:
        self.phase = phase  # PASS .. OVER
        self.turn = turn  # the seat to act in a turn phase; -1 during the pass and once the game is over
        self.acting = acting  # the seats that may act now
        self.h0 = h0  # the hand of each seat (see cards.py)
        self.h1 = h1
        self.h2 = h2
        self.h3 = h3
        self.h4 = h4
        self.h5 = h5
        self.trick = trick  # the current trick, packed (see ``trick_cards``)
        self.allowed = allowed  # while playing, the cards the seat to play may play (bits 0..54)
        self.leader = leader  # the seat that leads (or led) the current trick
        self.tricks = tricks  # the tricks taken so far in this deal, packed (see ``taken_trick``)
        self.passes = passes  # the cards each seat passes this deal
        self.cfg = cfg
        self.deal = deal

    @property
    def hands(self) -> tuple[int, ...]:
        """The hand of each seat."""
        return (self.h0, self.h1, self.h2, self.h3, self.h4, self.h5)[: self.cfg.players]

    def hand(self, seat: int) -> i64:
        """One seat's hand."""
        if seat == 0:
            return self.h0
        if seat == 1:
            return self.h1
        if seat == 2:
            return self.h2
        if seat == 3:
            return self.h3
        if seat == 4:
            return self.h4
        if seat == 5:
            return self.h5
        raise IndexError(f"no seat {seat}")

    def set_hand(self, seat: int, hand: i64) -> None:
        """Only on a state being built."""
        if seat == 0:
            self.h0 = hand
        elif seat == 1:
            self.h1 = hand
        elif seat == 2:
            self.h2 = hand
        elif seat == 3:
            self.h3 = hand
        elif seat == 4:
            self.h4 = hand
        elif seat == 5:
            self.h5 = hand
        else:
            raise IndexError(f"no seat {seat}")

    def fields(self) -> tuple[Any, ...]:
        """The fields in ``FIELDS`` order (the tricks as tuples of card ids)."""
        return (
            self.phase,
            self.turn,
            self.acting,
            self.hands,
            trick_cards(self.trick),
            self.allowed,
            self.leader,
            tuple(taken_trick(packed) for packed in self.tricks),
            self.passes,
            self.cfg,
            self.deal,
        )

    def __getitem__(self, index: int) -> Any:
        return self.fields()[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return f"State{self.fields()!r}"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_from_fields, (self.fields(),))


def _from_fields(fields: tuple[Any, ...] | list[Any]) -> State:
    """A state from its fields in ``FIELDS`` order."""
    state = State(
        fields[PHASE],
        fields[TURN],
        fields[ACTING],
        0,
        0,
        0,
        0,
        0,
        0,
        pack_trick(fields[TRICK]),
        fields[ALLOWED],
        fields[LEADER],
        tuple(pack_taken(trick) for trick in fields[TRICKS]),
        fields[PASSES],
        fields[CFG],
        fields[DEAL],
    )
    for seat, hand in enumerate(fields[HANDS]):
        state.set_hand(seat, hand)
    return state


def _copy(state: State) -> State:
    """A copy to change before it is returned."""
    return State(
        state.phase,
        state.turn,
        state.acting,
        state.h0,
        state.h1,
        state.h2,
        state.h3,
        state.h4,
        state.h5,
        state.trick,
        state.allowed,
        state.leader,
        state.tricks,
        state.passes,
        state.cfg,
        state.deal,
    )


def evolve(state: State, **changes: Any) -> State:
    """A copy of ``state`` with some fields changed, by name (for the rarer steps)."""
    fields = list(state.fields())
    for name, value in changes.items():
        fields[FIELD_INDEX[name]] = value
    return _from_fields(fields)


def hand_at(hands: tuple[int, ...], seat: int) -> int:
    """One seat's hand from ``state[HANDS]``."""
    return hands[seat]


ID_SLOTS: Final = 1024  # a power of 2, well above the 55 actions of a table


def _identity_table(actions: tuple[FrozenAction, ...]) -> tuple[tuple[object, ...], tuple[int, ...]]:
    """An open-addressing table of ``actions`` by identity: (the objects, their card ids).

    ``apply`` finds the shared read-only actions that ``legal`` lists here without reading
    them. They live as long as the module, so no other object can have the id of one.
    """
    objects: list[object] = [None] * ID_SLOTS
    cids = [-1] * ID_SLOTS
    for cid, action in enumerate(actions):
        slot = id(action) >> 4 & ID_SLOTS - 1
        while objects[slot] is not None:
            slot = slot + 1 & ID_SLOTS - 1
        objects[slot] = action
        cids[slot] = cid
    return tuple(objects), tuple(cids)


PLAY_TABLE: Final = _identity_table(PLAY_ACTION)
PASS_TABLE: Final = _identity_table(PASS_ACTION)
PLAY_OBJECTS: Final = PLAY_TABLE[0]
PLAY_CIDS: Final = PLAY_TABLE[1]
PASS_OBJECTS: Final = PASS_TABLE[0]
PASS_CIDS: Final = PASS_TABLE[1]
# ONE[cid]: the tuple (cid,), to extend a seat's pass without building it.
ONE: Final[tuple[tuple[int, ...], ...]] = tuple((cid,) for cid in range(N_IDS))


def _draw_first_dealer(players: int, seed: int) -> tuple[int, tuple[tuple[tuple[int, int], ...], ...]]:
    """Each contender draws a card; the lone highest rank deals, tied players draw again."""
    contenders = list(range(players))
    rounds: list[tuple[tuple[int, int], ...]] = []
    while True:
        cards = shuffled(seed, DRAW_EVENT, len(rounds), len(contenders))  # drawn from the top
        drawn = tuple((seat, DECK_ID[cards[i]]) for i, seat in enumerate(contenders))
        rounds.append(drawn)
        top = max(RANK_OF[cid] for _, cid in drawn)
        contenders = [seat for seat, cid in drawn if RANK_OF[cid] == top]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


def _shuffled_deck(seed: int, deal: int) -> list[int]:
    """The deck of deal ``deal``, shuffled (``cards.shuffled``: the engine's own chance)."""
    return shuffled(seed, DEAL_EVENT, deal)


def _mole_order(cfg: Config, scores: tuple[int, ...]) -> tuple[int, ...]:
    """The Mole: the seats in choosing order, highest score first, ties youngest first."""
    young = {seat: i for i, seat in enumerate(cfg.youngest_first)}
    return tuple(sorted(range(cfg.players), key=lambda seat: (-scores[seat], young[seat])))


def _begin_deal(
    cfg: Config, number: int, dealer: int, scores: tuple[int, ...], history: tuple[DealRecord, ...]
) -> State:
    n = cfg.players
    deck = shuffled(cfg.seed, DEAL_EVENT, number)
    mole: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    if cfg.the_mole and number >= 2:
        # The dealer sets aside three cards per player before dealing.
        aside = MOLE_CARDS * n
        mole = tuple(sorted([DECK_ID[card] for card in deck[:aside]]))
        deck = deck[aside:]
        order = _mole_order(cfg, scores)
    deal = Deal(number, dealer, scores, history, -1, mole, order, ((),) * n)
    if mole:
        state = State(MOLE, order[0], SINGLE[order[0]], 0, 0, 0, 0, 0, 0, 0, 0, -1, (), ((),) * n, cfg, deal)
    else:
        state = State(PASS, -1, cfg.everyone, 0, 0, 0, 0, 0, 0, 0, 0, -1, (), ((),) * n, cfg, deal)
    # One card at a time to each player, starting with the dealer's left.
    size = len(deck)
    for offset in range(n):
        bits: i64 = 0
        at = offset
        while at < size:
            bits |= 1 << deck[at]
            at += n
        state.set_hand((dealer + 1 + offset) % n, settle_spies(bits))
    return state


def _after_pass(state: State) -> State:
    """Every seat has passed: hand the cards over, then the call or the first lead."""
    cfg = state.cfg
    n = cfg.players
    offset = cfg.pass_offsets[(state.deal.number - 1) % len(cfg.pass_offsets)]
    new = _copy(state)
    for seat, cards in enumerate(state.passes):
        to = (seat + offset) % n
        new.set_hand(to, _add_cards(state.hand(to), cards))
    if cfg.calling_color:
        dealer = state.deal.dealer
        new.phase = CALL
        new.turn = dealer
        new.acting = SINGLE[dealer]
        return new
    leader = 0
    while not new.hand(leader) & BIT[RED_1]:
        leader += 1
    new.phase = PLAY
    new.turn = leader
    new.acting = SINGLE[leader]
    new.trick = 0
    new.allowed = new.hand(leader) & NON_BLACK
    new.leader = leader
    new.tricks = ()
    return new


def _first_lead(state: State, leader: int, lead_mask: int) -> State:
    allowed = state.hand(leader) & lead_mask
    return evolve(state, phase=PLAY, turn=leader, acting=SINGLE[leader], leader=leader, allowed=allowed)


def _end_deal(state: State) -> State:
    """The last trick is taken: score the deal (or ask the taker of all black cards)."""
    cfg = state.cfg
    n = cfg.players
    values = cfg.values
    points = [0] * n
    blacks = [0] * n
    for taken in state.tricks:
        won = 0
        black = 0
        cards: i64 = taken & CARDS_MASK  # (compiled: machine words)
        while cards:
            cid: i64 = (cards & 63) - 1
            won += values[cid]
            black += IS_BLACK[cid]
            cards >>= CARD_BITS
        winner = taken >> WINNER_SHIFT & 7
        points[winner] = points[winner] + won  # (compiled: an int add, not a generic +=)
        blacks[winner] = blacks[winner] + black
    if BLACK_CARDS in blacks:
        taker = blacks.index(BLACK_CARDS)
        if cfg.capture_or_release:
            return evolve(state, phase=ALL_BLACK, turn=taker, acting=SINGLE[taker], allowed=0)
        return _score_deal(state, scoring.all_black_points(n, taker), taker, None)
    return _score_deal(state, tuple(points), -1, None)


def _score_deal(state: State, points: tuple[int, ...], taker: int, choice: str | None) -> State:
    cfg = state.cfg
    deal = state.deal
    scores, went_back = scoring.add_deal(deal.scores, points, cfg.end_value, cfg.going_back)
    history = (*deal.history, DealRecord(deal.number, deal.dealer, points, scores, taker, choice, went_back))
    if scoring.game_over(scores, cfg.end_value, cfg.going_back):
        over = _copy(state)
        over.phase = OVER
        over.turn = -1
        over.acting = NOBODY
        over.allowed = 0
        over.deal = Deal(
            deal.number,
            deal.dealer,
            scores,
            history,
            deal.called,
            deal.mole,
            deal.mole_order,
            deal.mole_taken,
        )
        return over
    return _begin_deal(cfg, deal.number + 1, cfg.next_seat[deal.dealer], scores, history)


def _card_in(action: Any, kind: str, objects: tuple[object, ...], cids: tuple[int, ...]) -> int:
    """The card id of a well-formed one-card action of ``kind``, else -1 (quickly)."""
    slot = id(action) >> 4 & ID_SLOTS - 1
    while True:
        known = objects[slot]
        if known is action:
            return cids[slot]  # one of the shared read-only actions that legal lists
        if known is None:
            break
        slot = slot + 1 & ID_SLOTS - 1
    if isinstance(action, dict):
        code = action.get("card")
        if isinstance(code, str) and action.get("type") == kind and len(action) == 2:
            return CARD_ID.get(code, -1)
        return -1
    try:  # (any other mapping is read the same way)
        cid = CARD_ID[action["card"]]
        return cid if action["type"] == kind and len(action) == 2 else -1
    except (KeyError, TypeError):
        return -1


def _card_of(action: Any, kind: str) -> int:
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


def _play(state: State, seat: int, action: Any) -> State:
    """The hot path: the seat to play plays a card."""
    cid = _card_in(action, "play", PLAY_OBJECTS, PLAY_CIDS)
    if cid < 0:
        cid = _card_of(action, "play")  # raises with the reason
    if not state.allowed >> cid & 1:
        raise IllegalAction(_play_problem(state, seat, cid))
    new = _copy(state)
    new.set_hand(seat, remove_card(state.hand(seat), cid))
    cfg = state.cfg
    leader = state.leader
    at = seat - leader
    if at < 0:
        at += cfg.players
    trick = state.trick | (cid + 1) << CARD_BITS * at
    nxt = cfg.next_seat[seat]
    if nxt != leader:
        hand = state.hand(nxt) & LOW55
        allowed = hand & (FOLLOW[(trick & 63) - 1] | cfg.same_rank[cid])
        new.turn = nxt
        new.acting = SINGLE[nxt]
        new.trick = trick
        new.allowed = allowed if allowed else hand
        return new
    return _take_trick(new, trick, leader)


def _take_trick(new: State, trick: int, leader: int) -> State:
    """The trick is complete: the highest card of the colour led takes it; the first of
    equal cards wins, so the first Black Spy played wins among equals."""
    strength = STRENGTH[COLOUR_OF[(trick & 63) - 1]]
    best = -1
    at = 0
    i = 0
    cards: i64 = trick  # (compiled: a machine word)
    while cards:
        rank = strength[(cards & 63) - 1]
        if rank > best:
            best = rank
            at = i
        cards >>= CARD_BITS
        i += 1
    winner = (leader + at) % new.cfg.players
    hand = new.hand(winner) & LOW55
    new.turn = winner
    new.acting = SINGLE[winner]
    new.trick = 0
    new.allowed = hand
    new.leader = winner
    taken = trick | leader << LEADER_SHIFT | winner << WINNER_SHIFT
    new.tricks = new.tricks + (taken,)  # noqa: RUF005 (compiled: no list)
    return new if hand else _end_deal(new)


def _pass(state: State, seat: Any, action: Any) -> State:
    try:
        may_pass = seat in state.acting
    except TypeError:  # an unhashable seat
        may_pass = False
    if not may_pass:
        if isinstance(seat, int) and 0 <= seat < state.cfg.players:
            raise IllegalAction("You have already passed your three cards; wait for the others.")
        raise IllegalAction(f"There is no seat {seat!r} at this table.")
    player: int = seat
    if isinstance(action, dict) and "cards" in action:
        return _pass_together(state, player, action)
    cid = _card_in(action, "pass", PASS_OBJECTS, PASS_CIDS)
    if cid < 0:
        cid = _card_of(action, "pass")  # raises with the reason
    hand = state.hand(player)
    if not hand >> cid & 1:
        raise IllegalAction(f"You do not hold the {describe(cid)}.")
    new = _copy(state)  # (no turn, trick or leader: a pass state never has them)
    new.set_hand(player, remove_card(hand, cid))
    passes = list(state.passes)
    passed = passes[player] + ONE[cid]
    passes[player] = passed
    new.passes = tuple(passes)
    if len(passed) == PASS_CARDS:
        new.acting = WITHOUT[player][state.acting]
    return new if new.acting else _after_pass(new)


def _pass_together(state: State, player: int, action: dict[str, Any]) -> State:
    """The cards still to pass, all at once (``{"type": "pass", "cards": [c1, c2, c3]}``): the
    board lets a player choose three and confirm them, one move. The same as passing them one
    at a time, in that order; a card refused leaves nothing passed."""
    cards = action.get("cards")
    left = PASS_CARDS - len(state.passes[player])
    if action.get("type") != "pass" or set(action) != {"type", "cards"} or not isinstance(cards, list):
        raise IllegalAction("A 'pass' action has the keys 'type' and 'card', or 'type' and 'cards' (a list).")
    if len(cards) != left:
        raise IllegalAction(f"Choose {left} card{'' if left == 1 else 's'} to pass, not {len(cards)}.")
    if not all(isinstance(code, str) and code in CARD_ID for code in cards):
        raise IllegalAction(f"{cards!r} are not all Black Spy cards (blue-1 .. black-11).")
    # The same code may stand twice (Black Spy has several black 7s): each is taken from the hand
    # in turn, and a code listed more often than the hand holds it is refused there.
    new = state
    for code in cards:
        new = _pass(new, player, {"type": "pass", "card": code})
    return new


def _play_problem(state: State, seat: int, cid: int) -> str:
    hand = state.hand(seat)
    if not hand & BIT[cid]:
        return f"You do not hold the {describe(cid)}."
    trick = trick_cards(state.trick)
    if not trick:
        if state.deal.called >= 0:
            return f"The first trick must be led in the colour called, {COLOURS[state.deal.called]}."
        return "A black card may not be led on the first trick."
    lead = trick[0]
    extra = f", or rank {RANK_OF[trick[-1]]} like the card just played" if state.cfg.following_rank else ""
    return (
        f"You must follow the {describe(lead)}: play {COLOURS[COLOUR_OF[lead]]} or rank {RANK_OF[lead]}"
        f"{extra}. The {describe(cid)} does not follow."
    )


# The chunk tables again with lists, copied by ``_listed`` (never handed out themselves).
ChunkLists = tuple[tuple[list[Action], ...], ...]
PLAY_LISTS: Final[ChunkLists] = tuple(tuple(list(t) for t in chunk) for chunk in PLAY_CHUNKS)
PASS_LISTS: Final[ChunkLists] = tuple(tuple(list(t) for t in chunk) for chunk in PASS_CHUNKS)


def _listed(mask: i64, chunks: ChunkLists) -> list[Action]:
    """The actions of the cards in ``mask`` (bits 0..54), from the 11-bit chunk tables.

    One allocation of the right size for one or two chunks (a copy, a concatenation);
    more chunks extend that.
    """
    bits = mask
    if bits == 0:
        return []
    chunk: i64 = 0
    while bits & 2047 == 0:
        bits >>= 11
        chunk += 1
    first = chunks[chunk][bits & 2047]
    bits >>= 11
    while bits & 2047 == 0:
        if bits == 0:
            return first.copy()
        bits >>= 11
        chunk += 1
    chunk += 1
    out = first + chunks[chunk][bits & 2047]
    bits >>= 11
    while bits:
        chunk += 1
        part = bits & 2047
        if part:
            out.extend(chunks[chunk][part])
        bits >>= 11
    return out


def _config(players: int, options: Mapping[str, Any]) -> Config:
    """The Config of a table size and options (seed 0, no draws: ``start`` adds them)."""
    opts = validate_options(options, OPTIONS)
    youngest = opts["youngest_first"]
    if youngest is None:
        youngest = list(range(players))
    if sorted(youngest) != list(range(players)):
        raise InvalidOptions(
            f"Option 'youngest_first' must list every seat 0..{players - 1} once, youngest first, "
            f"not {youngest!r}."
        )
    opts["youngest_first"] = list(youngest)
    return Config(
        players=players,
        seed=0,
        options=tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(opts.items())),
        no_good_spies=opts["no_good_spies"],
        capture_or_release=opts["capture_or_release"],
        the_mole=opts["the_mole"],
        calling_color=opts["calling_color"],
        following_rank=opts["following_rank"],
        going_back=opts["going_back"],
        end_value=scoring.end_value_for(players, opts["end_value"]),
        youngest_first=tuple(youngest),
        first_dealer=0,
        draws=(),
        values=VALUE_NO_GOOD_SPIES if opts["no_good_spies"] else VALUE,
        same_rank=SAME_RANK if opts["following_rank"] else NO_RANK_FOLLOW,
        next_seat=tuple((seat + 1) % players for seat in range(players)),
        pass_offsets=(1, -1, 2) if players == 4 else (1, -1),
        everyone=SUBSETS[(1 << players) - 1],
    )


# The Config of the default options by table size, made once (``start``).
DEFAULT_CONFIGS: Final[dict[int, Config]] = {}


class BlackSpyEngine:
    """Black Spy for 3 to 6 players with every variant of the rule book."""

    slug = "black-spy"
    title = "Black Spy"
    seats = range(3, 7)
    options: Mapping[str, Any] = OPTIONS  # the option schema (games.core.Option by name)

    # -- the protocol ------------------------------------------------------------------------

    def start(self, seats: Any, seed: int, options: Mapping[str, Any] | None = None) -> State:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats not in self.seats:
            raise InvalidOptions(f"Black Spy is for 3 to 6 players, not {seats!r}.")
        players: int = seats
        if not options:  # (the common case: the Config of a table size is kept)
            base = DEFAULT_CONFIGS.get(players)
            if base is None:
                base = DEFAULT_CONFIGS[players] = _config(players, {})
        else:
            base = _config(players, options)
        first_dealer, draws = _draw_first_dealer(players, seed)
        cfg = base.dealt(seed, first_dealer, draws)
        return _begin_deal(cfg, 1, first_dealer, (0,) * players, ())

    def to_act(self, state: State) -> frozenset[int]:
        return state.acting

    def legal(self, state: State, seat: Any) -> list[Action]:
        phase = state.phase
        if phase == PLAY:
            if isinstance(seat, int):
                if seat != state.turn:
                    return []
            elif seat != state.turn:  # (a seat of another type that equals the turn)
                return []
            return _listed(state.allowed, PLAY_LISTS)
        if phase == PASS:
            if seat not in state.acting:
                return []
            return _listed(state.hand(seat) & LOW55, PASS_LISTS)
        if seat != state.turn:
            return []
        if phase == CALL:
            return list(CALL_ACTIONS)
        if phase == ALL_BLACK:
            return list(ALL_BLACK_ACTIONS)
        # The Mole: every choice of three cards, each listed once, in deck order.
        return [
            {"type": "mole", "cards": [CODES[cid] for cid in combo]}
            for combo in sorted(set(combinations(state.deal.mole, MOLE_CARDS)))
        ]

    def apply(self, state: State, seat: Any, action: Any) -> State:
        phase = state.phase
        if phase == PLAY and isinstance(seat, int) and seat == state.turn:
            return _play(state, seat, action)  # the hot path: a card played
        if phase == PASS:
            return _pass(state, seat, action)
        if isinstance(seat, bool) or not isinstance(seat, int) or seat != state.turn:
            raise IllegalAction(self._not_your_turn(state, seat))
        if phase == MOLE:
            return self._mole(state, seat, action)
        if phase == CALL:
            return self._call(state, seat, action)
        if phase == ALL_BLACK:
            return self._all_black(state, seat, action)
        raise IllegalAction(self._not_your_turn(state, seat))

    def view(self, state: State, seat: Any) -> dict[str, Any]:
        cfg = state.cfg
        deal = state.deal
        n = cfg.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
            raise ValueError(f"No seat {seat!r} at a {n}-player table.")
        offset = cfg.pass_offsets[(deal.number - 1) % len(cfg.pass_offsets)]
        passed = state.phase not in (PASS, MOLE)
        leader = state.leader
        trick = trick_cards(state.trick)
        tricks_won = [0] * n
        for taken in state.tricks:
            tricks_won[taken >> WINNER_SHIFT & 7] += 1
        view: dict[str, Any] = {
            "game": "black-spy",
            "players": n,
            "seat": seat,
            "phase": PHASES[state.phase],
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
            "to_act": sorted(state.acting),
            "turn": None if state.turn < 0 else state.turn,
            "pass_direction": DIRECTIONS[offset],
            "pass_to": None if seat is None else (seat + offset) % n,
            "hand": [] if seat is None else codes_of(state.hand(seat)),
            "hand_counts": [int(state.hand(s)).bit_count() for s in range(n)],
            "passed_seats": [s for s in range(n) if len(state.passes[s]) == PASS_CARDS],
            "passing": [] if seat is None else [CODES[cid] for cid in state.passes[seat]],
            "received": (
                [CODES[cid] for cid in state.passes[(seat - offset) % n]]
                if seat is not None and passed
                else []
            ),
            "called_color": None if deal.called < 0 else COLOURS[deal.called],
            "trick": [{"seat": (leader + i) % n, "card": CODES[cid]} for i, cid in enumerate(trick)],
            "trick_leader": None if leader < 0 else leader,
            "tricks_taken": tricks_won,
            "last_trick": None,
            "mole": None,
            "all_black": {"taker": state.turn} if state.phase == ALL_BLACK else None,
        }
        if state.tricks:
            lead, cards, winner = taken_trick(state.tricks[-1])
            view["last_trick"] = {
                "cards": [{"seat": (lead + i) % n, "card": CODES[cid]} for i, cid in enumerate(cards)],
                "winner": winner,
            }
        if deal.mole_order:
            chooser = state.turn if state.phase == MOLE else None
            view["mole"] = {
                "order": list(deal.mole_order),
                "chooser": chooser,
                "cards_left": len(deal.mole),
                "cards": [CODES[cid] for cid in deal.mole] if seat is not None and seat == chooser else None,
                "taken": None if seat is None else [CODES[cid] for cid in deal.mole_taken[seat]],
            }
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        deal = state.deal
        return Outcome(
            scores=deal.scores,
            places=scoring.places(deal.scores),
            detail={
                "deals": deal.number,
                "end_value": state.cfg.end_value,
                "deal_points": [list(rec.points) for rec in deal.history],
            },
        )

    # -- the other phases -----------------------------------------------------------------------

    def _mole(self, state: State, seat: int, action: Any) -> State:
        if not isinstance(action, dict) or action.get("type") != "mole":
            raise IllegalAction("Choose three cards from The Mole: {'type': 'mole', 'cards': [c1, c2, c3]}.")
        cards = action.get("cards")
        if set(action) != {"type", "cards"} or not isinstance(cards, list) or len(cards) != MOLE_CARDS:
            raise IllegalAction("A 'mole' action has the keys 'type' and 'cards', a list of three cards.")
        if not all(isinstance(code, str) and code in CARD_ID for code in cards):
            raise IllegalAction(f"{cards!r} are not all Black Spy cards (blue-1 .. black-11).")
        combo = tuple(CARD_ID[code] for code in cards)
        deal = state.deal
        if Counter(combo) - Counter(deal.mole):
            raise IllegalAction(
                f"The Mole does not hold all of {', '.join(describe(CARD_ID[code]) for code in cards)}."
            )
        if list(combo) != sorted(combo):
            raise IllegalAction(
                "List the three Mole cards in deck order (blue, yellow, red, green, black; by rank)."
            )
        left = list(deal.mole)
        for cid in combo:
            left.remove(cid)
        taken = list(deal.mole_taken)
        taken[seat] = combo
        order = deal.mole_order
        nxt = order[order.index(seat) + 1]
        if nxt != order[-1]:
            new = evolve(
                state,
                turn=nxt,
                acting=SINGLE[nxt],
                deal=deal._replace(mole=tuple(left), mole_taken=tuple(taken)),
            )
            new.set_hand(seat, _add_cards(state.hand(seat), combo))
            return new
        # The lowest score takes the last three cards; then everyone passes.
        taken[nxt] = tuple(left)
        new = evolve(
            state,
            phase=PASS,
            turn=-1,
            acting=state.cfg.everyone,
            deal=deal._replace(mole=(), mole_taken=tuple(taken)),
        )
        new.set_hand(seat, _add_cards(state.hand(seat), combo))
        new.set_hand(nxt, _add_cards(state.hand(nxt), left))
        return new

    def _call(self, state: State, seat: int, action: Any) -> State:
        if not isinstance(action, dict) or action.get("type") != "call" or set(action) != {"type", "color"}:
            raise IllegalAction("As dealer, call a colour: {'type': 'call', 'color': 'blue'}.")
        colour = COLOUR_ID.get(action["color"]) if isinstance(action["color"], str) else None
        if colour is None or colour == BLACK:
            raise IllegalAction(f"Call blue, yellow, red or green, not {action['color']!r}.")
        n = state.cfg.players
        mask = COLOUR_MASK[colour]
        # The dealer's left leads the colour called; if they cannot, the lead passes left.
        seats = ((state.deal.dealer + k) % n for k in range(1, n + 1))
        leader = next(s for s in seats if state.hand(s) & mask)
        return _first_lead(evolve(state, deal=state.deal._replace(called=colour)), leader, mask)

    def _all_black(self, state: State, seat: int, action: Any) -> State:
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
        return _score_deal(state, scoring.all_black_points(state.cfg.players, seat, choice), seat, choice)

    # -- reasons --------------------------------------------------------------------------------

    def _not_your_turn(self, state: State, seat: Any) -> str:
        if state.phase == OVER:
            return "The game is over."
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.cfg.players:
            return f"There is no seat {seat!r} at this table."
        what = {MOLE: "choose from The Mole", CALL: "call a colour", PLAY: "play", ALL_BLACK: "choose"}
        return f"It is not your turn: seat {state.turn} is to {what[state.phase]}."


def _add_cards(hand: int, cards: tuple[int, ...] | list[int]) -> int:
    spies = 0
    for cid in cards:
        if cid == BLACK_SPY:
            spies += 1
        else:
            hand |= BIT[cid]
    if spies:
        hand = hand & ~SPY_BITS | SPY_FILL[spy_count(hand) + spies]
    return hand


ENGINE = BlackSpyEngine()
