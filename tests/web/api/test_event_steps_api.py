"""What the event pages do, through the API: a round read or discarded, a check-in undone, a
table's result and its history, the event finished, the heats and groups settings, a new tiebreak
order ranking the stored standings at once, and leaderboards and rating histories a page at a time."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase

from spyleague.clubs.models import Player
from spyleague.ratings.models import Rating, RatingPoint
from spyleague.scores.services import EntryLine, result_confirm, result_correct, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Entrant, Event, Round, Standing
from spyleague.tournaments.standings import standings_ranked
from tests.web.tournaments.helpers import make_event, play_one_table, play_round

pytestmark = pytest.mark.django_db


def test_a_draft_round_is_read_by_the_organisers_alone_and_discarded_by_them(
    api_client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=4, game="spy-vs-spy", size=2)
    services.round_pair(event=event)
    url = f"/api/events/{event.pk}/rounds/1/"
    assert api_client.get(url).status_code == 404  # a draft is not for everyone
    stranger = make_user(username="stu")
    api_client.force_authenticate(stranger)
    assert api_client.get(url).status_code == 404
    assert api_client.delete(url).status_code == 404
    api_client.force_authenticate(organiser)
    draft = api_client.get(url).json()
    assert draft["status"] == "draft" and draft["table_count"] == 2
    assert api_client.get(f"{url}tables/").json()["count"] == 2
    api_client.force_authenticate(stranger)
    assert api_client.get(f"{url}tables/").status_code == 404  # nor are its tables
    api_client.force_authenticate(organiser)
    assert api_client.delete(url).status_code == 204
    assert not Round.objects.filter(event=event).exists()
    assert api_client.get(url).status_code == 404


def test_a_published_round_is_public_and_cannot_be_discarded(
    api_client: Any, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=4, game="spy-vs-spy", size=2)
    services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    url = f"/api/events/{event.pk}/rounds/1/"
    assert api_client.get(url).json()["status"] == "published"
    api_client.force_authenticate(organiser)
    refused = api_client.delete(url)
    assert refused.status_code == 409 and "cannot be discarded" in str(refused.json()["detail"])
    assert Round.objects.filter(event=event).count() == 1


def test_a_check_in_is_undone_by_the_player_or_an_organiser(
    api_client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=2)
    kim = make_user(username="kim")
    entrant = services.entrant_register(user=kim, event=event)
    url = f"/api/events/{event.pk}/entrants/{entrant.pk}/check-in/"
    api_client.force_authenticate(kim)
    assert api_client.post(url).json()["checked_in"] is True
    undone = api_client.delete(url)
    assert undone.status_code == 200 and undone.json()["checked_in"] is False
    assert Entrant.objects.get(pk=entrant.pk).checked_in is False
    api_client.force_authenticate(make_user(username="lee"))
    assert api_client.delete(url).status_code == 403
    api_client.force_authenticate(organiser)
    api_client.post(url)
    assert api_client.delete(url).json()["checked_in"] is False


def test_a_player_who_dropped_out_is_not_checked_in_again(api_client: Any, club: Any, organiser: Any) -> None:
    """The same rule as checking in a list: someone who dropped out plays no more rounds (409)."""
    event = make_event(club, organiser, players=3)
    entrant = Entrant.objects.filter(event=event).first()
    services.entrant_drop(user=organiser, entrant=entrant)
    api_client.force_authenticate(organiser)
    refused = api_client.post(f"/api/events/{event.pk}/entrants/{entrant.pk}/check-in/")
    assert refused.status_code == 409 and "dropped out of this event" in refused.json()["detail"]
    assert Entrant.objects.get(pk=entrant.pk).checked_in is False


def test_a_tables_result_reported_then_corrected_then_confirmed_with_its_history(
    api_client: Any, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=2, game="spy-vs-spy", size=2)
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    table = rnd.tables.get()
    url = f"/api/tables/{table.pk}/result/"
    waiting = api_client.get(url).json()
    assert waiting["status"] == "waiting" and waiting["result"] is None and waiting["history"] == []
    players = [s.entrant.player for s in table.seats.select_related("entrant__player")]
    result = result_enter(
        user=organiser,
        game=event.game,
        club=club,
        table=table,
        entries=[EntryLine(players[0], 10), EntryLine(players[1], 4)],
    )
    reported = api_client.get(url).json()  # anyone may read it, before it is confirmed too
    assert reported["status"] == "reported" and reported["result"]["status"] == "reported"
    assert reported["result"]["entered_by"] == "Olga Organiser" and reported["result"]["confirmed_by"] is None
    assert [line["score"] for line in reported["result"]["lines"]] == [10, 4]
    result_correct(
        user=organiser,
        result=result,
        entries=[EntryLine(players[0], 3), EntryLine(players[1], 8)],
        note="Swapped the scores",
    )
    with TestCase.captureOnCommitCallbacks(execute=True):
        result_confirm(user=organiser, result=result)
    done = api_client.get(url).json()
    assert done["status"] == "confirmed" and done["result"]["confirmed_by"] == "Olga Organiser"
    assert [c["action"] for c in done["history"]] == ["entered", "corrected", "confirmed"]
    corrected = done["history"][1]
    assert corrected["note"] == "Swapped the scores" and corrected["who"] == "Olga Organiser"
    assert [line["score"] for line in corrected["before"]["lines"]] == [10, 4]
    assert [line["score"] for line in corrected["after"]["lines"]] == [3, 8]


def test_a_draft_tables_result_is_hidden_like_the_table(
    api_client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=2, game="spy-vs-spy", size=2)
    table = services.round_pair(event=event).tables.get()
    assert api_client.get(f"/api/tables/{table.pk}/result/").status_code == 404
    api_client.force_authenticate(organiser)
    assert api_client.get(f"/api/tables/{table.pk}/result/").json()["status"] == "waiting"


def test_finishing_an_event(api_client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    waiting = make_event(club, organiser, players=4, name="Waiting")
    services.round_publish(user=organiser, rnd=services.round_pair(event=waiting))
    drafted = make_event(club, organiser, players=4, name="Drafted")
    services.round_pair(event=drafted)
    url = f"/api/events/{drafted.pk}/finish/"
    api_client.force_authenticate(make_user(username="pip"))
    assert api_client.post(url).status_code == 403
    api_client.force_authenticate(organiser)
    refused = api_client.post(f"/api/events/{waiting.pk}/finish/")  # a table waits for its result
    assert refused.status_code == 400 and "waiting for a result" in str(refused.json()["detail"])
    assert Event.objects.get(pk=waiting.pk).status == Event.Status.RUNNING
    finished = api_client.post(url)
    assert finished.status_code == 200 and finished.json()["status"] == "finished"
    assert Event.objects.get(pk=drafted.pk).status == Event.Status.FINISHED
    assert not Round.objects.filter(event=drafted).exists()  # the draft nobody saw is discarded
    assert api_client.post(url).json()["status"] == "finished"  # twice changes nothing
    api_client.force_authenticate(None)
    assert api_client.post(url).status_code in (401, 403)


def test_heats_and_groups_are_set_and_checked_like_the_model(
    api_client: Any, club: Any, organiser: Any
) -> None:
    api_client.force_authenticate(organiser)
    body = {
        "club": club.slug,
        "name": "Heats",
        "game": "black-spy",
        "format": "knockout",
        "rounds": 3,
        "table_size": 4,
        "advance": 2,
    }
    created = api_client.post("/api/events/", body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["advance"] == 2 and created.json()["groups"] == 0
    assert created.json()["uneven"] == "byes"
    event_url = f"/api/events/{created.json()['id']}/"
    for change, words in (
        ({"advance": 9}, "Between 1 and 5"),
        ({"advance": 0}, "Between 1 and 5"),
        ({"groups": 65}, "0 (groups of about four) to 64"),
        ({"groups": -1}, "0 (groups of about four) to 64"),
    ):
        refused = api_client.patch(event_url, change, format="json")
        assert refused.status_code == 400, change
        assert words in refused.json()[next(iter(change))][0]
    assert api_client.patch(event_url, {"advance": 3}, format="json").json()["advance"] == 3
    assert api_client.patch(event_url, {"uneven": "longer"}, format="json").json()["uneven"] == "longer"
    assert api_client.patch(event_url, {"uneven": "sideways"}, format="json").status_code == 400
    groups = api_client.post(
        "/api/events/",
        body
        | {"format": "groups_knockout", "game": "spy-vs-spy", "table_size": 2, "groups": 4, "advance": 1},
        format="json",
    )
    assert groups.status_code == 201 and groups.json()["groups"] == 4


def test_heats_and_groups_cannot_change_once_paired(api_client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=8)
    services.round_pair(event=event)
    api_client.force_authenticate(organiser)
    refused = api_client.patch(f"/api/events/{event.pk}/", {"groups": 2}, format="json")
    assert refused.status_code == 400 and "once a round has been paired" in refused.json()["groups"][0]


def test_a_new_tiebreak_order_ranks_the_stored_standings_at_once(
    api_client: Any, club: Any, organiser: Any
) -> None:
    """Ann and Cy end level on tournament points, Cy ahead on game points and Ann on wins: the
    stored standings follow the new order right after the PATCH, before any job runs."""
    event = make_event(club, organiser, players=0, game="mister-spy", size=3, rounds=3)
    for name in ("Ann", "Bob", "Cy"):
        services.entrant_register(
            user=organiser, event=event, player=Player.objects.create(name=name, guest_of=club)
        )
    services.event_update(
        user=organiser, event=event, points_by_place=[2, 2, 0], tiebreaks=["tournament_points", "game_points"]
    )
    play_one_table(event, organiser, {"Ann": (11, 1), "Bob": (10, 2), "Cy": (0, 3)})
    play_one_table(event, organiser, {"Bob": (33, 1), "Cy": (30, 2), "Ann": (0, 3)})

    def stored() -> list[str]:
        rows = standings_ranked(Event.objects.get(pk=event.pk)).order_by("place", "pk")  # as saved
        return list(rows.values_list("entrant__player__name", flat=True))

    assert stored() == ["Bob", "Cy", "Ann"]  # Ann and Cy on 2 points: Cy's 30 game points first
    api_client.force_authenticate(organiser)
    # The standings job queued by the change runs only on commit: the stored rows are right before.
    response = api_client.patch(
        f"/api/events/{event.pk}/", {"tiebreaks": ["tournament_points", "wins"]}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["tiebreaks"] == ["tournament_points", "wins"]
    assert stored() == ["Bob", "Ann", "Cy"]
    standings = api_client.get(f"/api/events/{event.pk}/standings/").json()["results"]
    assert [r["name"] for r in standings] == ["Bob", "Ann", "Cy"]
    # Points by place too: second place now scores most.
    api_client.patch(f"/api/events/{event.pk}/", {"points_by_place": [1, 3, 0]}, format="json")
    assert stored() == ["Bob", "Cy", "Ann"]
    assert Standing.objects.get(event=event, entrant__player__name="Cy").points == 3


def test_tiebreaks_are_named_from_the_list(api_client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4)
    api_client.force_authenticate(organiser)
    refused = api_client.patch(f"/api/events/{event.pk}/", {"tiebreaks": ["coin_toss"]}, format="json")
    assert refused.status_code == 400 and "tiebreaks" in refused.json()
    schema = api_client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    tiebreak = schema["components"]["schemas"]["Event"]["properties"]["tiebreaks"]
    assert tiebreak["type"] == "array" and "Strength of opponents" in tiebreak["description"]


def test_leaderboards_go_past_the_top_200_a_page_at_a_time(api_client: Any, club: Any) -> None:
    players = Player.objects.bulk_create([Player(name=f"R{i:03d}") for i in range(230)])
    Rating.objects.bulk_create(
        [Rating(player=p, game="spies", mu=25 + i, sigma=1, ordinal=22 + i) for i, p in enumerate(players)]
    )
    first = api_client.get("/api/leaderboards/spies/?limit=100").json()
    assert first["count"] == 230 and len(first["results"]) == 100
    assert first["results"][0]["name"] == "R229" and first["results"][0]["rank"] == 1
    last = api_client.get("/api/leaderboards/spies/?limit=100&offset=200").json()
    assert [r["rank"] for r in last["results"]] == list(range(201, 231))
    assert last["results"][-1]["name"] == "R000" and last["next"] is None
    assert api_client.get("/api/leaderboards/spies/?league=abc").status_code == 400


def test_a_rating_history_is_paged(api_client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4)
    play_round(event, organiser)
    player = Player.objects.filter(rating_points__isnull=False).first()
    assert player is not None
    point = RatingPoint.objects.filter(player=player).first()
    assert point is not None
    RatingPoint.objects.bulk_create(
        [
            RatingPoint(
                player=player,
                game=point.game,
                result=point.result,
                when=point.when,
                mu=20,
                sigma=5,
                ordinal=i,
            )
            for i in range(120)
        ]
    )
    page = api_client.get(f"/api/players/{player.pk}/ratings/{point.game}/").json()
    assert page["count"] == 121 and len(page["results"]) == 100 and page["next"]
