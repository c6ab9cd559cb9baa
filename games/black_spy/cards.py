"""The Black Spy deck as small integers, and the precomputed tables the engine runs on.

A card is an id ``colour * 11 + rank - 1``: colours 0 blue, 1 yellow, 2 red, 3 green,
4 black; ranks 1 (Informer) .. 11 (Director). That gives 55 distinct cards; the six
Black Spies share id 50 (``black-7``). A hand is an int bitmask over 60 bits: bits 0..54
for the distinct cards, and bits 55..59 for the second to sixth Black Spy a hand holds.
Bit 50 is set whenever the hand holds at least one Black Spy, so ``hand & LOW55`` is
the set of distinct cards held, and a hand's popcount is its number of cards.

Action dicts are built once here and shared (``FrozenAction``, a read-only dict), so
``legal`` can list a hand's plays by looking up five 11-bit chunks.

The module is compiled by mypyc when ``scripts/build-engines`` has run (see the package
docstring): its constants are ``Final`` so that compiled code reads them directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, cast

from .actions import FrozenAction

if TYPE_CHECKING:
    from mypy_extensions import i64  # a machine integer when compiled (mypyc), else an int

COLOURS: Final = ("blue", "yellow", "red", "green", "black")
BLACK: Final = 4
BLACK_SPY: Final = 50  # the id of every black-7
RED_1: Final = 22
N_IDS: Final = 55

CODES: Final[tuple[str, ...]] = tuple(f"{COLOURS[cid // 11]}-{cid % 11 + 1}" for cid in range(N_IDS))
CARD_ID: Final[dict[str, int]] = {code: cid for cid, code in enumerate(CODES)}
COLOUR_OF: Final[tuple[int, ...]] = tuple(cid // 11 for cid in range(N_IDS))
RANK_OF: Final[tuple[int, ...]] = tuple(cid % 11 + 1 for cid in range(N_IDS))
COLOUR_ID: Final[dict[str, int]] = {name: i for i, name in enumerate(COLOURS)}

BIT: Final[tuple[int, ...]] = tuple(1 << i for i in range(60))
LOW55: Final = (1 << N_IDS) - 1
COLOUR_MASK: Final[tuple[int, ...]] = tuple(((1 << 11) - 1) << (11 * c) for c in range(5))
NON_BLACK: Final = (1 << 44) - 1
RANK_MASK: Final[tuple[int, ...]] = (0, *(sum(1 << (c * 11 + r - 1) for c in range(5)) for r in range(1, 12)))
# Cards that follow a lead card: its colour or its rank.
FOLLOW: Final[tuple[int, ...]] = tuple(
    COLOUR_MASK[COLOUR_OF[c]] | RANK_MASK[RANK_OF[c]] for c in range(N_IDS)
)
# Cards of the same rank as a card (Following Rank).
SAME_RANK: Final[tuple[int, ...]] = tuple(RANK_MASK[RANK_OF[c]] for c in range(N_IDS))

# The Black Spies of a hand: bit 50 for the first, bits 55..59 for the others.
SPY_SLOTS: Final = (BLACK_SPY, 55, 56, 57, 58, 59)
SPY_BITS: Final = sum(1 << b for b in SPY_SLOTS)
SPY_FILL: Final[tuple[int, ...]] = tuple(sum(1 << b for b in SPY_SLOTS[:k]) for k in range(7))
SPY_TOP: Final[tuple[int, ...]] = (0, *(1 << b for b in SPY_SLOTS))  # bit of the k-th spy held
# The number of Black Spies by bits 50..59 of a hand (a table: compiled code has no popcount).
SPY_COUNT: Final[tuple[int, ...]] = tuple(((k << 50) & SPY_BITS).bit_count() for k in range(1024))

# The physical deck: 60 ids, the five extra Black Spies as 55..59.
DECK: Final[tuple[int, ...]] = tuple(range(60))
DECK_ID: Final[tuple[int, ...]] = tuple(range(N_IDS)) + (BLACK_SPY,) * 5  # physical card -> card id

# Deal points of a card: black 1..6 -> 1, Black Spy 10, 8..11 -> 2..5, coloured Spy -5.
BLACK_VALUE: Final = (0, 1, 1, 1, 1, 1, 1, 10, 2, 3, 4, 5)
VALUE: Final[tuple[int, ...]] = tuple(
    BLACK_VALUE[RANK_OF[c]] if COLOUR_OF[c] == BLACK else (-5 if RANK_OF[c] == 7 else 0) for c in range(N_IDS)
)
VALUE_NO_GOOD_SPIES: Final[tuple[int, ...]] = tuple(max(v, 0) for v in VALUE)
IS_BLACK: Final[tuple[int, ...]] = tuple(1 if COLOUR_OF[c] == BLACK else 0 for c in range(N_IDS))
BLACK_CARDS: Final = 16


PLAY_ACTION: Final[tuple[FrozenAction, ...]] = tuple(FrozenAction(type="play", card=code) for code in CODES)
PASS_ACTION: Final[tuple[FrozenAction, ...]] = tuple(FrozenAction(type="pass", card=code) for code in CODES)


def _chunk_tables(actions: tuple[FrozenAction, ...]) -> tuple[tuple[tuple[FrozenAction, ...], ...], ...]:
    return tuple(
        tuple(tuple(actions[c * 11 + r] for r in range(11) if bits >> r & 1) for bits in range(2048))
        for c in range(5)
    )


PLAY_CHUNKS: Final = _chunk_tables(PLAY_ACTION)
PASS_CHUNKS: Final = _chunk_tables(PASS_ACTION)


def ids_of(hand: int) -> list[int]:
    """The card ids of a hand, in deck order, a Black Spy once per copy."""
    out = []
    low = hand & LOW55
    while low:
        bit = low & -low
        out.append(bit.bit_length() - 1)
        low ^= bit
    spies = (hand & SPY_BITS).bit_count()
    if spies > 1:
        at = out.index(BLACK_SPY)
        out[at:at] = [BLACK_SPY] * (spies - 1)
    return out


def codes_of(hand: int) -> list[str]:
    return [CODES[c] for c in ids_of(hand)]


def spy_count(hand: i64) -> int:
    """How many Black Spies a hand holds."""
    return SPY_COUNT[hand >> 50 & 1023]


def add_card(hand: int, cid: int) -> int:
    if cid == BLACK_SPY:
        return hand | SPY_FILL[spy_count(hand) + 1]
    return hand | BIT[cid]


def remove_card(hand: i64, cid: int) -> i64:
    """The hand without one copy of ``cid``; the caller has checked that it holds one."""
    if cid == BLACK_SPY:
        return hand ^ SPY_TOP[spy_count(hand)]
    return hand ^ 1 << cid  # (compiled: a shift of a small int, no table of large ones)


def hand_of(physical: Sequence[int]) -> int:
    """A hand bitmask from physical deck cards (0..59)."""
    hand = 0
    for card in physical:
        hand += BIT[card]  # distinct bits: the sum is the union
    return settle_spies(hand)


def settle_spies(bits: i64) -> i64:
    """A hand from the bits of its physical cards: its Black Spies in slots 50, 55, 56..."""
    return (bits & ~SPY_BITS) | SPY_FILL[spy_count(bits)]


def holds(hand: int, cid: int) -> bool:
    return bool(hand & BIT[cid])


# -- chance: the engine's own seeded generator ----------------------------------------------
#
# Every shuffle and draw of a game comes from ``shuffled(seed, event, number)`` below: a
# small counter-based generator (Chris Doty-Humphrey's SFC32, which passes PractRand and
# BigCrush) whose 96-bit starting state is hashed from the game's seed, the kind of event
# and its number. Every value stays under 2**54, so compiled code runs it on machine
# words (``i64``, exact: nothing overflows) and plain Python gives the same numbers.

M32: Final = 0xFFFFFFFF
DEAL_EVENT: Final = 0  # the shuffle of deal ``number``
DRAW_EVENT: Final = 1  # round ``number`` (from 0) of the draws for the first dealer
WARM_UP: Final = 12  # outputs discarded after seeding, as SFC32's author recommends


def _mix32(x: i64) -> i64:
    """MurmurHash3's 32-bit finaliser (a bijection of 0 .. 2**32 - 1); each product is
    split so that it stays under 2**48."""
    x ^= x >> 16
    x = (((((x >> 16) * 0x85EBCA6B) & 0xFFFF) << 16) + (x & 0xFFFF) * 0x85EBCA6B) & M32
    x ^= x >> 13
    x = (((((x >> 16) * 0xC2B2AE35) & 0xFFFF) << 16) + (x & 0xFFFF) * 0xC2B2AE35) & M32
    return x ^ (x >> 16)


def _stream(seed: int, event: int, number: int) -> tuple[i64, i64, i64]:
    """SFC32's starting words for one event: three hash chains over the event, its number
    and the seed (any int, taken 32 bits at a time; a negative seed as ``~seed`` with a
    flag), each chain started from its own constant."""
    flag = 0
    if seed < 0:
        seed = ~seed
        flag = 1
    word: i64 = event & M32
    a = _mix32(0x6A09E667 ^ word)
    b = _mix32(0xBB67AE85 ^ word)
    c = _mix32(0x3C6EF372 ^ word)
    word = number & M32
    a = _mix32(a ^ word)
    b = _mix32(b ^ word)
    c = _mix32(c ^ word)
    word = (number >> 32 << 1 | flag) & M32  # (a deal or draw number is far below 2**32)
    a = _mix32(a ^ word)
    b = _mix32(b ^ word)
    c = _mix32(c ^ word)
    while True:
        word = seed & M32
        a = _mix32(a ^ word)
        b = _mix32(b ^ word)
        c = _mix32(c ^ word)
        seed >>= 32
        if not seed:
            return a, b, c


def shuffled(seed: int, event: int, number: int, count: int = 59) -> list[int]:
    """The physical deck (``DECK``) shuffled for one event, uniformly (Fisher-Yates).

    The first ``count`` cards are drawn in turn, each uniformly from the cards not yet
    drawn (Lemire's bounded draw, with rejection, so exactly uniform); with the default
    the whole deck is shuffled. Determined by ``(seed, event, number)`` alone.
    """
    a, b, c = _stream(seed, event, number)
    counter: i64 = 1
    t: i64 = 0
    for _ in range(WARM_UP):
        t = (a + b + counter) & M32
        counter += 1
        a = b ^ (b >> 9)
        b = (c + (c << 3)) & M32
        c = ((((c << 21) | (c >> 11)) & M32) + t) & M32
    deck: list[object] = list(DECK)  # (compiled: swapped as objects, not unboxed and boxed again)
    size: i64 = len(deck)
    m: i64 = 0
    i: i64 = 0
    while i < count and i < size - 1:
        span = size - i
        while True:
            t = (a + b + counter) & M32
            counter = (counter + 1) & M32
            a = b ^ (b >> 9)
            b = (c + (c << 3)) & M32
            c = ((((c << 21) | (c >> 11)) & M32) + t) & M32
            m = t * span
            low = m & M32
            if low >= span or low >= 0x100000000 % span:
                break
        j = i + (m >> 32)
        card = deck[j]
        deck[j] = deck[i]
        deck[i] = card
        i += 1
    return cast("list[int]", deck)
