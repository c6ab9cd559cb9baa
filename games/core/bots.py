"""Bots play through the same protocol as people and see only their own ``view``."""

from __future__ import annotations

import random
from typing import Any, Protocol

from .protocol import Action


class Bot(Protocol):
    name: str
    label: str

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action. The baseline for every game."""

    name = "random"
    label = "Novice"

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        return legal[rng.randrange(len(legal))]


def play_out(
    engine: Any, seats: int, seed: int, options: dict[str, Any] | None = None, *, max_moves: int = 100_000
) -> Any:
    """Play a whole game with random bots in every seat; the ``Outcome``.

    Real final scores for demo data and tests: totals a table could really write down.
    """
    rng = random.Random(seed)
    bot = RandomBot()
    state = engine.start(seats, seed, options or {})
    for _ in range(max_moves):
        outcome = engine.outcome(state)
        if outcome is not None:
            return outcome
        seat = min(engine.to_act(state))
        state = engine.apply(
            state, seat, bot.choose(engine.view(state, seat), engine.legal(state, seat), rng)
        )
    raise RuntimeError(f"No end after {max_moves} moves.")
