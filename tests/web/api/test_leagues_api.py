"""Leagues through the API: started by a club's organisers, listed, read with their table, and
an event's league (one of the same club's)."""

from __future__ import annotations

from typing import Any

import pytest

from spyleague.clubs.services import club_create
from spyleague.tournaments import services
from spyleague.tournaments.models import Event
from tests.web.tournaments.helpers import make_event, play_round

pytestmark = pytest.mark.django_db


def test_an_organiser_starts_a_league_and_nobody_else_can(
    api_client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    body = {"club": club.slug, "name": "Winter League", "game": "black-spy", "starts": "2026-01-05"}
    assert api_client.post("/api/leagues/", body, format="json").status_code in (401, 403)
    api_client.force_authenticate(make_user(username="nia"))
    refused = api_client.post("/api/leagues/", body, format="json")
    assert refused.status_code == 403 and "organisers" in refused.json()["detail"]
    api_client.force_authenticate(organiser)
    created = api_client.post("/api/leagues/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json() | {"id": 0} == {
        "id": 0,
        "club": club.slug,
        "name": "Winter League",
        "game": "black-spy",
        "starts": "2026-01-05",
        "ends": None,
        "description": "",
        "events": 0,
    }
    several = api_client.post(
        "/api/leagues/", {"club": club.slug, "name": "Anything", "game": ""}, format="json"
    )
    assert several.status_code == 201 and several.json()["game"] == ""
    backwards = api_client.post(
        "/api/leagues/", body | {"starts": "2026-03-01", "ends": "2026-01-01"}, format="json"
    )
    assert backwards.status_code == 400 and "ends after it starts" in backwards.json()["ends"][0]


def test_leagues_are_listed_by_club_and_read_with_their_table(
    api_client: Any, club: Any, organiser: Any
) -> None:
    league = services.league_create(user=organiser, club=club, name="Season One", game="black-spy")
    other = club_create(user=organiser, name="Other Club")
    services.league_create(user=organiser, club=other, name="Elsewhere")
    event = make_event(club, organiser, players=4, league=league)
    play_round(event, organiser)
    page = api_client.get(f"/api/leagues/?club={club.slug}").json()
    assert page["count"] == 1 and page["results"][0]["name"] == "Season One"
    assert api_client.get("/api/leagues/").json()["count"] == 2
    detail = api_client.get(f"/api/leagues/{league.pk}/").json()
    assert detail["events"] == 1 and detail["club"] == club.slug
    table = api_client.get(f"/api/leagues/{league.pk}/table/?limit=3").json()
    assert table["count"] == 4 and len(table["results"]) == 3  # paged like every list
    assert table["results"][0]["rank"] == 1 and table["results"][0]["events"] == 1
    assert (
        sum(row["points"] for row in api_client.get(f"/api/leagues/{league.pk}/table/").json()["results"])
        == 7
    )
    events = api_client.get(f"/api/events/?league={league.pk}").json()
    assert [e["id"] for e in events["results"]] == [event.pk]
    assert api_client.get("/api/events/?league=x").status_code == 400
    assert api_client.get("/api/leagues/999999/").status_code == 404


def test_an_events_league_is_one_of_its_own_clubs(api_client: Any, club: Any, organiser: Any) -> None:
    league = services.league_create(user=organiser, club=club, name="Ours")
    theirs = services.league_create(user=organiser, club=club_create(user=organiser, name="Theirs"), name="T")
    api_client.force_authenticate(organiser)
    body = {"club": club.slug, "name": "Night", "game": "spy-vs-spy", "table_size": 2, "rounds": 3}
    refused = api_client.post("/api/events/", body | {"league": theirs.pk}, format="json")
    assert refused.status_code == 400 and "Choose a league of Test Club" in refused.json()["league"][0]
    created = api_client.post("/api/events/", body | {"league": league.pk}, format="json")
    assert created.status_code == 201 and created.json()["league"] == league.pk
    url = f"/api/events/{created.json()['id']}/"
    assert api_client.patch(url, {"league": theirs.pk}, format="json").status_code == 400
    assert api_client.patch(url, {"league": None}, format="json").json()["league"] is None
    # An event's league may change at any time, even once it is over (a season set afterwards).
    Event.objects.filter(pk=created.json()["id"]).update(status=Event.Status.FINISHED)
    assert api_client.patch(url, {"league": league.pk}, format="json").json()["league"] == league.pk


def test_the_service_refuses_another_clubs_league_too(club: Any, organiser: Any) -> None:
    from django.core.exceptions import ValidationError

    event = make_event(club, organiser, players=0)
    theirs = services.league_create(user=organiser, club=club_create(user=organiser, name="Theirs"), name="T")
    with pytest.raises(ValidationError, match="Choose a league of Test Club"):
        services.event_update(user=organiser, event=event, league=theirs)
