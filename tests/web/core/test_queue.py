"""Queueing follow-up work never fails, nor holds up, the request that queues it."""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

import pytest
from django.test import override_settings
from kombu.exceptions import OperationalError

from spyleague.core import queue
from spyleague.play import live, tasks


@pytest.fixture(autouse=True)
def no_outage() -> Any:
    queue.BROKER.over()
    yield
    queue.BROKER.over()


@override_settings(CELERY_TASK_ALWAYS_EAGER=True)  # as the README's local site runs (CI sets a broker)
def test_with_eager_celery_the_task_runs_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[Any] = []
    monkeypatch.setattr(tasks.run_bots, "apply_async", lambda args, **options: ran.append((args, options)))
    assert queue.send_task_safely(tasks.run_bots, 7) is True
    assert ran == [((7,), {"countdown": None})]


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_a_send_keeps_no_result_and_a_broker_away_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    sent: list[Any] = []
    monkeypatch.setattr(tasks.run_bots, "apply_async", lambda args, **options: sent.append((args, options)))
    assert queue.send_task_safely(tasks.run_bots, 7, countdown=1.5) is True
    assert sent == [((7,), {"countdown": 1.5, "ignore_result": True})]

    def refused(args: Any, **options: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.run_bots, "apply_async", refused)
    with caplog.at_level(logging.WARNING, logger="spyleague.core.queue"):
        assert queue.send_task_safely(tasks.run_bots, 7) is False
    assert "Could not queue spyleague.play.tasks.run_bots(7,)" in caplog.text
    # A refusal is quick: the next send tries again (the first after the broker is back goes through).
    assert not queue.BROKER.ongoing()


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_after_a_send_timed_out_sends_are_skipped_for_a_while(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    def timed_out(args: Any, **options: Any) -> None:
        calls.append(args)
        raise OperationalError("Timeout connecting to server")

    monkeypatch.setattr(queue, "SLOW_SECONDS", -1.0)  # every failure counts as slow
    monkeypatch.setattr(tasks.run_bots, "apply_async", timed_out)
    assert queue.send_task_safely(tasks.run_bots, 7) is False
    assert queue.BROKER.ongoing()
    assert queue.send_task_safely(tasks.run_bots, 8) is False
    assert calls == [(7,)]  # the second was not tried: it would have waited for the timeout too


@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
def test_a_notice_that_cannot_be_published_is_dropped(caplog: pytest.LogCaptureFixture) -> None:
    live._redis.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="spyleague.play.live"):
            live.publish(1, 2)  # nothing listens on port 1: refused, logged
        assert "Could not publish match 1 version 2" in caplog.text
    finally:
        live._redis.cache_clear()


class Stuck:
    """A call that does not answer until released, as on a Redis that was stopped (SIGSTOP)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls: list[Any] = []

    def __call__(self, *args: Any, **options: Any) -> None:
        self.calls.append(args)
        self.release.wait(30)


@pytest.fixture
def stuck() -> Any:
    call = Stuck()
    yield call
    call.release.set()


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_a_send_to_a_broker_that_does_not_answer_is_given_up_after_the_deadline(
    monkeypatch: pytest.MonkeyPatch, stuck: Stuck
) -> None:
    """Not after its socket timeouts and a retry: a move answered after 8 to 11 s that way."""
    monkeypatch.setattr(tasks.run_bots, "apply_async", stuck)
    started = time.monotonic()
    assert queue.send_task_safely(tasks.run_bots, 7) is False
    assert queue.DEADLINE_SECONDS <= time.monotonic() - started < queue.DEADLINE_SECONDS + 0.5
    assert queue.BROKER.ongoing()
    assert queue.send_task_safely(tasks.run_bots, 8) is False  # skipped at once, not tried
    assert stuck.calls == [((7,),)]  # apply_async((7,), ...)


def publish_a_version(match_id: int, version: int) -> tuple[str, str]:
    live.publish(match_id, version)
    return live.channel(match_id), str(version)


def publish_a_race_update(match_id: int, version: int) -> tuple[str, str]:
    from spyleague.play import race_view

    message = f'{{"t": "u", "v": {version}}}'
    race_view.publish_update(match_id, version, message)
    return live.race_channel(match_id), message


@override_settings(REDIS_URL="redis://127.0.0.1:1/0")
@pytest.mark.parametrize("publish", [publish_a_version, publish_a_race_update])
def test_a_publish_to_a_redis_that_does_not_answer_is_given_up_after_the_deadline(
    monkeypatch: pytest.MonkeyPatch, stuck: Stuck, publish: Any
) -> None:
    live.PUBLISHING.over()

    class Redis:
        publish = stuck

    monkeypatch.setattr(live, "_redis", Redis)
    try:
        started = time.monotonic()
        sent = publish(1, 2)
        assert time.monotonic() - started < queue.DEADLINE_SECONDS + 0.5
        assert live.PUBLISHING.ongoing()
        publish(1, 3)  # skipped
        assert stuck.calls == [sent]
    finally:
        live.PUBLISHING.over()


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_calls_within_the_deadline_run_in_a_forked_child_too() -> None:
    """A Celery pool process or a gunicorn worker is a fork: it has none of its parent's threads."""
    assert queue.within_deadline(queue.BROKER, lambda: 1) == 1  # the parent has a thread now
    child = os.fork()
    if child == 0:
        try:
            os._exit(0 if queue.within_deadline(queue.BROKER, lambda: 2) == 2 else 1)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_calls_within_the_deadline_return_and_raise_as_they_would() -> None:
    assert queue.within_deadline(queue.BROKER, lambda: "answer") == "answer"

    def refused() -> None:
        raise OperationalError("Connection refused.")

    with pytest.raises(OperationalError):
        queue.within_deadline(queue.BROKER, refused)
    assert not queue.BROKER.ongoing()
    results = []
    threads = [
        threading.Thread(target=lambda i=i: results.append(queue.within_deadline(queue.BROKER, lambda: i)))
        for i in range(20)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == list(range(20))


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_a_send_goes_to_the_task_as_the_caller_sees_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Celery's current app is per thread: the send is made beside the caller, to the task the
    caller's thread resolves (a second app made current here, as a test or a script may)."""
    from celery import Celery

    from spyleague.celery import app

    other = Celery("other", broker="memory://")  # now the current app of this thread
    try:
        sent: list[Any] = []
        seen_here = tasks.run_bots._get_current_object()  # the other app's run_bots
        monkeypatch.setattr(seen_here, "apply_async", lambda args, **options: sent.append(args))
        assert queue.send_task_safely(tasks.run_bots, 7) is True
        assert sent == [(7,)]
    finally:
        app.set_current()
        other.close()
