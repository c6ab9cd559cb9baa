"""Shared loops for the game benchmarks: random playouts through the protocol, and win rates."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import Bot, Engine, RandomBot, chance

PlayGame = Callable[[Sequence[Bot], int], tuple[Any, Any]]


def random_games(
    engine: Engine, games: int, seats: int, *, with_view: bool, options: Mapping[str, Any] | None = None
) -> tuple[float, int, Any]:
    """Play ``games`` games of random legal actions; return (seconds, moves, the last state).

    Each step: ``to_act``, ``legal`` for the lowest acting seat, a random choice (after building
    that seat's ``view`` when ``with_view``, as a bot on the site does), ``apply``.
    """
    bot = RandomBot()
    moves = 0
    state: Any = None
    began = time.perf_counter()
    for seed in range(games):
        rng = chance(seed, "benchmark")
        state = engine.start(seats, seed, options or {})
        while True:
            to_act = engine.to_act(state)
            if not to_act:
                break
            seat = min(to_act)
            legal = engine.legal(state, seat)
            view = engine.view(state, seat) if with_view else {}
            state = engine.apply(state, seat, bot.choose(view, legal, rng))
            moves += 1
        assert engine.outcome(state) is not None
    return time.perf_counter() - began, moves, state


def win_rate(engine: Engine, bots: Mapping[str, Bot], play_game: PlayGame, games: int, seats: int) -> float:
    """The heuristic bot's share of wins (ties split) against random bots, rotating its seat."""
    wins = 0.0
    for seed in range(games):
        seat = seed % seats
        table = [bots["random"]] * seats
        table[seat] = bots["heuristic"]
        state, _ = play_game(table, seed)
        outcome = engine.outcome(state)
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    return wins / games
