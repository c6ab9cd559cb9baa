"""Each request's thread, taken from a pool rather than started for it.

Under ASGI, Django runs a request's synchronous code (its middleware and view, and the signals
at its start and end) in one thread of its own, so that its database connection and other
thread-bound state are the request's alone (``asgiref.sync.ThreadSensitiveContext``). By default
that thread is started for the request and stopped after it: measured under the load benchmark
(``benchmarks/load.py``, py-spy), starting, handing over to and joining a thread per request was
about a fifth of the web workers' CPU. Here the thread comes from a pool of idle ones and goes
back to it when the request ends, as a threaded WSGI server reuses its threads: still one
request at a time in a thread, with everything Django closes at the end of a request (its
database connection goes back to the connection pool) closed before the next one starts.

A request that streams (a match's live updates) keeps its thread while it streams, as before;
the pool lends a new thread when none is idle, and keeps at most ``IDLE_THREADS`` idle ones.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

IDLE_THREADS = 32  # idle request threads a process keeps for the next requests


class _Threads:
    """Single-thread executors, each the thread of one request at a time."""

    def __init__(self) -> None:
        self._idle: list[ThreadPoolExecutor] = []
        self._lock = threading.Lock()

    def lend(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def take_back(self, executor: ThreadPoolExecutor) -> None:
        with self._lock:
            if len(self._idle) < IDLE_THREADS:
                self._idle.append(executor)
                return
        executor.shutdown(wait=False)


THREADS = _Threads()


class PooledThreadsHandler(ASGIHandler):
    """Django's ASGI handler, each request's synchronous code in a thread lent by ``THREADS``."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = THREADS.lend()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            THREADS.take_back(executor)


def application() -> PooledThreadsHandler:
    """The site's ASGI application for HTTP (what ``django.core.asgi.get_asgi_application`` gives,
    with the pooled threads)."""
    import django

    django.setup(set_prefix=False)
    return PooledThreadsHandler()
