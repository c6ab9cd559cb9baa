"""How often one address may ask for what costs the site a password hash: signing up, logging
in (or asking for an API token with a password), making a new token.

One rule for the pages and the API: each *scope* has a rate, ``settings.SPYLEAGUE_RATES``
("10/h": ten in an hour, counted in fixed windows of that length), and each request of the
scope from a client address counts one. Past the rate the answer is a 429 that says in words
what happened and when to try again, with a ``Retry-After`` header: a page from
``core.middleware.Throttle``, JSON from the API's throttles (``api.throttles``).

The counts live in the ``throttle`` cache (``CACHES`` in settings): Redis when the site has
one, so every web process counts together; else the process's own memory, enough for one
process on one machine. A Redis that is away or does not answer never fails a request nor
holds it up: the count is skipped (the request goes through) after half a second at most
(``queue.within_deadline``), and while Redis stays silent it is not asked again for a while.

The login lockout (django-axes) is a different rule and stays: it counts wrong passwords for a
username from an address. This counts every try from an address, whichever usernames it tries.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

from .queue import REDIS, within_deadline

log = logging.getLogger(__name__)

CACHE = "throttle"
THROTTLE_REDIS = REDIS  # a Redis that timed out is skipped for a while, by all its uses

# The time, for the windows: tests may put a clock of their own here.
clock: Callable[[], float] = time.time

_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*(s|m|h|d)\w*\s*$", re.IGNORECASE)
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}

# What each scope counts, as the refusal says it.
WHAT = {
    "signup": (
        "Too many accounts were made from your address in a short time",
        "sign up again",
    ),
    "password": (
        "Too many logins were tried from your address in a short time",
        "log in again",
    ),
    "token": (
        "Too many API tokens were asked for from your address in a short time",
        "ask for one again",
    ),
}


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    @classmethod
    def parse(cls, text: str) -> Rate:
        """ "10/h", "30/10m", "5/day": so many in so long."""
        match = _RATE.match(text)
        if not match:
            raise ValueError(
                f"A rate is a number of requests per period, such as 10/h or 30/10m, not {text!r}."
            )
        count, many, unit = int(match.group(1)), int(match.group(2) or 1), match.group(3).lower()
        return cls(count, many * _SECONDS[unit])


def rate_of(scope: str) -> Rate:
    return Rate.parse(settings.SPYLEAGUE_RATES[scope])


@dataclass(frozen=True)
class Refusal:
    """A request past its scope's rate: why, in words, and how long until it may come again."""

    scope: str
    wait: float

    @property
    def retry_after(self) -> int:
        return max(1, math.ceil(self.wait))

    @property
    def message(self) -> str:
        happened, again = WHAT[self.scope]
        return f"{happened}. You can {again} in {in_words(self.retry_after)}."


def in_words(seconds: int) -> str:
    """A wait as people say it: "40 seconds", "about 3 minutes", "about an hour"."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    if minutes < 60:
        return "about a minute" if minutes == 1 else f"about {minutes} minutes"
    hours = round(seconds / 3600)
    return "about an hour" if hours <= 1 else f"about {hours} hours"


def client_address(request: HttpRequest) -> str:
    """Who is counted: the client's address (the server takes it from X-Forwarded-For behind the
    site's proxy, see FORWARDED_ALLOW_IPS), an IPv6 address by its /64 network, which is what one
    household or one machine is given."""
    raw = str(request.META.get("REMOTE_ADDR") or "")
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return raw[:64] or "unknown"
    if address.version == 6:
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _uses_redis() -> bool:
    return "redis" in str(settings.CACHES.get(CACHE, {}).get("BACKEND", "")).lower()


def _count(key: str, seconds: int) -> int:
    """Add one to the count under ``key`` (kept ``seconds``), the new count."""
    cache = caches[CACHE]
    cache.add(key, 0, timeout=seconds + 1)
    try:
        return int(cache.incr(key))
    except ValueError:  # the window ended between the two calls: this is its first request
        cache.add(key, 1, timeout=seconds + 1)
        return 1


def hit(scope: str, who: str) -> Refusal | None:
    """Count one request of ``scope`` by ``who``: None while within the rate, else the refusal.

    Fails open: when the count cannot be kept (Redis away, or slower than half a second), the
    request goes through and the failure is logged.
    """
    try:
        rate = rate_of(scope)
    except (KeyError, ValueError) as exc:  # a rate mistyped in the settings: say so, never fail
        log.error("The %s throttle has no rate it can read (%s); requests go through.", scope, exc)
        return None
    now = clock()
    window = int(now // rate.seconds)
    key = f"{scope}:{who}:{window}"
    try:
        if _uses_redis():
            if THROTTLE_REDIS.ongoing():
                return None
            count = within_deadline(THROTTLE_REDIS, lambda: _count(key, rate.seconds))
        else:
            count = _count(key, rate.seconds)
    except Exception as exc:  # never fail a request for its count: let it through
        log.warning("The %s throttle could not count a request (%s); it goes through.", scope, exc)
        return None
    if count > rate.count:
        return Refusal(scope, (window + 1) * rate.seconds - now)
    return None


def hit_request(scope: str, request: Any) -> Refusal | None:
    """``hit`` for the client of ``request`` (a Django request, or DRF's around one)."""
    return hit(scope, client_address(getattr(request, "_request", request)))
