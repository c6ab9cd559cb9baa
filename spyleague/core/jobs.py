"""Queue and report background jobs (see ``Job``).

``job_queue`` creates the row and sends the task on commit, so a worker never sees a
job whose row is not yet visible. Inside a task, ``JobReporter`` writes progress; it
uses ``update()`` so it never overwrites fields it does not own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from .models import Job

log = logging.getLogger(__name__)


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
    may already have read its input, so a new one is queued behind it.
    """
    if key:
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
    def __init__(self, job_id: int) -> None:
        self.job_id = job_id

    def start(self, message: str = "Started") -> None:
        Job.objects.filter(pk=self.job_id).update(
            status=Job.Status.RUNNING, started=timezone.now(), message=message, progress=0
        )

    def progress(self, done: int, total: int, message: str = "") -> None:
        percent = 100 if total <= 0 else max(0, min(99, done * 100 // total))
        fields: dict[str, Any] = {"progress": percent}
        if message:
            fields["message"] = message[:300]
        Job.objects.filter(pk=self.job_id).update(**fields)

    def done(self, message: str = "Done", result: dict[str, Any] | None = None) -> None:
        Job.objects.filter(pk=self.job_id).update(
            status=Job.Status.DONE,
            progress=100,
            message=message[:300],
            result=result or {},
            finished=timezone.now(),
        )

    def failed(self, message: str) -> None:
        Job.objects.filter(pk=self.job_id).update(
            status=Job.Status.FAILED, message=message[:300], finished=timezone.now()
        )


def run_job(job_id: int, work: Callable[[JobReporter, dict[str, Any]], tuple[str, dict[str, Any]]]) -> None:
    """Run ``work`` for a job row: marks it running, then done or failed with a readable message.

    A job that is already done is not run again (tasks may be delivered twice).
    """
    job = Job.objects.filter(pk=job_id).first()
    if job is None:
        log.warning("Job %s no longer exists; nothing to do.", job_id)
        return
    if job.status == Job.Status.DONE:
        return
    reporter = JobReporter(job_id)
    reporter.start()
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
