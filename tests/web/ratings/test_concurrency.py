"""Confirmations, corrections and recomputes at the same time, on the real database: threads
with connections of their own commit for real, and the jobs they queue run as the site runs
them without a broker (inline once the request's transaction commits, in the same thread).
No job fails, every job's status is its own, and what is left is exactly a full recompute's."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from spyleague.core.jobs import job_queue, run_job
from spyleague.core.models import Job
from spyleague.ratings.models import RatingState
from spyleague.ratings.services import ratings_recompute
from spyleague.scores.models import Result
from spyleague.scores.services import EntryLine, result_confirm, result_correct, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Table

from ..tournaments.helpers import make_event
from ..tournaments.test_scale import assert_ratings_exact, assert_standings_exact

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(*work: Callable[[], Any]) -> list[BaseException]:
    """Run each callable in a thread of its own, released together; the exceptions raised."""
    start = threading.Barrier(len(work))
    errors: list[BaseException] = []

    def run(fn: Callable[[], Any]) -> None:
        start.wait()
        try:
            fn()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(fn,)) for fn in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return errors


def entered_round(club: Any, organiser: Any, players: int = 16) -> tuple[Any, list[Result]]:
    """A Spy vs Spy event whose first round is played and second round's results are entered."""
    event = make_event(club, organiser, players=players, game="spy-vs-spy", size=4)
    for number in (1, 2):
        rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
        results = []
        for table in rnd.tables.filter(is_bye=False).order_by("number"):
            seats = list(table.seats.select_related("entrant__player").order_by("position"))
            results.append(
                result_enter(
                    user=organiser,
                    game="spy-vs-spy",
                    club=club,
                    table=table,
                    entries=[
                        EntryLine(s.entrant.player, float((i * 7 + number) % 5)) for i, s in enumerate(seats)
                    ],
                )
            )
        if number == 1:
            for result in results:
                result_confirm(user=organiser, result=result)
    return event, results


def test_confirmations_of_one_event_at_once_never_fail_a_job(club: Any, organiser: Any) -> None:
    event, waiting = entered_round(club, organiser)
    jobs_before = Job.objects.count()
    errors = at_once(*(lambda r=r: result_confirm(user=organiser, result=r) for r in waiting))
    assert errors == []
    assert not Table.objects.filter(round__event=event).exclude(status=Table.Status.CONFIRMED).exists()
    assert_standings_exact(event)
    assert_ratings_exact("spy-vs-spy")
    # New results in order are applied on the spot: no job at all.
    assert Job.objects.count() == jobs_before


def test_corrections_and_confirmations_at_once_make_few_jobs_none_failed(club: Any, organiser: Any) -> None:
    event, waiting = entered_round(club, organiser)
    older = list(Result.objects.filter(status=Result.Status.CONFIRMED).order_by("played"))

    def correct(result: Result) -> Callable[[], Any]:
        def work() -> None:
            players = [line.player for line in result.lines.order_by("position")]
            entries = [EntryLine(p, float(3 - i % 3)) for i, p in enumerate(players)]
            result_correct(user=organiser, result=result, entries=entries, note="swapped")

        return work

    confirms = [lambda r=r: result_confirm(user=organiser, result=r) for r in waiting]
    errors = at_once(*confirms, *(correct(r) for r in older))
    assert errors == []
    jobs = Job.objects.filter(kind="ratings")
    assert not jobs.filter(status=Job.Status.FAILED).exists()
    assert set(jobs.values_list("status", flat=True)) <= {Job.Status.DONE}
    # Jobs run inline here, each right after the request that queued it: at most one per request
    # that asked (a correction, or a confirmation while a recompute was due), fewer when one
    # queued job served several.
    assert jobs.count() <= len(older) + len(waiting)
    assert not RatingState.objects.filter(pending=True).exists()
    assert_standings_exact(event)
    assert_ratings_exact("spy-vs-spy")


def test_two_recomputes_of_one_event_and_one_game_at_once_both_succeed(club: Any, organiser: Any) -> None:
    event, waiting = entered_round(club, organiser)
    for result in waiting:
        result_confirm(user=organiser, result=result)
    errors = at_once(
        lambda: services.standings_recompute(event=event),
        lambda: services.standings_recompute(event=event),
        lambda: ratings_recompute(game="spy-vs-spy", everything=True),
        lambda: ratings_recompute(game="spy-vs-spy", everything=True),
    )
    assert errors == []
    assert_standings_exact(event)
    assert_ratings_exact("spy-vs-spy")


def test_queueing_one_key_at_once_makes_one_job(club: Any, organiser: Any) -> None:
    class Task:
        name = "count"

        def apply_async(self, args: Any, **options: Any) -> None:
            return None

    made: list[int] = []
    errors = at_once(
        *(
            lambda: made.append(job_queue(kind="test", label="Count", task=Task(), key="count:1").pk)
            for _ in range(4)
        )
    )
    assert errors == []
    assert len(set(made)) == 1
    assert Job.objects.filter(key="count:1").count() == 1


def test_a_job_delivered_twice_at_once_runs_once_and_keeps_its_own_status() -> None:
    job = Job.objects.create(kind="test", label="Once")
    runs: list[int] = []
    release = threading.Event()

    def work(reporter: Any, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        runs.append(1)
        release.wait(5)
        raise ValueError("the deck is missing a card")

    def deliver() -> None:
        with contextlib.suppress(ValueError):
            run_job(job.pk, work)

    def second() -> None:
        while not runs:  # the first delivery has claimed the job and is working
            threading.Event().wait(0.01)
        run_job(job.pk, lambda r, p: ("Done", {}))  # a second delivery: finds it claimed
        release.set()

    assert at_once(deliver, second) == []
    job.refresh_from_db()
    assert runs == [1]
    assert job.status == Job.Status.FAILED  # the failed run's status is not overwritten
    run_job(job.pk, lambda r, p: ("Done", {}))  # nor by a later delivery
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED


def test_while_the_worker_is_busy_corrections_at_once_queue_one_recompute(
    club: Any, organiser: Any, monkeypatch: Any
) -> None:
    from spyleague.ratings import tasks

    event, waiting = entered_round(club, organiser)
    for result in waiting:
        result_confirm(user=organiser, result=result)
    monkeypatch.setattr(tasks.recompute_ratings_task, "apply_async", lambda *a, **k: None)  # not started yet
    confirmed = list(Result.objects.filter(status=Result.Status.CONFIRMED))

    def correct(result: Result) -> Callable[[], Any]:
        def work() -> None:
            players = [line.player for line in result.lines.order_by("position")]
            entries = [EntryLine(p, float(i % 2)) for i, p in enumerate(players)]
            result_correct(user=organiser, result=result, entries=entries, note="typo")

        return work

    assert at_once(*(correct(r) for r in confirmed)) == []
    queued = Job.objects.filter(kind="ratings", status=Job.Status.QUEUED)
    assert queued.count() == 1
    assert RatingState.objects.get(game="spy-vs-spy").pending
    assert_standings_exact(event)  # standings need no recompute: each correction updated them
    from spyleague.ratings.tasks import recompute_ratings_task

    recompute_ratings_task(queued.get().pk)  # the worker gets to it: one run for every correction
    assert Job.objects.get(kind="ratings").status == Job.Status.DONE
    assert not RatingState.objects.get(game="spy-vs-spy").pending
    assert_ratings_exact("spy-vs-spy")
