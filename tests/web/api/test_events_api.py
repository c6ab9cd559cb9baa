"""Every step of running an event through the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase

from spyleague.clubs.models import Membership, Player

pytestmark = pytest.mark.django_db


def test_create_register_pair_publish_enter_confirm_and_read_standings(
    api_client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    api_client.force_authenticate(organiser)
    event = api_client.post(
        "/api/events/",
        {
            "club": club.slug,
            "name": "API Swiss",
            "game": "spy-vs-spy",
            "format": "swiss",
            "rounds": 3,
            "table_size": 2,
        },
        format="json",
    ).json()
    players = []
    for i in range(4):
        player = Player.objects.create(name=f"Guest {i}", guest_of=club)
        Membership.objects.create(club=club, player=player)
        players.append(player)
        response = api_client.post(
            f"/api/events/{event['id']}/register/", {"player": player.pk}, format="json"
        )
        assert response.status_code == 201, response.content
    page = api_client.get(f"/api/events/{event['id']}/entrants/").json()
    assert page["count"] == len(page["results"])  # paged like every list
    entrants = page["results"]
    assert len(entrants) == 4
    for entrant in entrants:
        checked = api_client.post(f"/api/events/{event['id']}/entrants/{entrant['id']}/check-in/")
        assert checked.json()["checked_in"]

    with TestCase.captureOnCommitCallbacks(execute=True):
        job = api_client.post(f"/api/events/{event['id']}/pair/")
    assert job.status_code == 202
    followed = api_client.get(f"/api/jobs/{job.json()['id']}/").json()
    assert followed["status"] == "done", followed["message"]
    rounds = api_client.get(f"/api/events/{event['id']}/rounds/").json()["results"]
    assert rounds[0]["status"] == "draft"

    api_client.force_authenticate(None)
    assert api_client.get(f"/api/events/{event['id']}/rounds/").json()["results"] == []  # drafts are private
    api_client.force_authenticate(organiser)
    published = api_client.post(f"/api/events/{event['id']}/rounds/1/publish/").json()
    assert published["status"] == "published"
    tables = api_client.get(f"/api/events/{event['id']}/rounds/1/tables/").json()
    assert tables["count"] == published["table_count"] == len(tables["results"])

    for table in tables["results"]:
        if table["is_bye"]:
            continue
        seats = table["seats"]
        by_name = {p.name: p.pk for p in players}
        assert [s["player_id"] for s in seats] == [by_name[s["player"]] for s in seats]
        # A seat gives the id a result's lines take: a script needs nothing else to enter it.
        lines = [{"player": s["player_id"], "score": float(i)} for i, s in enumerate(seats)]
        entered = api_client.post(f"/api/tables/{table['id']}/result/", {"lines": lines}, format="json")
        assert entered.status_code == 201, entered.content
        with TestCase.captureOnCommitCallbacks(execute=True):
            confirmed = api_client.post(f"/api/tables/{table['id']}/confirm/")
        assert confirmed.json()["status"] == "confirmed"
    standings = api_client.get(f"/api/events/{event['id']}/standings/").json()["results"]
    # Paged like every list: a page of one row still counts them all, and goes on from there.
    first = api_client.get(f"/api/events/{event['id']}/standings/?limit=1").json()
    assert first["count"] == len(standings) and first["results"] == standings[:1] and first["next"]
    assert api_client.get(f"/api/events/{event['id']}/rounds/?limit=1&offset=1").json()["results"] == []
    assert standings[0]["rank"] == 1 and standings[0]["points"] == 3.0


def test_result_errors_are_explained(api_client: Any, club: Any, organiser: Any) -> None:
    from spyleague.tournaments import services
    from tests.web.tournaments.helpers import make_event

    event = make_event(club, organiser, players=2, game="spy-vs-spy", size=2)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    table = rnd.tables.get()
    api_client.force_authenticate(organiser)
    ids = [s.entrant.player_id for s in table.seats.all()]
    wrong = api_client.post(
        f"/api/tables/{table.pk}/result/", {"lines": [{"player": ids[0], "score": 1}]}, format="json"
    )
    assert wrong.status_code == 400
    assert "each player seated" in str(wrong.json()["lines"])
    bad = api_client.post(
        f"/api/tables/{table.pk}/result/",
        {"lines": [{"player": ids[0], "score": 1.5}, {"player": ids[1], "score": 2}]},
        format="json",
    )
    assert bad.status_code == 400
    assert "whole numbers" in str(bad.json())


def test_leaderboard_and_history(api_client: Any, club: Any, organiser: Any) -> None:
    from tests.web.tournaments.helpers import make_event, play_round

    event = make_event(club, organiser, players=4)
    play_round(event, organiser)
    page = api_client.get("/api/leaderboards/black-spy/").json()
    board = page["results"]  # paged like every list
    assert page["count"] == len(board) == 4 and board[0]["rank"] == 1
    assert board[0]["rating"] >= board[-1]["rating"]
    assert api_client.get(f"/api/leaderboards/black-spy/?club={club.slug}").json() == page
    history = api_client.get(f"/api/players/{board[0]['player_id']}/ratings/black-spy/").json()
    assert history["count"] == len(history["results"]) == 1
