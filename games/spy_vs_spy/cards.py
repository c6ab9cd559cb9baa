"""The standard 52-card deck of Spy vs Spy: codes ``<rank><suit>`` and which card goes on which.

Ranks run A 2 .. 10 J Q K and wrap round (K-A-2), so every rank has exactly two
neighbours. A card goes on a pile whose top card has the same rank or a rank one
above or below it.
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

#: One full deck, no jokers, in a fixed order (rank by rank).
DECK: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)

#: The rank of each card as a number, ace 0 .. king 12.
RANK: dict[str, int] = {card: index for index, rank in enumerate(RANKS) for card in (rank + s for s in SUITS)}


RANK_NAMES: dict[str, str] = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT_NAMES: dict[str, str] = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}


def card_name(card: str) -> str:
    """``"QD"`` -> ``"Queen of Diamonds"``, ``"10H"`` -> ``"10 of Hearts"``: a card as a person says it."""
    rank, suit = card[:-1], card[-1:]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES.get(suit, suit)}"


def rank_of(card: str) -> str:
    """``"10H"`` -> ``"10"``."""
    return card[:-1]


def goes_on(card: str, top: str) -> bool:
    """True when ``card`` may be placed on a pile whose top card is ``top``.

    Same rank, or one above or below, with wrap-around: an ace goes on a king and on a two.
    """
    return (RANK[card] - RANK[top]) % 13 in (0, 1, 12)


def fitting_piles(card: str, piles: tuple[tuple[str, ...], ...]) -> list[int]:
    """Indexes of the piles ``card`` may go on."""
    r = RANK[card]
    return [i for i, pile in enumerate(piles) if (r - RANK[pile[-1]]) % 13 in (0, 1, 12)]
