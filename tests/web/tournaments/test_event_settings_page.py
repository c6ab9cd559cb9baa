"""The event settings page: the organiser changes what the event's progress allows, picks the
tiebreaks from the list in words and orders them with Up and Down (forms that work without
JavaScript), and the standings are ranked anew as soon as the change is saved."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from pairing.standings import TIEBREAKS
from spyleague.clubs.models import Player
from spyleague.tournaments import services
from spyleague.tournaments.models import Event
from spyleague.tournaments.standings import standings_ranked

from .helpers import make_event, play_one_table, settings_post

pytestmark = pytest.mark.django_db

ORDER = ["tournament_points", "game_points", "opponents_average", "wins", "head_to_head"]
# Every known tiebreak as the page lists them: the ones in force, then the rest.
SHOWN = [*ORDER, "buchholz_cut1", "sonneborn_berger"]


def shown_order(page: str) -> list[str]:
    return re.findall(r'<input type="hidden" name="order" value="(\w+)">', page)


def stored(event: Event) -> list[str]:
    rows = standings_ranked(Event.objects.get(pk=event.pk)).order_by("place", "pk")  # as saved
    return list(rows.values_list("entrant__player__name", flat=True))


def test_only_the_organisers_see_the_settings(
    client: Client, club: Any, organiser: Any, make_user: Any
) -> None:
    event = make_event(club, organiser, players=4)
    url = reverse("tournaments:settings", args=[event.pk])
    assert client.get(url).status_code == 302  # to log in
    client.force_login(make_user(username="pat"))
    assert client.get(url).status_code == 403
    assert client.post(url, settings_post(event, name="Hijacked")).status_code == 403
    assert Event.objects.get(pk=event.pk).name == "Test Open"
    event_page = reverse("tournaments:event", args=[event.pk])
    assert url not in client.get(event_page).content.decode()  # no link for a stranger
    client.force_login(organiser)
    assert f'href="{url}"' in client.get(event_page).content.decode()  # the organiser's way there
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    # The tiebreaks in words, each with its Up and Down buttons (forms, not scripts).
    for words in (
        "Tournament points",
        "Game score",
        "Strength of opponents",
        "Buchholz cut 1",
        "Sonneborn-Berger",
        "Wins",
        "Head to head",
    ):
        assert words in text
    assert "the lowest first (Black Spy is won by the lowest score)" in text
    # What a beaten opponent is at a multiplayer table, in words.
    assert "you beat everyone who placed below you there" in text
    count = len(TIEBREAKS)
    assert text.count('name="move" value="up:') == count and text.count('name="move" value="down:') == count
    assert "opponents_average</" not in text and ">opponents_average" not in text  # no internal names shown
    assert shown_order(text) == SHOWN
    assert "<script>" not in text and 'js/tiebreaks.js"' in text  # no inline script (CSP)


def test_up_and_down_move_a_tiebreak_without_saving(client: Client, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4)
    client.force_login(organiser)
    url = reverse("tournaments:settings", args=[event.pk])
    moved = client.post(url, settings_post(event, move="up:wins", name="Typed, not saved"))
    assert moved.status_code == 200
    page = moved.content.decode()
    assert shown_order(page) == [
        "tournament_points",
        "game_points",
        "wins",
        "opponents_average",
        "head_to_head",
        "buchholz_cut1",
        "sonneborn_berger",
    ]
    assert 'value="Typed, not saved"' in page  # what was typed is kept
    again = client.post(url, settings_post(event, order=shown_order(page), move="down:tournament_points"))
    assert shown_order(again.content.decode())[:2] == ["game_points", "tournament_points"]
    event.refresh_from_db()
    assert event.tiebreaks == ORDER and event.name == "Test Open"
    # The first cannot go up, nor the last down: the list stays as it is.
    edge = client.post(url, settings_post(event, move="up:tournament_points"))
    assert shown_order(edge.content.decode()) == SHOWN


def test_saving_a_new_tiebreak_order_ranks_the_standings_at_once(
    client: Client, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=0, game="mister-spy", size=3, rounds=3)
    for name in ("Ann", "Bob", "Cy"):
        services.entrant_register(
            user=organiser, event=event, player=Player.objects.create(name=name, guest_of=club)
        )
    services.event_update(user=organiser, event=event, points_by_place=[2, 2, 0])
    play_one_table(event, organiser, {"Ann": (11, 1), "Bob": (10, 2), "Cy": (0, 3)})
    play_one_table(event, organiser, {"Bob": (33, 1), "Cy": (30, 2), "Ann": (0, 3)})
    assert stored(event) == ["Bob", "Cy", "Ann"]  # Ann and Cy level on points; Cy's game score first
    client.force_login(organiser)
    url = reverse("tournaments:settings", args=[event.pk])
    order = ["tournament_points", "wins", "game_points", "opponents_average", "head_to_head"]
    saved = client.post(url, settings_post(event, order=order, tiebreaks=["tournament_points", "wins"]))
    assert saved.status_code == 302 and saved["Location"] == event.get_absolute_url()
    event.refresh_from_db()
    assert event.tiebreaks == ["tournament_points", "wins"]
    assert stored(event) == ["Bob", "Ann", "Cy"]  # in the request, before any job
    # The bye rule and the points by place re-rank too; a name alone changes nothing else.
    client.post(
        url,
        settings_post(event, order=order, tiebreaks=["tournament_points", "wins"], points_by_place="1, 3, 0"),
    )
    assert stored(event) == ["Bob", "Cy", "Ann"]


def test_what_the_events_progress_no_longer_allows_is_shown_and_refused(
    client: Client, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=8)
    services.round_pair(event=event)
    client.force_login(organiser)
    url = reverse("tournaments:settings", args=[event.pk])
    page = client.get(url).content.decode()
    assert "Fixed once the first round has been paired." in page
    assert 'type="hidden" name="table_size" value="4"' in page
    forged = client.post(url, settings_post(event, table_size="3"))
    assert forged.status_code == 400
    assert "cannot change once a round has been paired" in forged.content.decode()
    fewer = client.post(url, settings_post(event, rounds="0"))
    assert fewer.status_code == 400
    assert Event.objects.get(pk=event.pk).table_size == 4
    renamed = client.post(url, settings_post(event, name="Spring Open", bye_rule="draw", rounds="6"))
    assert renamed.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.bye_rule, event.rounds) == ("Spring Open", "draw", 6)


def test_a_finished_events_ranking_stays(client: Client, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4)
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    client.force_login(organiser)
    url = reverse("tournaments:settings", args=[event.pk])
    page = client.get(url).content.decode()
    assert "The event is over: this no longer changes." in page
    assert 'name="move"' not in page  # the tiebreaks are listed, not ordered
    forged = client.post(url, settings_post(event, tiebreaks=["wins"]))
    assert forged.status_code == 400 and "can no longer change" in forged.content.decode()
    assert Event.objects.get(pk=event.pk).tiebreaks == ORDER
    assert client.post(url, settings_post(event, name="Over and done")).status_code == 302
    assert Event.objects.get(pk=event.pk).name == "Over and done"


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"points_by_place": "4, 2, x, 0"}, "is not a number"),
        ({"points_by_place": "4, 2, 1"}, "Give 4 numbers"),
        ({"points_by_place": "nan, 2, 1, 0"}, "is not a number of points"),
        ({"tiebreaks": []}, "Tick at least one tiebreak"),
        ({"tiebreaks": ["coin_toss"]}, "There is no tiebreak called"),
        ({"table_size": "7"}, "Black Spy is played at tables of 3 to 6"),
        ({"table_size": "100"}, "less than or equal to 99"),
        ({"table_size": "3", "uneven": "shorter"}, "Black Spy has no tables of 2"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_bad_settings_are_refused_in_words_and_change_nothing(
    client: Client, club: Any, organiser: Any, changes: dict[str, Any], words: str
) -> None:
    event = make_event(club, organiser, players=4)
    client.force_login(organiser)
    refused = client.post(reverse("tournaments:settings", args=[event.pk]), settings_post(event, **changes))
    assert refused.status_code == 400
    assert words in refused.content.decode()
    fresh = Event.objects.get(pk=event.pk)
    assert (fresh.points_by_place, fresh.tiebreaks, fresh.table_size) == (
        event.points_by_place,
        event.tiebreaks,
        event.table_size,
    )


def test_before_pairing_the_shape_of_the_tables_changes_too(
    client: Client, club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=4)
    client.force_login(organiser)
    url = reverse("tournaments:settings", args=[event.pk])
    changed = client.post(
        url,
        settings_post(
            event, table_size="3", points_by_place="", format="knockout", advance="1", uneven="longer"
        ),
    )
    assert changed.status_code == 302, changed.content.decode()
    event.refresh_from_db()
    assert (event.table_size, event.format, event.advance, event.uneven) == (3, "knockout", 1, "longer")
    assert event.points_by_place == [3.0, 1.0, 0.0]  # the new size's default
