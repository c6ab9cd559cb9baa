"""The clocks of online matches: when the seats to act run out of time.

Reaction windows (several seats asked at once, outside the turn order) close on a timer, and so
do turns where the engine keeps a turn clock (``turn_clock``). ``deadline_of`` works out the
match's ``deadline`` after each move; ``services.match_timeouts_close`` acts when it passes.
Below the write path (``moves`` sets the deadline with each move), above the models and state.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import get_engine

from .models import Match, Move
from .state import match_state


def deadline_of(match: Match, state: Any, previous: Any = None) -> Any:
    """When the seats to act run out of time: reaction windows (several seats asked at once,
    outside the turn order) close on a timer, and so do turns where the engine keeps a turn clock.

    ``turn_clock(state)`` (optional) gives ``{"key", "seconds"}`` for a timed turn: the clock starts
    when the key first appears and runs on through the reaction windows the turn opens (they have
    their own, shorter timer); the turn's deadline comes back when they close.
    """
    engine = get_engine(match.game)
    turn = turn_clock(engine, state)
    before = None if previous is None else turn_clock(engine, previous)
    if getattr(engine, "reaction_window", None) and engine.reaction_window(state):  # type: ignore[attr-defined]
        if before is not None and match.deadline is not None:
            TURN_DEADLINES.remember(match, before["key"], match.deadline)
        return timezone.now() + timedelta(seconds=settings.PLAY_REACTION_SECONDS)
    if turn is None:
        return None
    if before is not None and before["key"] == turn["key"] and match.deadline is not None:
        return match.deadline  # the same turn goes on
    if previous is not None and before is None:
        return _turn_deadline_recalled(match, engine, turn)  # back from a reaction window
    return TURN_DEADLINES.remember(
        match, turn["key"], timezone.now() + timedelta(seconds=int(turn["seconds"]))
    )


def turn_clock(engine: Any, state: Any) -> dict[str, Any] | None:
    clock = getattr(engine, "turn_clock", None)
    return None if clock is None else clock(state)


class _TurnDeadlines:
    """The deadline of each timed turn, by match and turn key, kept by this process.

    A reaction window replaces ``match.deadline`` for a while; the turn's own deadline comes back
    from here when it closes, or from the move log (``_turn_deadline_recalled``) in another process.
    """

    MAX = 1024

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._deadlines: OrderedDict[tuple[int, float, str], datetime] = OrderedDict()

    @staticmethod
    def _key(match: Match, key: str) -> tuple[int, float, str]:
        return (match.pk, match.created.timestamp(), key)

    def remember(self, match: Match, key: str, deadline: datetime) -> datetime:
        with self._lock:
            self._deadlines[self._key(match, key)] = deadline
            self._deadlines.move_to_end(self._key(match, key))
            while len(self._deadlines) > self.MAX:
                self._deadlines.popitem(last=False)
        return deadline

    def recall(self, match: Match, key: str) -> datetime | None:
        with self._lock:
            return self._deadlines.get(self._key(match, key))


TURN_DEADLINES = _TurnDeadlines()


def _turn_deadline_recalled(match: Match, engine: Any, turn: dict[str, Any]) -> datetime:
    """The deadline of a timed turn that a reaction window interrupted.

    Not remembered by this process: the log says which move began the turn (the engine
    replays fast), and that move's time starts the clock.
    """
    remembered = TURN_DEADLINES.recall(match, turn["key"])
    if remembered is not None:
        return remembered
    replayed = engine.start(match.seats, match.seed, match.options)
    last_key = (turn_clock(engine, replayed) or {}).get("key")
    began = 0
    for number, seat, action in (
        Move.objects.filter(match=match).order_by("number").values_list("number", "seat", "action")
    ):
        replayed = engine.apply(replayed, seat, action)
        clock = turn_clock(engine, replayed)
        if clock is None:
            continue
        if clock["key"] != last_key:
            began, last_key = number, clock["key"]
    move = Move.objects.filter(match=match, number=began).first() if began else None
    # A turn that began with the match (before any move) has no move to date it: it starts afresh.
    started = move.created if move is not None else timezone.now()
    return TURN_DEADLINES.remember(match, turn["key"], started + timedelta(seconds=int(turn["seconds"])))


def clock_start(match: Match) -> None:
    """A match that begins with a timed turn starts its clock."""
    deadline = deadline_of(match, match_state(match))
    if deadline != match.deadline:
        match.deadline = deadline
        match.save(update_fields=["deadline"])
