"""The 52 influence cards of Spycatcher, and the card codes.

The rule sheet: "The number is one of a sequence running from one to twelve in each of the
four suits", with a picture for the suit, and a 'master card' of each suit ("the master card
must be the same suit as the circle it's played in"). Four suits of twelve numbered cards and
four master cards make the 52.

Card codes (shared by the engine, its views, the API and the bots):

- ``<suit>-<n>``: suit ``court``, ``government``, ``press`` or ``publisher``; ``n`` from 1 to 12.
- ``<suit>-M``: the master card of that suit (it has no number).

The four suits are also the four circles of the board and the four kinds of permission card
(the 'court', 'government', 'press' and 'publisher' packs of location cards).
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

SUITS: Final[tuple[str, ...]] = ("court", "government", "press", "publisher")
NUMBERS: Final = range(1, 13)
MASTER: Final = "M"

#: How many cards make a 'run' when seeking permission.
RUN: Final = 3
#: A challenger plays one, two or three cards.
MOST_CHALLENGE_CARDS: Final = 3

DECK: Final[tuple[str, ...]] = tuple(
    card for suit in SUITS for card in (*(f"{suit}-{n}" for n in NUMBERS), f"{suit}-{MASTER}")
)

#: The suit of every card.
SUIT: Final[dict[str, str]] = {card: card.rsplit("-", 1)[0] for card in DECK}
#: The number of every numbered card (master cards have none).
NUMBER: Final[dict[str, int]] = {
    card: int(card.rsplit("-", 1)[1]) for card in DECK if not card.endswith(f"-{MASTER}")
}
#: The master card of every suit.
MASTERS: Final[dict[str, str]] = {suit: f"{suit}-{MASTER}" for suit in SUITS}
#: A fixed order of the cards (by suit, then number, the master last): hands are kept in it.
ORDER: Final[dict[str, int]] = {card: i for i, card in enumerate(DECK)}


def is_master(card: str) -> bool:
    return card not in NUMBER


def sort_cards(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=ORDER.__getitem__))


def runs(hand: tuple[str, ...] | list[str], suit: str) -> list[tuple[str, str, str]]:
    """Every run of three numbered cards of ``suit`` in ``hand`` (e.g. 5, 6, 7), lowest first."""
    held = {NUMBER[c] for c in hand if c in NUMBER and SUIT[c] == suit}
    return [
        (f"{suit}-{n}", f"{suit}-{n + 1}", f"{suit}-{n + 2}")
        for n in sorted(held)
        if n + 1 in held and n + 2 in held
    ]


def challenges(hand: tuple[str, ...] | list[str], suit: str) -> list[tuple[str, ...]]:
    """Every set of cards ``hand`` could challenge with in a ``suit`` circle.

    One, two or three numbered cards of the suit, or the master card on its own (ruling 3).
    """
    numbered = sorted((c for c in hand if c in NUMBER and SUIT[c] == suit), key=ORDER.__getitem__)
    out: list[tuple[str, ...]] = []
    for size in range(1, MOST_CHALLENGE_CARDS + 1):
        out.extend(combinations(numbered, size))
    if MASTERS[suit] in hand:
        out.append((MASTERS[suit],))
    return out


def total(cards: tuple[str, ...] | list[str]) -> int:
    """The total of the numbers on some cards (master cards count nothing: they win outright)."""
    return sum(NUMBER.get(card, 0) for card in cards)


def card_name(card: object) -> str:
    """``"court-5"`` -> ``"Court 5"``, ``"press-M"`` -> ``"the Press master card"``: a card as a
    person says it (anything that is not a card code is shown as it is, quoted)."""
    if not isinstance(card, str) or card not in SUIT:
        return repr(card)
    suit = SUIT[card].capitalize()
    return f"the {suit} master card" if is_master(card) else f"{suit} {NUMBER[card]}"
