"""A bot thinks outside any transaction: while it thinks, people's pages and moves answer, and a
move it thought out at a version the match has left is dropped and thought out again."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client

from games import get_bots
from spyleague.play import bots as play_bots
from spyleague.play import moves, services
from spyleague.play.models import Match, Move

WAIT = 60  # seconds a thread may take before the test calls it stuck (never reached when it works)


class Thinking:
    """The heuristic bot, held in its first thought until ``go`` is set; it records the version
    of every view it was shown and whether a transaction was open as it thought."""

    def __init__(self) -> None:
        self.inner = get_bots("black-spy")["heuristic"]
        self.name = self.inner.name
        self.thinking, self.go = threading.Event(), threading.Event()
        self.seen: list[tuple[int, bool]] = []

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Any) -> Any:
        self.seen.append((view["seat"], connection.in_atomic_block))
        if len(self.seen) == 1:
            self.thinking.set()
            assert self.go.wait(WAIT), "the test never let the bot finish"
        return self.inner.choose(view, legal, rng)


@pytest.mark.django_db(transaction=True)
def test_a_person_s_page_and_move_answer_while_a_bot_thinks_and_its_stale_move_is_thought_again(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = make_user(username="ann")
    queued: list[Any] = []
    # The bots' runs are started by the test alone (here, not as each commit queues one).
    monkeypatch.setattr(moves, "send_task_safely", lambda task, *args, **kw: queued.append(args))
    match = services.match_create(
        user=ann, game="black-spy", seats=3, seed=4, bots={1: "heuristic", 2: "heuristic"}
    )
    services.match_start(user=ann, match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.version == 0
    thinking = Thinking()
    monkeypatch.setattr(play_bots, "get_bots", lambda game: {**get_bots(game), "heuristic": thinking})
    errors: list[BaseException] = []

    def run(work: Any) -> threading.Thread:
        def body() -> None:
            try:
                work()
            except BaseException as exc:
                errors.append(exc)
            finally:
                connection.close()

        thread = threading.Thread(target=body)
        thread.start()
        return thread

    bots = run(lambda: services.match_run_bots(match_id=match.pk))
    assert thinking.thinking.wait(WAIT)  # seat 1's bot thinks about its pass, at version 0
    answers: list[int] = []
    client = Client()
    client.force_login(ann)

    def person() -> None:  # ann (seat 0) passes her three cards meanwhile: the deal passes at once
        answers.append(client.get(match.get_absolute_url()).status_code)
        state = client.get(f"/api/matches/{match.pk}/").json()
        action = state["legal"][0]
        answers.append(
            client.post(f"/api/matches/{match.pk}/act/", {"action": action}, "application/json").status_code
        )

    ann_thread = run(person)
    ann_thread.join(WAIT)
    assert not ann_thread.is_alive(), "ann's page or move waited for the thinking bot"
    assert answers == [200, 200] and not thinking.go.is_set()
    thinking.go.set()
    bots.join(WAIT)
    assert not bots.is_alive() and errors == []
    # Its move thought out at version 0 was dropped (ann's is move 1, which the bot's would have
    # been); it was asked again at the version after hers, and the bots played on.
    log = list(Move.objects.filter(match=match).order_by("number").values_list("seat", flat=True))
    assert log[0] == 0 and len(log) > 1 and set(log[1:]) <= {1, 2}
    assert [seat for seat, _ in thinking.seen][:2] == [1, 1]
    assert all(not in_transaction for _, in_transaction in thinking.seen)
    assert not transaction.get_connection().in_atomic_block


@pytest.mark.django_db
def test_a_race_page_s_tick_thinks_for_no_bot_where_a_worker_races_them(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spyleague.play import realtime

    ann = make_user(username="ann")
    match = services.match_create(user=ann, game="spy-vs-spy", seats=2, seed=2, bots={1: "heuristic"})
    monkeypatch.setattr(realtime, "bots_due_now", lambda match_id: True)
    followed: list[int] = []
    monkeypatch.setattr(realtime, "bots_follow_up", lambda match_id: followed.append(match_id) or 0.05)
    monkeypatch.setattr(play_bots, "match_run_bots", lambda **kw: pytest.fail("a bot thought in the request"))
    monkeypatch.setattr(realtime, "worker_drives_bots", lambda: True)
    assert play_bots.race_tick(match_id=match.pk) == 0 and followed == [match.pk]
    # Without a worker (eager Celery, local use), or Redis away, the tick makes the moves itself.
    monkeypatch.setattr(realtime, "worker_drives_bots", lambda: False)
    monkeypatch.setattr(play_bots, "match_run_bots", lambda **kw: 1)
    assert play_bots.race_tick(match_id=match.pk) == 1 and followed == [match.pk]


def test_a_worker_races_the_bots_only_with_a_broker_and_redis_answering(settings: Any) -> None:
    from spyleague.play import live, realtime

    settings.CELERY_TASK_ALWAYS_EAGER, settings.REDIS_URL = True, "redis://127.0.0.1:6379/0"
    assert not realtime.worker_drives_bots()
    settings.CELERY_TASK_ALWAYS_EAGER = False
    live.PUBLISHING.over()
    assert realtime.worker_drives_bots()
    settings.REDIS_URL = ""
    assert not realtime.worker_drives_bots()
