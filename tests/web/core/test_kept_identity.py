"""Who is signed in, kept (spyleague.core.auth, core.sessions, core.cache.kept): with the pages'
cache on, a signed-in request reads neither its session nor its user from the database, and
every change to the user, their player or their token shows on the next request."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from spyleague.core import cache, sessions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def page_cache() -> Iterator[None]:
    with override_settings(SPYLEAGUE_PAGE_CACHE=True):
        cache.PAGES.over()
        yield


def tables_read(queries: CaptureQueriesContext) -> set[str]:
    return {
        table
        for q in queries.captured_queries
        for table in ("django_session", "auth_user", "clubs_player", "authtoken_token")
        if f'FROM "{table}"' in q["sql"]
    }


def test_a_signed_in_page_reads_no_session_and_no_user_the_second_time(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    client = Client()
    client.force_login(user)
    assert client.get("/").status_code == 200  # the first reads them, and keeps them
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/")
    assert response.status_code == 200 and b"Pat Player" in response.content
    assert tables_read(queries) == set(), [q["sql"] for q in queries.captured_queries]


def test_a_name_changed_shows_on_the_next_page(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    client = Client()
    client.force_login(user)
    assert b"Pat Player" in client.get("/").content
    user.player.name = "Patricia Player"
    user.player.save()
    assert b"Patricia Player" in client.get("/").content


def test_a_password_changed_elsewhere_signs_the_old_session_out(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    client = Client()
    client.force_login(user)
    assert client.get("/accounts/profile/").status_code == 200
    user.set_password("a whole new secret 42")
    user.save()
    response = client.get("/accounts/profile/")
    assert response.status_code == 302 and "login" in response["Location"]


def test_an_account_switched_off_is_signed_out(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    client = Client()
    client.force_login(user)
    token = Token.objects.create(user=user)
    api = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/accounts/profile/").status_code == 200
    assert api.get("/api/me/").status_code == 200
    fresh = User.objects.get(pk=user.pk)
    fresh.is_active = False
    fresh.save()
    assert client.get("/accounts/profile/").status_code == 302
    assert api.get("/api/me/").status_code == 403  # (DRF's answer to credentials refused)


def test_a_token_reads_nothing_the_second_time_and_a_revoked_one_is_refused(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    token = Token.objects.create(user=user)
    api = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/me/").json()["name"] == "Pat Player"
    with CaptureQueriesContext(connection) as queries:
        response = api.get("/api/me/")
    assert response.status_code == 200 and response.json()["name"] == "Pat Player"
    assert tables_read(queries) == set(), [q["sql"] for q in queries.captured_queries]
    Token.objects.filter(user=user).delete()  # as "a new token" on the profile does
    assert api.get("/api/me/").status_code == 403  # (DRF's answer to credentials refused)
    assert Client(HTTP_AUTHORIZATION="Token not-a-token").get("/api/me/").status_code == 403


def test_logging_out_ends_the_session_kept_in_the_cache(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    client = Client()
    client.force_login(user)
    key = client.cookies["sessionid"].value
    assert not sessions._unforgotten  # saved to the cache as well
    assert client.get("/accounts/profile/").status_code == 200
    assert caches["default"].get(sessions.SessionStore.cache_key_prefix + key) is not None
    assert client.post("/accounts/logout/").status_code in (200, 302)
    assert caches["default"].get(sessions.SessionStore.cache_key_prefix + key) is None
    stolen = Client()
    stolen.cookies["sessionid"] = key  # the old cookie, kept by someone
    assert stolen.get("/accounts/profile/").status_code == 302


def test_a_value_made_while_its_thing_changes_is_never_served() -> None:
    made = []

    def make() -> str:
        made.append(1)
        if len(made) == 1:
            cache.changed("thing:1")  # a change commits while the first reader reads
        return f"value {len(made)}"

    assert cache.kept("thing:1", "thing:1", make) == "value 1"
    assert cache.kept("thing:1", "thing:1", make) == "value 2"  # the first was made too early
    assert cache.kept("thing:1", "thing:1", make) == "value 2"  # and this one is kept
    assert len(made) == 2


def test_with_the_cache_away_a_signed_in_page_reads_the_database(make_user: Any) -> None:
    user = make_user(player_name="Pat Player")
    client = Client()
    client.force_login(user)
    away = {"BACKEND": "spyleague.core.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}  # fmt: skip
    from django.conf import settings

    with override_settings(CACHES={**settings.CACHES, "default": away}):
        response = client.get("/accounts/profile/")
        assert response.status_code == 200 and b"Pat Player" in response.content
        assert client.post("/accounts/logout/").status_code in (200, 302)  # a logout too
    assert sessions._unforgotten  # its copy in the cache is deleted when the cache is back
    client.force_login(user)
    assert client.get("/").status_code == 200
    assert not sessions._unforgotten


def test_a_club_role_given_changed_or_taken_counts_at_once(make_user: Any) -> None:
    from spyleague.clubs.models import Club, Membership, Role
    from spyleague.clubs.selectors import has_club_role

    user = make_user(player_name="Pat Player")
    club = Club.objects.create(name="Kept Club", slug="kept-club")

    def organiser() -> bool:
        return has_club_role(user=user, club=club, role=Role.ORGANISER)

    assert not organiser()
    membership = Membership.objects.create(club=club, player=user.player, role=Role.ORGANISER)
    assert organiser()
    with CaptureQueriesContext(connection) as queries:
        assert organiser()
    assert not [q for q in queries.captured_queries if "clubs_membership" in q["sql"]]  # kept
    membership.role = Role.PLAYER
    membership.save()
    assert not organiser() and has_club_role(user=user, club=club, role=Role.PLAYER)
    membership.delete()
    assert not has_club_role(user=user, club=club, role=Role.PLAYER)


def test_a_player_in_more_clubs_than_are_kept_has_each_role_read(
    make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spyleague.clubs import selectors
    from spyleague.clubs.models import Club, Membership, Role

    monkeypatch.setattr(selectors, "ROLES_KEPT", 1)
    user = make_user(player_name="Pat Player")
    clubs = [Club.objects.create(name=f"Club {i}", slug=f"club-{i}") for i in range(3)]
    for club, role in zip(clubs, (Role.ORGANISER, Role.SCORER, Role.PLAYER), strict=True):
        Membership.objects.create(club=club, player=user.player, role=role)
    assert selectors.roles_of(user.player) is None
    assert [selectors.club_role(user=user, club=c) for c in clubs] == [
        Role.ORGANISER,
        Role.SCORER,
        Role.PLAYER,
    ]
