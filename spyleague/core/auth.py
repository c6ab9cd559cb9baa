"""Who is signed in, read with their player in one query.

Every signed-in page shows the viewer's player (its name in the header, their own table and
line), and most API calls act as the caller's player. Django's ``ModelBackend`` reads the user
(one query) and ``user.player`` is a second query on each request; DRF's token authentication
reads the token with its user and, again, the player after. Here both are read at once
(``select_related``): one query fewer on every signed-in request.

Sessions name the backend that signed them in (Django's ``BACKEND_SESSION_KEY``). A session
made before this backend existed names Django's; ``AuthenticationMiddleware`` reads it with this
one and writes this one's name into it, so nobody is signed out by the change.
"""

from __future__ import annotations

from typing import Any

from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, get_user_model
from django.contrib.auth import backends as django_backends
from django.contrib.auth import middleware as django_middleware
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

BACKEND = "spyleague.core.auth.ModelBackend"
DJANGO_BACKEND = "django.contrib.auth.backends.ModelBackend"


class ModelBackend(django_backends.ModelBackend):
    """Django's, the user read with their player (``user.player`` costs no query after it)."""

    def get_user(self, user_id: Any) -> Any:
        user_model = get_user_model()
        try:
            user = user_model._default_manager.select_related("player").get(pk=user_id)
        except user_model.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None


def _get_user(request: HttpRequest) -> Any:
    session = request.session
    if session.get(BACKEND_SESSION_KEY) == DJANGO_BACKEND:
        session[BACKEND_SESSION_KEY] = BACKEND  # signed in before this backend: it reads them now
    return auth.get_user(request)


class AuthenticationMiddleware(django_middleware.AuthenticationMiddleware):
    """Django's, a session signed in by Django's own backend read by ``ModelBackend``."""

    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _get_user(request))  # type: ignore[assignment]


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's, the token read with its user and the user's player."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        model: Any = self.get_model()
        try:
            token = model.objects.select_related("user__player").get(key=key)
        except model.DoesNotExist:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
