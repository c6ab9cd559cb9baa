"""Each defect found by trying the site as a stranger would, kept as a test.

Authorization: nobody acts on a club's tables, events or players without a role there. Bad input:
every malformed request answers a 4xx that says why, and changes nothing. (The permission
matrix and the fuzzing tests cover every URL; these pin the cases that were found by hand.)
"""

from __future__ import annotations

import json
import threading
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from spyleague.clubs.models import Club, Membership, Player
from spyleague.clubs.services import club_create
from spyleague.play import services as play
from spyleague.play.models import Match
from spyleague.scores.models import Result, ResultChange, Scorepad
from spyleague.scores.services import EntryLine, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Event, Round, Table

from .tournaments.helpers import make_event

pytestmark = pytest.mark.django_db


def seated_table(club: Any, organiser: Any, users: list[Any], *, game: str = "black-spy") -> Table:
    """A published round's table with ``users`` (members of ``club``) at it."""
    event = make_event(club, organiser, players=0, game=game, size=len(users), name="Trust Open")
    for user in users:
        Membership.objects.get_or_create(club=club, player=user.player)
        services.entrant_register(user=user, event=event)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    return rnd.tables.get()


@pytest.fixture
def people(make_user: Any) -> dict[str, Any]:
    return {name: make_user(username=name) for name in ("ann", "bob", "cat", "dan", "eve")}


@pytest.fixture
def table(club: Any, organiser: Any, people: dict[str, Any]) -> Table:
    return seated_table(club, organiser, [people[n] for n in ("ann", "bob", "cat", "dan")])


@pytest.fixture
def rival(make_user: Any) -> Any:
    """An organiser of another club."""
    user = make_user(username="rival")
    club_create(user=user, name="Rival Club")
    return user


def text(response: Any) -> str:
    return unescape(response.content.decode())


# --- authorization ---------------------------------------------------------------------------


def test_a_member_of_another_club_cannot_score_this_clubs_table(
    client: Client, table: Table, rival: Any, people: dict[str, Any]
) -> None:
    client.force_login(rival)
    response = client.post(reverse("scores:pad-new") + f"?table={table.pk}", {"table": table.pk})
    assert response.status_code == 403 and "Only a player at this table" in response.content.decode()
    assert not Scorepad.objects.exists()
    api = APIClient()
    api.force_authenticate(rival)
    lines = [{"player": s.entrant.player_id, "score": 0} for s in table.seats.all()]
    assert api.post(f"/api/tables/{table.pk}/result/", {"lines": lines}, format="json").status_code == 403
    assert not Result.objects.exists()
    client.force_login(people["ann"])  # a seated player may
    response = client.post(reverse("scores:pad-new") + f"?table={table.pk}", {"table": table.pk})
    assert response.status_code == 302 and Scorepad.objects.get().table == table


def test_a_scorepad_makes_no_guests_in_a_club_where_you_have_no_role(
    client: Client, club: Club, rival: Any
) -> None:
    client.force_login(rival)
    before = Player.objects.count()
    data = {"player_0": str(rival.player.pk), "name_1": "Mo", "name_2": "Jo", "club": str(club.pk)}
    response = client.post(reverse("scores:pad-new"), data)
    assert response.status_code == 403 and "not a member of Test Club" in response.content.decode()
    assert Player.objects.count() == before and not Scorepad.objects.exists()
    # Nor seats a player of a club the user has nothing to do with.
    data = {"player_0": str(rival.player.pk), "player_1": str(club.memberships.first().player_id)}
    data["name_2"] = "Jo"
    response = client.post(reverse("scores:pad-new"), data)
    assert response.status_code == 400 and "choose one of your clubs' players" in text(response)
    assert not Scorepad.objects.exists()


def test_an_event_stays_in_its_club(club: Club, organiser: Any, rival: Any) -> None:
    theirs = Event.objects.create(club=Club.objects.get(name="Rival Club"), name="Theirs", game="black-spy")
    api = APIClient()
    api.force_authenticate(rival)
    response = api.patch(f"/api/events/{theirs.pk}/", {"club": club.slug}, format="json")
    assert response.status_code == 400 and "stays in the club" in response.json()["club"][0]
    theirs.refresh_from_db()
    assert theirs.club.name == "Rival Club"


def test_a_draft_round_is_the_organisers_alone(
    client: Client, club: Club, organiser: Any, people: dict[str, Any]
) -> None:
    event = make_event(club, organiser, players=8, name="Drafty")
    rnd = services.round_pair(event=event)  # a draft
    table = rnd.tables.first()
    assert table is not None
    printed = reverse("tournaments:round-print", args=[event.pk, rnd.number])
    sheet = reverse("tournaments:sheet", args=[event.pk, table.pk])
    assert client.get(printed).status_code == 404  # anonymous
    client.force_login(people["eve"])
    assert client.get(printed).status_code == 404 and client.get(sheet).status_code == 404
    client.force_login(organiser)
    assert client.get(printed).status_code == 200 and client.get(sheet).status_code == 200
    # No result on a draft's table, even from the organiser, on the page or through the API.
    response = client.post(sheet, {f"score_{i}": str(10 * i) for i in range(4)})
    assert response.status_code == 400 and "still a draft" in response.content.decode()
    api = APIClient()
    api.force_authenticate(organiser)
    lines = [{"player": s.entrant.player_id, "place": s.position + 1} for s in table.seats.all()]
    response = api.post(f"/api/tables/{table.pk}/result/", {"lines": lines}, format="json")
    assert response.status_code == 400 and "still a draft" in json.dumps(response.json())
    assert not Result.objects.exists()


def test_a_finished_event_keeps_its_settings(club: Club, organiser: Any) -> None:
    event = make_event(club, organiser, players=4, name="Done")
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    api = APIClient()
    api.force_authenticate(organiser)
    for change in ({"table_size": 3}, {"format": "round_robin"}, {"points_by_place": [9, 1, 0, 0]}):
        response = api.patch(f"/api/events/{event.pk}/", change, format="json")
        assert response.status_code == 400, change
    event.refresh_from_db()
    assert (event.table_size, event.format) == (4, "swiss")
    assert (
        api.patch(f"/api/events/{event.pk}/", {"name": "Done and dusted"}, format="json").status_code == 200
    )


def test_a_running_event_keeps_its_game_and_tables(club: Club, organiser: Any) -> None:
    event = make_event(club, organiser, players=8, name="Running")
    services.round_pair(event=event)
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.patch(f"/api/events/{event.pk}/", {"table_size": 3}, format="json")
    assert response.status_code == 400 and "once a round has been paired" in response.json()["table_size"][0]
    response = api.patch(f"/api/events/{event.pk}/", {"tiebreaks": ["game_points", "wins"]}, format="json")
    assert response.status_code == 200
    assert api.delete(f"/api/events/{event.pk}/").status_code == 400
    assert Event.objects.filter(pk=event.pk).exists()


# --- stored settings ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "change",
    [
        {"points_by_place": ["a", "b", "c", "d"]},
        {"points_by_place": [1, 2]},
        {"tiebreaks": ["wins", "wins"]},
        {"tiebreaks": "wins"},
        {"options": {"no_such_variant": True}},
        {"options": {"going_back": "yes"}},
    ],
)
def test_malformed_settings_are_never_stored(club: Club, organiser: Any, change: dict[str, Any]) -> None:
    event = make_event(club, organiser, players=4, name="Poison")
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.patch(f"/api/events/{event.pk}/", change, format="json")
    assert response.status_code == 400 and next(iter(change)) in response.json()
    # Nor through the model itself: nothing malformed reaches the database.
    field, value = next(iter(change.items()))
    setattr(event, field, value)
    with pytest.raises(Exception, match=field):
        event.save()
    assert Event.objects.get(pk=event.pk).settings_problems() == {}
    assert Client().get(reverse("tournaments:public", args=[event.pk])).status_code == 200


def test_the_event_form_refuses_points_that_are_not_numbers(
    client: Client, club: Club, organiser: Any
) -> None:
    client.force_login(organiser)
    url = reverse("tournaments:create", args=[club.slug])
    base = {"name": "Open", "game": "black-spy", "kind": "tournament", "format": "swiss", "rounds": "5"}
    base |= {"table_size": "4", "bye_rule": "win"}
    for points in ("1e309,2,1,0", "nan,2,1,0", "4,2,1"):
        response = client.post(url, {**base, "points_by_place": points})
        assert response.status_code == 200 and "errorlist" in response.content.decode(), points
    for missing in base:
        response = client.post(url, {k: v for k, v in base.items() if k != missing})
        assert response.status_code == 200, missing  # the form again, saying what is missing
    assert not Event.objects.exists()


# --- bad input: a 4xx in words, nothing changed ------------------------------------------------


def test_bad_ids_and_numbers_are_refused_in_words(
    client: Client, table: Table, people: dict[str, Any], organiser: Any
) -> None:
    event = table.round.event
    client.force_login(organiser)
    cases = [
        ("get", reverse("scores:pad-new") + "?table=abc", 400),
        ("get", reverse("scores:pad-new") + "?table=999999", 404),
        ("get", reverse("scores:pad-new") + "?table=99999999999999999999999", 400),
        ("post", reverse("scores:pad-new"), {"player_0": "abc"}, 400),
        ("post", reverse("scores:pad-new"), {"name_0": "A", "name_1": "B", "name_2": "C", "club": "x"}, 400),
        ("get", f"/events/{event.pk}/tables/999999/", 404),
        ("get", f"/events/{event.pk}/tables/99999999999999999999999/", 404),
        ("post", reverse("tournaments:entrant-add", args=[event.pk]), {"player": "abc"}, 400),
        ("post", reverse("tournaments:round-action", args=[event.pk, 1]), {"do": "swap", "a": "x"}, 400),
        ("post", reverse("tournaments:round-action", args=[event.pk, 1]), {"do": "explode"}, 400),
        ("get", "/api/leaderboards/black-spy/?league=abc", 400),
        ("get", "/api/clubs/?limit=99999999999999999999999", 200),
        ("get", "/api/events/?limit=99999999999999999999999&offset=99999999999999999999999", 200),
        ("get", "/api/players/?limit=99999999999999999999999", 200),
        ("post", "/api/clubs/no-such-club/guests/", {"name": "Mo"}, 404),
        ("post", "/api/clubs/no-such-club/members/1/role/", {"role": "scorer"}, 404),
    ]
    for method, url, *rest in cases:
        data, status = (rest[0], rest[1]) if len(rest) == 2 else (None, rest[0])
        response = getattr(client, method)(url, data) if data is not None else getattr(client, method)(url)
        assert response.status_code == status, (url, data, response.status_code)
        if status == 400:
            assert len(response.content) > 0 and b"Traceback" not in response.content, url
    assert not Scorepad.objects.exists() and not Result.objects.exists()


def test_a_scorepad_deal_with_a_bad_round_number_is_refused(client: Client, people: dict[str, Any]) -> None:
    client.force_login(people["ann"])
    data = {"player_0": str(people["ann"].player.pk), "name_1": "Bo", "name_2": "Cy"}
    assert client.post(reverse("scores:pad-new"), data).status_code == 302
    pad = Scorepad.objects.get()
    for number in ("abc", "-1", "99999999999999999999999"):
        url = reverse("scores:pad-deal", args=[pad.pk])
        response = client.post(url, {"number": number, "points_0": "20", "points_1": "20", "points_2": "20"})
        assert response.status_code == 400, number
    assert not pad.deals.exists()


def test_sheet_scores_that_are_not_ordinary_numbers_are_refused(
    client: Client, table: Table, people: dict[str, Any]
) -> None:
    client.force_login(people["ann"])
    url = reverse("tournaments:sheet", args=[table.round.event_id, table.pk])
    for bad in ("nan", "inf", "-inf", "1e309"):
        response = client.post(url, {"score_0": bad, "score_1": "20", "score_2": "20", "score_3": "20"})
        page = response.content.decode()
        assert response.status_code == 400 and "is not a number that can be scored" in page, bad
        assert f'value="{bad}"' in page  # what was typed is kept
    api = APIClient()
    api.force_authenticate(people["ann"])
    lines = [{"player": s.entrant.player_id, "score": 1e309} for s in table.seats.all()]
    body = json.dumps({"lines": lines}).replace("Infinity", "1e309")
    response = api.post(f"/api/tables/{table.pk}/result/", body, content_type="application/json")
    assert response.status_code == 400
    assert not Result.objects.exists()


def test_nul_characters_are_refused_everywhere(client: Client, club: Club, organiser: Any) -> None:
    client.force_login(organiser)
    response = client.post(reverse("clubs:guest-add", args=[club.slug]), {"name": "Mo\x00"})
    assert response.status_code == 400 and "NUL" in response.content.decode()
    assert client.get("/clubs/?q=%00").status_code == 400
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post(f"/api/clubs/{club.slug}/guests/", {"name": "Mo\u0000"}, format="json")
    assert response.status_code == 400 and "NUL" in response.json()["detail"]
    assert not Player.objects.filter(name__startswith="Mo").exists()
    # A multipart or form-encoded PUT or PATCH is parsed by the API, not by Django's forms: a
    # NUL in a field's value or name is refused there too (PostgreSQL answered 500 for it).
    from urllib.parse import urlencode

    from spyleague.tournaments.services import event_create

    event = event_create(club=club, user=organiser, name="Open", game="black-spy", table_size=4)
    url = f"/api/events/{event.pk}/"
    for method, data in (
        (api.put, {"name": "Ev\x00il", "game": "black-spy", "club": club.slug}),
        (api.patch, {"name": "Ev\x00il"}),
        (api.patch, {"na\x00me": "Evil"}),
    ):
        for response in (
            method(url, data, format="multipart"),
            method(url, urlencode(data), content_type="application/x-www-form-urlencoded"),
        ):
            assert response.status_code == 400, (data, response.content)
            assert "NUL" in response.json()["detail"]
    event.refresh_from_db()
    assert event.name == "Open"


def test_deeply_nested_json_is_refused(club: Club, organiser: Any, people: dict[str, Any]) -> None:
    match = play.match_create(user=people["ann"], game="black-spy", seats=3)
    play.match_start(user=people["ann"], match_id=match.pk)
    api = APIClient()
    api.force_authenticate(people["ann"])
    deep = '{"action": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}"
    response = api.post(f"/api/matches/{match.pk}/act/", deep, content_type="application/json")
    assert response.status_code == 400 and "levels deep" in response.json()["detail"]
    client = Client()
    client.force_login(people["ann"])
    response = client.post(reverse("play:act", args=[match.pk]), {"action": "[" * 5000 + "]" * 5000})
    assert response.status_code == 400 and "levels deep" in text(response)
    assert Match.objects.get(pk=match.pk).version == 0


@pytest.mark.parametrize("content_type", ["", "text/plain", "application/xml"])
def test_an_api_body_in_no_readable_form_is_a_400_in_words(
    club: Club, organiser: Any, people: dict[str, Any], content_type: str
) -> None:
    """DRF answered a body without a Content-Type (or in one it does not read) with a 415, a
    code the schema does not document: it is a body that cannot be read, a 400."""
    event = services.event_create(club=club, user=organiser, name="Open", game="black-spy", rounds=3)
    api = APIClient()
    api.force_authenticate(people["ann"])
    response = api.generic(
        "POST", f"/api/events/{event.pk}/register/", b"player=1", content_type=content_type
    )
    assert response.status_code == 400
    assert "The body could not be read" in response.json()["detail"]
    assert not event.entrants.exists()


def test_matches_that_do_not_exist_or_are_not_races(client: Client, people: dict[str, Any]) -> None:
    api = APIClient()
    api.force_authenticate(people["ann"])
    response = api.post("/api/matches/", {"game": "chess", "seats": 2}, format="json")
    assert response.status_code == 400 and "No game is called 'chess'" in response.json()["detail"]
    for what in ("act", "join", "start"):
        body = {"action": {"type": "pass"}} if what == "act" else {}
        assert api.post(f"/api/matches/987654/{what}/", body, format="json").status_code == 404, what
    match = play.match_create(user=people["ann"], game="black-spy", seats=3)
    play.match_start(user=people["ann"], match_id=match.pk)
    client.force_login(people["ann"])
    assert client.get(reverse("play:race-progress", args=[match.pk])).status_code == 404
    response = client.post(reverse("play:race-act", args=[match.pk]), {"action": '{"type": "pass"}'})
    assert response.status_code == 404
    assert Match.objects.get(pk=match.pk).version == 0


def test_a_match_that_cannot_start_as_asked_is_not_left_behind(
    client: Client, people: dict[str, Any]
) -> None:
    api = APIClient()
    api.force_authenticate(people["ann"])
    body = {"game": "black-spy", "seats": 4, "start": True, "fill_with": "no-such-bot"}
    response = api.post("/api/matches/", body, format="json")
    assert response.status_code == 400 and "no-such-bot" in response.json()["detail"]
    client.force_login(people["ann"])
    body = {"game": "black-spy", "seats": "4", "fill_with_bots": "on", "bot": "no-such-bot"}
    assert client.post(reverse("play:new"), body).status_code == 400
    assert not Match.objects.exists()


def test_a_refused_move_from_the_page_is_a_4xx_with_the_reason(
    client: Client, people: dict[str, Any]
) -> None:
    match = play.match_create(user=people["ann"], game="black-spy", seats=3)
    play.match_start(user=people["ann"], match_id=match.pk)
    client.force_login(people["ann"])
    url = reverse("play:act", args=[match.pk])
    response = client.post(url, {"action": json.dumps({"type": "play", "card": "nonsense"})})
    assert response.status_code == 400 and 'class="move-error"' in response.content.decode()
    response = client.post(url, {"action": json.dumps({"type": "pass"}), "version": "7"})
    assert response.status_code in (400, 409)
    client.force_login(people["bob"])  # no seat
    response = client.post(url, {"action": json.dumps({"type": "pass"})}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and "do not have a seat" in response.content.decode()
    assert Match.objects.get(pk=match.pk).version == 0


# --- one result per table -----------------------------------------------------------------------


def test_a_scorepad_cannot_finish_over_a_result_already_on_the_sheet(
    client: Client, club: Club, organiser: Any, people: dict[str, Any]
) -> None:
    table = seated_table(club, organiser, [people[n] for n in ("ann", "bob", "cat")])
    client.force_login(people["ann"])
    assert (
        client.post(reverse("scores:pad-new") + f"?table={table.pk}", {"table": table.pk}).status_code == 302
    )
    pad = Scorepad.objects.get()
    seats = list(table.seats.select_related("entrant__player"))
    result_enter(  # meanwhile, someone enters the sheet
        user=people["bob"],
        game="black-spy",
        club=club,
        table=table,
        entries=[EntryLine(s.entrant.player, float(240 if i == 0 else 0), None) for i, s in enumerate(seats)],
    )
    url = reverse("scores:pad-deal", args=[pad.pk])
    for _ in range(5):  # 60 a deal to one player: the end value (200 for 3 players) is passed
        response = client.post(url, {"points_0": "60", "points_1": "0", "points_2": "0"})
    assert response.status_code == 400 and "entered on its score sheet" in response.content.decode()
    assert Result.objects.count() == 1 and Result.objects.get().entered_by == people["bob"]


@pytest.mark.django_db(transaction=True)
def test_two_players_entering_the_first_result_at_once(
    organiser: Any, club: Club, people: dict[str, Any]
) -> None:
    """Both post at the same moment: one result is kept, the other hears 409 and sees it."""
    table = seated_table(club, organiser, [people[n] for n in ("ann", "bob", "cat", "dan")])
    lines = [{"player": s.entrant.player_id, "place": s.position + 1} for s in table.seats.all()]
    start = threading.Barrier(2)
    answers: dict[str, Any] = {}

    def enter(name: str) -> None:
        api = APIClient()
        api.force_authenticate(people[name])
        start.wait()
        try:
            answers[name] = api.post(f"/api/tables/{table.pk}/result/", {"lines": lines}, format="json")
        finally:
            connection.close()

    threads = [threading.Thread(target=enter, args=(n,)) for n in ("ann", "bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(a.status_code for a in answers.values()) == [201, 409]
    result = Result.objects.get(table=table)
    assert list(ResultChange.objects.filter(result=result).values_list("action", flat=True)) == ["entered"]
    loser = next(a for a in answers.values() if a.status_code == 409).json()
    assert loser["result"]["id"] == result.pk and "someone else" in loser["detail"]
    winner = next(name for name, a in answers.items() if a.status_code == 201)
    assert result.entered_by == people[winner]


def test_round_numbers_in_addresses_stay_in_range(client: Client, club: Club, organiser: Any) -> None:
    event = make_event(club, organiser, players=4, name="Ranges")
    client.force_login(organiser)
    for url in (
        f"/events/{event.pk}/rounds/99999999999999999999/print/",
        f"/events/{event.pk}/rounds/70000/print/",
        "/events/99999999999999999999/",
        "/play/matches/99999999999999999999/",
    ):
        assert client.get(url).status_code == 404, url
    assert not Round.objects.exists()
