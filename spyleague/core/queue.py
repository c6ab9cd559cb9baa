"""Queueing Celery tasks as a follow-up to work already done, without ever failing that work.

A request that applied a move, or created a job row, has done what it was asked: the task it
queues after its commit (the bots' turn, the job's run) follows from the database, and the
periodic sweeps (Celery beat) find anything that waits and run it. So a send that fails when
the broker is away must not fail the request, nor hold it up: ``send_task_safely`` logs the
failure and returns False. A broker that refuses connections fails a send at once; one that
does not answer at all costs a send its timeouts, so after such a slow failure sends are
skipped for ``QUIET_SECONDS`` rather than make every request wait. The sweeps catch up with
what was not sent.

A Redis that does not answer at all (its host gone, the network cut, the process stopped) is
worse than one that refuses: each call waits for its socket timeouts, and a send to the broker
retries, so a move made then answered after 8 to 11 s (measured by hand, Redis stopped with
SIGSTOP). So every such call goes through ``within_deadline``: it runs in a thread beside its
caller, who waits for it ``DEADLINE_SECONDS`` at most and then goes on as if it had failed
slowly, while the call ends by itself. A request thus waits on Redis for at most that long per
service, once per quiet period.

How long a send may take is set in settings ("publishing from the web process"): the broker
connection's timeouts, and one retry at once (``CELERY_TASK_PUBLISH_RETRY_POLICY``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from queue import SimpleQueue
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

QUIET_SECONDS = 5.0  # how long a service that failed slowly is skipped
SLOW_SECONDS = 0.5  # a failure that took longer than this was a timeout, not a refusal
DEADLINE_SECONDS = 0.5  # the longest a caller waits on one call to Redis (then it goes on beside it)


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
            self.timed_out()

    def timed_out(self) -> None:
        """A call did not answer in time: skip the service for ``QUIET_SECONDS``."""
        self._until = time.monotonic() + QUIET_SECONDS

    def over(self) -> None:
        self._until = 0.0


BROKER = Outage()
# The site's Redis (REDIS_URL), one for all that use it on a request's way (the throttle, the
# pages' cache, the live feeds): a Redis found silent by one is skipped by all, so a request
# waits on a silent Redis once, never once per use.
REDIS = Outage()


class TooSlow(TimeoutError):
    """A call to Redis did not answer within ``DEADLINE_SECONDS`` (it goes on beside its caller)."""


class _Beside:
    """The threads that make the calls of ``within_deadline``: as many as are busy at once.

    Daemon threads, so that a call stuck on a Redis that does not answer never holds up the end
    of the process; started when needed, and again in a forked child (a Celery pool process, a
    gunicorn worker), which inherits none of its parent's threads.
    """

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._calls: SimpleQueue[tuple[Callable[[], Any], Future[Any]]] = SimpleQueue()
        self._lock = threading.Lock()
        self._idle = 0

    def submit[T](self, call: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        with self._lock:
            start = self._idle == 0
            if not start:
                self._idle -= 1  # this call is that thread's
        if start:
            threading.Thread(target=self._work, name="redis-call", daemon=True).start()
        self._calls.put((call, future))
        return future

    def _work(self) -> None:
        while True:
            call, future = self._calls.get()
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(call())
                except BaseException as exc:
                    future.set_exception(exc)
            with self._lock:
                self._idle += 1


_BESIDE = _Beside()


def within_deadline[T](outage: Outage, call: Callable[[], T]) -> T:
    """``call()``, one call to Redis or the broker, waiting for it ``DEADLINE_SECONDS`` at most.

    Returns what it returns and raises what it raises; when it has not answered in time, raises
    ``TooSlow`` and marks ``outage`` (so the next callers skip the service for a while) while the
    call ends by itself in its thread. A failure is noted in ``outage`` too (``Outage.failed``).
    """
    started = time.monotonic()
    future = _BESIDE.submit(call)
    try:
        return future.result(timeout=DEADLINE_SECONDS)
    except FutureTimeout:
        outage.timed_out()
        raise TooSlow(f"no answer within {DEADLINE_SECONDS} s") from None
    except Exception:
        outage.failed(started=started)
        raise


def send_task_safely(task: Any, *args: Any, countdown: float | None = None) -> bool:
    """Queue ``task(*args)`` (after ``countdown`` seconds); False when the broker did not take it.

    Never raises for the broker, and never waits on it for more than ``DEADLINE_SECONDS``.
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
    try:
        apply = task.apply_async  # the task as this thread sees it (Celery's current app is per thread)
        within_deadline(BROKER, lambda: apply(args, countdown=countdown, ignore_result=True))
    except Exception:
        log.warning("Could not queue %s%r: the broker is away", task.name, args, exc_info=True)
        return False
    BROKER.over()
    return True
