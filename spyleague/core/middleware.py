"""Middleware of the site's own."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_only_middleware


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
