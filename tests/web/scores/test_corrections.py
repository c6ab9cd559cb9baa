"""Correcting a result: the form starts from the result as it stands, a correction says why (the
reason is kept and shown in the history), and a save that changes nothing adds no history. The
same rules on the score sheet, in the API and on the scorepad."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.urls import reverse

from spyleague.clubs.models import Membership, Role
from spyleague.scores import scorepad as pads
from spyleague.scores.models import Result, ResultChange, Scorepad, ScorepadChange
from spyleague.scores.services import EntryLine, NothingChanged, result_confirm, result_correct, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Event, Table
from tests.web.tournaments.helpers import make_event

pytestmark = pytest.mark.django_db

WORLD = [160, 30, 35, 15]  # a finished Black Spy game of four (the end value is 150)


@pytest.fixture
def confirmed(club: Any, organiser: Any, make_user: Any) -> tuple[Event, Table, Result, Any]:
    """A Black Spy table whose result came through the API (nothing typed on a sheet), confirmed;
    and the club's scorer."""
    event = make_event(club, organiser, players=4, name="Corrections")
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    table = rnd.tables.get()
    seats = list(table.seats.order_by("position"))
    result = result_enter(
        user=organiser,
        game="black-spy",
        club=club,
        table=table,
        entries=[EntryLine(s.entrant.player, float(v)) for s, v in zip(seats, WORLD, strict=True)],
    )
    result_confirm(user=organiser, result=result)
    scorer = make_user(username="sam")
    Membership.objects.create(club=club, player=scorer.player, role=Role.SCORER)
    return event, table, result, scorer


def sheet(client: Any, event: Event, table: Table) -> str:
    return client.get(reverse("tournaments:sheet", args=[event.pk, table.pk])).content.decode()


def field(page: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]* value="([^"]*)"', page)
    assert found, name
    return html.unescape(found.group(1))


def post_sheet(client: Any, event: Event, table: Table, scores: list[int], note: str | None) -> Any:
    data = {f"score_{i}": str(v) for i, v in enumerate(scores)}
    if note is not None:
        data["note"] = note
    return client.post(reverse("tournaments:sheet", args=[event.pk, table.pk]), data)


def test_a_scorer_correcting_a_confirmed_result_starts_from_it(client: Any, confirmed: Any) -> None:
    event, table, _result, scorer = confirmed
    client.force_login(scorer)
    page = sheet(client, event, table)
    assert [field(page, f"score_{i}") for i in range(4)] == [str(v) for v in WORLD]
    assert [field(page, f"place_{i}") for i in range(4)] == ["", "", "", ""]  # worked out again
    assert 'name="note"' in page and "required" in page[page.index('name="note"') - 200 :]


def test_the_form_follows_a_correction_made_elsewhere(client: Any, api_client: Any, confirmed: Any) -> None:
    """A correction through the API: the sheet shows the result as it now stands, not what was
    once typed on it."""
    event, table, _result, scorer = confirmed
    client.force_login(scorer)
    assert post_sheet(client, event, table, [150, 40, 35, 15], "Ann's pile recounted").status_code == 302
    api_client.force_authenticate(scorer)
    seats = list(table.seats.order_by("position"))
    lines = [
        {"player": s.entrant.player_id, "score": v} for s, v in zip(seats, [155, 35, 35, 15], strict=True)
    ]
    url = f"/api/tables/{table.pk}/result/"
    assert api_client.post(url, {"lines": lines, "note": "and again"}, format="json").status_code == 200
    page = sheet(client, event, table)
    assert [field(page, f"score_{i}") for i in range(4)] == ["155", "35", "35", "15"]


def test_a_correction_says_why_and_the_history_shows_it(client: Any, confirmed: Any) -> None:
    event, table, result, scorer = confirmed
    client.force_login(scorer)
    for note in (None, "", "   "):
        response = post_sheet(client, event, table, [150, 40, 35, 15], note)
        assert response.status_code == 400
        assert "Say why the result is corrected" in response.content.decode()
        assert result.changes.count() == 2  # entered, confirmed: nothing added
    response = post_sheet(client, event, table, [150, 40, 35, 15], "x" * 301)
    assert response.status_code == 400 and "at most 300 characters" in response.content.decode()
    response = post_sheet(client, event, table, [150, 40, 35, 15], "  Ann's pile recounted  ")
    assert response.status_code == 302
    change = result.changes.order_by("pk").last()
    assert change is not None and change.action == "overridden" and change.note == "Ann's pile recounted"
    assert "Ann&#x27;s pile recounted" in sheet(client, event, table)
    data = client.get(f"/api/tables/{table.pk}/result/").json()
    assert data["history"][-1]["note"] == "Ann's pile recounted"


def test_a_save_that_changes_nothing_adds_no_history(client: Any, api_client: Any, confirmed: Any) -> None:
    event, table, result, scorer = confirmed
    client.force_login(scorer)
    before = list(result.changes.values_list("pk", flat=True))
    response = post_sheet(client, event, table, WORLD, "checking")
    assert response.status_code == 302
    follow = client.get(response["Location"]).content.decode()
    assert "Nothing was changed" in follow
    # The same places given, and no reason: still nothing to record, and no refusal for the reason.
    data = {f"score_{i}": str(v) for i, v in enumerate(WORLD)} | {
        f"place_{i}": str(p) for i, p in enumerate([4, 2, 3, 1])
    }
    assert client.post(reverse("tournaments:sheet", args=[event.pk, table.pk]), data).status_code == 302
    # The API: the result as it stands, and no history added either.
    api_client.force_authenticate(scorer)
    seats = list(table.seats.order_by("position"))
    lines = [{"player": s.entrant.player_id, "score": v} for s, v in zip(seats, WORLD, strict=True)]
    response = api_client.post(f"/api/tables/{table.pk}/result/", {"lines": lines}, format="json")
    assert response.status_code == 200
    assert list(result.changes.values_list("pk", flat=True)) == before
    with pytest.raises(NothingChanged):
        result_correct(
            user=scorer,
            result=result,
            entries=[EntryLine(s.entrant.player, float(v)) for s, v in zip(seats, WORLD, strict=True)],
            note="x",
        )


def test_the_api_correction_needs_a_reason_too(api_client: Any, confirmed: Any) -> None:
    _event, table, result, scorer = confirmed
    api_client.force_authenticate(scorer)
    seats = list(table.seats.order_by("position"))
    lines = [
        {"player": s.entrant.player_id, "score": v} for s, v in zip(seats, [150, 40, 35, 15], strict=True)
    ]
    response = api_client.post(f"/api/tables/{table.pk}/result/", {"lines": lines}, format="json")
    assert response.status_code == 400
    assert "Say why the result is corrected" in str(response.json()["detail"])
    assert result.changes.count() == 2 and ResultChange.objects.filter(action="overridden").count() == 0


# --- the scorepad -------------------------------------------------------------------------------


@pytest.fixture
def finished_pad(make_user: Any) -> tuple[Scorepad, Any]:
    """A friendly Black Spy pad of three (end value 200), over after four deals."""
    owner = make_user(username="owen")
    me = owner.player
    pad = pads.scorepad_open(user=owner, players=[me, type(me)(name="Bea"), type(me)(name="Cy")])
    for points in ([60, 0, 0], [60, 0, 0], [60, 0, 0], [30, 20, 10]):
        pads.scorepad_deal_add(user=owner, pad=pad, points=points)
    pad.refresh_from_db()
    assert pad.status == Scorepad.Status.FINISHED and pad.result is not None
    return pad, owner


def test_correct_on_a_finished_pad_opens_that_round_as_it_stands(client: Any, finished_pad: Any) -> None:
    pad, owner = finished_pad
    client.force_login(owner)
    page = client.get(reverse("scores:pad", args=[pad.pk]) + "?round=4").content.decode()
    assert "Correct deal 4" in page
    assert [field(page, f"points_{i}") for i in range(3)] == ["30", "20", "10"]
    assert 'name="number" value="4"' in page and 'name="note"' in page
    # A round that is not there, or not a number: the pad as it is.
    for odd in ("9", "x", "-1", "1" * 30):
        page = client.get(reverse("scores:pad", args=[pad.pk]), {"round": odd}).content.decode()
        assert "Correct deal" not in page.replace("Correct</a>", "")


def test_a_round_correction_of_a_finished_pad_says_why(client: Any, finished_pad: Any) -> None:
    pad, owner = finished_pad
    client.force_login(owner)
    url = reverse("scores:pad-deal", args=[pad.pk])
    form = {"number": "4", "mode": "points", "points_0": "20", "points_1": "30", "points_2": "10"}
    response = client.post(url, form)
    assert response.status_code == 400 and "Say why the result is corrected" in response.content.decode()
    assert ScorepadChange.objects.filter(scorepad=pad, action="corrected").count() == 0
    assert client.post(url, form | {"note": "Bea and Owen swapped"}).status_code == 302
    change = ScorepadChange.objects.get(scorepad=pad, action="corrected")
    assert change.note == "Bea and Owen swapped"
    assert pad.result is not None and pad.result.changes.order_by("pk").last().note == "Bea and Owen swapped"
    assert "Bea and Owen swapped" in client.get(reverse("scores:pad", args=[pad.pk])).content.decode()
    # The same again: nothing changed, nothing added.
    follow = client.post(url, form | {"note": "again"}, follow=True).content.decode()
    assert "Nothing was changed" in follow
    assert ScorepadChange.objects.filter(scorepad=pad, action="corrected").count() == 1


def test_a_round_corrected_while_the_game_goes_on_needs_no_reason(client: Any, make_user: Any) -> None:
    owner = make_user(username="owen")
    me = owner.player
    pad = pads.scorepad_open(user=owner, players=[me, type(me)(name="Bea"), type(me)(name="Cy")])
    pads.scorepad_deal_add(user=owner, pad=pad, points=[30, 20, 10])
    client.force_login(owner)
    url = reverse("scores:pad-deal", args=[pad.pk])
    form = {"number": "1", "mode": "points", "points_0": "20", "points_1": "30", "points_2": "10"}
    assert client.post(url, form).status_code == 302
    assert ScorepadChange.objects.filter(scorepad=pad, action="corrected").count() == 1
    assert Result.objects.count() == 0


def test_the_table_s_result_kept_for_its_readers_follows_every_write(
    club: Any, organiser: Any, make_user: Any
) -> None:
    """``GET /api/tables/<id>/result/`` is kept at the table's version (and the site's, for the
    names): after each write, what it answers is what a reading from the database says."""
    from django.test import Client, override_settings

    from spyleague.api.tournament_views import table_result_get
    from spyleague.core import cache

    event = make_event(club, organiser, players=4, name="Kept")
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    table = rnd.tables.get()
    seats = list(table.seats.order_by("position"))
    reader = Client()
    url = f"/api/tables/{table.pk}/result/"

    def same() -> dict[str, Any]:
        kept = reader.get(url).json()
        table.refresh_from_db()
        fresh = reader.get(url).json()  # (read again: kept now)
        assert kept == fresh == json_of(table_result_get(table=table))
        return kept

    with override_settings(SPYLEAGUE_PAGE_CACHE=True):
        cache.PAGES.over()
        assert same()["result"] is None
        entries = [EntryLine(s.entrant.player, float(v)) for s, v in zip(seats, WORLD, strict=True)]
        result = result_enter(user=organiser, game="black-spy", club=club, table=table, entries=entries)
        assert same()["status"] == "reported"
        result_confirm(user=organiser, result=result)
        assert same()["status"] == "confirmed"
        again = [EntryLine(s.entrant.player, float(v)) for s, v in zip(seats, [150, 40, 35, 15], strict=True)]
        result_correct(user=organiser, result=result, entries=again, note="Recounted")
        assert same()["history"][-1]["note"] == "Recounted"
        organiser.player.name = "Olga the Organiser"
        organiser.player.save()
        assert same()["history"][0]["who"] == "Olga the Organiser"


def json_of(data: Any) -> Any:
    import json

    from rest_framework.utils.encoders import JSONEncoder

    return json.loads(json.dumps(data, cls=JSONEncoder))
