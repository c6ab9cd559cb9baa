"""Queueing Celery tasks as a follow-up to work already done, without ever failing that work.

A request that applied a move, or created a job row, has done what it was asked: the task it
queues after its commit (the bots' turn, the job's run) follows from the database, and the
periodic sweeps (Celery beat) find anything that waits and run it. So a send that fails when
the broker is away must not fail the request, nor hold it up: ``send_task_safely`` logs the
failure and returns False. A broker that refuses connections fails a send at once; one that
does not answer at all costs a send its timeouts, so after such a slow failure sends are
skipped for ``QUIET_SECONDS`` rather than make every request wait. The sweeps catch up with
what was not sent.

How long a send may take is set in settings ("publishing from the web process"): the broker
connection's timeouts, and one retry at once (``CELERY_TASK_PUBLISH_RETRY_POLICY``).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

QUIET_SECONDS = 5.0  # how long a service that failed slowly is skipped
SLOW_SECONDS = 0.5  # a failure that took longer than this was a timeout, not a refusal


class Outage:
    """Whether to skip a service for now: it failed slowly (timed out) moments ago.

    A service that refuses at once is tried every time, so the first call after it is back
    goes through; one that times out is left alone for ``QUIET_SECONDS`` after each failure.
    """

    def __init__(self) -> None:
        self._until = 0.0

    def ongoing(self) -> bool:
        return time.monotonic() < self._until

    def failed(self, *, started: float) -> None:
        """A call begun at ``started`` (``time.monotonic()``) failed."""
        if time.monotonic() - started > SLOW_SECONDS:
            self._until = time.monotonic() + QUIET_SECONDS

    def over(self) -> None:
        self._until = 0.0


BROKER = Outage()


def send_task_safely(task: Any, *args: Any, countdown: float | None = None) -> bool:
    """Queue ``task(*args)`` (after ``countdown`` seconds); False when the broker did not take it.

    Never raises for the broker, and never waits on it for more than its connection timeouts.
    The task's result is not kept: the site reads what a task did from the database, and asking
    for a result would make every send subscribe to the result backend as well, which with
    Redis away retries for about 20 s before it gives up.

    With eager Celery (no broker: local use and the tests) the task runs here and now, and its
    errors are the caller's, as ``delay`` would have it.
    """
    if settings.CELERY_TASK_ALWAYS_EAGER:
        task.apply_async(args, countdown=countdown)
        return True
    if BROKER.ongoing():
        log.warning("Not queueing %s%r: the broker timed out moments ago", task.name, args)
        return False
    started = time.monotonic()
    try:
        task.apply_async(args, countdown=countdown, ignore_result=True)
    except Exception:
        BROKER.failed(started=started)
        log.warning("Could not queue %s%r: the broker is away", task.name, args, exc_info=True)
        return False
    BROKER.over()
    return True
