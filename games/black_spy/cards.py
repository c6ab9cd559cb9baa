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
from typing import Final

from .actions import FrozenAction

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


def spy_count(hand: int) -> int:
    """How many Black Spies a hand holds."""
    return SPY_COUNT[hand >> 50 & 1023]


def add_card(hand: int, cid: int) -> int:
    if cid == BLACK_SPY:
        return hand | SPY_FILL[spy_count(hand) + 1]
    return hand | BIT[cid]


def remove_card(hand: int, cid: int) -> int:
    """The hand without one copy of ``cid``; the caller has checked that it holds one."""
    if cid == BLACK_SPY:
        return hand ^ SPY_TOP[spy_count(hand)]
    return hand ^ BIT[cid]


def hand_of(physical: Sequence[int]) -> int:
    """A hand bitmask from physical deck cards (0..59)."""
    hand = 0
    for card in physical:
        hand += BIT[card]  # distinct bits: the sum is the union
    return settle_spies(hand)


def settle_spies(bits: int) -> int:
    """A hand from the bits of its physical cards: its Black Spies in slots 50, 55, 56..."""
    return (bits & ~SPY_BITS) | SPY_FILL[spy_count(bits)]


def holds(hand: int, cid: int) -> bool:
    return bool(hand & BIT[cid])
