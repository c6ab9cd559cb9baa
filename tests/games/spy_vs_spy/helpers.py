"""Shared helpers for the Spy vs Spy tests: rigged tables and bot-driven play."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.core import Bot
from games.spy_vs_spy import ENGINE
from games.spy_vs_spy.cards import DECK
from games.spy_vs_spy.engine import Spy, SpyVsSpyState, begin_race
from games.spy_vs_spy.scoring import Standing

Move = tuple[int, dict[str, Any]]


def rigged_spy(hand: str, points: int = 5, debt: int = 0, *, racing: bool = True) -> Spy:
    """A seat whose racing hand is exactly ``hand`` (top first, e.g. "AS 5H 9D KC 3H"), square dealt.

    Its points pile is ``points`` other cards of the deck (their faces never matter);
    ``debt`` makes its score ``points - debt``. ``racing=False``: a seat sitting out.
    """
    cards = hand.split()
    assert len(set(cards)) == len(cards) and set(cards) <= set(DECK), hand
    filler = [card for card in DECK if card not in cards]
    assert points <= len(filler)
    spy = Spy(points_pile=tuple(filler[:points]), debt=debt, hand=tuple(cards))
    return begin_race(spy) if racing else spy


def rigged(
    *spies: Spy, half_decks: bool = False, seed: int = 0, standing: Standing | None = None, race: int = 1
) -> SpyVsSpyState:
    """A table at the start of a race with the given seats; ``standing`` for a tie-break race."""
    n = len(spies)
    standing = standing or Standing(contenders=tuple(range(n)))
    return SpyVsSpyState(
        seats=n,
        seed=seed,
        half_decks=half_decks,
        race=race,
        phase="race",
        spies=tuple(spies),
        racers=standing.contenders,
        standing=standing,
        choices=(None,) * n,
    )


def act(state: SpyVsSpyState, seat: int, action: dict[str, Any]) -> SpyVsSpyState:
    """Apply an action after checking that ``legal`` lists it."""
    assert action in ENGINE.legal(state, seat), (action, ENGINE.legal(state, seat))
    return ENGINE.apply(state, seat, action)


def race_out(state: SpyVsSpyState, seat: int, *, finish: bool = True) -> SpyVsSpyState:
    """Play ``seat``'s race to the end, always choosing the first pile that fits."""
    while seat in ENGINE.to_act(state) and state.phase == "race":
        legal = ENGINE.legal(state, seat)
        if legal[0]["type"] == "finish" and not finish:
            break
        state = ENGINE.apply(state, seat, legal[0])
    return state


def deck_counts(state: SpyVsSpyState) -> list[Counter[str]]:
    """The cards of each deck in play: one per seat, or one shared deck with half decks."""
    held = [Counter(spy.cards()) for spy in state.spies]
    if state.half_decks:
        return [held[0] + held[1]]
    return held


def play(
    seats: int,
    seed: int,
    options: dict[str, Any] | None = None,
    bots: list[Bot] | None = None,
    max_moves: int = 200_000,
) -> tuple[SpyVsSpyState, list[Move]]:
    """A game driven by bots through the protocol; the seat to act is drawn at random."""
    from games.spy_vs_spy.bots import BOTS

    rng = random.Random(seed)
    players = bots or [BOTS["random"]] * seats
    state = ENGINE.start(seats, seed, options or {})
    moves: list[Move] = []
    while ENGINE.outcome(state) is None and len(moves) < max_moves:
        seat = rng.choice(sorted(ENGINE.to_act(state)))
        action = players[seat].choose(ENGINE.view(state, seat), ENGINE.legal(state, seat), rng)
        state = ENGINE.apply(state, seat, action)
        moves.append((seat, action))
    return state, moves
