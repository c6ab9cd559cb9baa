"""Queue and report background jobs (see ``Job``).

``job_queue`` creates the row and sends the task on commit, so a worker never sees a
job whose row is not yet visible. Inside a task, ``JobReporter`` writes progress; it
uses ``update()`` so it never overwrites fields it does not own.

A job's status is its own: ``run_job`` claims a queued job in one update, so a task delivered
twice (or a second worker) finds it claimed and leaves it alone, and only the run that claimed
it marks it done or failed. Work that must not run twice at once (two recomputes of one event's
standings or of one game's ratings) holds ``job_lock`` for its name while it writes.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone

from .models import Job

log = logging.getLogger(__name__)

# A job still marked running this long after it started was lost with its worker (the longest
# task's time limit is ten minutes): a new delivery of it may take it over.
LOST_AFTER = timedelta(minutes=30)


def lock_id(name: str) -> int:
    """A stable signed 64-bit number for a lock's name (PostgreSQL advisory locks take one)."""
    return int.from_bytes(hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True)


def job_lock(name: str) -> None:
    """Hold the lock called ``name`` until the current transaction ends; wait for it if another
    transaction holds it.

    On PostgreSQL this is a transaction-level advisory lock. SQLite needs none: the site opens
    every transaction with ``BEGIN IMMEDIATE``, so one writer at a time holds the whole database.
    Call it inside ``transaction.atomic()``, before reading what the lock protects.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("job_lock() holds its lock until the transaction ends: call it inside one.")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [lock_id(name)])


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
        )
        transaction.on_commit(lambda: task.delay(job.pk))
    return job


class JobReporter:
    """Writes one run's progress into its job row, and nothing once the run no longer owns it."""

    def __init__(self, job_id: int) -> None:
        self.job_id = job_id

    def _mine(self) -> Any:
        return Job.objects.filter(pk=self.job_id, status=Job.Status.RUNNING)

    def claim(self, message: str = "Started") -> bool:
        """Mark the job running if it is still queued (or was lost with its worker); True if this
        run now owns it. One update, so two deliveries of one job never both run it."""
        now = timezone.now()
        fields = {"status": Job.Status.RUNNING, "started": now, "message": message, "progress": 0}
        if Job.objects.filter(pk=self.job_id, status=Job.Status.QUEUED).update(**fields):
            return True
        lost = Job.objects.filter(pk=self.job_id, status=Job.Status.RUNNING, started__lt=now - LOST_AFTER)
        return bool(lost.update(**fields))

    def progress(self, done: int, total: int, message: str = "") -> None:
        percent = 100 if total <= 0 else max(0, min(99, done * 100 // total))
        fields: dict[str, Any] = {"progress": percent}
        if message:
            fields["message"] = message[:300]
        self._mine().update(**fields)

    def done(self, message: str = "Done", result: dict[str, Any] | None = None) -> None:
        self._mine().update(
            status=Job.Status.DONE,
            progress=100,
            message=message[:300],
            result=result or {},
            finished=timezone.now(),
        )

    def failed(self, message: str) -> None:
        self._mine().update(status=Job.Status.FAILED, message=message[:300], finished=timezone.now())


def run_job(job_id: int, work: Callable[[JobReporter, dict[str, Any]], tuple[str, dict[str, Any]]]) -> None:
    """Run ``work`` for a job row: marks it running, then done or failed with a readable message.

    Only a queued job is run, and only by the delivery that claims it: a job that is done,
    failed, or running elsewhere is left as it is (tasks may be delivered twice), so its status
    always tells what its own run did.
    """
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        log.warning("Job %s no longer exists; nothing to do.", job_id)
        return
    reporter = JobReporter(job_id)
    if not reporter.claim():
        return
    try:
        message, result = work(reporter, job.params)
    except ValidationError as exc:
        # Something the organiser can fix (a missing result, too few players): say it, no traceback.
        reporter.failed(" ".join(str(m) for m in exc.messages))
        return
    except Exception as exc:
        log.exception("Job %s (%s) failed", job_id, job.kind)
        reporter.failed(f"{job.label} failed: {exc}")
        raise
    reporter.done(message, result)
