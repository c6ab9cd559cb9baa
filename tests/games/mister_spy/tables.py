"""Set up Mister Spy tables by hand for the rule scenarios.

``table()`` builds a state in the middle of a turn: the given hands, Lairs and score piles,
the given cards on top of the deck, and (unless ``full_deck=False``) every other card of the
54 below them, so the cards are conserved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.mister_spy import ENGINE
from games.mister_spy.cards import DECK
from games.mister_spy.engine import TURN, Lair, MisterSpyState, Spy

LairSpec = tuple[str, bool]  # (card, face_up)


def table(
    hands: Sequence[Sequence[str]],
    *,
    lairs: Sequence[Sequence[LairSpec]] | None = None,
    piles: Sequence[Sequence[tuple[str, Sequence[str]]]] | None = None,
    deck: Sequence[str] = (),
    discard: Sequence[str] = (),
    turn: int = 0,
    full_deck: bool = True,
    seed: int = 1,
) -> MisterSpyState:
    seats = len(hands)
    lairs = lairs or [[] for _ in range(seats)]
    piles = piles or [[] for _ in range(seats)]
    serial = 0
    lair_rows = []
    for row in lairs:
        cards = []
        for card, face_up in row:
            serial += 1
            cards.append(Lair(f"L{serial}", card, face_up))
        lair_rows.append(tuple(cards))
    pile_rows = []
    for pile in piles:
        spies = []
        for spy_card, taunts in pile:
            serial += 1
            spies.append(Spy(f"S{serial}", spy_card, tuple(taunts)))
        pile_rows.append(tuple(spies))
    used = Counter(c for h in hands for c in h)
    used.update(card for row in lairs for card, _ in row)
    used.update(card for pile in piles for spy, taunts in pile for card in (spy, *taunts))
    used.update(deck)
    used.update(discard)
    rest = Counter(DECK) - used
    assert not used - Counter(DECK), f"more cards than the deck holds: {used - Counter(DECK)}"
    full = tuple(deck) + (tuple(sorted(rest.elements())) if full_deck else ())
    return MisterSpyState(
        seats=seats,
        seed=seed,
        dealer=0,
        deck=full,
        top=0,
        hands=tuple(tuple(sorted(h)) for h in hands),
        lairs=tuple(lair_rows),
        piles=tuple(pile_rows),
        scores=tuple(sum(s.points for s in row) for row in pile_rows),
        discard=tuple(discard),
        turn=turn,
        phase=TURN,
        serial=serial,
    )


def play(state: MisterSpyState, *moves: tuple[int, dict[str, Any]]) -> MisterSpyState:
    for seat, action in moves:
        state = ENGINE.apply(state, seat, action)
    return state


def all_cards(state: MisterSpyState) -> Counter[str]:
    """Every card in the game, wherever it is."""
    cards: Counter[str] = Counter(state.deck[state.top :])
    for hand in state.hands:
        cards.update(hand)
    for lair in state.lairs:
        cards.update(c.card for c in lair)
    for pile in state.piles:
        for spy in pile:
            cards.update((spy.card, *spy.taunts))
    cards.update(state.discard)
    if state.captive is not None:
        cards.update((state.captive.card, *state.captive.taunts))
    if state.window is not None:
        cards[state.window.taunt] += 1
    return cards


def has(legal: list[dict[str, Any]], action: dict[str, Any]) -> bool:
    return action in legal
