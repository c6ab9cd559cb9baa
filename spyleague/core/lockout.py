"""The login lockout (django-axes), as the site uses it: see AUTHENTICATION_BACKENDS in settings."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LoginLockoutBackend(AxesStandaloneBackend):  # type: ignore[misc]  # (axes has no types)
    """Refuses a password login while its username and address are locked out.

    Every login of the site's pages and of the admin comes with its request, which is what
    Axes counts by. A login without one (the test client's ``client.login``, a shell) has no
    address to count and no page to show: it goes straight on to the password check instead of
    failing with Axes' "requires a request" error.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is not None:
            super().authenticate(request, username, password, **kwargs)  # raises when locked out
        return None  # the next backend checks the password
