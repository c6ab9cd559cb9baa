"""The site under ASGI (uvicorn, as deployed): one thread per request for all the middleware."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import iscoroutinefunction
from django.core.handlers.asgi import ASGIHandler
from django.utils.deprecation import MiddlewareMixin


def stack(handler: ASGIHandler) -> list[Any]:
    """The middleware of the handler's chain, outermost first."""
    found: list[Any] = []
    step: Any = handler._middleware_chain
    while step is not None:
        if isinstance(step, MiddlewareMixin):
            found.append(step)
        # SyncToAsync: .func, AsyncToSync: .awaitable, Django's wrappers: __wrapped__.
        inner = [a for a in ("func", "awaitable", "__wrapped__", "get_response") if hasattr(step, a)]
        step = getattr(step, inner[0]) if inner else None
    return found


def test_the_whole_middleware_stack_runs_in_one_thread_under_asgi(settings: Any) -> None:
    # The only hand-over is into one thread, for all the middleware and the view.
    site = stack(ASGIHandler())
    assert len(site) >= 6 and not any(iscoroutinefunction(m) for m in site)
    # Without the last entry Django runs the middleware that can be asynchronous on the event
    # loop, hopping to a thread and back around each of their hooks.
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if not m.endswith("one_thread_per_request")]
    assert any(iscoroutinefunction(m) for m in stack(ASGIHandler()))


async def get(path: str) -> tuple[int, bytes]:
    handler = ASGIHandler()
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
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }
    received = False

    async def receive() -> dict[str, Any]:
        nonlocal received
        if not received:
            received = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(60)
        return {"type": "http.disconnect"}

    status, body = 0, b""

    async def send(message: dict[str, Any]) -> None:
        nonlocal status, body
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body += message.get("body", b"")

    await handler(scope, receive, send)
    return status, body


@pytest.mark.django_db(transaction=True)
def test_pages_are_served_under_asgi() -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:  # a loop of its own (Playwright may hold this one's)
        status, body = pool.submit(lambda: asyncio.run(get("/play/"))).result(timeout=30)
        assert status == 200 and b"<html" in body
        status, body = pool.submit(lambda: asyncio.run(get("/health/"))).result(timeout=30)
        assert status == 200 and b"database" in body
