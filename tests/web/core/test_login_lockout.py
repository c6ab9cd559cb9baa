"""Logins are rate limited: a username from one address is locked out after a few wrong passwords.

The test client's address is 127.0.0.1 unless a request names another (``REMOTE_ADDR``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.authtoken.models import Token

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

FORM_ERROR = "Please enter a correct username and password"
LIMIT = settings.AXES_FAILURE_LIMIT


def log_in(client: Any, username: str, password: str, **extra: Any) -> Any:
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def lock_out(client: Any, username: str, **extra: Any) -> Any:
    """Wrong passwords until the lockout; the answer to the last one."""
    for _ in range(LIMIT - 1):
        assert FORM_ERROR in log_in(client, username, "wrong-guess", **extra).content.decode()
    return log_in(client, username, "wrong-guess", **extra)


def test_a_handful_of_failures_then_a_429_page_that_says_why(client: Any, make_user: Any) -> None:
    make_user(username="ann")
    assert 3 <= LIMIT <= 10
    for attempt in range(1, LIMIT):
        response = log_in(client, "ann", f"guess-{attempt}")
        assert response.status_code == 200, attempt  # the login form again, with its error
        assert FORM_ERROR in response.content.decode()
    refused = log_in(client, "ann", "one-guess-too-many")
    assert refused.status_code == 429
    page = " ".join(refused.content.decode().split())
    assert "Too many failed logins" in page
    assert f"The wrong password was given {LIMIT} times for <strong>ann</strong> from your address" in page
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    assert f"paused for {minutes} minutes" in page
    # Now even the right password is refused, and nobody is logged in.
    assert log_in(client, "ann", PASSWORD).status_code == 429
    assert client.get(reverse("profile")).status_code == 302


def test_others_from_the_same_address_and_ann_from_elsewhere_still_log_in(
    client: Any, make_user: Any
) -> None:
    make_user(username="ann")
    make_user(username="bob")
    assert lock_out(client, "ann").status_code == 429
    assert log_in(client, "bob", PASSWORD).status_code == 302
    assert client.get(reverse("profile")).status_code == 200
    client.post(reverse("logout"))
    assert log_in(client, "ann", PASSWORD, REMOTE_ADDR="203.0.113.7").status_code == 302
    assert log_in(client, "ann", PASSWORD).status_code == 429  # still locked out from here


def test_a_successful_login_clears_the_count(client: Any, make_user: Any) -> None:
    make_user(username="ann")
    for _ in range(LIMIT - 1):
        log_in(client, "ann", "wrong-guess")
    assert log_in(client, "ann", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    for _ in range(LIMIT - 1):
        assert log_in(client, "ann", "wrong-guess").status_code == 200
    assert log_in(client, "ann", PASSWORD).status_code == 302


def test_the_lockout_ends_after_the_cool_off(client: Any, make_user: Any) -> None:
    make_user(username="ann")
    assert lock_out(client, "ann").status_code == 429
    past = timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    AccessAttempt.objects.filter(username="ann").update(attempt_time=past)
    assert log_in(client, "ann", PASSWORD).status_code == 302


def test_the_admin_login_counts_too(client: Any, make_user: Any) -> None:
    make_user(username="ann", is_staff=True)
    url = reverse("admin:login")
    for _ in range(LIMIT - 1):
        assert client.post(url, {"username": "ann", "password": "wrong"}).status_code == 200
    assert client.post(url, {"username": "ann", "password": "wrong"}).status_code == 429
    assert log_in(client, "ann", PASSWORD).status_code == 429


def test_tokens_sessions_and_the_test_clients_logins_are_not_affected(
    client: Any, api_client: Any, make_user: Any
) -> None:
    ann = make_user(username="ann")
    assert lock_out(client, "ann").status_code == 429
    # A locked-out username's API token and existing sessions go on working: only password
    # logins are counted and refused.
    token = Token.objects.create(user=ann)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api_client.get(reverse("api-me")).status_code == 200
    client.force_login(ann)
    assert client.get(reverse("profile")).status_code == 200
    assert client.get(reverse("api-me")).status_code == 200
    # The test client's login() has no request for Axes to count by: it checks the password only.
    other = type(client)()
    assert other.login(username="ann", password=PASSWORD) is True
    assert other.login(username="ann", password="wrong") is False
