"""API for accounts: signing up, and getting the token a script sends.

Signing up checks what the sign-up page checks (its form: a free username, a name, and a
password Django's validators accept). Getting a token takes a username and password, and is
rate limited like the login page: every wrong password counts towards the same lockout
(django-axes, ``AXES_*`` in settings), and a locked-out username gets a 429 from here too.
Both are throttled per client address as their pages are (``core.throttles``): past the rate,
a 429 in words with ``Retry-After``, before any password is hashed or checked.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.decorators import api_view, authentication_classes, permission_classes, throttle_classes
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from ..core.forms import SignupForm
from .errors import error_responses
from .serializers import PlayerSerializer
from .throttles import PasswordThrottle, SignupThrottle, TokenThrottle


class SignupInSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(
        max_length=150, help_text="Letters, digits and @/./+/-/_ only; not taken by anyone else."
    )
    name = serializers.CharField(max_length=80, help_text="The name shown in standings and at the table.")
    email = serializers.EmailField(required=False, allow_blank=True, help_text="Optional.")
    password = serializers.CharField(
        write_only=True,
        max_length=4096,
        style={"input_type": "password"},
        help_text="Checked like the sign-up page's: not too short, too common, all digits or too "
        "like the username.",
    )


class AccountOutSerializer(serializers.Serializer[Any]):
    username = serializers.CharField()
    player = PlayerSerializer(help_text="Your player, as standings and tables show you.")
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


class TokenInSerializer(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, style={"input_type": "password"})


class TokenOutSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


@extend_schema(
    summary="Sign up: a new account and its player, with a token for scripts",
    request=SignupInSerializer,
    responses={201: AccountOutSerializer, **error_responses(403, 429)},
)
@api_view(["POST"])
@permission_classes([permissions.AllowAny])
@throttle_classes([SignupThrottle])
def signup(request: Request) -> Response:
    """Refused (403) to someone already logged in, as the sign-up page sends them home."""
    if request.user.is_authenticated:
        raise PermissionDenied("You are logged in already: log out to sign up for another account.")
    body = SignupInSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    form = SignupForm(
        {
            "username": data["username"],
            "name": data["name"],
            "email": data.get("email") or "",
            "password1": data["password"],
            "password2": data["password"],
        }
    )
    if not form.is_valid():
        errors = {
            ("password" if k in ("password1", "password2") else k): [str(m) for m in v]
            for k, v in form.errors.items()
        }
        raise ValidationError(errors)
    with transaction.atomic():
        user, player = form.save_account()
        token = Token.objects.create(user=user)
    out = {"username": user.get_username(), "player": player, "token": token.key}
    return Response(AccountOutSerializer(out).data, status=status.HTTP_201_CREATED)


@extend_schema(
    summary="Your API token, for your username and password (made the first time)",
    request=TokenInSerializer,
    responses={
        200: TokenOutSerializer,
        **error_responses(429),
        400: OpenApiResponse(
            error_responses()[400].response,
            description="The username and password do not match an account (the wrong password counts "
            "towards the lockout), or the body could not be read.",
        ),
    },
)
@api_view(["POST"])
@authentication_classes([])
@permission_classes([permissions.AllowAny])
@throttle_classes([PasswordThrottle, TokenThrottle])
def token_get(request: Request) -> Response:
    """The token already made (on the profile page or here) is kept: every script of yours may
    use it. Make a new one on the profile page to retire the old."""
    body = TokenInSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    http = request._request  # what django-axes counts by: the address, and the username sent
    user = authenticate(
        request=http, username=body.validated_data["username"], password=body.validated_data["password"]
    )
    if getattr(http, "axes_locked_out", False):
        # Answered here in JSON, not by the lockout page Axes' middleware would put in its place.
        http.axes_locked_out = False  # type: ignore[attr-defined]
        minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
        return Response(
            {
                "detail": f"The wrong password was given {settings.AXES_FAILURE_LIMIT} times for "
                f"{body.validated_data['username']} from your address, so logging in as them from here "
                f"is paused for {minutes} minutes. Other accounts, and this one from another address, "
                "can still log in."
            },
            status=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(int(settings.AXES_COOLOFF_TIME.total_seconds()))},
        )
    if user is None or not user.is_active:
        raise ValidationError({"detail": "The username and password do not match an account."})
    # As a login does: a success clears the count of wrong passwords (AXES_RESET_ON_SUCCESS).
    user_logged_in.send(sender=user.__class__, request=http, user=user)
    token, _ = Token.objects.get_or_create(user=user)
    return Response(TokenOutSerializer({"token": token.key}).data)
