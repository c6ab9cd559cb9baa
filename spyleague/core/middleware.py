"""Middleware of the site's own."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.core.exceptions import BadRequest
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.decorators import sync_only_middleware
from django.utils.deprecation import MiddlewareMixin
from whitenoise.middleware import WhiteNoiseMiddleware

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
