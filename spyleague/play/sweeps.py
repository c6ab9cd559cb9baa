"""The bot sweep: no match waits on its bots for long, whatever became of the message that
should have asked them to act; and no ended match stays unreported (``reports_sweep``).

After every move the bots' turn is queued (``moves.after_change``), and Spy vs Spy bots race
on through a chain of delayed runs (``realtime.bots_follow_up``). A message can be lost: the
broker was away when the move was made, or the worker holding it was killed or restarted (which
also breaks a race's chain). So every match says whether it waits on a bot: ``Match.bot_turn``
holds when it last moved while a bot was to act (every move sets or clears it, see
``bot_turn``), and when its bots were last asked again; it is empty while only people are to act.

Celery beat runs ``bots_sweep`` every ``SWEEP_SECONDS``: a match marked longer ago than that has
waited on its bots, and they are asked again (a ``run_bots`` task: the turn-based bots' turns, a
race's bots' due moves, and a new chain of follow-ups). Nothing is run twice: ``bots.match_run_bots``
makes each move under the match's row lock, after checking again who is to act (and, in a race,
whether the bot's pace allows it), so a second run beside the first finds nothing more to do.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import get_engine

from ..core.queue import send_task_safely
from .models import Match
from .state import match_state

log = logging.getLogger(__name__)

SWEEP_BATCH = 200  # matches one sweep asks at most (the oldest first; the next sweep asks the rest)


def bot_turn(match: Match, state: Any) -> datetime | None:
    """The mark of ``match`` in ``state`` (its seats loaded): now when a bot is to act, else None."""
    if match.status != Match.Status.PLAYING:
        return None
    bots = {seat.number for seat in match.seat_set.all() if seat.bot}
    if not bots or not bots.intersection(get_engine(match.game).to_act(state)):
        return None
    return timezone.now()


def bots_sweep(*, now: datetime | None = None, limit: int = SWEEP_BATCH) -> int:
    """Ask the bots of every match that has waited on them for ``SWEEP_SECONDS`` to act.

    Returns how many matches were asked. When no match waits it costs one query, on the index
    of ``bot_turn``. Safe beside itself and beside the moves: a match is asked only by the run
    that moves its mark on from the value it read.
    """
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.SWEEP_SECONDS)
    waiting = Match.objects.filter(bot_turn__lte=since).order_by("bot_turn").values_list("pk", "bot_turn")
    asked = 0
    for match_id, mark in waiting[:limit]:
        try:
            asked += _ask(match_id, mark, now)
        except Exception:  # one broken match must not keep the others waiting
            log.exception("The bot sweep could not look at match %s", match_id)
            Match.objects.filter(pk=match_id, bot_turn=mark).update(bot_turn=now)  # not at every sweep
    return asked


def _ask(match_id: int, mark: datetime | None, now: datetime) -> bool:
    as_read = Match.objects.filter(pk=match_id, bot_turn=mark)
    match = as_read.prefetch_related("seat_set").first()
    if match is None:
        return False  # it moved meanwhile: that move asked the bots
    if bot_turn(match, match_state(match)) is None:
        as_read.update(bot_turn=None)  # only people are to act: a mark left from before
        return False
    if not as_read.update(bot_turn=now):
        return False  # a move, or another sweep, got there first
    from .tasks import run_bots

    log.info("Match %s waited on its bots since %s: asking them again", match_id, mark)
    send_task_safely(run_bots, match_id)
    return True


def reports_sweep(*, now: datetime | None = None, limit: int = SWEEP_BATCH) -> int:
    """Report the result of every match that ended ``SWEEP_SECONDS`` ago or more and still waits.

    A match's result is reported just after the move that ended it commits
    (``moves.report_on_commit``); if that failed (a database error, the web process ending
    in between), the match keeps its ``report_due`` mark and is reported here. The report is
    made once: ``match_report_result`` looks for it under the match's row lock. A report that
    fails again is tried at the next sweep but one (the mark moves on), and logged each time.
    Returns how many matches were reported (or found to have nothing to report).
    """
    from .results import match_report_result

    now = now or timezone.now()
    since = now - timedelta(seconds=settings.SWEEP_SECONDS)
    due = Match.objects.filter(report_due__lte=since).order_by("report_due").values_list("pk", flat=True)
    done = 0
    for match_id in list(due[:limit]):
        try:
            match_report_result(match_id=match_id)
        except Exception:
            log.exception("The result of match %s could not be reported; the sweep tries again", match_id)
            Match.objects.filter(pk=match_id).update(report_due=now)
        else:
            log.info("Match %s ended without its result reported: reported now", match_id)
            done += 1
    return done
