"""A job cut off by the database runs again by itself, and fails in words if it cannot finish.

The database is made to refuse queries the way the driver fails when the server is stopped
(``refusing``: Django's OperationalError raised from psycopg's); the runs are real ``run_job``
runs outside any transaction, as a worker makes them. The pauses between tries are shortened.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest
from django.db import IntegrityError, OperationalError, connection
from django.test import override_settings

from spyleague.core import jobs
from spyleague.core.jobs import run_job
from spyleague.core.models import Job

RATINGS = "spyleague.ratings.tasks.recompute_ratings_task"  # safe to run twice
DEMO = "spyleague.core.tasks.load_demo_data"  # not
DRIVER = "connection failed: connection to server at 127.0.0.1, port 5432 failed: Connection refused"


@pytest.fixture(autouse=True)
def in_a_worker(settings: Any) -> None:
    """Runs as a worker makes them (a run inside the request that queued it does not wait)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False


@pytest.fixture(autouse=True)
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The pauses the runs would make (not made: the database here answers when told to)."""
    slept: list[float] = []
    monkeypatch.setattr(
        jobs, "time", SimpleNamespace(monotonic=time.monotonic, sleep=slept.append), raising=False
    )
    return slept


def refused() -> OperationalError:
    cause = psycopg.OperationalError(DRIVER)
    error = OperationalError(*cause.args)
    error.__cause__ = cause
    return error


@contextmanager
def refusing(queries: int) -> Iterator[list[str]]:
    """The next ``queries`` queries on this thread's connection are refused; then it answers."""
    tried: list[str] = []

    def refuse(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        tried.append(sql)
        if len(tried) <= queries:
            raise refused()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        yield tried


def queued(task: str, label: str = "Recompute the ratings") -> Job:
    return Job.objects.create(kind="test", label=label, task=task)


@pytest.mark.django_db(transaction=True)
def test_a_run_cut_off_by_the_database_runs_again_and_reaches_done(pauses: list[float]) -> None:
    job = queued(RATINGS)
    runs: list[int] = []

    def work(reporter: Any, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        runs.append(1)
        reporter.progress(1, 2, "half way")
        if len(runs) == 1:
            raise refused()  # the database went away under the first run
        return "Rated 4 players.", {"players": 4}

    run_job(job.pk, work)
    job.refresh_from_db()
    assert len(runs) == 2 and pauses == [jobs.JOB_RETRY_PAUSE_SECONDS]
    assert (job.status, job.message, job.progress, job.attempts) == ("done", "Rated 4 players.", 100, 1)


@pytest.mark.django_db(transaction=True)
def test_a_database_away_when_the_run_starts_is_waited_out(pauses: list[float]) -> None:
    job = queued(RATINGS)
    with refusing(queries=3) as tried:  # reading the job is refused three times
        run_job(job.pk, lambda reporter, params: ("Done.", {}))
    job.refresh_from_db()
    assert job.status == "done" and job.attempts == 1
    assert len(tried) > 3 and pauses == [0.25, 0.5, 1.0]  # longer each time


@pytest.mark.django_db(transaction=True)
def test_a_job_the_database_keeps_cutting_off_fails_in_words_after_a_bounded_number_of_runs(
    pauses: list[float],
) -> None:
    job = queued(RATINGS)
    runs: list[int] = []

    def work(reporter: Any, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        runs.append(1)
        raise refused()

    with pytest.raises(OperationalError):
        run_job(job.pk, work)
    job.refresh_from_db()
    assert len(runs) == 3 and pauses == [1.0, 2.0]  # a pause twice as long each time
    assert job.status == "failed"
    assert job.message == (
        "Recompute the ratings stopped: it could not reach the database 3 times. "
        "Start it again once the site is back."
    )
    assert "5432" not in job.message and "connection" not in job.message


@pytest.mark.django_db(transaction=True)
def test_a_job_that_may_not_run_twice_is_not_run_again_and_says_so() -> None:
    job = queued(DEMO, label="Load the demo data")
    runs: list[int] = []

    def work(reporter: Any, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        runs.append(1)
        raise refused()

    with pytest.raises(OperationalError):
        run_job(job.pk, work)
    job.refresh_from_db()
    assert len(runs) == 1
    assert job.message == (
        "Load the demo data stopped: it could not reach the database, and it is not run again by "
        "itself. Start it again."
    )


@pytest.mark.django_db(transaction=True)
def test_another_database_error_fails_the_job_without_the_drivers_words() -> None:
    job = queued(RATINGS)

    def work(reporter: Any, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        cause = psycopg.errors.UniqueViolation('duplicate key value violates unique constraint "x_pkey"')
        raise IntegrityError(*cause.args) from cause

    with pytest.raises(IntegrityError):
        run_job(job.pk, work)
    job.refresh_from_db()
    assert job.status == "failed"
    assert (
        job.message
        == "Recompute the ratings failed: the database refused what it wrote (the error is logged)."
    )


@pytest.mark.django_db(transaction=True)
def test_a_database_that_stays_away_is_waited_for_a_bounded_time() -> None:
    job = queued(RATINGS)
    with override_settings(JOB_LOST_SECONDS=0.0), refusing(queries=10**6), pytest.raises(OperationalError):
        run_job(job.pk, lambda reporter, params: ("Done.", {}))
    job.refresh_from_db()
    assert job.status == "queued"  # left for the job sweep, which sends it again once it answers


@pytest.mark.django_db(transaction=True)
def test_a_job_run_in_the_request_that_queued_it_does_not_wait(settings: Any, pauses: list[float]) -> None:
    """Without a broker (eager Celery) the run is the request's: it fails at once, in words."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    job = queued(RATINGS)

    def work(reporter: Any, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        raise refused()

    with pytest.raises(OperationalError):
        run_job(job.pk, work)
    job.refresh_from_db()
    assert pauses == [] and job.status == "failed"
    assert job.message.startswith("Recompute the ratings stopped: it could not reach the database")
