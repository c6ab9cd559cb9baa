"""Spycatcher and Spies! table sheets: the game's own sheet, checked in words, feeding standings.

The table sheet holds what the game is scored from (Spycatcher: the permission cards each player
held and the winner; Spies!: every power's victory points and money), checked by the game's own
score-sheet check, stored as entered, kept through corrections, and sent by the API the same way.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from spyleague.clubs.models import Membership, Role
from spyleague.ratings.selectors import leaderboard
from spyleague.scores.models import Result, ResultChange
from spyleague.tournaments import services
from spyleague.tournaments.models import Event, Seat, Table
from spyleague.tournaments.selectors import standings_get
from tests.web.tournaments.helpers import make_event

pytestmark = pytest.mark.django_db

ALL = ["court", "government", "press", "publisher"]


def seated_table(club: Any, organiser: Any, make_user: Any, game: str, names: list[str]) -> Any:
    """A published table of ``game`` with one user per name, returned with the users in seat order."""
    event = make_event(club, organiser, players=0, game=game, size=len(names), name=f"{game} night")
    users = [make_user(username=name.lower(), player_name=name) for name in names]
    for user in users:
        services.entrant_register(user=user, event=event)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    table = rnd.tables.get()
    order = [s.entrant.player.user_id for s in Seat.objects.filter(table=table).order_by("position")]
    return event, table, sorted(users, key=lambda u: order.index(u.pk))


def sheet_url(event: Event, table: Table) -> str:
    return reverse("tournaments:sheet", args=[event.pk, table.pk])


def text(response: Any) -> str:
    """The page's text, entities decoded and spaces collapsed, to look for messages in words."""
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def block(page: str, attribute: str) -> str:
    """The part of the form marked with ``attribute`` (data-seat="1", data-power="G"...), to its end."""
    start = page.index(attribute)
    ends = [page.find(mark, start + 1) for mark in ("</fieldset>", "data-power=")]
    return page[start : min(e for e in ends if e > 0)]


def spycatcher_form(
    permissions: list[list[str]], winner: str, places: list[str] | None = None
) -> dict[str, str]:
    form = {f"perm_{i}_{kind}": "on" for i, kinds in enumerate(permissions) for kind in kinds}
    if winner:
        form["winner"] = winner
    for i, place in enumerate(places or []):
        form[f"place_{i}"] = place
    return form


def spies_form(vp: dict[str, Any], money: dict[str, Any], **extra: str) -> dict[str, str]:
    form = {f"vp_{code}": str(v) for code, v in vp.items()}
    form |= {f"money_{code}": str(m) for code, m in money.items()}
    return form | extra


def names(users: list[Any]) -> list[str]:
    return [u.player.name for u in users]


def confirm(client: Any, event: Event, table: Table) -> Any:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(reverse("tournaments:confirm", args=[event.pk, table.pk]))


# Spycatcher ------------------------------------------------------------------------------------


@pytest.fixture
def spycatcher(club: Any, organiser: Any, make_user: Any) -> Any:
    return seated_table(club, organiser, make_user, "spycatcher", ["Ann", "Ben", "Cy"])


def test_a_spycatcher_sheet_is_worked_out_confirmed_and_feeds_standings_and_ratings(
    client: Any, spycatcher: Any
) -> None:
    event, table, users = spycatcher
    first, second, _ = users
    client.force_login(first)
    page = client.get(sheet_url(event, table)).content.decode()
    for kind in ALL:
        assert f'name="perm_2_{kind}"' in page
    assert 'name="winner" value="none"' in page and 'name="score_0"' not in page

    form = spycatcher_form([["court", "press"], [], ALL], winner="2")
    response = client.post(sheet_url(event, table), form)
    assert response.status_code == 302, text(response)
    result = Result.objects.get(table=table)
    lines = list(result.lines.order_by("position"))
    assert [line.place for line in lines] == [2, 3, 1]  # the winner first, then by cards held
    assert [line.score for line in lines] == [2.0, 0.0, 5.0]  # cards held, 5 for the winner
    assert result.data["sheet"] == {"permissions": [["court", "press"], [], ALL], "winner": 2}
    assert result.data["typed"]["winner"] == "2" and result.data["typed"]["perm_0_press"] == "on"

    # Another player sees what was entered, with the worked-out places, and confirms it.
    client.force_login(second)
    page = text(client.get(sheet_url(event, table)))
    assert "Ann held court and press." in page
    assert "Ben held no permission card." in page
    assert "Cy held court, government, press and publisher: returned to the centre, the winner." in page
    assert "Confirm the result" in page
    response = confirm(client, event, table)
    assert response.status_code == 302
    result.refresh_from_db()
    table.refresh_from_db()
    assert result.status == Result.Status.CONFIRMED and table.status == Table.Status.CONFIRMED
    seats = list(table.seats.order_by("position"))
    assert [(s.place, s.score) for s in seats] == [(2, 2.0), (3, 0.0), (1, 5.0)]
    standings = standings_get(event=event)
    assert [row.name for row in standings] == ["Cy", "Ann", "Ben"]
    assert standings[0].wins == 1 and standings[0].game_points == 5.0
    board = leaderboard(game="spycatcher")
    assert board[0]["name"] == "Cy" and len(board) == 3


def test_the_checkboxes_cannot_say_the_wrong_thing_and_the_words_sit_next_to_the_player(
    client: Any, spycatcher: Any
) -> None:
    event, table, users = spycatcher
    client.force_login(users[0])
    url = sheet_url(event, table)

    # A winner who did not hold all four: refused, the reason next to Ben, everything kept.
    response = client.post(url, spycatcher_form([["court"], ["court", "press"], []], winner="1"))
    assert response.status_code == 400
    page = text(response)
    assert (
        "Ben is named the winner but holds court and press; the winner returns to the centre holding "
        "all four permission cards (missing: government and publisher)." in block(page, 'data-seat="1"')
    )
    assert "Nothing was saved: the marked lines below need fixing." in page
    assert 'name="perm_1_press" value="on" checked' in page
    assert 'name="winner" value="1" checked' in page

    # No word about the winner at all.
    page = text(client.post(url, spycatcher_form([["court"], [], []], winner="")))
    assert "Say who won: the player who returned to the centre with all four permission cards" in page

    # A finishing order that does not fit, one that is half given, and one that is not numbers.
    page = text(client.post(url, spycatcher_form([ALL, ["court"], []], "0", ["1", "3", "2"])))
    assert "Ben is placed 3rd but should be 2nd" in block(page, 'data-seat="1"')
    assert "Cy is placed 2nd but should be 3rd" in block(page, 'data-seat="2"')
    page = text(client.post(url, spycatcher_form([ALL, ["court"], []], "0", ["1", "", ""])))
    assert "Give every player a place in the finishing order, or leave them all empty" in page
    page = text(client.post(url, spycatcher_form([ALL, ["court"], []], "0", ["1", "two", "3"])))
    assert "Ben: the place 'two' is not a whole number." in block(page, 'data-seat="1"')
    assert 'value="two"' in page

    # A tampered winner is named too.
    page = text(client.post(url, spycatcher_form([ALL, [], []], "7")))
    assert "The winner 7 is not one of the players." in page
    assert not Result.objects.exists()

    # A right finishing order is accepted, and kept.
    response = client.post(url, spycatcher_form([ALL, ["court"], []], "0", ["1", "2", "3"]))
    assert response.status_code == 302
    assert Result.objects.get().data["sheet"]["order"] == [1, 2, 3]


def test_a_game_stopped_without_a_winner_is_ranked_by_cards_and_ties_share_a_place(
    client: Any, spycatcher: Any
) -> None:
    event, table, users = spycatcher
    client.force_login(users[1])
    response = client.post(
        sheet_url(event, table), spycatcher_form([["press"], ["court", "press"], ["court"]], "none")
    )
    assert response.status_code == 302
    lines = Result.objects.get().lines.order_by("position")
    assert [(line.place, line.score) for line in lines] == [(2, 1.0), (1, 2.0), (2, 1.0)]
    assert "Nobody returned to the centre with all four" in text(client.get(sheet_url(event, table)))


def test_a_correction_of_a_spycatcher_sheet_stays_in_the_audit_trail(
    client: Any, spycatcher: Any, organiser: Any
) -> None:
    event, table, users = spycatcher
    client.force_login(users[0])
    client.post(sheet_url(event, table), spycatcher_form([ALL, ["court"], []], "0"))
    client.force_login(users[1])
    confirm(client, event, table)

    # The organiser (a scorer) finds Cy held the press card: an override, with both sheets kept.
    client.force_login(organiser)
    page = client.get(sheet_url(event, table)).content.decode()
    assert 'name="perm_0_publisher" value="on" checked' in page  # the form starts from the sheet
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(
            sheet_url(event, table),
            spycatcher_form([ALL, ["court"], ["press", "court"]], "0")
            | {"note": "Cy's press card was under the board"},
        )
    assert response.status_code == 302
    result = Result.objects.get(table=table)
    assert result.status == Result.Status.CONFIRMED
    override = ResultChange.objects.get(result=result, action="overridden")
    assert override.note == "Cy's press card was under the board"
    assert override.before["sheet"]["permissions"][2] == []
    assert override.after["sheet"]["permissions"][2] == ["court", "press"]
    assert [line["place"] for line in override.before["lines"]] == [1, 2, 3]
    assert [line["place"] for line in override.after["lines"]] == [1, 3, 2]
    assert [s.place for s in table.seats.order_by("position")] == [1, 3, 2]
    assert [row.name for row in standings_get(event=event)] == ["Ann", "Cy", "Ben"]
    page = text(client.get(sheet_url(event, table)))
    assert "Overridden" in page and "sheet was: Ann held court, government, press and publisher" in page
    assert "Cy held no permission card." in page  # the old sheet, in the history


def test_a_stale_form_is_refused_and_keeps_what_was_typed(client: Any, spycatcher: Any) -> None:
    event, table, users = spycatcher
    url = sheet_url(event, table)
    client.force_login(users[0])
    assert 'name="version" value="new"' in client.get(url).content.decode()
    # Ben enters the sheet while Ann is still ticking boxes on the form she opened before.
    client.force_login(users[1])
    client.post(url, spycatcher_form([ALL, [], []], "0") | {"version": "new"})
    client.force_login(users[0])
    response = client.post(url, spycatcher_form([["court"], ALL, []], "1") | {"version": "new"})
    assert response.status_code == 409
    page = text(response)
    assert "This table's result was entered by someone else while you were typing." in page
    assert "Nothing was saved" in page
    assert 'name="winner" value="1" checked' in page  # Ann's entries are still there
    result = Result.objects.get()
    assert result.entered_by == users[1] and result.data["sheet"]["winner"] == 0


# Spies! ----------------------------------------------------------------------------------------

VP = {"G": 12, "I": 20, "R": 8, "F": 20, "B": 3}
MONEY = {"G": 1, "I": 2, "R": 3, "F": 5, "B": 0}


@pytest.fixture
def spies(club: Any, organiser: Any, make_user: Any) -> Any:
    return seated_table(club, organiser, make_user, "spies", ["Ann", "Ben", "Cy"])


def test_a_spies_sheet_is_labelled_by_power_and_places_the_players(client: Any, spies: Any) -> None:
    event, table, users = spies
    client.force_login(users[0])
    page = text(client.get(sheet_url(event, table)))
    assert "Ann runs Germany and Italy; Ben runs Russia; Cy runs France and Britain." in page
    for code in "GIRFB":
        assert f'name="vp_{code}"' in page and f'name="money_{code}"' in page

    response = client.post(sheet_url(event, table), spies_form(VP, MONEY))
    assert response.status_code == 302, text(response)
    result = Result.objects.get()
    # Italy (20, 2£) is Ann's better power; France (20, 5£) beats it on money; Russia is last.
    assert [(line.place, line.score) for line in result.lines.order_by("position")] == [
        (2, 20.0),
        (3, 8.0),
        (1, 20.0),
    ]
    assert result.data["sheet"] == {"victory_points": VP, "money": MONEY}

    client.force_login(users[2])
    page = text(client.get(sheet_url(event, table)))
    assert "Germany (Ann): 12 victory points, £1; 3rd of the five powers." in page
    assert "France (Cy): 20 victory points, £5; 1st of the five powers." in page
    confirm(client, event, table)
    assert [row.name for row in standings_get(event=event)] == ["Cy", "Ann", "Ben"]
    assert leaderboard(game="spies")[0]["name"] == "Cy"


def test_who_ran_which_powers_can_be_chosen(client: Any, spies: Any) -> None:
    event, table, users = spies
    client.force_login(users[0])
    # Cy ran Germany and Italy, Ann France and Britain.
    response = client.post(sheet_url(event, table), spies_form(VP, MONEY, run_0="2", run_1="1", run_2="0"))
    assert response.status_code == 302
    result = Result.objects.get()
    assert [line.place for line in result.lines.order_by("position")] == [1, 3, 2]
    assert result.data["sheet"]["run_by"] == [2, 1, 0]
    page = text(client.get(sheet_url(event, table)))
    assert "Cy runs Germany and Italy" in page and "Germany (Cy): 12 victory points" in page

    # The same player for two groups is refused, next to the second choice.
    client.force_login(users[1])
    Result.objects.all().delete()
    page = text(client.post(sheet_url(event, table), spies_form(VP, MONEY, run_0="0", run_1="1", run_2="0")))
    assert (
        "Ann is named for both Germany and Italy and France and Britain; each player runs one of them."
        in block(page, 'data-group="2"')
    )


def test_every_kind_of_spies_mistake_is_named_next_to_its_power(client: Any, spies: Any) -> None:
    event, table, users = spies
    client.force_login(users[1])
    url = sheet_url(event, table)
    vp = {"G": "lots", "I": 1, "F": 999, "B": 3}  # Russia left empty
    money = {"G": 1, "I": 2, "R": 3, "F": "2.5", "B": -4}
    response = client.post(url, spies_form(vp, money))
    assert response.status_code == 400
    page = text(response)

    def near(code: str) -> str:
        return block(page, f'data-power="{code}"')

    assert "Germany's victory points 'lots' are not a whole number." in near("G")
    assert "Italy's 1 victory points cannot be made" in near("I")
    assert "Russia has no victory points on the sheet; all five powers are scored" in near("R")
    assert "France has 999 victory points, more than any power can hold" in near("F")
    assert "France's money '2.5' is not a whole number of pounds." in near("F")
    assert "Britain has -4£, but the Bank Track never goes below 0." in near("B")
    assert 'value="lots"' in page and 'value="2.5"' in page  # nothing typed is lost

    # Points each possible, but more than the whole game holds together.
    page = text(client.post(url, spies_form(dict.fromkeys("GIRFB", 600), MONEY)))
    assert "more than all the secrets and spies of the game can give" in page
    assert not Result.objects.exists()


def test_in_the_two_player_game_russia_belongs_to_nobody(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event, table, users = seated_table(club, organiser, make_user, "spies", ["Dee", "Eve"])
    client.force_login(users[0])
    page = text(client.get(sheet_url(event, table)))
    assert "Dee runs Germany and Italy; Eve runs France and Britain; Russia belongs to nobody" in page
    # Russia has the most points, but places nobody: Eve's France beats Dee's Germany.
    vp = {"G": 10, "I": 4, "R": 40, "F": 12, "B": 0}
    response = client.post(sheet_url(event, table), spies_form(vp, dict.fromkeys("GIRFB", 0)))
    assert response.status_code == 302
    lines = Result.objects.get().lines.order_by("position")
    assert [(line.place, line.score) for line in lines] == [(2, 10.0), (1, 12.0)]
    assert "Russia (nobody): 40 victory points" in text(client.get(sheet_url(event, table)))


# The API ---------------------------------------------------------------------------------------


def api_lines(table: Table) -> list[dict[str, Any]]:
    return [{"player": s.entrant.player_id} for s in table.seats.order_by("position")]


def test_the_api_takes_the_same_sheets_and_refuses_them_in_the_same_words(
    api_client: Any, spycatcher: Any, organiser: Any
) -> None:
    event, table, users = spycatcher
    url = f"/api/tables/{table.pk}/result/"
    api_client.force_authenticate(users[0])

    def refused(body: dict[str, Any]) -> list[str]:
        response = api_client.post(url, body, format="json")
        assert response.status_code == 400, response.content
        return list(response.json()["detail"])

    lines = api_lines(table)
    assert refused({"lines": lines}) == [
        "A Spycatcher result needs its sheet: the permission cards each player held at the end, and who "
        "returned to the centre with all four (or nobody)."
    ]
    assert refused(
        {
            "lines": lines,
            "sheet": {"permissions": [["court", "court", "press"], ["spies"], []], "winner": None},
        }
    ) == [
        "Ann lists 2 court cards, but a player may only hold one of each permission card.",
        "Ben lists 'spies', which is not a permission card: the four kinds are court, government, press "
        "and publisher.",
    ]
    assert refused({"lines": lines, "sheet": {"permissions": [[], []], "winner": None}}) == [
        "The sheet lists permission cards for 2 players, but 3 played; give a list for each player (an "
        "empty one for none)."
    ]
    assert refused({"lines": lines, "sheet": {"permissions": [ALL, [], []], "winner": 0, "bonus": 3}}) == [
        "A Spycatcher sheet has no 'bonus': it gives permissions, winner and order."
    ]
    assert refused({"lines": lines, "sheet": {"permissions": [["court"], [], []], "winner": 0}}) == [
        "Ann is named the winner but holds court; the winner returns to the centre holding all four "
        "permission cards (missing: government, press and publisher)."
    ]
    wrong_score = [{**lines[0], "score": 4}, *lines[1:]]
    assert refused({"lines": wrong_score, "sheet": {"permissions": [ALL, [], []], "winner": 0}}) == [
        "Ann: the score 4 does not match the sheet, which gives 5."
    ]
    assert not Result.objects.exists()

    sheet = {"permissions": [ALL, ["press"], ["court", "government"]], "winner": 0}
    response = api_client.post(url, {"lines": lines, "sheet": sheet}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["sheet"] == sheet
    assert [(line["place"], line["score"]) for line in body["lines"]] == [(1, 5.0), (3, 1.0), (2, 2.0)]
    api_client.force_authenticate(users[1])
    with TestCase.captureOnCommitCallbacks(execute=True):
        confirmed = api_client.post(f"/api/tables/{table.pk}/confirm/")
    assert confirmed.json()["status"] == "confirmed"
    standings = api_client.get(f"/api/events/{event.pk}/standings/").json()["results"]
    assert [row["name"] for row in standings] == ["Ann", "Cy", "Ben"]

    # A scorer's correction through the API keeps both sheets in the trail.
    api_client.force_authenticate(organiser)
    corrected = {"permissions": [ALL, ["press", "court", "publisher"], ["court", "government"]], "winner": 0}
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = api_client.post(
            url, {"lines": lines, "sheet": corrected, "note": "recount"}, format="json"
        )
    assert response.status_code == 200, response.content
    change = ResultChange.objects.get(action="overridden")
    assert change.before["sheet"] == sheet and change.after["sheet"] == corrected
    assert [line["place"] for line in response.json()["lines"]] == [1, 2, 3]


def test_the_api_refuses_a_bad_spies_sheet_as_the_page_does(
    api_client: Any, client: Any, spies: Any, club: Any, organiser: Any
) -> None:
    event, table, users = spies
    api_client.force_authenticate(users[0])
    url = f"/api/tables/{table.pk}/result/"
    bad = {"victory_points": {**VP, "G": "lots"}, "money": MONEY}
    response = api_client.post(url, {"lines": api_lines(table), "sheet": bad}, format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == ["Germany's victory points 'lots' are not a whole number."]
    client.force_login(users[0])
    page = text(client.post(sheet_url(event, table), spies_form({**VP, "G": "lots"}, MONEY)))
    assert "Germany's victory points 'lots' are not a whole number." in page
    response = api_client.post(
        url, {"lines": api_lines(table), "sheet": {**bad, "run_by": [0, 0, 1]}}, format="json"
    )
    assert (
        "Ann is named for both Germany and Italy and Russia; each player runs one of them."
        in (response.json()["detail"])
    )

    good = {"victory_points": VP, "money": MONEY}
    response = api_client.post(url, {"lines": api_lines(table), "sheet": good}, format="json")
    assert response.status_code == 201
    assert [line["place"] for line in response.json()["lines"]] == [2, 3, 1]

    # A game scored by a number per player takes no sheet.
    other = make_event(club, organiser, players=2, game="spy-vs-spy", size=2, name="Race night")
    other_table = services.round_publish(user=organiser, rnd=services.round_pair(event=other)).tables.get()
    api_client.force_authenticate(organiser)
    lines = [{"player": s.entrant.player_id, "score": i} for i, s in enumerate(other_table.seats.all())]
    response = api_client.post(
        f"/api/tables/{other_table.pk}/result/", {"lines": lines, "sheet": good}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["detail"] == [
        "A Spy vs Spy sheet holds a score and a place for each player and nothing more: leave out the sheet."
    ]


def test_the_schema_documents_the_game_sheets_and_stays_valid(api_client: Any) -> None:
    from drf_spectacular.validation import validate_schema

    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    validate_schema(schema)
    sheets = schema["components"]["schemas"]
    assert {"SpycatcherSheetRequest", "SpiesSheetRequest"} <= set(sheets)
    assert set(sheets["SpycatcherSheetRequest"]["properties"]) == {"permissions", "winner", "order"}
    assert set(sheets["SpiesSheetRequest"]["properties"]) == {"victory_points", "money", "run_by"}


def test_a_scorer_can_enter_for_the_table(client: Any, spies: Any, make_user: Any) -> None:
    event, table, _ = spies
    scorer = make_user(username="sam")
    Membership.objects.create(club=event.club, player=scorer.player, role=Role.SCORER)
    client.force_login(scorer)
    response = client.post(sheet_url(event, table), spies_form(VP, MONEY))
    assert response.status_code == 302
    assert Result.objects.get().entered_by == scorer
