"""Black Spy table results: totals that no sequence of whole deals gives are refused, in words.

Through the table sheet and the API alike: the reason is given, nothing is saved (no result, no
change in its history) and the page keeps what was typed. Totals that real deals give are
accepted, and a table stopped on time may end with nobody at the end value; the mark is kept
on the result, so a correction keeps it. The event's variants decide what is possible.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from spyleague.scores.models import Result, ResultChange, Scorepad
from spyleague.tournaments import services
from spyleague.tournaments.models import Event, Seat, Table
from tests.web.tournaments.helpers import make_event

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Ben", "Cy", "Di"]


def black_spy_table(
    club: Any, organiser: Any, make_user: Any, names: list[str] = NAMES, **options: Any
) -> tuple[Event, Table, list[Any]]:
    """A published Black Spy table with one user per name, the users returned in seat order."""
    event = make_event(
        club, organiser, players=0, game="black-spy", size=len(names), name="Spy night", options=options
    )
    users = [make_user(username=name.lower(), player_name=name) for name in names]
    for user in users:
        services.entrant_register(user=user, event=event)
    table = services.round_publish(user=organiser, rnd=services.round_pair(event=event)).tables.get()
    order = [s.entrant.player.user_id for s in Seat.objects.filter(table=table).order_by("position")]
    return event, table, sorted(users, key=lambda u: order.index(u.pk))


@pytest.fixture
def table(club: Any, organiser: Any, make_user: Any) -> tuple[Event, Table, list[Any]]:
    return black_spy_table(club, organiser, make_user)


def sheet_url(event: Event, table: Table) -> str:
    return reverse("tournaments:sheet", args=[event.pk, table.pk])


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def form(totals: list[int], *, stopped: bool = False) -> dict[str, str]:
    typed = {f"score_{i}": str(total) for i, total in enumerate(totals)}
    return typed | ({"stopped": "on"} if stopped else {})


def stopped_box_checked(page: str) -> bool:
    box = re.search(r"<input[^>]*name=\"stopped\"[^>]*>", page)
    assert box is not None, "the sheet has no stopped-on-time box"
    return "checked" in box.group(0)


def names_in_seat_order(users: list[Any]) -> list[str]:
    return [u.player.name for u in users]


IMPOSSIBLE = [
    pytest.param([40, 60, 95, 100], False, ["The totals add up to 295", "every deal adds 60"], id="295"),
    pytest.param(
        [0, 0, 0, 0], True, ["The totals add up to 0", "no number of whole deals gives 0"], id="zeros"
    ),
    pytest.param([-400, 160, 140, 100], True, ["-400 is lower than a game to 150 allows"], id="-400"),
    pytest.param(
        [40, 60, 100, 100],
        False,
        ["Nobody reached the end value of 150: mark the table as stopped on time"],
        id="nobody-at-150",
    ),
]


# -- the table sheet ---------------------------------------------------------------------------


@pytest.mark.parametrize(("totals", "stopped", "words"), IMPOSSIBLE)
def test_the_sheet_refuses_impossible_totals_and_keeps_what_was_typed(
    client: Any, table: Any, totals: list[int], stopped: bool, words: list[str]
) -> None:
    event, tbl, users = table
    client.force_login(users[0])
    response = client.post(sheet_url(event, tbl), form(totals, stopped=stopped))
    assert response.status_code == 400
    page = text(response)
    for said in words:
        assert said in page
    for i, total in enumerate(totals):
        assert re.search(rf'name="score_{i}" value="{total}"', page), f"score_{i} was not kept"
    assert stopped_box_checked(response.content.decode()) is stopped
    assert not Result.objects.exists() and not ResultChange.objects.exists()


def test_the_sheet_names_the_player_whose_total_is_impossible(client: Any, table: Any) -> None:
    event, tbl, users = table
    client.force_login(users[0])
    first = names_in_seat_order(users)[0]
    response = client.post(sheet_url(event, tbl), form([-400, 160, 140, 100]))
    assert f"{first}'s -400 is lower than a game to 150 allows" in text(response)


def test_the_sheet_accepts_totals_that_deals_give(client: Any, table: Any) -> None:
    event, tbl, users = table
    client.force_login(users[0])
    response = client.post(sheet_url(event, tbl), form([160, 100, 80, 20]))
    assert response.status_code == 302
    result = Result.objects.get(table=tbl)
    assert [line.score for line in result.lines.order_by("position")] == [160, 100, 80, 20]
    assert [line.place for line in result.lines.order_by("position")] == [4, 3, 2, 1]
    assert result.data["stopped"] is False
    assert not stopped_box_checked(client.get(sheet_url(event, tbl)).content.decode())


def test_a_table_stopped_on_time_may_end_with_nobody_at_the_end_value(client: Any, table: Any) -> None:
    event, tbl, users = table
    client.force_login(users[0])
    response = client.post(sheet_url(event, tbl), form([40, 60, 100, 100], stopped=True))
    assert response.status_code == 302
    result = Result.objects.get(table=tbl)
    assert result.data["stopped"] is True
    page = client.get(sheet_url(event, tbl))
    assert stopped_box_checked(page.content.decode())  # a correction starts from the mark
    assert "Marked as stopped on time." in text(page)
    # Unticking the box while nobody is at 150 is refused, and the stored result is unchanged.
    response = client.post(sheet_url(event, tbl), form([40, 60, 100, 100]))
    assert response.status_code == 400
    assert "Nobody reached the end value of 150" in text(response)
    result.refresh_from_db()
    assert result.data["stopped"] is True and result.changes.count() == 1


def test_the_event_variants_decide_what_is_possible(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    totals = [160, 100, 40, 20]  # 320: four No Good Spies deals of 80, never deals of 60
    event, tbl, users = black_spy_table(club, organiser, make_user, no_good_spies=True)
    client.force_login(users[0])
    response = client.post(sheet_url(event, tbl), form([-5, 150, 100, 75]))
    assert response.status_code == 400
    assert "with No Good Spies no deal takes points away" in text(response)
    assert client.post(sheet_url(event, tbl), form(totals)).status_code == 302

    plain, plain_table, plain_users = black_spy_table(
        club, organiser, make_user, ["Eve", "Fay", "Gil", "Hal"]
    )
    client.force_login(plain_users[0])
    response = client.post(sheet_url(plain, plain_table), form(totals))
    assert response.status_code == 400
    assert "The totals add up to 320" in text(response)


def test_other_games_have_no_stopped_box(client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    event = make_event(club, organiser, players=2, game="spy-vs-spy", size=2, name="Race night")
    tbl = services.round_publish(user=organiser, rnd=services.round_pair(event=event)).tables.get()
    client.force_login(organiser)
    assert 'name="stopped"' not in client.get(sheet_url(event, tbl)).content.decode()


# -- the API -----------------------------------------------------------------------------------


def api_url(tbl: Table) -> str:
    return f"/api/tables/{tbl.pk}/result/"


def api_lines(tbl: Table, totals: list[int]) -> list[dict[str, Any]]:
    seats = Seat.objects.filter(table=tbl).order_by("position").select_related("entrant")
    return [{"player": s.entrant.player_id, "score": total} for s, total in zip(seats, totals, strict=True)]


@pytest.mark.parametrize(("totals", "stopped", "words"), IMPOSSIBLE)
def test_the_api_refuses_impossible_totals(
    api_client: Any, table: Any, totals: list[int], stopped: bool, words: list[str]
) -> None:
    _, tbl, users = table
    api_client.force_authenticate(users[0])
    response = api_client.post(
        api_url(tbl), {"lines": api_lines(tbl, totals), "stopped": stopped}, format="json"
    )
    assert response.status_code == 400
    said = " ".join(response.json()["detail"])
    for words_said in words:
        assert words_said in said
    assert not Result.objects.exists() and not ResultChange.objects.exists()


def test_the_api_accepts_real_totals_and_keeps_the_stopped_mark(api_client: Any, table: Any) -> None:
    _, tbl, users = table
    api_client.force_authenticate(users[0])
    response = api_client.post(
        api_url(tbl), {"lines": api_lines(tbl, [40, 60, 100, 100]), "stopped": True}, format="json"
    )
    assert response.status_code == 201, response.content
    result = Result.objects.get(table=tbl)
    assert result.data["stopped"] is True
    # A correction that leaves the mark out keeps it: still stopped, so nobody at 150 is fine.
    response = api_client.post(
        api_url(tbl), {"lines": api_lines(tbl, [40, 60, 40, 40]), "note": "misread"}, format="json"
    )
    assert response.status_code == 200, response.content
    result.refresh_from_db()
    assert result.data["stopped"] is True
    assert [line.score for line in result.lines.order_by("position")] == [40, 60, 40, 40]
    # Taking the mark off needs someone at the end value.
    response = api_client.post(
        api_url(tbl), {"lines": api_lines(tbl, [40, 60, 40, 40]), "stopped": False}, format="json"
    )
    assert response.status_code == 400
    assert "Nobody reached the end value of 150" in " ".join(response.json()["detail"])
    result.refresh_from_db()
    assert result.data["stopped"] is True and result.changes.count() == 2
    response = api_client.post(
        api_url(tbl),
        {"lines": api_lines(tbl, [160, 100, 80, 20]), "stopped": False, "note": "played on"},
        format="json",
    )
    assert response.status_code == 200, response.content
    result.refresh_from_db()
    assert result.data["stopped"] is False


def test_the_api_accepts_a_finished_game_without_the_mark(api_client: Any, table: Any) -> None:
    _, tbl, users = table
    api_client.force_authenticate(users[0])
    response = api_client.post(api_url(tbl), {"lines": api_lines(tbl, [160, 100, 80, 20])}, format="json")
    assert response.status_code == 201, response.content
    assert "stopped" not in Result.objects.get(table=tbl).data


def test_only_a_black_spy_table_is_stopped_on_time(api_client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=2, game="spy-vs-spy", size=2, name="Race night")
    tbl = services.round_publish(user=organiser, rnd=services.round_pair(event=event)).tables.get()
    api_client.force_authenticate(organiser)
    response = api_client.post(
        api_url(tbl), {"lines": api_lines(tbl, [4, -2]), "stopped": True}, format="json"
    )
    assert response.status_code == 400
    assert "Only a Black Spy table is marked as stopped on time" in " ".join(response.json()["detail"])
    assert not Result.objects.exists()
    response = api_client.post(api_url(tbl), {"lines": api_lines(tbl, [4, -2])}, format="json")
    assert response.status_code == 201


def test_the_schema_documents_the_stopped_mark(api_client: Any) -> None:
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    stopped = schema["components"]["schemas"]["ResultInRequest"]["properties"]["stopped"]
    assert stopped["type"] == "boolean"
    assert "stopped on time" in stopped["description"]


# -- results from real deals -------------------------------------------------------------------


def test_a_scorepad_result_is_checked_under_the_pad_variants(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    """The pad at a table may add variants to the event's: its result is checked under the pad's."""
    _, tbl, _ = black_spy_table(club, organiser, make_user, ["Ann", "Ben", "Cy"])
    client.force_login(organiser)
    client.post(
        reverse("scores:pad-new") + f"?table={tbl.pk}",
        {"table": tbl.pk, "end_value": "60", "going_back": "on"},
    )
    pad = Scorepad.objects.get(table=tbl)
    url = reverse("scores:pad-deal", args=[pad.pk])
    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(url, {"mode": "points", "points_0": "30", "points_1": "20", "points_2": "10"})
        client.post(url, {"mode": "points", "points_0": "50", "points_1": "5", "points_2": "5"})
    pad.refresh_from_db()
    assert pad.result is not None  # 15 after going back, then 65: past 60 with Going Back
    assert sorted(line.score or 0 for line in pad.result.lines.all()) == [15, 25, 65]
