"""Set up Spycatcher tables by hand for the rule scenarios.

``table()`` builds a state at a chosen phase of a turn: the given hands, positions and
permission cards, the given cards on top of the pack and on the discard pile, and (unless
``full_deck=False``) every other influence card below them in the pack, so that the 52 cards are
conserved. Permission cards may be given by suit (``"court"``: the first court card of the pack).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from games.core import validate_options
from games.spycatcher import ENGINE, Spycatcher, SpycatcherState, load_board
from games.spycatcher.board import Board
from games.spycatcher.cards import DECK, SUITS, sort_cards
from games.spycatcher.engine import DRAW, WINDOW, Moving, Window

TINY_PATH = Path(__file__).parent / "boards" / "tiny.json"
TINY = load_board(TINY_PATH)
TINY_ENGINE = Spycatcher({"tiny": TINY})
LEAGUE = ENGINE.boards["league"]


def table(
    hands: Sequence[Sequence[str]],
    *,
    board: Board = LEAGUE,
    positions: Sequence[str] | None = None,
    permissions: Sequence[Sequence[str]] | None = None,
    pack: Sequence[str] = (),
    discard: Sequence[str] = (),
    full_deck: bool = True,
    turn: int = 0,
    phase: str = DRAW,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    must_move: Sequence[int] = (),
    missing: Sequence[int] | None = None,
    moving: Moving | None = None,
    window: Window | None = None,
) -> SpycatcherState:
    seats = len(hands)
    engine = ENGINE if board is LEAGUE else Spycatcher({board.name: board})
    opts = validate_options({"board": board.name, **(options or {})}, engine.options)
    used = Counter(c for h in hands for c in h)
    used.update(pack)
    used.update(discard)
    if window is not None:
        used.update(window.cards)
    assert not used - Counter(DECK), f"cards not in the deck or twice: {used - Counter(DECK)}"
    rest = sorted(set(DECK) - set(used))
    full_pack = (*pack, *rest) if full_deck else tuple(pack)

    held: list[tuple[str, ...]] = []
    taken: set[str] = set()
    for row in permissions or [[] for _ in range(seats)]:
        cards = []
        for item in row:
            if item in SUITS:
                item = next(c.id for c in board.packs[item] if c.permission and c.id not in taken)
            taken.add(item)
            cards.append(item)
        held.append(tuple(cards))
    locations = tuple(tuple(c.id for c in board.packs[suit] if c.id not in taken) for suit in SUITS)
    where = positions or ["mi5"] * seats
    return SpycatcherState(
        seats=seats,
        seed=seed,
        board=board,
        options=opts,
        hand_size=opts["hand_size"],
        may_stay=opts["may_stay"],
        turn_limit=opts["turn_limit"],
        pack=tuple(full_pack),
        top=0,
        discard=tuple(discard),
        hands=tuple(sort_cards(list(h)) for h in hands),
        positions=tuple(board.index[p] for p in where),
        permissions=tuple(held),
        locations=locations,
        first=0,
        turn=turn,
        phase=phase if window is None else WINDOW,
        turns=1,
        must_move=frozenset(must_move),
        missing=tuple(missing or [0] * seats),
        moving=moving,
        window=window,
    )


def engine_for(state: SpycatcherState) -> Spycatcher:
    return ENGINE if state.board is LEAGUE else Spycatcher({state.board.name: state.board})


def play(state: SpycatcherState, *moves: tuple[int, dict[str, Any]]) -> SpycatcherState:
    engine = engine_for(state)
    for seat, action in moves:
        state = engine.apply(state, seat, action)
    return state


def with_die(state: SpycatcherState, die: int) -> SpycatcherState:
    """The same state with the seed's next die roll changed to ``die`` (by picking the ``rolls`` label)."""
    from games.core import chance

    for rolls in range(10_000):
        if chance(state.seed, "die", rolls).randint(1, 6) == die:
            return replace(state, rolls=rolls)
    raise AssertionError("no such roll")


def all_cards(state: SpycatcherState) -> Counter[str]:
    """Every influence card in the game, wherever it is."""
    cards: Counter[str] = Counter(state.pack[state.top :])
    for hand in state.hands:
        cards.update(hand)
    cards.update(state.discard)
    if state.window is not None:
        cards.update(state.window.cards)
        for _, played in state.window.answers:
            cards.update(played)  # face up on the table until the window closes
    return cards


def all_location_cards(state: SpycatcherState) -> Counter[str]:
    cards: Counter[str] = Counter(c for pack in state.locations for c in pack)
    for held in state.permissions:
        cards.update(held)
    return cards


def events_of(state: SpycatcherState, kind: str) -> list[dict[str, Any]]:
    return [e for e in engine_for(state).events(state) if e["event"] == kind]
