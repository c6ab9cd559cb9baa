"""No match waits on its bots for long: the bot sweep asks them again when the message that
should have (queued after the move) was lost.

Every move marks a match whose next to act is a bot (``Match.bot_turn``) and clears the mark
when only people are to act; the sweep asks the bots of a match marked for ``SWEEP_SECONDS``
(with eager Celery their run happens here, in the sweep's call)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from spyleague.play import realtime, services, sweeps
from spyleague.play.models import Match, Move
from spyleague.play.state import match_state
from spyleague.play.sweeps import bots_sweep


def later(match: Match, seconds: float) -> datetime:
    assert match.bot_turn is not None
    return match.bot_turn + timedelta(seconds=seconds)


def bot_first(user: Any, *, seats: int = 2) -> Match:
    """A Race to Ten where the bots move first: started, but the message for their turn lost."""
    match = services.match_create(
        user=user, game="race-to-ten", seats=seats, seed=1, bots=dict.fromkeys(range(1, seats), "random")
    )
    services.match_start(user=user, match_id=match.pk)  # its on-commit send never happens here
    match.refresh_from_db()
    return match


@pytest.mark.django_db
def test_a_match_whose_bot_turn_was_lost_gets_its_bot_move_from_the_sweep(
    make_user: Any, settings: Any
) -> None:
    match = bot_first(make_user(username="ann"))
    assert match.version == 0 and match.bot_turn is not None
    assert (
        bots_sweep(now=later(match, settings.SWEEP_SECONDS / 2)) == 0
    )  # the move's own message may come yet
    assert bots_sweep(now=later(match, settings.SWEEP_SECONDS)) == 1
    match.refresh_from_db()
    assert match.version == 1 and match_state(match).turn == 0  # the bot moved; ann is to act
    assert match.bot_turn is None
    assert bots_sweep(now=timezone.now() + timedelta(hours=1)) == 0


@pytest.mark.django_db
def test_a_person_to_act_clears_the_mark_and_a_stale_mark_is_cleared_not_asked(
    make_user: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = make_user(username="ann")
    match = services.match_create(user=ann, game="race-to-ten", seats=2, seed=0, bots={1: "random"})
    with django_capture_on_commit_callbacks(execute=True):
        services.match_start(user=ann, match_id=match.pk)  # ann first
    match.refresh_from_db()
    assert match.bot_turn is None
    with django_capture_on_commit_callbacks(execute=True):
        services.match_move_submit(match_id=match.pk, user=ann, action={"type": "add", "n": 1})
    match.refresh_from_db()
    assert match.version == 2 and match.bot_turn is None  # the bot answered at once: ann again
    asked: list[int] = []
    monkeypatch.setattr(sweeps, "send_task_safely", lambda task, match_id: asked.append(match_id))
    Match.objects.filter(pk=match.pk).update(bot_turn=timezone.now() - timedelta(hours=1))  # from before
    assert bots_sweep() == 0 and asked == []
    assert Match.objects.get(pk=match.pk).bot_turn is None


@pytest.mark.django_db
def test_the_sweep_is_one_query_when_nothing_waits(make_user: Any, django_assert_num_queries: Any) -> None:
    match = bot_first(make_user(username="ann"))  # marked a moment ago: not waiting yet
    with django_assert_num_queries(1):
        assert bots_sweep(now=later(match, 0.1)) == 0


@pytest.mark.django_db
def test_a_sweep_asks_a_match_once_however_often_it_runs(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = bot_first(make_user(username="ann"))
    asked: list[int] = []
    monkeypatch.setattr(sweeps, "send_task_safely", lambda task, match_id: asked.append(match_id))
    now = later(match, settings.SWEEP_SECONDS)
    assert bots_sweep(now=now) == 1
    assert bots_sweep(now=now) == 0  # asked just now: not again before another period
    assert asked == [match.pk]
    assert bots_sweep(now=now + timedelta(seconds=settings.SWEEP_SECONDS)) == 1  # still waiting: again


@pytest.mark.django_db(transaction=True)
def test_sweeps_and_runs_at_once_make_each_bot_move_once(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spyleague.play import tasks

    ann = make_user(username="ann")
    with monkeypatch.context() as lost:  # here the start commits: its message must be lost
        lost.setattr(tasks.run_bots, "apply_async", lambda *args, **options: None)
        match = bot_first(ann, seats=4)  # three bots to move before ann
    now = later(match, settings.SWEEP_SECONDS)
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def at_once(work: Any) -> None:
        start.wait()
        try:
            work()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    work = [lambda: bots_sweep(now=now)] * 2 + [lambda: services.match_run_bots(match_id=match.pk)] * 2
    threads = [threading.Thread(target=at_once, args=(w,)) for w in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    match.refresh_from_db()
    assert match.version == 3 and match.bot_turn is None
    assert sorted(Move.objects.filter(match=match).values_list("seat", flat=True)) == [1, 2, 3]
    assert match_state(match).turn == 0


T0 = datetime(2031, 5, 4, 12, 0, 0, tzinfo=UTC)


@pytest.mark.django_db
def test_spy_vs_spy_bots_race_on_after_their_follow_ups_were_lost(
    make_user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [T0]
    monkeypatch.setattr(timezone, "now", lambda: clock[0])
    realtime._RACE_STARTS.clear()
    ann = make_user(username="ann")
    match = services.match_create(
        user=ann,
        game="spy-vs-spy",
        seats=3,
        seed=5,
        options={"bot_cards_per_minute": 60},
        bots={1: "heuristic", 2: "heuristic"},
    )
    services.match_start(user=ann, match_id=match.pk)  # no page open, and no follow-up run queued
    match.refresh_from_db()
    assert match.bot_turn == T0
    clock[0] = T0 + timedelta(seconds=max(settings.SWEEP_SECONDS, realtime.RACE_PAUSE + 1))
    assert bots_sweep() == 1
    assert set(Move.objects.filter(match=match).values_list("seat", flat=True)) == {1, 2}  # both raced
    match.refresh_from_db()
    assert match.bot_turn == clock[0]  # still racing: marked as of their moves
    realtime._RACE_STARTS.clear()
