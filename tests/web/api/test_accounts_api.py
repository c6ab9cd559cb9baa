"""Signing up and getting a token through the API; wrong passwords count towards the same lockout
as the login page's."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT
NEW = {
    "username": "newbie",
    "name": "New Bie",
    "email": "new@example.com",
    "password": "a-long-passphrase-77",
}


def ask_token(api_client: Any, username: str, password: str, **extra: Any) -> Any:
    return api_client.post(
        "/api/token/", {"username": username, "password": password}, format="json", **extra
    )


def test_sign_up_then_use_the_token(api_client: Any) -> None:
    created = api_client.post("/api/signup/", NEW, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["username"] == "newbie" and body["player"]["name"] == "New Bie"
    user = User.objects.get(username="newbie")
    assert user.email == "new@example.com" and user.check_password(NEW["password"])
    assert Token.objects.get(user=user).key == body["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert api_client.get("/api/me/").json()["name"] == "New Bie"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"password": "short"}, "password", "too short"),
        ({"password": "password123"}, "password", "too common"),
        ({"password": "12345678901234"}, "password", "entirely numeric"),
        ({"username": "new bie"}, "username", "valid username"),
        ({"name": ""}, "name", "blank"),
        ({"email": "not-an-email"}, "email", "valid email"),
    ],
)
def test_sign_up_is_checked_like_the_page(
    api_client: Any, change: dict[str, str], field: str, words: str
) -> None:
    refused = api_client.post("/api/signup/", NEW | change, format="json")
    assert refused.status_code == 400
    assert words in " ".join(refused.json()[field])
    assert not User.objects.filter(username=NEW["username"]).exists()


def test_a_taken_username_and_a_logged_in_caller_are_refused(api_client: Any, make_user: Any) -> None:
    sid = make_user(username="sid")
    taken = api_client.post("/api/signup/", NEW | {"username": "SID"}, format="json")
    assert taken.status_code == 400 and "already exists" in " ".join(taken.json()["username"])
    api_client.force_authenticate(sid)
    refused = api_client.post("/api/signup/", NEW, format="json")
    assert refused.status_code == 403 and "logged in already" in refused.json()["detail"]
    assert not User.objects.filter(username="newbie").exists()


def test_a_token_for_a_username_and_password(api_client: Any, make_user: Any) -> None:
    ann = make_user(username="ann")
    first = ask_token(api_client, "ann", PASSWORD)
    assert first.status_code == 200, first.content
    assert ask_token(api_client, "ann", PASSWORD).json()["token"] == first.json()["token"]  # kept
    assert Token.objects.get(user=ann).key == first.json()["token"]
    wrong = ask_token(api_client, "ann", "not-it")
    assert wrong.status_code == 400 and "do not match" in str(wrong.json()["detail"])
    assert ask_token(api_client, "nobody", PASSWORD).status_code == 400
    # A token header sent along is not a login: the password decides.
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {first.json()['token']}")
    assert ask_token(api_client, "ann", "not-it").status_code == 400


def test_wrong_passwords_lock_the_token_out_as_they_lock_the_login_page(
    api_client: Any, client: Any, make_user: Any
) -> None:
    make_user(username="ann")
    for _ in range(LIMIT - 1):
        assert ask_token(api_client, "ann", "wrong-guess").status_code == 400
    locked = ask_token(api_client, "ann", "wrong-guess")
    assert locked.status_code == 429 and locked["Content-Type"] == "application/json"
    assert f"given {LIMIT} times for ann" in locked.json()["detail"]
    assert ask_token(api_client, "ann", PASSWORD).status_code == 429  # even the right one, now
    # The same count: the login page is closed to ann from this address too.
    response = client.post(reverse("login"), {"username": "ann", "password": PASSWORD})
    assert response.status_code == 429
    # From another address ann still gets her token.
    assert ask_token(api_client, "ann", PASSWORD, REMOTE_ADDR="203.0.113.7").status_code == 200


def test_the_login_page_and_the_token_share_one_count_and_a_success_clears_it(
    api_client: Any, client: Any, make_user: Any
) -> None:
    make_user(username="ann")
    for _ in range(LIMIT - 1):
        client.post(reverse("login"), {"username": "ann", "password": "wrong-guess"})
    assert ask_token(api_client, "ann", "wrong-guess").status_code == 429
    for _ in range(LIMIT - 1):
        ask_token(api_client, "bob", "wrong-guess")
    make_user(username="bob")
    assert ask_token(api_client, "bob", PASSWORD).status_code == 200  # clears bob's count
    for _ in range(LIMIT - 1):
        assert ask_token(api_client, "bob", "wrong-guess").status_code == 400
