"""Who is signed in, read with their player in one query.

Every signed-in page shows the viewer's player (its name in the header, their own table and
line), and most API calls act as the caller's player. Django's ``ModelBackend`` reads the user
(one query) and ``user.player`` is a second query on each request; DRF's token authentication
reads the token with its user and, again, the player after. Here both are read at once
(``select_related``): one query fewer on every signed-in request.

Kept, too: the user with their player is read from the pages' cache (``core.cache.kept``) at
the version of ``user:<id>``, which every save or deletion of the user, their player or one of
their tokens moves on (``signals``); a token's user is kept likewise at the version of
``tokens``, moved on when any token is deleted. So a signed-in request reads nothing from the
database to know who it is (its session comes from the cache too: ``core.sessions``), and a
password changed, an account switched off or a token revoked takes effect on the next request.

Sessions name the backend that signed them in (Django's ``BACKEND_SESSION_KEY``). A session
made before this backend existed names Django's; ``AuthenticationMiddleware`` reads it with this
one and writes this one's name into it, so nobody is signed out by the change.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, get_user_model
from django.contrib.auth import backends as django_backends
from django.contrib.auth import middleware as django_middleware
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from . import cache
from .prepared import Prepared

BACKEND = "spyleague.core.auth.ModelBackend"
DJANGO_BACKEND = "django.contrib.auth.backends.ModelBackend"


class ModelBackend(django_backends.ModelBackend):
    """Django's, the user read with their player (``user.player`` costs no query after it)."""

    def get_user(self, user_id: Any) -> Any:
        user = kept_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None


KEPT_SECONDS = 600  # who a user or a token is, kept this long after it was last read from the database


def user_version(user_id: Any) -> str:
    return f"user:{user_id}"


# Every signed-in request whose user is not kept reads it: compiled once (``core.prepared``).
_USER = Prepared(lambda pk: get_user_model()._default_manager.select_related("player").filter(pk=pk)[:1])


def kept_user(user_id: Any) -> Any:
    """The user with their player (None when there is no such user), as kept at their version."""
    user_model = get_user_model()
    try:
        pk = user_model._meta.pk.to_python(user_id)
    except Exception:  # a session naming no valid id: nobody
        return None

    def read() -> Any:
        return _USER.one(pk)

    return cache.kept(user_version(pk), f"user:{pk}", read, KEPT_SECONDS)


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
        if not cache.enabled():  # one query: the token, its user and their player
            try:
                token = model.objects.select_related("user__player").get(key=key)
            except model.DoesNotExist:
                raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
            if not token.user.is_active:
                raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
            return (token.user, token)

        def read() -> Any:
            return model.objects.filter(key=key).values_list("user_id", flat=True).first()

        digest = hashlib.sha256(key.encode()).hexdigest()
        user_id = cache.kept("tokens", f"token:{digest}", read, KEPT_SECONDS)
        user = kept_user(user_id) if user_id is not None else None
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (user, model(key=key, user=user))


# --- what moves the kept users on ---------------------------------------------------------------


def user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A user saved or deleted."""
    cache.changed(user_version(instance.pk))


def player_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A player saved or deleted: their user's kept copy holds it."""
    if instance.user_id is not None:
        cache.changed(user_version(instance.user_id))


def membership_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A club role given, changed or taken: its player's user's kept roles hold it."""
    from ..clubs.models import Player

    user_id = Player.objects.filter(pk=instance.player_id).values_list("user_id", flat=True).first()
    if user_id is not None:
        cache.changed(user_version(user_id))


def token_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    cache.changed("tokens", user_version(instance.user_id))


def connect() -> None:
    """The signals that move the kept users on (``CoreConfig.ready``)."""
    from django.apps import apps
    from django.db.models.signals import post_delete, post_save

    user_model = get_user_model()
    post_save.connect(user_changed, sender=user_model, dispatch_uid="kept-user-saved")
    post_delete.connect(user_changed, sender=user_model, dispatch_uid="kept-user-deleted")
    player = apps.get_model("clubs", "Player")
    post_save.connect(player_changed, sender=player, dispatch_uid="kept-player-saved")
    post_delete.connect(player_changed, sender=player, dispatch_uid="kept-player-deleted")
    membership = apps.get_model("clubs", "Membership")
    post_save.connect(membership_changed, sender=membership, dispatch_uid="kept-membership-saved")
    post_delete.connect(membership_changed, sender=membership, dispatch_uid="kept-membership-deleted")
    if apps.is_installed("rest_framework.authtoken"):
        token = apps.get_model("authtoken", "Token")
        post_save.connect(token_deleted, sender=token, dispatch_uid="kept-token-saved")
        post_delete.connect(token_deleted, sender=token, dispatch_uid="kept-token-deleted")
