"""The write path of online matches, at the bottom: a move under the match's lock, and what follows.

Every action goes through the engine under a row lock on the match (``match_locked``; and an
optional version check by the caller), so two clicks, two tabs or two players acting at once can
never both win: the second sees the new state and is told so. An illegal or stale action raises
``MoveRejected`` with a reason and changes nothing. ``apply_move`` applies one action to a locked
match (the log, the outcome, the clock, the bots' mark), and ``after_change`` tells the
watchers and queues the bots' turn once it commits.

The rest of the app imports this at the top: the services (create, seat, start, move, resign),
the bots (``bots``), the race's short way (``race_moves``), the views. It imports nothing of
theirs: only the models, the state, the clocks, the race's messages and the queues below it
(the task it queues imports its service inside its body, as tasks do).
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import IllegalAction, get_engine

from ..clubs.models import Player
from ..core.prepared import Prepared, prefetched
from ..core.queue import send_task_safely
from . import live, race_view
from .clocks import deadline_of
from .models import Match, MatchSeat, Move
from .results import match_report_result
from .state import match_state, remember_state
from .sweeps import bot_turn
from .tasks import run_bots

log = logging.getLogger(__name__)


class MoveRejected(Exception):
    """An action that was not applied; ``reason`` says why in words."""

    def __init__(self, reason: str, *, status: int = 400) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def player_of(user: Any) -> Player | None:
    return getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None


def seat_of(*, match: Match, user: Any) -> int | None:
    """The seat the user plays in this match, or None for a spectator."""
    player = player_of(user)
    if player is None:
        return None
    for seat in match.seat_set.all():
        if seat.player_id == player.pk:
            # A player who resigned watches as a spectator while a bot plays on for them (and is
            # a player of the match again once it is over: the rematch, the rating change).
            playing_on = seat.resigned is not None and match.status == Match.Status.PLAYING
            return None if playing_on else seat.number
    return None


_LOCKED = Prepared(lambda pk: Match.objects.select_for_update().filter(pk=pk)[:1])
_SEATS = Prepared(lambda pk: MatchSeat.objects.filter(match_id=pk))


def match_locked(match_id: int) -> Match:
    # The seats come along (one query): seat_of, the bots and after_change read them from here.
    # Both compiled once (core.prepared): every move and every bots' turn asks for them.
    match = _LOCKED.one(match_id)
    if match is None:
        raise MoveRejected("There is no such match.", status=404)
    prefetched(match, "seat_set", _SEATS.list(match.pk))
    return match


_READ = Prepared(lambda pk: Match.objects.filter(pk=pk)[:1])


def match_snapshot(match_id: int) -> Match | None:
    """The match as it is now, with its seats, read without a lock (None when there is none): a
    bot thinks from it outside any transaction (``bots``), and its move is applied under
    ``match_locked`` only if the version is still the same."""
    match = _READ.one(match_id)
    if match is not None:
        prefetched(match, "seat_set", _SEATS.list(match.pk))
    return match


def touch(match: Match) -> None:
    """A change of seats to a match the caller has locked (``match_locked``): bump nothing in
    the log, but tell the watchers."""
    match.save(update_fields=["updated"])
    announce(match)


def announce(match: Match) -> None:
    """Once the change commits: tell the match's watchers its version, and a race's pages the
    race as it is now (built here, from the state the change just computed: ``race_moves``)."""
    transaction.on_commit(partial(live.publish, match.pk, match.version))
    if match.status != Match.Status.OPEN and race_view.is_race(match.game):
        version, message = race_view.update_of(match)
        transaction.on_commit(partial(race_view.publish_update, match.pk, version, message))


def after_change(match: Match) -> None:
    """After the commit: tell the watchers, and queue the bots' turn.

    Neither may fail nor hold up the action, which is applied: a notice that cannot be published
    is caught up by the streams' own looks, and a bots' turn the broker did not take by the
    periodic sweep of matches waiting on a bot.
    """
    announce(match)
    if match.status == Match.Status.PLAYING and any(s.bot for s in match.seat_set.all()):
        transaction.on_commit(partial(send_task_safely, run_bots, match.pk))


def apply_move(match: Match, seat: int, action: dict[str, Any]) -> Any:
    """Apply one action to a locked match. The caller holds the transaction."""
    engine = get_engine(match.game)
    state = match_state(match)
    if seat not in engine.to_act(state):
        raise MoveRejected("It is not your turn.")
    try:
        new_state = engine.apply(state, seat, action)
    except IllegalAction as exc:
        raise MoveRejected(exc.reason) from exc
    match.version += 1
    Move.objects.create(match=match, number=match.version, seat=seat, action=action)
    outcome = engine.outcome(new_state)
    fields = ["version", "updated", "deadline"]
    if outcome is not None:
        match.status = Match.Status.FINISHED
        match.outcome = with_resignations(match, outcome.as_dict())
        fields += ["status", "outcome"]
        fields += report_on_commit(match)
    match.deadline = deadline_of(match, new_state, state)
    match.bot_turn = bot_turn(match, new_state)
    match.save(update_fields=[*fields, "bot_turn"])
    remember_state(match, new_state)
    return new_state


def has_resigned(match: Match, user: Any) -> bool:
    """Whether ``user`` played in ``match`` and resigned (a bot plays their seat on)."""
    player = player_of(user)
    return player is not None and any(
        s.player_id == player.pk and s.resigned is not None for s in match.seat_set.all()
    )


def with_resignations(match: Match, outcome: dict[str, Any]) -> dict[str, Any]:
    """``outcome`` with the seats whose players resigned placed below all the others (of them,
    the first to resign last), the others keeping their order and ties; ``detail.resigned``
    lists the resigned seats in the order they resigned."""
    resigned = {s.number: s.resigned for s in match.seat_set.all() if s.resigned is not None}
    if not resigned:
        return outcome
    places = outcome["places"]
    keys = [(1, -resigned[n]) if n in resigned else (0, places[n]) for n in range(len(places))]
    detail = dict(outcome.get("detail") or {})
    detail["resigned"] = sorted(resigned, key=lambda n: resigned[n])
    return {
        **outcome,
        "places": [1 + sum(1 for other in keys if other < key) for key in keys],
        "detail": detail,
    }


def report_on_commit(match: Match) -> list[str]:
    """Report the ended match's result once the move commits; the fields to save with it.

    Robust: the move is applied whatever becomes of its report (the error is logged). The mark
    ``report_due`` is saved with the move and cleared by the report, so a report that failed (a
    database error, the process ending before it ran) is made by the sweep (``sweeps``).
    """
    match.report_due = timezone.now()
    transaction.on_commit(partial(match_report_result, match_id=match.pk), robust=True)
    return ["report_due"]
