"""Middleware of the site's own."""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.core.exceptions import BadRequest
from django.core.handlers.asgi import ASGIRequest
from django.core.signals import got_request_exception
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template import loader
from django.utils.decorators import sync_only_middleware
from django.utils.deprecation import MiddlewareMixin
from whitenoise.middleware import WhiteNoiseMiddleware

from .database import REASONS, RETRY_AFTER, TITLES, Trouble, trouble
from .inputs import NUL_REFUSAL
from .throttles import Refusal, hit_request


@sync_only_middleware
def one_thread_per_request(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Last in MIDDLEWARE: under ASGI, all of a request's middleware runs in one thread.

    Every view of the site is synchronous, and so is WhiteNoise. Without this, Django runs the
    middleware that can be asynchronous on the event loop and hops to a thread and back for
    each of their hooks and around WhiteNoise: a dozen hand-overs a request, each waiting its
    turn on a busy loop. Being synchronous and innermost, this makes the whole stack
    synchronous: one hop into a thread for the middleware and the view, one back. Streaming
    responses (the live updates) still stream asynchronously.
    """
    return get_response


SLOW_SECONDS = float(os.environ.get("SPYLEAGUE_SLOW_REQUEST_SECONDS") or 5)
slow_log = logging.getLogger("spyleague.slow")


class _Queries:
    """The database's share of a request (``connection.execute_wrapper``): how many queries,
    their time, and the longest (a lock waited for shows here as a long query)."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self.longest = (0.0, "")

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            took = time.perf_counter() - started
            self.count += 1
            self.seconds += took
            if took > self.longest[0]:
                self.longest = (took, sql)


class SlowRequests:
    """A request that took ``SPYLEAGUE_SLOW_REQUEST_SECONDS`` (5) or more is logged with where
    its time went: its wait for a turn to be served (``core.threads``), its queries (how many,
    their time, the longest, in which a lock waited for shows) and the rest (the cache, the
    broker, the CPU). So an answer that took half a minute under load says why (0: off)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if SLOW_SECONDS <= 0:
            return self.get_response(request)
        queries = _Queries()
        started = time.perf_counter()
        with connection.execute_wrapper(queries):
            response = self.get_response(request)
        took = time.perf_counter() - started
        waited = float(getattr(request, "scope", {}).get("spyleague.waited", 0.0))
        if took + waited >= SLOW_SECONDS:
            longest, sql = queries.longest
            slow_log.warning(
                "Slow request: %s %s -> %s in %.1f s after %.1f s waiting for its turn; the database "
                "%.1f s in %d queries, the longest %.1f s (%s); the rest %.1f s",
                request.method,
                request.path[:200],
                response.status_code,
                took,
                waited,
                queries.seconds,
                queries.count,
                longest,
                " ".join(sql.split())[:300],
                took - queries.seconds,
            )
        return response


class DatabaseUnavailable:
    """A database that cannot answer (``core.database.trouble``: too busy, or away) is a 503 with
    ``Retry-After`` in words, never a 500 nor a long wait (the backend answers at once while the
    database is away): JSON under /api/, a fragment for htmx, else a small page. Early in
    MIDDLEWARE (before the session, the user, messages, CSRF and django-axes): its answer is
    drawn without any of them, since each may need the database, and so needs none.

    A form that was sent comes back on the page with what was typed, ready to send again (but
    passwords, and files, which a page cannot hold); an htmx request gets the notice at the top of
    the page it came from and leaves the rest of the page as it was (what was typed included).

    A view's error is answered in ``process_exception`` (with ``DEBUG`` on too). One raised by
    another middleware (the session saved at the end of a request, the CSRF failure page that
    shows the user) has already become a 500 by then, or an error page that itself met the
    database: both are answered here all the same.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        got_request_exception.connect(_note_trouble, dispatch_uid="spyleague-database-trouble")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            response = self.get_response(request)
        except Exception as exc:  # an error page that needed the database too
            kind = trouble(exc)
            if kind is None:
                raise
            return unavailable(request, kind)
        kind = getattr(request, "database_trouble", None)
        if kind is not None and response.status_code == 500:
            return unavailable(request, kind)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        kind = trouble(exception)
        return unavailable(request, kind) if kind is not None else None


def _note_trouble(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """``got_request_exception``: sent as Django turns an error into a 500 (the error in hand)."""
    kind = trouble(sys.exc_info()[1])
    if kind is not None and request is not None:
        request.database_trouble = kind  # type: ignore[attr-defined]


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
KEPT_WORDS = "What you sent is kept below: send it again once the site answers."
FILE_WORDS = " The file you chose could not be kept: choose it again."
ON_THE_PAGE_WORDS = "What you did is still on the page: do it again once the site answers."
_NOT_SHOWN = {"csrfmiddlewaretoken", "version"}


def _label(name: str) -> str:
    """A form field's name in words: ``score_0`` is "Score, seat 1" (the sheets' and pads' rows
    are numbered from 0 in their names, from 1 on their pages)."""
    words, _, last = name.rpartition("_")
    if words and last.isdigit():
        return f"{words.replace('_', ' ').strip().capitalize()}, seat {int(last) + 1}"
    return name.replace("_", " ").strip().capitalize()


def _kept(request: HttpRequest) -> tuple[list[tuple[str, str]], list[tuple[str, str]], bool]:
    """What a form sent, to send again (passwords left out), what of it to show, and whether a
    file was left out."""
    try:
        fields = [(name, value) for name, values in request.POST.lists() for value in values]
        files = bool(request.FILES)
    except Exception:  # a body that could not be read: nothing to keep
        return [], [], False
    kept = [(name, value) for name, value in fields if "password" not in name.lower()]
    shown = [(_label(name), value) for name, value in kept if name not in _NOT_SHOWN and value.strip()]
    return kept, shown, files


def unavailable(request: HttpRequest, kind: Trouble) -> HttpResponse:
    """The 503 for a request the database could not serve: it reads nothing but the request."""
    reason = REASONS[kind]
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": reason}, status=503)
    else:
        htmx = request.headers.get("HX-Request") == "true"
        context: dict[str, Any] = {"title": TITLES[kind], "reason": reason, "again": request.get_full_path()}
        context["kept"] = None
        if htmx and request.method != "GET":
            context["more"] = ON_THE_PAGE_WORDS  # (htmx leaves the page, and what was typed, as it was)
        elif request.method == "POST" and request.content_type in FORM_TYPES:
            kept, shown, files = _kept(request)
            context.update(kept=kept, shown=shown, more=KEPT_WORDS + (FILE_WORDS if files else ""))
        template = loader.get_template("503.html#htmx" if htmx else "503.html")
        response = HttpResponse(template.render(context), status=503)
        if htmx:
            # Said at the top of the page, which stays as it was; a poll's answer changes nothing.
            if request.method == "GET":
                response["HX-Reswap"] = "none"
            else:
                response["HX-Retarget"] = "#main"
                response["HX-Reswap"] = "afterbegin"
    response["Retry-After"] = str(RETRY_AFTER[kind])
    response["Cache-Control"] = "no-store"
    return response


class BadInput:
    """Refuses what no page or API call of the site takes, and says why, with a 400.

    - NUL characters, anywhere in the address, a form or a JSON body: no text the site keeps
      may hold one (PostgreSQL refuses them, and a name or a note never needs one).
    - ``BadRequest`` raised by a view (``core.inputs.Refused``: an id that is not a number, a
      number out of range): a page with the reason, or ``{"detail": ...}`` under /api/. (With
      ``DEBUG`` on, Django would otherwise show its debugging page for it.)
    - a ``core.locks.Conflict`` no view answered itself (someone acted first): the same, 409.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            return refusal(request, NUL_REFUSAL)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, BadRequest):
            return refusal(request, str(exception) or "What was sent could not be read.")
        from .locks import Conflict

        if isinstance(exception, Conflict):  # someone acted first, and no view said so itself
            return refusal(request, " ".join(exception.messages), status=409)
        return None


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
        return True
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return False
    if (request.content_type or "").startswith("multipart/"):
        return any("\x00" in value for values in request.POST.lists() for value in values[1])
    body = request.body
    return b"\x00" in body or b"%00" in body or b"\\u0000" in body


def refusal(request: HttpRequest, reason: str, status: int = 400) -> HttpResponse:
    """A refused request: JSON under /api/, a fragment for htmx, else a page; always the reason."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": reason}, status=status)
    if getattr(request, "htmx", False):
        return render(request, "400.html#reason", {"reason": reason}, status=status)
    return render(request, "400.html", {"reason": reason}, status=status)


# The pages whose posts cost a password hash or a new token, by URL name, and the scope of
# ``core.throttles`` each counts in. (The API's are counted by its own throttles, in JSON.)
THROTTLED_POSTS = {
    "signup": "signup",
    "login": "password",
    "admin:login": "password",
    "token-create": "token",
}


class Throttle(MiddlewareMixin):
    """Counts the posts of ``THROTTLED_POSTS`` per client address, and answers one past its
    scope's rate with a page (429) saying so in words, with ``Retry-After``; nothing else is
    done for it. Reads no body: the URL name decides. (A ``MiddlewareMixin``, so that it runs
    in whichever mode the middleware around it does: see ``one_thread_per_request``.)"""

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> HttpResponse | None:
        if request.method != "POST" or request.resolver_match is None:
            return None
        scope = THROTTLED_POSTS.get(request.resolver_match.view_name)
        refusal = hit_request(scope, request) if scope else None
        return too_many(request, refusal) if refusal is not None else None


def too_many(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """A 429 for a request past its rate: a page (or htmx's fragment), or JSON under /api/."""
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": refusal.message}, status=429)
    else:
        template = "429.html#reason" if getattr(request, "htmx", False) else "429.html"
        response = render(request, template, {"reason": refusal.message}, status=429)
    response["Retry-After"] = str(refusal.retry_after)
    return response


STATIC_BLOCK = 64 * 1024  # bytes a static file is read in, beside the event loop


class StaticFiles(WhiteNoiseMiddleware):  # type: ignore[misc]  # WhiteNoise has no type hints
    """WhiteNoise, whose files an ASGI server sends as they are read.

    WhiteNoise answers with a file response that only a synchronous server can read as it goes;
    under ASGI Django then reads the whole file into memory in a thread before it sends a byte,
    and says so with a warning. Here the file is read in blocks of ``STATIC_BLOCK``, each in a
    thread beside the event loop, and sent as it is read. Under WSGI (the tests' live server)
    nothing changes.
    """

    @staticmethod
    def serve(static_file: Any, request: HttpRequest) -> HttpResponse:
        response = WhiteNoiseMiddleware.serve(static_file, request)
        if isinstance(request, ASGIRequest) and response.streaming:
            # The file stays in the response's closers: it is closed when the response ends. A
            # "not modified" answer has no file, and an empty body that is asynchronous too.
            response.streaming_content = _read_beside(response.file_to_stream)
        return response  # type: ignore[no-any-return]


async def _read_beside(file: Any) -> AsyncIterator[bytes]:
    if file is None:
        return
    read = sync_to_async(file.read, thread_sensitive=False)
    while block := await read(STATIC_BLOCK):
        yield block
