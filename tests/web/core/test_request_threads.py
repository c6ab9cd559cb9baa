"""Each request's thread comes from a pool (spyleague.core.threads), one request at a time."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.signals import request_finished, request_started

from spyleague.core import threads


def run_apart[T](coro: Any) -> T:
    """``asyncio.run(coro)`` in a thread of its own: a loop of its own whatever the test's thread
    runs (a browser test before it in the same process leaves one running there)."""
    out: list[Any] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return out[0]


async def _get(app: Any, path: str) -> int:
    return int((await _answer(app, path))["status"])


async def _answer(app: Any, path: str) -> dict[str, Any]:
    """The start of the answer to a GET of ``path`` (its status and headers)."""
    sent: list[dict[str, Any]] = []
    received = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict[str, Any]:
        if received:
            return received.pop()
        await asyncio.Event().wait()  # no disconnect: the handler cancels this once it answered
        return {}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }
    await app(scope, receive, send)
    return next(m for m in sent if m["type"] == "http.response.start")


@pytest.fixture
def seen() -> Iterator[list[tuple[str, threading.Thread]]]:
    """Which thread each request's start and end ran in (Django's own signals)."""
    out: list[tuple[str, threading.Thread]] = []

    def started(**kwargs: Any) -> None:
        out.append(("started", threading.current_thread()))

    def finished(**kwargs: Any) -> None:
        out.append(("finished", threading.current_thread()))

    request_started.connect(started, dispatch_uid="test-threads-started")
    request_finished.connect(finished, dispatch_uid="test-threads-finished")
    yield out
    request_started.disconnect(dispatch_uid="test-threads-started")
    request_finished.disconnect(dispatch_uid="test-threads-finished")


def test_one_request_after_another_runs_in_the_same_lent_thread(seen: list[Any]) -> None:
    app = threads.PooledThreadsHandler()

    async def twice() -> list[int]:
        return [await _get(app, "/api/games/"), await _get(app, "/api/games/")]

    assert run_apart(twice()) == [200, 200]
    kinds = [kind for kind, _ in seen]
    assert kinds == ["started", "finished", "started", "finished"]
    used = {thread for _, thread in seen}
    assert len(used) == 1  # the start, the view and the end of both requests: one thread
    (thread,) = used
    assert thread is not threading.main_thread() and thread.name.startswith("request")


def test_requests_at_the_same_time_each_have_a_thread_and_the_pool_keeps_a_few(
    seen: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(threads, "THREADS", threads._Threads())
    monkeypatch.setattr(threads, "IDLE_THREADS", 2)
    app = threads.PooledThreadsHandler()
    # Each request waits at its start until all five have started: they are under way at once
    # (a request is served by one call into its thread, quicker than the threads take turns).
    met = threading.Barrier(5, timeout=10)

    def meet(**kwargs: Any) -> None:
        met.wait()

    async def together() -> list[int]:
        return list(await asyncio.gather(*(_get(app, "/api/games/") for _ in range(5))))

    request_started.connect(meet, dispatch_uid="test-threads-meet")
    try:
        assert run_apart(together()) == [200] * 5
    finally:
        request_started.disconnect(dispatch_uid="test-threads-meet")
    busy: dict[threading.Thread, bool] = {}
    overlapped = False
    for kind, thread in seen:  # a thread serves one request at a time: started, finished, ...
        if kind == "started":
            assert not busy.get(thread), "two requests at once in one thread"
            overlapped = overlapped or any(busy.values())
        busy[thread] = kind == "started"
    assert overlapped  # (the five did run at the same time)
    assert len(threads.THREADS._idle) <= 2


def test_the_whole_chain_down_to_the_view_is_synchronous_one_call_into_the_thread(
    seen: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from asgiref import sync
    from asgiref.sync import iscoroutinefunction

    app = threads.PooledThreadsHandler()
    assert not iscoroutinefunction(app._middleware_chain)
    assert app._view_middleware and not any(iscoroutinefunction(m) for m in app._view_middleware)
    calls: list[str] = []
    real = sync.SyncToAsync.__call__

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(getattr(self.func, "__name__", repr(self.func)))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counted)
    assert run_apart(_get(app, "/api/games/")) == 200
    assert calls == ["_serve"]  # the start, the middleware, the view and the end: one hand-over
    assert [kind for kind, _ in seen] == ["started", "finished"]


def test_at_most_serving_requests_are_served_at_once_the_others_wait_their_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(threads, "SERVING", 2)
    monkeypatch.setattr(threads, "THREADS", threads._Threads())
    app = threads.PooledThreadsHandler()
    lock = threading.Lock()
    now = most = 0
    used: set[threading.Thread] = set()

    def started(**kwargs: Any) -> None:
        nonlocal now, most
        with lock:
            now += 1
            most = max(most, now)
            used.add(threading.current_thread())
        threading.Event().wait(0.05)  # a request that takes a while

    def finished(**kwargs: Any) -> None:
        nonlocal now
        with lock:
            now -= 1

    async def together() -> list[int]:
        return list(await asyncio.gather(*(_get(app, "/api/games/") for _ in range(6))))

    request_started.connect(started, dispatch_uid="test-threads-turns-started")
    request_finished.connect(finished, dispatch_uid="test-threads-turns-finished")
    try:
        assert run_apart(together()) == [200] * 6
    finally:
        request_started.disconnect(dispatch_uid="test-threads-turns-started")
        request_finished.disconnect(dispatch_uid="test-threads-turns-finished")
    assert most == 2  # two at a time, never more, and all six answered
    # and a request waiting for its turn holds no thread: two threads served all six
    assert len(used) == 2, used


def test_a_request_that_waits_too_long_for_its_turn_is_answered_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threads, "SERVING", 1)
    monkeypatch.setattr(threads, "TURN_SECONDS", 0.2)
    app = threads.PooledThreadsHandler()
    in_view, hold = threading.Event(), threading.Event()

    def started(**kwargs: Any) -> None:
        in_view.set()
        hold.wait(10)  # the one request served holds its turn until the other has its answer

    async def both() -> tuple[dict[str, Any], dict[str, Any]]:
        first = asyncio.create_task(_answer(app, "/api/games/"))
        assert await asyncio.get_running_loop().run_in_executor(None, in_view.wait, 10)
        second = await _answer(app, "/api/games/")
        hold.set()
        return await first, second

    request_started.connect(started, dispatch_uid="test-threads-busy-started")
    try:
        first, second = run_apart(both())
    finally:
        hold.set()
        request_started.disconnect(dispatch_uid="test-threads-busy-started")
    assert first["status"] == 200
    assert second["status"] == 503
    headers = {k.decode().lower(): v.decode() for k, v in second["headers"]}
    assert headers["retry-after"] == "2"
    assert headers["content-type"].startswith("application/json")
