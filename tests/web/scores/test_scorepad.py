"""The Black Spy scorepad: deals checked in words, totals to the end value, corrections audited."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from spyleague.clubs.models import Player
from spyleague.clubs.services import club_create, club_join
from spyleague.scores.models import Result, Scorepad, ScorepadChange

pytestmark = pytest.mark.django_db


def open_pad(client: Any, user: Any, names: list[str], **variants: Any) -> Scorepad:
    client.force_login(user)
    data: dict[str, Any] = {f"name_{i}": n for i, n in enumerate(names)}
    data["player_0"] = ""
    data.update({k: "on" for k, v in variants.items() if v is True})
    if "end_value" in variants:
        data["end_value"] = str(variants["end_value"])
    response = client.post(reverse("scores:pad-new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Scorepad.objects.latest("pk")


def deal(client: Any, pad: Scorepad, *points: int, **extra: str) -> Any:
    data = {f"points_{i}": str(p) for i, p in enumerate(points)} | {"mode": "points"} | extra
    return client.post(reverse("scores:pad-deal", args=[pad.pk]), data)


def test_a_game_is_scored_deal_by_deal_to_the_end_value(client: Any, make_user: Any) -> None:
    user = make_user(username="tabby")
    pad = open_pad(client, user, ["Ann", "Ben", "Cy", "Di"])
    assert deal(client, pad, 20, 10, 25, 5).status_code == 302
    assert deal(client, pad, 40, 10, 5, 5).status_code == 302
    page = client.get(reverse("scores:pad", args=[pad.pk])).content.decode()
    assert "Deal 3" in page and 'data-total="0">60<' in page
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert deal(client, pad, 60, 0, 0, 0).status_code == 302
        assert deal(client, pad, 40, 10, 5, 5).status_code == 302  # Ann reaches 160 >= 150
    pad.refresh_from_db()
    assert pad.status == Scorepad.Status.FINISHED
    result = pad.result
    assert result is not None and result.source == Result.Source.SCOREPAD
    places = {line.player.name: line.place for line in result.lines.all()}
    assert places == {"Di": 1, "Ben": 2, "Cy": 3, "Ann": 4}  # 15, 30, 35 and 160
    page = client.get(reverse("scores:pad", args=[pad.pk])).content.decode()
    assert "Game over after 4 deals" in page and "<strong>Di</strong> wins with the lowest score." in page


def test_shared_winners_are_named_in_a_sentence(client: Any, make_user: Any) -> None:
    pad = open_pad(client, make_user(username="tabby"), ["Ann", "Ben", "Cy", "Di"], end_value=40)
    assert deal(client, pad, 30, 10, 10, 10).status_code == 302
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert deal(client, pad, 20, 10, 10, 20).status_code == 302  # Ann 50: Ben and Cy tie on 20
    page = client.get(reverse("scores:pad", args=[pad.pk])).content.decode()
    assert "<strong>Ben</strong> and <strong>Cy</strong> win with the lowest score." in page


def test_an_impossible_deal_is_explained_and_what_was_typed_stays(client: Any, make_user: Any) -> None:
    pad = open_pad(client, make_user(username="tabby"), ["Ann", "Ben", "Cy"])
    response = deal(client, pad, 20, 20, 30)
    assert response.status_code == 400
    page = response.content.decode()
    assert "60" in page and "70" in page  # says the deal must total 60 and it totals 70
    assert 'value="30"' in page
    assert not pad.deals.exists()
    response = deal(client, pad, 20, "x", 30)  # type: ignore[arg-type]
    assert "is not a whole number" in response.content.decode()


def test_no_good_spies_deals_total_80_and_all_black_is_accepted(client: Any, make_user: Any) -> None:
    pad = open_pad(client, make_user(username="tabby"), ["Ann", "Ben", "Cy"], no_good_spies=True)
    assert deal(client, pad, 20, 20, 20).status_code == 400
    assert deal(client, pad, 30, 30, 20).status_code == 302
    assert deal(client, pad, 0, 60, 60).status_code == 302  # Ann took every black card


def test_capture_or_release_subtracts_when_chosen(client: Any, make_user: Any) -> None:
    pad = open_pad(client, make_user(username="tabby"), ["Ann", "Ben", "Cy"], capture_or_release=True)
    assert deal(client, pad, 20, 20, 20).status_code == 302
    assert deal(client, pad, -60, 0, 0).status_code == 302
    page = client.get(reverse("scores:pad", args=[pad.pk])).content.decode()
    assert 'data-total="0">-40<' in page


def test_entering_what_was_taken_works_out_the_points(client: Any, make_user: Any) -> None:
    pad = open_pad(client, make_user(username="tabby"), ["Ann", "Ben", "Cy"])
    data: dict[str, Any] = {"mode": "taken"}
    # Ann: 6 Black Spies (60) and two coloured Spies (-10) = 50; Ben: black 1-6 and 8-11 (20) and the
    # other two coloured Spies (-10) = 10; Cy: nothing = 0. Total 60.
    data |= {
        "spies_0": "6",
        "coloured_0": "2",
        "spies_1": "0",
        "coloured_1": "2",
        "spies_2": "0",
        "coloured_2": "0",
    }
    response = client.post(
        reverse("scores:pad-deal", args=[pad.pk]),
        {**data, "ranks_1": ["1", "2", "3", "4", "5", "6", "8", "9", "10", "11"]},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert pad.deals.get().points == [50, 10, 0]


def test_going_back_halves_an_exact_end_value(client: Any, make_user: Any) -> None:
    pad = open_pad(client, make_user(username="tabby"), ["Ann", "Ben", "Cy"], going_back=True, end_value=100)
    deal(client, pad, 50, 5, 5)  # Ann exactly half the end value: back to 25
    page = client.get(reverse("scores:pad", args=[pad.pk])).content.decode()
    assert 'data-total="0">25<' in page and "went back" in page


def test_a_correction_is_kept_with_who_and_before(client: Any, make_user: Any) -> None:
    user = make_user(username="tabby")
    pad = open_pad(client, user, ["Ann", "Ben", "Cy"])
    deal(client, pad, 20, 20, 20)
    response = deal(client, pad, 30, 20, 10, number="1")
    assert response.status_code == 302
    change = ScorepadChange.objects.get(action="corrected")
    assert change.before == [20, 20, 20] and change.after == [30, 20, 10] and change.who == user
    assert pad.deals.get().points == [30, 20, 10]


def test_strangers_cannot_enter_deals(client: Any, make_user: Any) -> None:
    pad = open_pad(client, make_user(username="tabby"), ["Ann", "Ben", "Cy"])
    client.force_login(make_user(username="stranger"))
    response = deal(client, pad, 20, 20, 20)
    assert response.status_code == 403
    assert "Only the players at this table" in response.content.decode()
    assert not pad.deals.exists()


def test_a_tournament_table_scored_on_the_pad_reports_its_result(
    client: Any, club: Any, organiser: Any
) -> None:
    from spyleague.tournaments import services
    from spyleague.tournaments.models import Table
    from tests.web.tournaments.helpers import make_event

    event = make_event(club, organiser, players=3, size=3, name="Pad Cup")
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    table = rnd.tables.get()
    client.force_login(organiser)
    assert (
        "Open the scorepad"
        in client.get(reverse("tournaments:sheet", args=[event.pk, table.pk])).content.decode()
    )
    client.post(reverse("scores:pad-new") + f"?table={table.pk}", {"table": table.pk, "end_value": "50"})
    pad = Scorepad.objects.get(table=table)
    with TestCase.captureOnCommitCallbacks(execute=True):
        deal(client, pad, 30, 20, 10)
        deal(client, pad, 30, 20, 10)  # 60 >= 50: over
        client.post(reverse("scores:pad-confirm", args=[pad.pk]))  # the organiser is a scorer
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    seats = {s.entrant.player.name: s.place for s in table.seats.select_related("entrant__player")}
    assert sorted(seats.values()) == [1, 2, 3]
    assert Player.objects.filter(name__startswith="P0").count() == 3


def race(client: Any, pad: Scorepad, *points: int | None, first: int | None = None) -> Any:
    data = {f"points_{i}": "" if p is None else str(p) for i, p in enumerate(points)} | {"mode": "points"}
    if first is not None:
        data["first"] = str(first)
    return client.post(reverse("scores:pad-deal", args=[pad.pk]), data)


def test_spy_vs_spy_races_until_a_pile_reaches_zero(client: Any, make_user: Any) -> None:
    client.force_login(make_user(username="racer"))
    response = client.post(
        reverse("scores:pad-new"), {"game": "spy-vs-spy", "name_0": "Ann", "name_1": "Ben", "name_2": "Cy"}
    )
    pad = Scorepad.objects.get()
    assert response.status_code == 302 and pad.game == "spy-vs-spy"
    # Two players cannot both lose points without the bonus: explained, nothing saved.
    refused = race(client, pad, -3, -2, 6)
    assert refused.status_code == 400 and "without the bonus" in refused.content.decode()
    assert not pad.deals.exists()
    assert race(client, pad, -4, 3, 6, first=0).status_code == 302  # Ann 5 -> 1
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert race(client, pad, -4, 2, 9, first=0).status_code == 302  # Ann 1 -> -3: wins
    pad.refresh_from_db()
    assert pad.status == Scorepad.Status.FINISHED
    assert pad.result is not None
    places = {line.player.name: line.place for line in pad.result.lines.all()}
    assert places["Ann"] == 1
    page = client.get(reverse("scores:pad", args=[pad.pk])).content.decode()
    assert "Spy vs Spy race sheet" in page and "Game over after 2 races" in page


def test_the_list_shows_the_pads_you_opened_or_sit_at_once_each(client: Any, make_user: Any) -> None:
    ann, tabby = make_user(username="ann", player_name="Ann"), make_user(username="tabby")
    club = club_create(user=tabby, name="The Cellar")
    club_join(user=ann, club=club)  # Tabby may seat a member of her club
    opened = open_pad(client, tabby, ["Bo", "Cy", "Di"])
    client.force_login(ann)  # Ann opens one at which she sits, and is seated on one Tabby opens
    data = {"player_0": str(ann.player.pk), "name_1": "Bo", "name_2": "Cy"}
    assert client.post(reverse("scores:pad-new"), data).status_code == 302
    hers = Scorepad.objects.latest("pk")
    client.force_login(tabby)
    data["name_3"] = "Di"
    assert client.post(reverse("scores:pad-new"), data).status_code == 302
    seated = Scorepad.objects.latest("pk")

    client.force_login(ann)
    page = client.get(reverse("scores:pads")).content.decode()
    links = [reverse("scores:pad", args=[pad.pk]) for pad in (hers, seated, opened)]
    assert page.count(f'href="{links[0]}"') == 1 and page.count(f'href="{links[1]}"') == 1
    assert f'href="{links[2]}"' not in page
    client.force_login(tabby)  # no seat anywhere: the pads Tabby opened
    page = client.get(reverse("scores:pads")).content.decode()
    assert f'href="{links[1]}"' in page and f'href="{links[2]}"' in page and f'href="{links[0]}"' not in page


def test_a_spy_vs_spy_pad_seats_any_number_and_more_seats_keeps_what_was_typed(
    client: Any, make_user: Any
) -> None:
    """ "Unlimited amount of players": the form grows by "More seats" and a race of 10 is scored."""
    client.force_login(make_user(username="host"))
    page = client.get(reverse("scores:pad-new")).content.decode()
    assert page.count('name="name_') == 6 and "More seats" in page
    typed = {"game": "spy-vs-spy", **{f"name_{i}": f"Racer {i}" for i in range(6)}, "more": "1"}
    grown = client.post(reverse("scores:pad-new"), typed)
    body = grown.content.decode()
    assert grown.status_code == 200 and not Scorepad.objects.exists()
    assert body.count('name="name_') == 10 and 'value="Racer 5"' in body
    assert '<option value="spy-vs-spy" selected' in body
    names = {f"name_{i}": f"Racer {i}" for i in range(10)}
    assert client.post(reverse("scores:pad-new"), {"game": "spy-vs-spy", **names}).status_code == 302
    pad = Scorepad.objects.get()
    assert pad.seats.count() == 10
    points = [-4, *range(1, 10)]
    assert race(client, pad, *points, first=0).status_code == 302  # Racer 0: 5 -> 1
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert race(client, pad, *points, first=0).status_code == 302  # 1 -> -3: wins
    pad.refresh_from_db()
    assert pad.status == Scorepad.Status.FINISHED and pad.result is not None
    assert pad.result.lines.count() == 10


def test_black_spy_still_refuses_a_seventh_player_in_words(client: Any, make_user: Any) -> None:
    client.force_login(make_user(username="host"))
    names = {f"name_{i}": f"Player {i}" for i in range(7)}
    refused = client.post(reverse("scores:pad-new"), {"game": "black-spy", **names})
    assert (
        refused.status_code == 400
        and "Black Spy is played by 3 to 6 players, not 7" in refused.content.decode()
    )
    assert not Scorepad.objects.exists()
