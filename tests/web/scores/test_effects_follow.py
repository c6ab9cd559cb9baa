"""Where a worker runs, a confirmation records its table and leaves its effects (the round, the
event, the standings, the ratings) to follow right after it commits (``scores.effects``): so
confirmations of different tables run side by side, and nothing is applied twice or lost.

The tests play the worker themselves: the broker "takes" each task (``sent``) and the test runs
``effects_apply_all`` when the worker would.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client, TestCase, override_settings
from django.urls import reverse
from django.utils import timezone

from spyleague.core import cache
from spyleague.ratings.models import Rating
from spyleague.scores import effects
from spyleague.scores.models import PendingEffects, Result
from spyleague.scores.services import EntryLine, result_confirm, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Event, Round, Table
from spyleague.tournaments.services import standings_compute
from spyleague.tournaments.standings import standings_ranked

from ..tournaments.helpers import distinct_scores, make_event, play_round
from ..tournaments.test_event_cache import get, normal, uncached

WAIT = 30.0


@pytest.fixture
def sent(monkeypatch: Any, settings: Any) -> list[Any]:
    """A worker runs (effects follow the commit); the tasks the broker took, not yet run (each
    confirmation its own run: ``gathered`` below for the runs shared by a window's)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.EFFECTS_GATHER_SECONDS = 0
    taken: list[Any] = []

    def send(task: Any, *args: Any, countdown: float | None = None) -> bool:
        taken.append(task)
        return True

    monkeypatch.setattr(effects, "send_task_safely", send)
    return taken


@pytest.fixture
def gathered(monkeypatch: Any, settings: Any) -> Iterator[list[float | None]]:
    """A worker runs and the confirmations of a window share a run: the countdown of each run
    the broker took."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.EFFECTS_GATHER_SECONDS = 1.0
    cache.forget_first(effects.QUEUED)
    countdowns: list[float | None] = []

    def send(task: Any, *args: Any, countdown: float | None = None) -> bool:
        countdowns.append(countdown)
        return True

    monkeypatch.setattr(effects, "send_task_safely", send)
    yield countdowns
    cache.forget_first(effects.QUEUED)


def reported_round(event: Event, organiser: Any, seed: int = 3) -> list[Result]:
    """The next round paired and published, every table's result entered, none confirmed."""
    rng = random.Random(seed)
    with TestCase.captureOnCommitCallbacks(execute=True):
        rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    results = []
    for table in (
        rnd.tables.filter(is_bye=False).order_by("number").prefetch_related("seats__entrant__player")
    ):
        seats = list(table.seats.order_by("position"))
        scores = distinct_scores(event, len(seats), rng)
        entries = [EntryLine(s.entrant.player, float(sc)) for s, sc in zip(seats, scores, strict=True)]
        results.append(
            result_enter(user=organiser, game=event.game, club=event.club, table=table, entries=entries)
        )
    return results


def second_round(club: Any, organiser: Any, sent: list[Any], players: int) -> tuple[Event, list[Result]]:
    """An event with its first round played and its second's results entered, none confirmed;
    the tasks of the first round forgotten."""
    event = make_event(club, organiser, players=players, size=4)
    play_round(event, organiser)
    results = reported_round(event, organiser)
    sent.clear()
    return event, results


def stored_equal_computed(event: Event) -> bool:
    stored = {r.entrant_id: (r.place, r.points, r.opponents_average) for r in standings_ranked(event)}
    computed = {r.player: (r.rank, r.points, r.opponents_average) for r in standings_compute(event)}
    return stored == computed


@pytest.mark.django_db(transaction=True)  # each confirmation its own transaction, as in a request
def test_the_effects_follow_each_confirmation_and_the_last_table_applies_them_at_once(
    club: Any, organiser: Any, sent: list[Any]
) -> None:
    event, results = second_round(club, organiser, sent, 12)
    ratings_before = dict(Rating.objects.values_list("player_id", "games"))
    for n, result in enumerate(results[:-1], start=1):
        with TestCase.captureOnCommitCallbacks(execute=True):
            result_confirm(user=organiser, result=result)
        # Recorded at once (the table is confirmed, its seats placed); the rest waits for a worker.
        assert Table.objects.get(pk=result.table_id).status == Table.Status.CONFIRMED
        assert PendingEffects.objects.count() == n
        assert len(sent) == n
        assert dict(Rating.objects.values_list("player_id", "games")) == ratings_before
    rnd = Round.objects.get(pk=Table.objects.get(pk=results[0].table_id).round_id)
    assert rnd.status == Round.Status.PUBLISHED
    # The round's last table applies every pending result in its own request: the round is
    # complete and its standings are up to date as soon as it is in.
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_confirm(user=organiser, result=results[-1])
    assert len(sent) == len(results) - 1
    assert not PendingEffects.objects.exists()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.COMPLETE
    assert stored_equal_computed(event)
    rated = dict(Rating.objects.values_list("player_id", "games"))
    played = {line.player_id for r in results for line in r.lines.all()}
    assert all(rated[p] == ratings_before.get(p, 0) + 1 for p in played)
    # A worker that runs the tasks afterwards finds nothing left to do.
    assert effects.effects_apply_all() == 0


@pytest.mark.django_db(transaction=True)
def test_the_confirmations_of_a_window_share_one_run_of_their_effects(
    club: Any, organiser: Any, gathered: list[float | None]
) -> None:
    event, results = second_round(club, organiser, gathered, 16)
    cache.forget_first(effects.QUEUED)
    early, late = results[:-2], results[-2]
    for result in early:
        with TestCase.captureOnCommitCallbacks(execute=True):
            result_confirm(user=organiser, result=result)
    # The first confirmation queued a run due at the window's end; the others left theirs to it.
    assert gathered == [1.0]
    assert PendingEffects.objects.count() == len(early)
    # Once the window is over, the next confirmation queues the next run.
    cache.forget_first(effects.QUEUED)
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_confirm(user=organiser, result=late)
    assert gathered == [1.0, 1.0]
    # The first run takes every pending result in one pass; the second finds nothing left.
    assert effects.effects_apply(wait=False) == len(early) + 1
    assert effects.effects_apply(wait=False) == 0
    assert stored_equal_computed(event)


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_the_effects_are_applied_in_it(
    club: Any, organiser: Any, sent: list[Any]
) -> None:
    event, results = second_round(club, organiser, sent, 12)
    with transaction.atomic():  # as the demo data confirms its results, then reads what followed
        for result in results:
            result_confirm(user=organiser, result=result)
        assert not PendingEffects.objects.exists()
        assert Round.objects.filter(event=event, status=Round.Status.COMPLETE).count() == 2
        assert stored_equal_computed(event)
    assert not sent


@pytest.mark.django_db(transaction=True)
def test_a_result_whose_task_was_lost_is_applied_by_the_sweep_once_old_enough(
    club: Any, organiser: Any, sent: list[Any]
) -> None:
    _, results = second_round(club, organiser, sent, 12)
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_confirm(user=organiser, result=results[0])
    assert effects.effects_sweep() == 0  # just confirmed: its task may still come
    PendingEffects.objects.update(created=timezone.now() - timedelta(seconds=effects.SWEEP_AFTER_SECONDS + 1))
    assert effects.effects_sweep() == 1
    assert not PendingEffects.objects.exists()
    players = [line.player_id for line in results[0].lines.all()]
    assert Rating.objects.filter(player_id__in=players, games=2).count() == len(players)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="two writers at once on PostgreSQL only")
def test_confirmations_of_different_tables_do_not_wait_on_each_other(
    club: Any, organiser: Any, sent: list[Any]
) -> None:
    event, results = second_round(club, organiser, sent, 16)
    first_in, release, second_done = threading.Event(), threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def first() -> None:
        try:
            with transaction.atomic():  # the first confirmation, held open with all it locked
                result_confirm(user=organiser, result=results[0])
                first_in.set()
                if not release.wait(WAIT):
                    raise TimeoutError("never released")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    def second() -> None:
        try:
            result_confirm(user=organiser, result=results[1])
            second_done.set()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    threads[0].start()
    try:
        assert first_in.wait(WAIT)
        threads[1].start()
        # The second finishes while the first still holds its transaction open: it took no lock
        # the first holds (the event's standings, the game's ratings, the round).
        assert second_done.wait(WAIT), "the second confirmation waited for the first"
    finally:
        release.set()
        for thread in threads:
            thread.join(WAIT)
    assert not errors
    for result in results[2:]:
        result_confirm(user=organiser, result=result)
    effects.effects_apply_all()  # the worker
    assert not PendingEffects.objects.exists()
    assert Round.objects.filter(event=event, status=Round.Status.COMPLETE).count() == 2
    assert stored_equal_computed(event)


@pytest.mark.django_db(transaction=True)
def test_the_kept_pages_show_the_standings_as_soon_as_the_effects_are_applied(
    club: Any, organiser: Any, sent: list[Any]
) -> None:
    # The standings are written in bulk (no signal) by the effects, in a transaction after the
    # confirmation's: their writer must move the pages on, or the kept standings stay as they
    # were until the next confirmation.
    event, results = second_round(club, organiser, sent, 12)
    page = reverse("tournaments:event", args=[event.pk])
    standings = reverse("api-event-standings", args=[event.pk])
    visitor = Client()
    with override_settings(SPYLEAGUE_PAGE_CACHE=True):
        cache.PAGES.over()
        before = normal(get(visitor, page)), get(visitor, standings)
        with TestCase.captureOnCommitCallbacks(execute=True):
            result_confirm(user=organiser, result=results[0])
        recorded = normal(get(visitor, page)), get(visitor, standings)
        assert recorded == (normal(uncached(visitor, page)), uncached(visitor, standings))
        assert recorded[0] != before[0]  # the table shows its result at once
        assert recorded[1] == before[1]  # the standings wait for the effects
        assert effects.effects_apply_all() == 1
        applied = normal(get(visitor, page)), get(visitor, standings)
        assert applied == (normal(uncached(visitor, page)), uncached(visitor, standings))
        assert applied[1] != recorded[1]


def _busy(**_: Any) -> int:
    """As Django raises it when PostgreSQL's lock_timeout ran out (psycopg's LockNotAvailable)."""
    import psycopg
    from django.db import OperationalError

    try:
        raise psycopg.errors.LockNotAvailable("canceling statement due to lock timeout")
    except psycopg.Error as driver:
        raise OperationalError(str(driver)) from driver


def test_an_effects_run_that_waited_past_the_lock_timeout_tries_again(monkeypatch: Any) -> None:
    """Its results were given back when its transaction rolled back; it asks to run again in a
    moment (Celery's retry) instead of failing. Any other error is an error."""
    from celery.exceptions import Retry

    from spyleague.scores import effects, tasks

    monkeypatch.setattr(effects, "effects_apply_all", _busy)
    with pytest.raises(Retry):
        tasks.apply_effects_task.run()

    def broken(**_: Any) -> int:
        raise ValueError("not the database")

    monkeypatch.setattr(effects, "effects_apply_all", broken)
    with pytest.raises(ValueError):
        tasks.apply_effects_task.run()


class _LockHeld:
    """Another transaction (a worker's run applying other results) holding the lock called
    ``name`` (an event's standings, a game's ratings) until ``release()``."""

    def __init__(self, name: str) -> None:
        from spyleague.core.jobs import job_lock

        self.held, self._release = threading.Event(), threading.Event()
        self.errors: list[BaseException] = []

        def hold() -> None:
            try:
                with transaction.atomic():
                    job_lock(name)
                    self.held.set()
                    if not self._release.wait(WAIT):
                        raise TimeoutError("never released")
            except BaseException as exc:  # pragma: no cover - reported by release()
                self.errors.append(exc)
            finally:
                connection.close()

        self._thread = threading.Thread(target=hold)
        self._thread.start()
        assert self.held.wait(WAIT)

    def release(self) -> None:
        self._release.set()
        self._thread.join(WAIT)
        assert not self.errors


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="two writers at once on PostgreSQL only")
def test_a_workers_run_does_not_wait_for_another_runs_batch(
    club: Any, organiser: Any, sent: list[Any], settings: Any
) -> None:
    """It gives its results back at once and asks to run again (it would otherwise sit on the
    lock, running no bot, up to the lock timeout); once the other run is done they apply."""
    from celery.exceptions import Retry

    from spyleague.scores import tasks

    event, results = second_round(club, organiser, sent, 12)
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_confirm(user=organiser, result=results[0])
    other = _LockHeld(f"standings:{event.pk}")
    try:
        with connection.cursor() as cursor:  # a wait would show as a lock timeout instead
            cursor.execute("SET lock_timeout = '20s'")
        with pytest.raises(Retry):
            tasks.apply_effects_task.run()
        assert PendingEffects.objects.count() == 1  # given back, not lost
    finally:
        other.release()
    assert tasks.apply_effects_task.run() == 1
    assert not PendingEffects.objects.exists()
    assert stored_equal_computed(event)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="two writers at once on PostgreSQL only")
def test_the_rounds_last_table_does_not_wait_behind_a_workers_batch(
    club: Any, organiser: Any, sent: list[Any]
) -> None:
    """While a worker holds the event's standings, the round's last confirmation hands its
    effects to the worker too (the round completes a moment later) instead of waiting."""
    event, results = second_round(club, organiser, sent, 12)
    for result in results[:-1]:
        with TestCase.captureOnCommitCallbacks(execute=True):
            result_confirm(user=organiser, result=result)
    sent.clear()
    other = _LockHeld(f"standings:{event.pk}")
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '20s'")
        with TestCase.captureOnCommitCallbacks(execute=True):
            result_confirm(user=organiser, result=results[-1])
        assert len(sent) == 1  # the worker's to apply
        assert PendingEffects.objects.count() == len(results)
        assert Table.objects.get(pk=results[-1].table_id).status == Table.Status.CONFIRMED
    finally:
        other.release()
    effects.effects_apply_all()  # the worker
    assert not PendingEffects.objects.exists()
    assert Round.objects.filter(event=event, status=Round.Status.COMPLETE).count() == 2
    assert stored_equal_computed(event)


@pytest.mark.django_db(transaction=True)
def test_a_lock_taken_without_waiting_says_whether_it_was_taken() -> None:
    from spyleague.core.jobs import job_lock

    with transaction.atomic():
        assert job_lock("a-name", wait=False)
        assert job_lock("a-name", wait=False)  # held by this transaction already: still its
    if connection.vendor != "postgresql":
        return  # (SQLite: one writer at a time holds the whole database; nothing to take)
    other = threading.Event()
    done = threading.Event()
    taken: list[bool] = []

    def elsewhere() -> None:
        try:
            with transaction.atomic():
                taken.append(job_lock("a-name", wait=False))
            done.set()
        finally:
            connection.close()

    with transaction.atomic():
        job_lock("a-name")
        thread = threading.Thread(target=elsewhere)
        thread.start()
        assert done.wait(WAIT)
        thread.join(WAIT)
    assert taken == [False]
    del other


@pytest.mark.django_db(transaction=True)
def test_the_rounds_last_table_applies_one_batch_and_leaves_the_rest_to_the_worker(
    club: Any, organiser: Any, sent: list[Any], monkeypatch: Any
) -> None:
    """A request applies a bounded amount: what is still pending after its batch (the next
    round's results, the matches' ratings coming in meanwhile) goes to the worker. (Under the
    load benchmark a round's last confirmation applied batch after batch as results kept coming,
    for 10 to 17 s.) Here a batch is one result, so that more is left than one batch takes."""
    event, results = second_round(club, organiser, sent, 12)
    for result in results[:-1]:
        with TestCase.captureOnCommitCallbacks(execute=True):
            result_confirm(user=organiser, result=result)
    sent.clear()
    batch_of = effects.effects_apply
    monkeypatch.setattr(effects, "effects_apply", lambda **kw: batch_of(**{**kw, "batch": 1}))
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_confirm(user=organiser, result=results[-1])
    assert PendingEffects.objects.count() == len(results) - 1  # one batch applied in the request
    assert len(sent) == 1  # and the rest handed to the worker
    assert Round.objects.filter(event=event, status=Round.Status.COMPLETE).count() == 2  # complete now
    monkeypatch.undo()
    assert effects.effects_apply_all() == len(results) - 1  # the worker
    assert stored_equal_computed(event)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="two writers at once on PostgreSQL only")
def test_a_workers_run_does_not_wait_for_the_games_ratings_either(
    club: Any, organiser: Any, sent: list[Any]
) -> None:
    from celery.exceptions import Retry

    from spyleague.scores import tasks

    event, results = second_round(club, organiser, sent, 12)
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_confirm(user=organiser, result=results[0])
    other = _LockHeld(f"ratings:{event.game}")
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '20s'")
        with pytest.raises(Retry):
            tasks.apply_effects_task.run()
        assert PendingEffects.objects.count() == 1
    finally:
        other.release()
    assert tasks.apply_effects_task.run() == 1
