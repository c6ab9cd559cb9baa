"""A signed-in request reads its user and the user's player in one query (spyleague.core.auth),
when the pages' cache is off (with it on, they are kept: tests/web/core/test_kept_identity.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from spyleague.core.auth import BACKEND, DJANGO_BACKEND

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def page_cache_off() -> Iterator[None]:
    with override_settings(SPYLEAGUE_PAGE_CACHE=False):
        yield


def reads_of(queries: CaptureQueriesContext, table: str) -> list[str]:
    """The queries that read ``table`` itself (FROM it), not through a join."""
    return [q["sql"] for q in queries.captured_queries if f'FROM "{table}"' in q["sql"]]


def test_a_signed_in_page_reads_the_user_with_the_player(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    client = Client()
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/")
    assert response.status_code == 200 and b"Pat Player" in response.content  # the header's name
    users = reads_of(queries, "auth_user")
    assert len(users) == 1 and '"clubs_player"' in users[0], users
    assert not reads_of(queries, "clubs_player"), "the player was read again by itself"


def test_an_api_call_with_a_token_reads_its_user_and_player_with_it(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    token = Token.objects.create(user=user)
    with CaptureQueriesContext(connection) as queries:
        response = Client().get("/api/me/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200 and response.json()["name"] == "Pat Player"
    tokens = reads_of(queries, "authtoken_token")
    assert len(tokens) == 1 and '"clubs_player"' in tokens[0], tokens
    assert not reads_of(queries, "clubs_player") and not reads_of(queries, "auth_user")


def test_a_session_signed_in_by_django_s_own_backend_stays_signed_in(make_user: Any) -> None:
    # Made before the site's backend existed: it names Django's, which is no longer listed.
    assert DJANGO_BACKEND not in settings.AUTHENTICATION_BACKENDS
    user = make_user(player_name="Pat Player")
    session = SessionStore()
    session.update(
        {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: DJANGO_BACKEND,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
    )
    session.create()
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    response = client.get("/accounts/profile/")
    assert response.status_code == 200 and b"Pat Player" in response.content
    assert SessionStore(session.session_key).load()[BACKEND_SESSION_KEY] == BACKEND
    assert client.get("/accounts/profile/").status_code == 200
