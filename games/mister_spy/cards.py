"""The 54-card deck of Before I Kill You, Mister Spy, and the card codes.

Card codes (shared by the engine, its views and the score sheet):

- ``lair-2`` .. ``lair-4``: Lair cards, 5 of each value (15 cards).
- ``taunt-A`` .. ``taunt-I``: Taunt cards, 2 of each letter (18 cards).
- ``spy-2`` .. ``spy-8``: Spies, 5x2, 5x3, 4x4, 3x5, 2x6, 1x7, 1x8 (21 cards).

Spies have a different back from Lair and Taunt cards.
"""

from __future__ import annotations

from typing import Final

LAIR_VALUES: Final = (2, 3, 4)
LAIR_COPIES: Final = 5
TAUNT_LETTERS: Final = "ABCDEFGHI"
TAUNT_COPIES: Final = 2
SPY_COUNTS: Final[dict[int, int]] = {2: 5, 3: 5, 4: 4, 5: 3, 6: 2, 7: 1, 8: 1}

#: Starting hand size by number of players.
HAND_SIZES: Final[dict[int, int]] = {2: 7, 3: 6, 4: 5, 5: 4, 6: 3}

#: The first player to reach this many points wins at once.
WINNING_POINTS: Final = 33

LAIR: Final = "lair"
TAUNT: Final = "taunt"
SPY: Final = "spy"

DECK: Final[tuple[str, ...]] = (
    *(f"lair-{value}" for value in LAIR_VALUES for _ in range(LAIR_COPIES)),
    *(f"taunt-{letter}" for letter in TAUNT_LETTERS for _ in range(TAUNT_COPIES)),
    *(f"spy-{value}" for value, count in SPY_COUNTS.items() for _ in range(count)),
)

#: The kind of every card code: ``"lair"``, ``"taunt"`` or ``"spy"``.
KIND: Final[dict[str, str]] = {card: card.split("-")[0] for card in DECK}

#: The printed value of every Lair and Spy card (taunts have none).
VALUE: Final[dict[str, int]] = {card: int(card.split("-")[1]) for card in DECK if KIND[card] != TAUNT}

#: Every distinct card code, in a fixed order.
CARD_CODES: Final[tuple[str, ...]] = tuple(sorted(set(DECK)))


def is_spy(card: str) -> bool:
    """Whether a card shows the Spy back."""
    return KIND[card] == SPY


def card_name(card: object) -> str:
    """``"spy-5"`` -> ``"Spy 5"``, ``"taunt-B"`` -> ``"Taunt B"``: a card as a person says it
    (anything that is not a card code is shown as it is, quoted)."""
    if isinstance(card, str) and card in KIND:
        kind, _, mark = card.partition("-")
        return f"{kind.capitalize()} {mark}"
    return repr(card)
