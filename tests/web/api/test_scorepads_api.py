"""The scorepad through the API: opened among friends or for a tournament table, kept round by
round (each checked, refused in words), corrected, and its result confirmed."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase

from spyleague.clubs.models import Membership, Role
from spyleague.clubs.services import guest_add
from spyleague.scores.models import Result, Scorepad, ScorepadDeal
from spyleague.tournaments import services
from tests.web.tournaments.helpers import make_event

pytestmark = pytest.mark.django_db

DEALS = ([20, 10, 25, 5], [40, 10, 5, 5], [60, 0, 0, 0], [40, 10, 5, 5])  # 160 ends it


def _member(club: Any, make_user: Any, username: str, role: str = Role.PLAYER) -> Any:
    user = make_user(username=username, player_name=username.title())
    Membership.objects.create(club=club, player=user.player, role=role)
    return user


def test_a_friendly_pad_kept_to_the_end_then_confirmed_by_another_player(
    api_client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    ann, bob = _member(club, make_user, "ann"), _member(club, make_user, "bob")
    # Cy and Di play without an account: the club's guests, whom its organiser added.
    cy, di = (guest_add(user=organiser, club=club, name=name).player for name in ("Cy", "Di"))
    api_client.force_authenticate(ann)
    opened = api_client.post(
        "/api/scorepads/",
        {
            "club": club.slug,
            "players": [{"player": p.pk} for p in (ann.player, bob.player, cy, di)],
        },
        format="json",
    )
    assert opened.status_code == 201, opened.content
    pad = opened.json()
    assert [p["name"] for p in pad["players"]] == ["Ann", "Bob", "Cy", "Di"]
    assert pad["status"] == "open" and pad["rounds"] == [] and pad["end_value"] == 150
    url = f"/api/scorepads/{pad['id']}/"
    for points in DEALS[:3]:
        assert api_client.post(f"{url}rounds/", {"points": points}, format="json").status_code == 201
    # A round whose points cannot come from one deal is refused in words, and nothing is saved.
    wrong = api_client.post(f"{url}rounds/", {"points": [10, 10, 10, 10]}, format="json")
    assert wrong.status_code == 400 and wrong.json()["detail"]
    assert ScorepadDeal.objects.filter(scorepad_id=pad["id"]).count() == 3
    with TestCase.captureOnCommitCallbacks(execute=True):
        last = api_client.post(f"{url}rounds/", {"points": DEALS[3]}, format="json").json()
    assert last["over"] and last["status"] == "finished" and last["totals"] == [160, 30, 35, 15]
    assert last["result"]["status"] == "reported" and last["places"] == [4, 2, 3, 1]
    assert [r["totals"] for r in last["rounds"]][-1] == [160, 30, 35, 15]
    listed = api_client.get("/api/scorepads/").json()["results"][0]
    assert listed["id"] == pad["id"] and listed["rounds"] == 4 and listed["status"] == "finished"
    assert [p["name"] for p in listed["players"]] == ["Ann", "Bob", "Cy", "Di"]
    # The one who entered the last deal does not confirm it; another player at the table does.
    assert api_client.post(f"{url}confirm/").status_code == 403
    api_client.force_authenticate(bob)
    with TestCase.captureOnCommitCallbacks(execute=True):
        confirmed = api_client.post(f"{url}confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["result"]["status"] == "confirmed"
    assert api_client.get("/api/scorepads/").json()["count"] == 1  # bob sits at it


def test_a_round_is_corrected_with_its_trail(api_client: Any, club: Any, make_user: Any) -> None:
    ann = _member(club, make_user, "ann")
    api_client.force_authenticate(ann)
    pad = api_client.post(
        "/api/scorepads/",
        {"players": [{"player": ann.player.pk}, {"name": "Bo"}, {"name": "Cy"}]},
        format="json",
    ).json()
    url = f"/api/scorepads/{pad['id']}/rounds/"
    api_client.post(url, {"points": [40, 10, 10]}, format="json")
    corrected = api_client.put(f"{url}1/", {"points": [10, 40, 10]}, format="json")
    assert corrected.status_code == 200, corrected.content
    assert corrected.json()["totals"] == [10, 40, 10]
    trail = corrected.json()["changes"]
    assert [(c["action"], c["before"], c["after"]) for c in trail] == [
        ("entered", None, [40, 10, 10]),
        ("corrected", [40, 10, 10], [10, 40, 10]),
    ]
    assert trail[1]["who"] == "Ann"
    assert api_client.put(f"{url}7/", {"points": [10, 40, 10]}, format="json").status_code == 404


def test_what_each_player_took_is_scored(api_client: Any, make_user: Any) -> None:
    ann = make_user(username="ann")
    api_client.force_authenticate(ann)
    pad = api_client.post(
        "/api/scorepads/",
        {"players": [{"player": ann.player.pk}, {"name": "Bo"}, {"name": "Cy"}]},
        format="json",
    ).json()
    taken = [
        {"black_spies": 6, "coloured_spies": 2},
        {"black_ranks": [1, 2, 3, 4, 5, 6, 8, 9, 10, 11], "coloured_spies": 2},
        {},
    ]
    added = api_client.post(f"/api/scorepads/{pad['id']}/rounds/", {"taken": taken}, format="json")
    assert added.status_code == 201, added.content
    assert added.json()["rounds"][0]["points"] == [50, 10, 0]


def test_a_spy_vs_spy_race(api_client: Any, make_user: Any) -> None:
    ann = make_user(username="ann")
    api_client.force_authenticate(ann)
    pad = api_client.post(
        "/api/scorepads/",
        {"game": "spy-vs-spy", "players": [{"player": ann.player.pk}, {"name": "Bo"}, {"name": "Cy"}]},
        format="json",
    ).json()
    url = f"/api/scorepads/{pad['id']}/rounds/"
    race = api_client.post(url, {"points": [-4, 3, 6], "first": 0}, format="json")
    assert race.status_code == 201, race.content
    assert race.json()["rounds"][0]["points"] == [-4, 3, 6]
    assert api_client.post(url, {"points": [-4, 3, 6], "first": 5}, format="json").status_code == 400
    assert api_client.post(url, {"taken": [{}, {}, {}]}, format="json").status_code == 400


def test_who_may_open_and_keep_a_pad(api_client: Any, club: Any, make_user: Any) -> None:
    ann, stranger = _member(club, make_user, "ann"), make_user(username="stu")
    api_client.force_authenticate(stranger)
    # Not a member of the club; nor may a stranger seat the club's players on a pad of their own.
    in_club = {"club": club.slug, "players": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}
    assert api_client.post("/api/scorepads/", in_club, format="json").status_code == 403
    theirs = {"players": [{"player": ann.player.pk}, {"name": "B"}, {"name": "C"}]}
    refused = api_client.post("/api/scorepads/", theirs, format="json")
    assert refused.status_code == 400 and "players" in refused.json()
    both = {"players": [{"player": stranger.player.pk, "name": "Me"}, {"name": "B"}, {"name": "C"}]}
    assert api_client.post("/api/scorepads/", both, format="json").status_code == 400
    api_client.force_authenticate(ann)
    # A member who is no scorer adds no guests to the club, on a pad as anywhere else.
    assert api_client.post("/api/scorepads/", in_club, format="json").status_code == 403
    pad = api_client.post("/api/scorepads/", theirs, format="json").json()
    api_client.force_authenticate(stranger)
    refused = api_client.post(f"/api/scorepads/{pad['id']}/rounds/", {"points": [40, 10, 10]}, format="json")
    assert refused.status_code == 403 and not ScorepadDeal.objects.exists()
    assert api_client.get(f"/api/scorepads/{pad['id']}/").status_code == 200  # anyone may look
    api_client.force_authenticate(None)
    assert api_client.get("/api/scorepads/").status_code in (401, 403)
    assert api_client.get(f"/api/scorepads/{pad['id']}/").json()["players"][0]["name"] == "Ann"


def test_a_tournament_tables_pad(api_client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    event = make_event(club, organiser, players=4)
    draft = services.round_pair(event=event)
    table = draft.tables.get()
    scorer = _member(club, make_user, "sam", Role.SCORER)
    api_client.force_authenticate(scorer)
    assert (
        api_client.post("/api/scorepads/", {"table": table.pk}, format="json").status_code == 404
    )  # a draft
    services.round_publish(user=organiser, rnd=draft)
    stranger = make_user(username="stu")
    api_client.force_authenticate(stranger)
    assert api_client.post("/api/scorepads/", {"table": table.pk}, format="json").status_code == 403
    api_client.force_authenticate(scorer)
    opened = api_client.post("/api/scorepads/", {"table": table.pk}, format="json")
    assert opened.status_code == 201, opened.content
    seated = [
        s.entrant.player.name for s in table.seats.select_related("entrant__player").order_by("position")
    ]
    assert [p["name"] for p in opened.json()["players"]] == seated and opened.json()["table"] == table.pk
    again = api_client.post("/api/scorepads/", {"table": table.pk}, format="json")
    assert again.status_code == 200 and again.json()["id"] == opened.json()["id"]
    assert Scorepad.objects.count() == 1
    url = f"/api/scorepads/{opened.json()['id']}/rounds/"
    with TestCase.captureOnCommitCallbacks(execute=True):
        for points in DEALS:
            api_client.post(url, {"points": points}, format="json")
    result = Result.objects.get(table=table)
    assert result.source == Result.Source.SCOREPAD and result.status == Result.Status.REPORTED
    detail = api_client.get(f"/api/tables/{table.pk}/result/").json()
    assert detail["status"] == "reported" and detail["result"]["source"] == "scorepad"


def test_the_list_costs_the_same_queries_however_many_pads(api_client: Any, make_user: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    ann = make_user(username="ann")
    api_client.force_authenticate(ann)

    def listed(pads: int) -> int:
        for _ in range(pads):
            body = {"players": [{"player": ann.player.pk}, {"name": "Bo"}, {"name": "Cy"}]}
            pad = api_client.post("/api/scorepads/", body, format="json").json()
            api_client.post(f"/api/scorepads/{pad['id']}/rounds/", {"points": [40, 10, 10]}, format="json")
        with CaptureQueriesContext(connection) as queries:
            page = api_client.get("/api/scorepads/").json()
        assert all(row["rounds"] == 1 for row in page["results"])
        return len(queries)

    assert listed(2) == listed(6)
