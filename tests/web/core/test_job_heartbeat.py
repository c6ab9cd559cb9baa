"""A run that holds a transaction of its own (the demo data, a pairing) stays alive and shows its
progress while it works: its progress goes through the heartbeat's own connection, so its
transaction never locks the job row the heartbeat and the job sweep read and write.

Once, a step of the demo data that held its transaction longer than ``JOB_LOST_SECONDS`` (three
password hashes on a busy machine) had its heartbeat wait behind that lock, and the job sweep
gave the run up for lost while it was still at work. On SQLite a write transaction locks the
whole database, so no other connection could write the heartbeat at all: this runs on
PostgreSQL (CI's second pass).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

from spyleague.core.jobs import jobs_sweep, run_job
from spyleague.core.models import Job

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="a second writer beside a transaction"),
]

WAIT = 30.0


def _row(pk: int) -> Job:
    return Job.objects.get(pk=pk)


def test_a_run_inside_its_own_transaction_beats_and_shows_progress_while_it_works(settings: Any) -> None:
    settings.JOB_HEARTBEAT_SECONDS = 0.2
    settings.JOB_LOST_SECONDS = 1.0
    job = Job.objects.create(kind="test", label="Load the spies")
    inside, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def work(reporter: Any, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        with transaction.atomic():
            Job.objects.filter(pk=job.pk).values_list("pk").first()  # the transaction has begun
            reporter.progress(1, 4, "first quarter")
            inside.set()
            if not release.wait(WAIT):
                raise TimeoutError("never released")
        return "Loaded", {}

    def run() -> None:
        try:
            run_job(job.pk, work)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    try:
        assert inside.wait(WAIT)
        # The progress shows while the run's transaction is still open...
        seen = _row(job.pk)
        for _ in range(200):
            if seen.progress == 25:
                break
            release.wait(0.05)
            seen = _row(job.pk)
        assert (seen.progress, seen.message) == (25, "first quarter")
        # ...and the heartbeat goes on past JOB_LOST_SECONDS: the sweep finds nothing lost.
        first = seen.heartbeat
        assert first is not None
        for _ in range(3):
            before = _row(job.pk).heartbeat
            for _ in range(int(WAIT / 0.05)):
                if _row(job.pk).heartbeat != before:
                    break
                release.wait(0.05)
        assert _row(job.pk).heartbeat > first
        assert jobs_sweep() == {"restarted": 0, "failed": 0, "sent": 0}
        assert _row(job.pk).status == Job.Status.RUNNING
    finally:
        release.set()
        thread.join(WAIT)
    assert not errors
    done = _row(job.pk)
    assert (done.status, done.progress, done.message) == (Job.Status.DONE, 100, "Loaded")
