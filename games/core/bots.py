"""Bots play through the same protocol as people and see only their own ``view``."""

from __future__ import annotations

import random
from typing import Any, Protocol

from .protocol import Action


class Bot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Plays a uniformly random legal action. The baseline for every game."""

    name = "random"

    def choose(self, view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if not legal:
            raise ValueError("The bot was asked to act with no legal action.")
        return legal[rng.randrange(len(legal))]
