"""The API's throttles: the rates of ``core.throttles``, per client address, as DRF throttles.

A request past its scope's rate is answered 429 with ``{"detail": "..."}`` in words and a
``Retry-After`` header (seconds), before anything else is done: no password is checked, no
account made.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import Throttled
from rest_framework.throttling import BaseThrottle

from ..core.throttles import hit_request


class TooManyRequests(Throttled):
    """A 429 whose detail is the refusal's own words (not DRF's "Request was throttled")."""

    def __init__(self, *, wait: int, detail: str) -> None:
        super().__init__(wait=None, detail=detail)
        self.wait = wait


class AddressThrottle(BaseThrottle):
    """Counts each request of ``scope`` from the client's address."""

    scope = ""

    def allow_request(self, request: Any, view: Any) -> bool:
        refusal = hit_request(self.scope, request)
        if refusal is not None:
            raise TooManyRequests(wait=refusal.retry_after, detail=refusal.message)
        return True


class SignupThrottle(AddressThrottle):
    scope = "signup"


class PasswordThrottle(AddressThrottle):
    scope = "password"


class TokenThrottle(AddressThrottle):
    scope = "token"
