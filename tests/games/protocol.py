"""Checks of the engine protocol (shared/design/engines.md) that hold for every game.

The games' property tests play random games and call these at chosen steps. A check that
says a state is unchanged compares ``snapshot(state)`` before and after: each game passes a
snapshot that holds everything in its state, the event log included.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.core import IllegalAction, replay
from games.core.protocol import Action, Engine, State

Snapshot = Callable[[State], Any]
Scramble = Callable[[State, int | None, random.Random], State]


def unlisted(candidates: Iterable[Any], legal: Sequence[Action]) -> list[Any]:
    """The candidates that ``legal`` does not list, compared as JSON (``True`` is not ``1``)."""
    allowed = {json.dumps(action, sort_keys=True) for action in legal}
    return [action for action in candidates if json.dumps(action, sort_keys=True) not in allowed]


def check_refused(engine: Engine, state: State, seat: int, action: Any, legal: Sequence[Action] = ()) -> None:
    """``apply`` refuses ``action`` with an ``IllegalAction`` whose reason a person can read."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction as exc:
        assert exc.reason, f"refused {action!r} without a reason"
    else:
        raise AssertionError(f"accepted {action!r}, not in {list(legal)!r}")


def check_refusals(
    engine: Engine, state: State, seat: int, bad: Iterable[Any], *, seats: int, snapshot: Snapshot
) -> None:
    """Bad input changes nothing.

    ``seat`` is refused every action of ``bad``; every seat outside ``to_act`` lists no action
    and is refused the first action ``seat`` may take; and the state is as it was.
    """
    before = snapshot(state)
    legal = engine.legal(state, seat)
    assert legal, f"seat {seat} is to act and lists no action"
    for action in bad:
        check_refused(engine, state, seat, action, legal)
    for outsider in sorted(set(range(seats)) - engine.to_act(state)):
        assert engine.legal(state, outsider) == [], f"seat {outsider} may not act but lists actions"
        try:
            engine.apply(state, outsider, legal[0])
        except IllegalAction as exc:
            assert exc.reason, f"refused seat {outsider} without a reason"
        else:
            raise AssertionError(f"seat {outsider}, not in to_act, acted")
    assert snapshot(state) == before, "a refused action changed the state"


def apply_keeping_state(
    engine: Engine, state: State, seat: int, action: Action, snapshot: Snapshot | None
) -> State:
    """``apply``; given a ``snapshot``, check too that the state given is left as it was."""
    if snapshot is None:
        return engine.apply(state, seat, action)
    before = snapshot(state)
    after = engine.apply(state, seat, action)
    assert snapshot(state) == before, "apply changed the state it was given"
    return after


def check_views_hide(
    engine: Engine,
    state: State,
    viewers: Iterable[int | None],
    scramble: Scramble,
    rng: random.Random,
    where: object = None,
) -> None:
    """Views never leak: ``scramble(state, viewer, rng)`` redeals all that ``viewer`` may not see
    among places it cannot tell apart, and ``viewer`` must see exactly the same view (as JSON)."""
    for viewer in viewers:
        view = json.dumps(engine.view(state, viewer))
        hidden = json.dumps(engine.view(scramble(state, viewer, rng), viewer))
        assert hidden == view, ("the view shows what it must hide", viewer, where)


def check_replay(
    engine: Engine,
    seats: int,
    seed: int,
    options: dict[str, Any],
    moves: list[tuple[int, Action]],
    state: State,
    snapshot: Snapshot,
) -> None:
    """Replaying the move log gives the same state, the same view for every seat and a
    spectator, and the same outcome: a game is stored as (seats, seed, options, moves)."""
    again = replay(engine, seats, seed, options, moves)
    assert snapshot(again) == snapshot(state)
    for viewer in [None, *range(seats)]:
        assert engine.view(again, viewer) == engine.view(state, viewer), viewer
    assert engine.outcome(again) == engine.outcome(state)
