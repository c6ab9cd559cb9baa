"""A tiny engine for the web tests: seats take turns adding 1 or 2; whoever reaches 10 wins.

It keeps the online-play tests independent of the real games' rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.core import IllegalAction, Option, Outcome, validate_options

OPTIONS = {"target": Option(int, 10, "The number to reach.", lambda v: None if 3 <= v <= 50 else "3 to 50")}


@dataclass(frozen=True)
class State:
    seats: int
    total: int
    turn: int
    target: int
    winner: int | None = None


class RaceToTen:
    slug = "race-to-ten"
    title = "Race to Ten"
    seats = range(2, 5)
    options = OPTIONS

    def start(self, seats: int, seed: int, options: Mapping[str, Any]) -> State:
        opts = validate_options(options, OPTIONS)
        return State(seats=seats, total=0, turn=seed % seats, target=opts["target"])

    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "add", "n": n} for n in (1, 2) if state.total + n <= state.target]

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> State:
        if action not in self.legal(state, seat):
            raise IllegalAction(f"You can add 1 or 2 without passing {state.target}.")
        total = state.total + action["n"]
        return replace(
            state, total=total, turn=(seat + 1) % state.seats, winner=seat if total == state.target else None
        )

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"total": state.total, "target": state.target, "turn": state.turn}

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        places = tuple(1 if s == state.winner else 2 for s in range(state.seats))
        return Outcome(scores=tuple(float(p == 1) for p in places), places=places)


ENGINE = RaceToTen()
