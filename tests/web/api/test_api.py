from typing import Any

import pytest
from rest_framework.authtoken.models import Token

from spyleague.clubs.models import Membership, Role

pytestmark = pytest.mark.django_db


def test_schema_is_served_and_valid(api_client: Any) -> None:
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["info"]["title"] == "Spy League API"
    for path in ["/api/clubs/", "/api/events/", "/api/games/", "/api/jobs/{id}/"]:
        assert path in schema["paths"], path


def test_docs_page_is_served_without_a_cdn(client: Any) -> None:
    page = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in page
    assert "cdn." not in page and "unpkg" not in page


def test_token_auth_and_club_creation(api_client: Any, make_user: Any) -> None:
    user = make_user(username="kim")
    token = Token.objects.create(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = api_client.post("/api/clubs/", {"name": "Token Club"}, format="json")
    assert response.status_code == 201, response.content
    assert (
        Membership.objects.get(club__slug=response.json()["slug"], player=user.player).role == Role.ORGANISER
    )


def test_anonymous_users_read_but_cannot_write(api_client: Any, club: Any) -> None:
    assert api_client.get("/api/clubs/").status_code == 200
    assert api_client.post("/api/clubs/", {"name": "Nope"}, format="json").status_code in (401, 403)


def test_a_member_who_is_not_organiser_cannot_edit_the_club(
    api_client: Any, club: Any, make_user: Any
) -> None:
    user = make_user(username="lou")
    Membership.objects.create(club=club, player=user.player, role=Role.PLAYER)
    api_client.force_authenticate(user)
    response = api_client.patch(f"/api/clubs/{club.slug}/", {"city": "Hacked"}, format="json")
    assert response.status_code == 403
    club.refresh_from_db()
    assert club.city == "Bath"


def test_event_creation_through_the_api_checks_role_and_seats(
    api_client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    body = {
        "club": club.slug,
        "name": "API Open",
        "game": "spy-vs-spy",
        "format": "swiss",
        "rounds": 4,
        "table_size": 2,
    }
    api_client.force_authenticate(make_user(username="max"))
    assert api_client.post("/api/events/", body, format="json").status_code == 403
    api_client.force_authenticate(organiser)
    bad = api_client.post("/api/events/", {**body, "game": "black-spy"}, format="json")
    assert bad.status_code == 400
    assert "tables of 3 to 6" in bad.json()["table_size"][0]
    good = api_client.post("/api/events/", body, format="json")
    assert good.status_code == 201, good.content
    assert good.json()["points_by_place"] == [3, 0]


def test_roles_through_the_api(api_client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    user = make_user(username="ned")
    membership = Membership.objects.create(club=club, player=user.player)
    api_client.force_authenticate(user)
    url = f"/api/clubs/{club.slug}/members/{membership.pk}/role/"
    assert api_client.post(url, {"role": "organiser"}, format="json").status_code == 403
    api_client.force_authenticate(organiser)
    assert api_client.post(url, {"role": "scorer"}, format="json").json()["role"] == "scorer"
    assert api_client.post(url, {"role": "boss"}, format="json").status_code == 400


def test_games_list(api_client: Any) -> None:
    games = api_client.get("/api/games/").json()
    assert [g["slug"] for g in games] == ["black-spy", "mister-spy", "spy-vs-spy", "spycatcher", "spies"]
    assert games[0]["min_seats"] == 3 and games[0]["max_seats"] == 6


def test_jobs_are_private_to_their_owner(api_client: Any, make_user: Any) -> None:
    from spyleague.core.models import Job

    owner, other = make_user(username="oz"), make_user(username="pam")
    job = Job.objects.create(kind="x", label="Mine", created_by=owner)
    api_client.force_authenticate(other)
    assert api_client.get(f"/api/jobs/{job.pk}/").status_code == 404
    api_client.force_authenticate(owner)
    assert api_client.get(f"/api/jobs/{job.pk}/").json()["label"] == "Mine"
