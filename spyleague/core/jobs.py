"""Queue and report background jobs (see ``Job``).

``job_queue`` creates the row and sends the task on commit, so a worker never sees a job
whose row is not yet visible (a send the broker did not take, the job sweep makes again).
Inside a task, ``JobReporter`` writes progress; it uses ``update()`` so it never overwrites
fields it does not own.

A job's status is its own: ``run_job`` claims a queued job in one update, so a task delivered
twice (or a second worker) finds it claimed and leaves it alone, and only the run that claimed
it marks it done or failed. Work that must not run twice at once (two recomputes of one event's
standings or of one game's ratings) holds ``job_lock`` for its name while it writes.

A job's message can fail to reach the broker (it was away when the job was queued, or when a sweep
sent the job again). The job then stays queued with an empty ``heartbeat``, which says that no message
of it waits anywhere, and ``unsent_jobs_sweep`` (Celery beat, every ``SWEEP_SECONDS``) sends it as soon
as the broker takes messages again: the job runs seconds after the broker is back, not once the job
sweep would give its message up for lost.

A worker can die mid-job (killed, out of memory, its machine gone). While a run works, a thread
beside it touches the row's ``heartbeat`` every ``JOB_HEARTBEAT_SECONDS``; the job sweep (Celery
beat, ``jobs_sweep``) finds a running job whose heartbeat is older than ``JOB_LOST_SECONDS`` and
queues it again when its task is safe to run twice (declared ``reject_on_worker_lost``), at most
``JOB_MAX_ATTEMPTS`` runs in all, or else marks it failed, saying so in words. Each run owns the
row through its attempt number, so a run that was given up for lost (its worker only stalled)
can no longer write into the row once another run has claimed it.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from .database import Trouble, trouble
from .models import Job
from .queue import send_task_safely

log = logging.getLogger(__name__)

# How a job's task says it is safe to run twice (``@shared_task(..., **SAFE_TWICE)``): its message is
# acknowledged only once it has run, and handed out again when the process running it dies (a
# prefork child killed); when its whole worker is gone, jobs_sweep runs it again.
SAFE_TWICE: dict[str, Any] = {"acks_late": True, "reject_on_worker_lost": True}


def lock_id(name: str) -> int:
    """A stable signed 64-bit number for a lock's name (PostgreSQL advisory locks take one)."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


def job_lock(name: str, *, wait: bool = True) -> bool:
    """Hold the lock called ``name`` until the current transaction ends; wait for it if another
    transaction holds it (``wait`` False: take it only if nobody holds it, and say whether it
    was taken).

    On PostgreSQL this is a transaction-level advisory lock. SQLite needs none: the site opens
    every transaction with ``BEGIN IMMEDIATE``, so one writer at a time holds the whole database.
    Call it inside ``transaction.atomic()``, before reading what the lock protects.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("job_lock() holds its lock until the transaction ends: call it inside one.")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            if not wait:
                cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [lock_id(name)])
                return bool(cursor.fetchone()[0])
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_id(name)])
    return True


def job_queue(
    *,
    kind: str,
    label: str,
    task: Any,
    params: dict[str, Any] | None = None,
    key: str = "",
    user: Any = None,
) -> Job:
    """Create a job row and queue ``task`` with its id once the transaction commits.

    With a ``key``, an identical job that is still queued (not yet started) is returned
    instead of queueing a second one: when it runs it will see everything. A running job
    may already have read its input, so a new one is queued behind it. Two requests queueing
    the same key at once take turns (``job_lock``), so they make one job, not two.
    """
    with transaction.atomic():
        if key:
            job_lock(f"job:{key}")
            active = Job.objects.filter(key=key, status=Job.Status.QUEUED).first()
            if active is not None:
                return active
        job = Job.objects.create(
            kind=kind,
            label=label,
            params=params or {},
            key=key,
            created_by=user if getattr(user, "is_authenticated", False) else None,
            task=getattr(task, "name", "") or "",
            heartbeat=timezone.now(),  # when it was sent: see jobs_sweep
        )
        transaction.on_commit(partial(_send, task, job.pk))
    return job


def _send(task: Any, job_id: int) -> bool:
    """Send a queued job's task; when the broker does not take it, empty the job's ``heartbeat``
    so that ``unsent_jobs_sweep`` sends it once the broker is back. True if it was sent."""
    if send_task_safely(task, job_id):
        return True
    try:
        Job.objects.filter(pk=job_id, status=Job.Status.QUEUED).update(heartbeat=None)
    except DatabaseError:  # the job stays as it was: the job sweep sends it again later
        log.warning("Job %s: could not note that its message was not sent", job_id, exc_info=True)
    return False


class JobReporter:
    """Writes one run's progress into its job row, and nothing once the run no longer owns it."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id
        self.attempt = 0  # which run this is, once it has claimed the job
        # While a heartbeat thread runs (``Heartbeat``), progress is handed to it and written
        # through its own connection: the run's own transaction (the demo data, a pairing) never
        # holds the job row, so the heartbeat is never kept waiting behind it and the progress
        # shows while the run is still at work.
        self.handed: dict[str, Any] | None = None
        self._handed_lock = threading.Lock()
        self.wake = threading.Event()  # progress was handed over: the heartbeat writes it soon

    def _mine(self) -> Any:
        return Job.objects.filter(pk=self.job_id, status=Job.Status.RUNNING, attempts=self.attempt)

    def claim(self, message: str = "Started") -> bool:
        """Mark the job running if it is still queued; True if this run now owns it. One update,
        so two deliveries of one job never both run it. (A job lost with its worker is queued
        again by ``jobs_sweep``, never taken over here.)"""
        queued = Job.objects.filter(pk=self.job_id, status=Job.Status.QUEUED)
        attempts = queued.values_list("attempts", flat=True).first()
        if attempts is None:
            return False
        now = timezone.now()
        fields = {"status": Job.Status.RUNNING, "started": now, "heartbeat": now, "message": message}
        if not queued.filter(attempts=attempts).update(**fields, progress=0, attempts=attempts + 1):
            return False
        self.attempt = attempts + 1
        return True

    def beat(self) -> bool:
        """Say the run is still at work, with the progress handed over since the last beat;
        False once the run no longer owns the job."""
        with self._handed_lock:
            fields = dict(self.handed or {})
        owned = bool(self._mine().update(**fields, heartbeat=timezone.now()))
        with self._handed_lock:  # written: handed over again only what changed meanwhile
            for name, value in fields.items():
                if self.handed is not None and self.handed.get(name) == value:
                    del self.handed[name]
        return owned

    def progress(self, done: int, total: int, message: str = "") -> None:
        """How far the run is: handed to the heartbeat thread when one runs (written at its next
        beat), else written at once (a sign of life too)."""
        percent = 100 if total <= 0 else max(0, min(99, done * 100 // total))
        fields: dict[str, Any] = {"progress": percent}
        if message:
            fields["message"] = message[:300]
        with self._handed_lock:
            if self.handed is not None:
                self.handed.update(fields)
                self.wake.set()
                return
        self._mine().update(**fields, heartbeat=timezone.now())

    def done(self, message: str = "Done", result: dict[str, Any] | None = None) -> None:
        self._mine().update(
            status=Job.Status.DONE,
            progress=100,
            message=message[:300],
            result=result or {},
            finished=timezone.now(),
        )

    def restart(self, message: str) -> bool:
        """Start the work again from nothing (a database error cut it off): False once the run no
        longer owns the job."""
        return bool(self._mine().update(progress=0, message=message[:300], heartbeat=timezone.now()))

    def failed(self, message: str) -> None:
        self._mine().update(status=Job.Status.FAILED, message=message[:300], finished=timezone.now())


class Heartbeat:
    """A thread that touches a run's job row every ``every`` seconds until stopped.

    It writes through a database connection of its own, so it needs the run's claim committed:
    a run inside a transaction (a test, or a job run eagerly inside a request's transaction)
    gets no heartbeat, and needs none, since no worker of its own can be lost. The run's progress
    goes through it too (``JobReporter.progress``), so that a run's own transaction never locks
    the job row the heartbeat writes: a run that holds a transaction longer than
    ``JOB_LOST_SECONDS`` between two steps was once given up for lost while still at work.
    """

    def __init__(self, reporter: JobReporter, every: float) -> None:
        self.reporter = reporter
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"job-{reporter.job_id}-heartbeat", daemon=True
        )

    def __enter__(self) -> Heartbeat:
        with self.reporter._handed_lock:
            self.reporter.handed = {}  # progress goes through this thread from now on
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.reporter.wake.set()
        self._thread.join(self.every + 5)
        with self.reporter._handed_lock:
            self.reporter.handed = None

    def _run(self) -> None:
        try:
            while True:
                self.reporter.wake.wait(self.every)  # a beat, or progress to show
                if self._stop.is_set():
                    return
                self.reporter.wake.clear()
                try:
                    if not self.reporter.beat():
                        return  # the run no longer owns the job: nothing more to say
                except DatabaseError:
                    # The database was busy or away for a moment: the next beat tries again (the
                    # sweep waits for many missed beats before it gives a run up for lost).
                    log.warning("Job %s: could not write its heartbeat", self.reporter.job_id, exc_info=True)
                    connection.close()
                if self._stop.wait(PROGRESS_SECONDS):  # progress is written twice a second at most
                    return
        finally:
            connection.close()  # this thread's own connection


PROGRESS_SECONDS = 0.5


def run_job(job_id: int, work: Callable[[JobReporter, dict[str, Any]], tuple[str, dict[str, Any]]]) -> None:
    """Run ``work`` for a job row: marks it running, then done or failed with a readable message.

    Only a queued job is run, and only by the delivery that claims it: a job that is done,
    failed, or running elsewhere is left as it is (tasks may be delivered twice), so its status
    always tells what its own run did. While ``work`` runs, a heartbeat tells the job sweep that
    its worker is alive.

    A database that cannot answer (``core.database.trouble``: away, or too busy) does not fail
    the job. The run waits for it, trying again with longer and longer pauses (``_answered``), for
    as long as the job sweep would wait on a silent run (``JOB_LOST_SECONDS``; after that the sweep
    takes over, once the database is back). ``work`` cut off by it is run again, from the start,
    when its task is safe to run twice, after a pause that doubles each time, and at most
    ``JOB_MAX_ATTEMPTS`` times in all; a job that still cannot finish, or may not run twice,
    fails saying so in words (never the driver's message). A run in the request that queued it
    (eager Celery, no broker) does not wait: the request is answered at once.
    """
    job = _answered(lambda: Job.objects.filter(pk=job_id).first())
    if job is None:
        log.warning("Job %s no longer exists; nothing to do.", job_id)
        return
    reporter = JobReporter(job_id)
    if not _answered(reporter.claim):
        return
    if connection.in_atomic_block:
        _run(job, reporter, work)
    else:
        with Heartbeat(reporter, settings.JOB_HEARTBEAT_SECONDS):
            _run(job, reporter, work)


def _run(job: Job, reporter: JobReporter, work: Callable[..., tuple[str, dict[str, Any]]]) -> None:
    task = _task(job.task)
    # Run again only a task safe to run twice (and where the run may wait: ``_patient``).
    again = task is not None and bool(getattr(task, "reject_on_worker_lost", False))
    tries = 1
    while True:
        try:
            message, result = work(reporter, job.params)
        except ValidationError as exc:
            # Something the organiser can fix (a missing result, too few players): say it, no traceback.
            _answered(partial(reporter.failed, " ".join(str(m) for m in exc.messages)))
            return
        except DatabaseError as exc:
            kind = trouble(exc)
            if kind is None:
                log.exception("Job %s (%s) failed", job.pk, job.kind)
                reporter.failed(
                    f"{job.label} failed: the database refused what it wrote (the error is logged)."
                )
                raise
            retry = again and _patient()
            if not retry or tries >= settings.JOB_MAX_ATTEMPTS:
                log.warning(
                    "Job %s (%s) cut off by the database, %s time(s): failed", job.pk, job.kind, tries
                )
                _answered(partial(reporter.failed, cut_off(job.label, kind, tries=tries, again=retry)))
                raise
            log.warning("Job %s (%s) cut off by the database (%s): running it again", job.pk, job.kind, exc)
            with contextlib.suppress(DatabaseError):
                connection.close()  # cut off with it: the next try takes a fresh one
            time.sleep(JOB_RETRY_PAUSE_SECONDS * 2 ** (tries - 1))
            tries += 1
            note = (
                "The database did not answer for a moment: running it again "
                f"(try {tries} of {settings.JOB_MAX_ATTEMPTS})."
            )
            if not _answered(partial(reporter.restart, note)):
                return  # another run has taken the job over
            continue
        except Exception as exc:
            log.exception("Job %s (%s) failed", job.pk, job.kind)
            reporter.failed(f"{job.label} failed: {exc}")
            raise
        _answered(partial(reporter.done, message, result))
        return


JOB_RETRY_PAUSE_SECONDS = 1.0  # the first pause before a run cut off by the database starts again


def cut_off(label: str, kind: Trouble, *, tries: int, again: bool) -> str:
    """What a job's page says when the database cut it off for good, in words."""
    what = "could not reach the database" if kind is Trouble.AWAY else "found the database too busy"
    if not again:
        return f"{label} stopped: it {what}, and it is not run again by itself. Start it again."
    times = "once" if tries == 1 else f"{tries} times"
    return f"{label} stopped: it {what} {times}. Start it again once the site is back."


def _patient() -> bool:
    """Whether a run may wait for the database: in a worker, outside any transaction. A job run
    eagerly (no broker: in the request that queued it) or inside a transaction (the caller's,
    broken with the error) is not: the request answers at once, and the transaction's owner
    decides."""
    return not settings.CELERY_TASK_ALWAYS_EAGER and not connection.in_atomic_block


def _answered[T](call: Callable[[], T]) -> T:
    """``call()``, waiting out a database that cannot answer: tried again after pauses of a
    quarter of a second, then twice as long each time (five seconds at most), for
    ``JOB_LOST_SECONDS`` in all (the job sweep then takes over); what it raises after that, or
    what is not of the database's, is raised. Called once where the run may not wait
    (``_patient``)."""
    deadline = time.monotonic() + settings.JOB_LOST_SECONDS
    pause = 0.25
    while True:
        try:
            return call()
        except DatabaseError as exc:
            if not _patient() or trouble(exc) is None or time.monotonic() + pause > deadline:
                raise
            log.warning("The database did not answer (%s): trying again in %.2f s", exc, pause)
        with contextlib.suppress(DatabaseError):
            connection.close()  # the next try takes a fresh connection
        time.sleep(pause)
        pause = min(pause * 2, 5.0)


def _task(name: str) -> Any:
    """The task called ``name``: the site's tasks are named by where they are defined."""
    from celery import current_app

    if not name:
        return None
    try:
        return current_app.tasks.get(name) or import_string(name)
    except ImportError:
        return None


def jobs_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Find the jobs whose worker stopped and the jobs whose message may be lost, and act.

    - A running job whose heartbeat is older than ``JOB_LOST_SECONDS`` lost its worker. It is
      queued again when its task is safe to run twice (it says so by being rejected, and so
      delivered again, when its worker is lost: ``reject_on_worker_lost``), at most
      ``JOB_MAX_ATTEMPTS`` runs in all; else it is marked failed, saying so.
    - A queued job sent longer ago than that (the broker was away when it was queued, or the
      worker that took its message died before claiming it) is sent again. A second message
      costs nothing: only one delivery can claim the job.

    Cheap when nothing is lost: one query on an index of (status, heartbeat). Safe to run twice
    at once: each change is one update conditional on the row being as it was read.
    """
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.JOB_LOST_SECONDS)
    stale = Job.objects.filter(status__in=[Job.Status.RUNNING, Job.Status.QUEUED], heartbeat__lt=since)
    counts = {"restarted": 0, "failed": 0, "sent": 0}
    for job in stale.only("pk", "status", "task", "attempts", "heartbeat", "label"):
        seen = Job.objects.filter(
            pk=job.pk, status=job.status, attempts=job.attempts, heartbeat=job.heartbeat
        )
        task = _task(job.task)
        if job.status == Job.Status.QUEUED:
            if task is not None and seen.update(heartbeat=now):
                _send(task, job.pk)
                counts["sent"] += 1
            continue
        safe_twice = task is not None and bool(getattr(task, "reject_on_worker_lost", False))
        if safe_twice and job.attempts < settings.JOB_MAX_ATTEMPTS:
            if seen.update(
                status=Job.Status.QUEUED,
                message="Waiting for a worker to run it again.",
                progress=0,
                heartbeat=now,
            ):
                _send(task, job.pk)
                counts["restarted"] += 1
                log.warning("Job %s (%s) lost its worker: queued again", job.pk, job.label)
            continue
        runs = f" ({job.attempts} runs)" if job.attempts > 1 else ""
        if seen.update(status=Job.Status.FAILED, message=f"{Job.WORKER_LOST[:-1]}{runs}.", finished=now):
            counts["failed"] += 1
            log.warning("Job %s (%s) lost its worker: marked failed", job.pk, job.label)
    return counts


def unsent_jobs_sweep(*, limit: int = 200) -> int:
    """Send every queued job whose message the broker did not take (its ``heartbeat`` is empty).

    Beat runs it every ``SWEEP_SECONDS``, so a job queued while the broker was away runs seconds
    after it is back. Cheap when there is none: one query on the index of (status, heartbeat).
    Safe beside itself: a job is sent by the run that stamps its heartbeat. Returns how many were
    sent (a send that fails again leaves the job for the next sweep).
    """
    now = timezone.now()
    unsent = Job.objects.filter(status=Job.Status.QUEUED, heartbeat__isnull=True)
    sent = 0
    for pk, name in unsent.order_by("created").values_list("pk", "task")[:limit]:
        task = _task(name)
        if task is None:
            continue
        if unsent.filter(pk=pk).update(heartbeat=now) and _send(task, pk):
            sent += 1
    if sent:
        log.info("Sent %s job(s) the broker had not taken", sent)
    return sent
