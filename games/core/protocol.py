"""The protocol every rules engine follows (see shared/design/engines.md).

An engine is a stateless object; all of a game's data lives in its state. ``apply``
never changes the state it is given: it returns a new one, so a caller may keep
old states (replays, bots that look ahead) without copying them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Action = dict[str, Any]
State = Any


@dataclass(frozen=True)
class Outcome:
    """A finished game: a score for every seat and a place for every seat.

    ``places[seat]`` is 1 for the winner; seats that tie share a place, and the next
    place skips accordingly (1, 1, 3). ``scores`` are in the game's own terms.
    """

    scores: tuple[float, ...]
    places: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> frozenset[int]:
        return frozenset(seat for seat, place in enumerate(self.places) if place == 1)

    def as_dict(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "places": list(self.places), "detail": dict(self.detail)}


def places_from_scores(scores: tuple[float, ...] | list[float], *, lowest_wins: bool) -> tuple[int, ...]:
    """Standard competition ranking ("1224") of seats by score."""
    ordered = sorted(scores, reverse=not lowest_wins)
    return tuple(ordered.index(score) + 1 for score in scores)


@runtime_checkable
class Engine(Protocol):
    slug: str
    title: str
    seats: range
    options: Mapping[str, Any]  # the option schema: name -> games.core.Option

    def start(self, seats: int, seed: int, options: Mapping[str, Any]) -> State: ...

    def to_act(self, state: State) -> frozenset[int]: ...

    def legal(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> State: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def outcome(self, state: State) -> Outcome | None: ...


def replay(
    engine: Engine,
    seats: int,
    seed: int,
    options: Mapping[str, Any],
    moves: list[tuple[int, Action]],
) -> State:
    """Rebuild a state from the move log: the game's whole truth."""
    state = engine.start(seats, seed, options)
    for seat, action in moves:
        state = engine.apply(state, seat, action)
    return state
