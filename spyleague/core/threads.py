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

One hand-over a request. Django's ASGI handler builds its middleware chain for the event loop
and hops between the loop and the request's thread many times a request: the signal at its
start, the chain (``core.middleware.one_thread_per_request`` makes it synchronous), back to the
loop for the URL's view middleware (the CSRF check, the throttle: one hop each) and again into
the thread for the view, and once more to close the response. Measured under the load benchmark,
those hops cost more of a small request's CPU than its view (a static file: 2.5 ms of the web
worker's CPU, an API answer that reads no database 4.3 ms). Here the chain is built synchronous
down to the view, and a request's start, its middleware and view, and the end of an answer that
is read whole (``request_finished``: its database connection goes back to the pool before its
bytes are sent, not after) run in one call into the request's thread. Only a streaming answer
is still closed after its last byte, from the loop.

At most ``SERVING`` requests a process are served at once (their middleware and view); the
others wait their turn on the event loop, which costs nothing. The views are CPU bound and
share one interpreter lock: without a limit, under the load benchmark some sixty requests a
process took turns at once, each holding a database connection for the whole of its (sixty
times longer) time, so that the pool ran out and requests were answered 503, and the switching
between them doubled the CPU a request cost. ``SPYLEAGUE_SERVING`` sets it (8 by default; at
most the pool's size, ``DATABASE_POOL_MAX_SIZE``, makes no request wait for a connection). A
streaming answer's stream is not counted: it waits on its source, not on the CPU. A request
that waits ``TURN_SECONDS`` for its turn (3 s, as long as for a database connection) is answered
"busy" (503 with ``Retry-After``) instead: overload is an answer, never a long hang.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

IDLE_THREADS = 32  # idle request threads a process keeps for the next requests
SERVING = int(os.environ.get("SPYLEAGUE_SERVING") or 8)  # requests a process serves at once
# How long a request waits for its turn at most (as long as one waits for a database
# connection): then it is answered "busy" (503 with Retry-After), never left hanging.
TURN_SECONDS = float(os.environ.get("SPYLEAGUE_TURN_SECONDS") or os.environ.get("DATABASE_POOL_TIMEOUT") or 3)


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


_TURNS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def _turns() -> asyncio.Semaphore:
    """The event loop's turns at being served (``SERVING`` at once): one semaphore per loop."""
    loop = asyncio.get_running_loop()
    turns = _TURNS.get(loop)
    if turns is None:
        turns = _TURNS[loop] = asyncio.Semaphore(SERVING)
    return turns


class PooledThreadsHandler(ASGIHandler):
    """Django's ASGI handler, each request's synchronous code in a thread lent by ``THREADS``,
    in one call (see the module's docstring)."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)  # the whole chain synchronous, down to the view

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)

    async def handle(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Django's ``ASGIHandler.handle``, the request served by one call into its thread.

        The thread is lent once the request has its turn, not while it waits for it: under the
        load benchmark (200 people on three processes) some sixty requests a process waited
        at once, each holding a thread, and each process grew to 80 or 90 threads (each with
        its stack and its thread-bound state), started and stopped again as the idle ones ran
        over ``IDLE_THREADS``. Now a process has about as many as it serves at once."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        with closing(body_file):
            turns = _turns()
            turn: asyncio.Semaphore | None = turns  # the turn to give back, once served
            try:
                if turns.locked():  # (else the turn is taken at once: no timer, no task)
                    arrived = time.monotonic()
                    await asyncio.wait_for(turns.acquire(), TURN_SECONDS)
                    scope["spyleague.waited"] = time.monotonic() - arrived  # (core.middleware.SlowRequests)
                else:
                    await turns.acquire()
            except TimeoutError:  # saturated: "busy, try again", at once and without the view
                serve, turn = self._busy, None
            else:
                serve = self._serve
            executor = THREADS.lend()
            try:
                async with ThreadSensitiveContext(executor=executor):
                    try:
                        response, closed = await sync_to_async(serve, thread_sensitive=True)(scope, body_file)
                    finally:
                        if turn is not None:
                            turn.release()
                    await self._answer(response, closed, receive, send)
            finally:
                THREADS.take_back(executor)

    async def _answer(self, response: HttpResponseBase, closed: bool, receive: Any, send: Any) -> None:
        """The response sent; a streaming one closed after its last byte, in its thread."""
        if closed:  # read whole and closed: sent as it is, nothing left to abort on a disconnect
            await self.send_response(response, send)
            return

        class RequestProcessed(Exception):
            pass

        try:
            try:
                async with asyncio.TaskGroup() as tg:
                    tg.create_task(self.listen_for_disconnect(receive))
                    await self.send_response(response, send)
                    raise RequestProcessed
            except* (RequestProcessed, RequestAborted):
                pass
        except BaseExceptionGroup as exception_group:
            if len(exception_group.exceptions) == 1:
                raise exception_group.exceptions[0] from None
            raise
        await sync_to_async(response.close, thread_sensitive=True)()

    def _serve(self, scope: dict[str, Any], body_file: Any) -> tuple[HttpResponseBase, bool]:
        """In the request's thread: the request's start, its response (through the middleware and
        the view), and its end when the response is read whole; whether it was closed."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]  # (as Django's)
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size  # (the server chunks the body itself)
        else:
            body_file.close()
        assert response is not None
        if response.streaming:
            return response, False
        response.close()
        return response, True

    def _busy(self, scope: dict[str, Any], body_file: Any) -> tuple[HttpResponseBase, bool]:
        """The answer to a request that waited ``TURN_SECONDS`` for its turn: the site's busy
        503 (``core.middleware.unavailable``: it reads nothing but the request)."""
        from .database import Trouble
        from .middleware import unavailable

        set_script_prefix(get_script_prefix(scope))
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = unavailable(request, Trouble.BUSY)
        body_file.close()
        assert response is not None
        return response, False


def application() -> PooledThreadsHandler:
    """The site's ASGI application for HTTP (what ``django.core.asgi.get_asgi_application`` gives,
    with the pooled threads)."""
    import django

    django.setup(set_prefix=False)
    return PooledThreadsHandler()
