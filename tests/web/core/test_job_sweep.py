"""A job whose worker stopped is run again or marked failed, and its page says so.

A run's heartbeat thread touches its row while it works; ``jobs_sweep`` gives a running job
whose heartbeat stopped up for lost: a task that is safe to run twice is queued again (at most
``JOB_MAX_ATTEMPTS`` runs), any other is marked failed; a queued job whose message may be lost is
sent again. A run given up for lost can no longer write into the row."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from spyleague.core import jobs
from spyleague.core.jobs import JobReporter, jobs_sweep, run_job, unsent_jobs_sweep
from spyleague.core.models import Job

RATINGS = "spyleague.ratings.tasks.recompute_ratings_task"  # safe to run twice
DEMO = "spyleague.core.tasks.load_demo_data"  # not: a half-made demo says it is there


def lost_job(*, task: str, attempts: int = 1, seconds_ago: float = 600, **fields: Any) -> Job:
    """A job some worker claimed, then died under: its heartbeat stopped ``seconds_ago``."""
    beat = timezone.now() - timedelta(seconds=seconds_ago)
    defaults: dict[str, Any] = {"kind": "ratings", "label": "Recompute the Spy vs Spy ratings"}
    defaults["params"] = {"game": "spy-vs-spy"}
    return Job.objects.create(
        **{**defaults, **fields},
        task=task,
        status=Job.Status.RUNNING,
        attempts=attempts,
        started=beat,
        heartbeat=beat,
        progress=40,
    )


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """What the sweep sends to the workers (kept here, not run)."""
    messages: list[tuple[str, int]] = []

    def send(task: Any, job_id: int) -> bool:
        messages.append((task.name, job_id))
        return True

    monkeypatch.setattr(jobs, "send_task_safely", send)
    return messages


@pytest.mark.django_db
def test_a_lost_job_that_is_safe_to_run_twice_runs_again_and_its_page_says_so(
    client: Any, organiser: Any
) -> None:
    job = lost_job(task=RATINGS, created_by=organiser)
    assert jobs_sweep() == {"restarted": 1, "failed": 0, "sent": 0}  # (eager Celery: it ran here)
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert job.attempts == 2 and job.restarted
    client.force_login(organiser)
    page = client.get(reverse("job", args=[job.pk])).content.decode()
    assert "Restarted after its worker stopped." in page
    data = client.get(f"/api/jobs/{job.pk}/").json()
    assert data["note"] == "Restarted after its worker stopped." and data["attempts"] == 2
    assert data["status"] == "done"


@pytest.mark.django_db
def test_a_queued_again_job_says_it_waits_for_a_worker(sent: list[tuple[str, int]]) -> None:
    job = lost_job(task=RATINGS)
    jobs_sweep()
    job.refresh_from_db()
    assert sent == [(RATINGS, job.pk)]
    assert job.status == Job.Status.QUEUED and job.progress == 0
    assert job.restarted and job.note == "Restarted after its worker stopped."
    assert job.message == "Waiting for a worker to run it again."


@pytest.mark.django_db
def test_a_lost_job_that_is_not_safe_to_run_twice_fails_in_words(client: Any, organiser: Any) -> None:
    job = lost_job(task=DEMO, kind="demo-data", label="Load the demo data", created_by=organiser)
    assert jobs_sweep()["failed"] == 1
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.finished is not None
    assert job.message == "Failed: its worker stopped before it finished."
    assert not job.restarted
    client.force_login(organiser)
    page = client.get(reverse("job", args=[job.pk])).content.decode()
    assert "Failed: its worker stopped before it finished." in page
    assert "hx-trigger" not in page  # the page stops asking


@pytest.mark.django_db
def test_a_job_whose_workers_keep_dying_fails_after_its_last_run(settings: Any, sent: list[Any]) -> None:
    job = lost_job(task=RATINGS, attempts=settings.JOB_MAX_ATTEMPTS)
    assert jobs_sweep()["failed"] == 1
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    assert job.message == f"Failed: its worker stopped before it finished ({settings.JOB_MAX_ATTEMPTS} runs)."
    assert job.restarted and sent == []


@pytest.mark.django_db
def test_a_job_with_a_recent_heartbeat_is_left_alone_and_the_sweep_is_one_query(
    settings: Any, sent: list[Any], django_assert_num_queries: Any
) -> None:
    working = lost_job(task=RATINGS, seconds_ago=settings.JOB_LOST_SECONDS / 2)
    waiting = Job.objects.create(kind="ratings", label="Next", task=RATINGS, heartbeat=timezone.now())
    Job.objects.create(
        kind="ratings", label="Old", task=RATINGS, status=Job.Status.DONE, heartbeat=working.heartbeat
    )
    with django_assert_num_queries(1):
        assert jobs_sweep() == {"restarted": 0, "failed": 0, "sent": 0}
    assert sent == []
    assert Job.objects.get(pk=working.pk).status == Job.Status.RUNNING
    assert Job.objects.get(pk=waiting.pk).status == Job.Status.QUEUED


@pytest.mark.django_db
def test_a_queued_job_whose_message_may_be_lost_is_sent_again_once_a_period(
    settings: Any, sent: list[Any]
) -> None:
    long_ago = timezone.now() - timedelta(seconds=settings.JOB_LOST_SECONDS + 1)
    job = Job.objects.create(
        kind="ratings", label="Sent while the broker was away", task=RATINGS, heartbeat=long_ago
    )
    assert jobs_sweep()["sent"] == 1
    assert jobs_sweep()["sent"] == 0  # not again before another period
    assert sent == [(RATINGS, job.pk)]
    assert Job.objects.get(pk=job.pk).status == Job.Status.QUEUED


@pytest.mark.django_db
def test_a_run_given_up_for_lost_writes_nothing_once_another_run_owns_the_job() -> None:
    job = Job.objects.create(
        kind="ratings", label="Count", task=RATINGS, params={"game": "spy-vs-spy"}, heartbeat=timezone.now()
    )
    first = JobReporter(job.pk)
    assert first.claim() and first.attempt == 1
    Job.objects.filter(pk=job.pk).update(heartbeat=timezone.now() - timedelta(hours=1))
    jobs_sweep()  # the first run's worker only stalled, but the sweep cannot know: it runs it again
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.attempts == 2
    first.progress(1, 2, "half way")
    first.failed("the first run woke up and failed")
    assert not first.beat()
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.progress == 100


@pytest.mark.django_db
def test_queueing_a_job_names_its_task_and_when_it_was_sent(organiser: Any, settings: Any) -> None:
    from spyleague.ratings.services import ratings_recompute_queue

    before = timezone.now()
    job = ratings_recompute_queue(game="spy-vs-spy", user=organiser)
    job.refresh_from_db()
    assert job.task == RATINGS and job.status == Job.Status.QUEUED and job.attempts == 0
    assert job.heartbeat is not None and job.heartbeat >= before  # the sweep sends it again if need be


@pytest.mark.django_db(transaction=True)
def test_a_running_job_beats_while_its_work_runs(settings: Any) -> None:
    settings.JOB_HEARTBEAT_SECONDS = 0.05
    job = Job.objects.create(kind="test", label="Slow", heartbeat=timezone.now())
    moved: list[bool] = []

    def work(reporter: JobReporter, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        claimed = Job.objects.get(pk=job.pk).heartbeat
        for _ in range(200):  # at most 10 s: a beat comes every 0.05 s
            if Job.objects.get(pk=job.pk).heartbeat != claimed:
                moved.append(True)
                break
            threading.Event().wait(0.05)
        return "Done", {}

    run_job(job.pk, work)
    assert moved, "no heartbeat while the work ran"
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    assert job.heartbeat is not None and job.heartbeat > job.started  # type: ignore[operator]
    assert not any(t.name == f"job-{job.pk}-heartbeat" for t in threading.enumerate())  # it stopped


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_run_a_lost_job_once(sent: list[tuple[str, int]]) -> None:
    job = lost_job(task=RATINGS)
    start = threading.Barrier(2)
    counts: list[dict[str, int]] = []

    def sweep() -> None:
        start.wait()
        try:
            counts.append(jobs_sweep())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(c["restarted"] for c in counts) == [0, 1]
    assert sent == [(RATINGS, job.pk)]
    assert Job.objects.get(pk=job.pk).status == Job.Status.QUEUED


@pytest.mark.django_db
def test_the_page_of_a_job_whose_worker_went_silent_says_so_before_the_sweep_acts(
    client: Any, organiser: Any, settings: Any
) -> None:
    """Found by hand: a worker killed mid-job left its page at "Running · 0%" for two minutes."""
    settings.JOB_HEARTBEAT_SECONDS, settings.JOB_LOST_SECONDS = 10, 120
    client.force_login(organiser)

    def page(job: Job) -> str:
        return client.get(reverse("job", args=[job.pk])).content.decode()

    fresh = lost_job(task=RATINGS, created_by=organiser, seconds_ago=5)
    assert fresh.silence == 0 and "No word" not in page(fresh)
    silent = lost_job(task=RATINGS, created_by=organiser, seconds_ago=45)
    assert "No word from its worker for 45 s: if it stays silent for 120 s, the job is run again" in page(
        silent
    )
    waiting = lost_job(task=RATINGS, created_by=organiser, seconds_ago=50)
    Job.objects.filter(pk=waiting.pk).update(status=Job.Status.QUEUED, attempts=0)
    assert "No worker has taken it for 50 s" in page(waiting)
    Job.objects.filter(pk=silent.pk).update(status=Job.Status.DONE)
    assert "No word" not in page(silent)


class Broker:
    """Stands for the broker as ``send_task_safely`` sees it: away (takes nothing) or back."""

    def __init__(self) -> None:
        self.away = True
        self.sent: list[tuple[str, int]] = []

    def send(self, task: Any, job_id: int) -> bool:
        if self.away:
            return False
        self.sent.append((task.name, job_id))
        return True


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    broker = Broker()
    monkeypatch.setattr(jobs, "send_task_safely", broker.send)
    return broker


@pytest.mark.django_db
def test_a_job_queued_while_the_broker_is_away_is_sent_by_the_next_sweep_and_its_page_says_so(
    client: Any,
    organiser: Any,
    broker: Broker,
    django_capture_on_commit_callbacks: Any,
    django_assert_num_queries: Any,
) -> None:
    """Not once the job sweep gives its message up for lost (two minutes and more): the broker
    never took it, and the row says so."""
    from spyleague.ratings.services import ratings_recompute_queue

    with django_capture_on_commit_callbacks(execute=True):
        job = ratings_recompute_queue(game="spy-vs-spy", user=organiser)
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and job.heartbeat is None
    assert job.note == Job.UNSENT
    client.force_login(organiser)
    assert Job.UNSENT in client.get(reverse("job", args=[job.pk])).content.decode()
    assert unsent_jobs_sweep() == 0  # still away: it stays as it is for the next sweep
    job.refresh_from_db()
    assert job.heartbeat is None

    broker.away = False
    assert unsent_jobs_sweep() == 1
    assert broker.sent == [(RATINGS, job.pk)]
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and job.heartbeat is not None and job.note == ""
    with django_assert_num_queries(1):
        assert unsent_jobs_sweep() == 0  # nothing more to send: one query


@pytest.mark.django_db
def test_a_lost_job_whose_new_message_is_not_taken_is_left_for_the_unsent_sweep(broker: Broker) -> None:
    job = lost_job(task=RATINGS)
    assert jobs_sweep()["restarted"] == 1
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and job.heartbeat is None
    assert job.note == f"{Job.RESTARTED} {Job.UNSENT}"
    broker.away = False
    assert unsent_jobs_sweep() == 1 and broker.sent == [(RATINGS, job.pk)]


def test_beat_sends_the_unsent_jobs_as_often_as_it_asks_the_bots(settings: Any) -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["send-unsent-jobs"]
    assert entry["task"] == "spyleague.core.tasks.sweep_unsent_jobs"
    assert entry["schedule"] == settings.SWEEP_SECONDS
