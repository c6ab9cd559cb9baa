"""Standings at their edges: a bye's game score, tables one seat shorter, the tiebreaks clubs ask
for, and provisional ratings, as the pages, the exports and the API show them."""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from pairing.standings import balanced_points
from spyleague.clubs.models import Player
from spyleague.ratings.models import Rating
from spyleague.scores.services import EntryLine, result_confirm, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import Event, Round, Seat, Standing
from spyleague.tournaments.standings import standings_ranked

from .helpers import make_event, play_round

pytestmark = pytest.mark.django_db


def play_places(event: Event, organiser: Any, rng: random.Random) -> Round:
    """Pair, publish and confirm a round, each table's places in a random order (the game's
    scores left out, as a Mister Spy sheet may)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
        for table in rnd.tables.filter(is_bye=False).prefetch_related("seats__entrant__player"):
            players = [s.entrant.player for s in table.seats.all()]
            places = rng.sample(range(1, len(players) + 1), len(players))
            lines = [EntryLine(p, None, place) for p, place in zip(players, places, strict=True)]
            result = result_enter(
                user=organiser, game=event.game, club=event.club, table=table, entries=lines
            )
            result_confirm(user=organiser, result=result)
    return rnd


def _csv_names(client: Client, event: Event) -> list[str]:
    response = client.get(reverse("tournaments:export", args=[event.pk, "standings"]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    column = rows[0].index("player")
    return [row[column].lstrip("'") for row in rows[1:]]


def _in_order(text: str, names: list[str]) -> bool:
    at = [text.index(f">{name}<") for name in names]
    return at == sorted(at)


def test_a_round_one_bye_in_black_spy_ranks_below_both_table_winners(
    client: Client, club: Any, organiser: Any
) -> None:
    """Nine players of Black Spy at tables of 4, a bye scoring a win: the bye's game score is
    the round's average (not 0, the best Black Spy score there is), so the two table winners,
    level with it on points, rank above it on the event page, the export and the projector.
    Round 2's bye scores round 2's average: the same rule."""
    event = make_event(club, organiser, players=9, game="black-spy", size=4, bye_rule="win")
    rnd = play_round(event, organiser, random.Random(3))
    seats = list(Seat.objects.filter(table__round=rnd).select_related("entrant__player", "table"))
    bye = next(s for s in seats if s.table.is_bye)
    played = [s for s in seats if not s.table.is_bye]
    winners = [s for s in played if s.place == 1]
    assert len(winners) == 2
    rows = {row.entrant_id: row for row in standings_ranked(event)}
    average = sum(s.score or 0 for s in played) / len(played)
    assert rows[bye.entrant_id].points == 4 and rows[bye.entrant_id].game_points == pytest.approx(average)
    assert all(rows[w.entrant_id].place < rows[bye.entrant_id].place for w in winners)
    names = [w.entrant.player.name for w in winners] + [bye.entrant.player.name]
    assert all(n.index(names[-1]) > n.index(w) for n in [_csv_names(client, event)] for w in names[:2])
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    standings = page[page.index('id="standings"') :]
    for winner in names[:2]:
        assert _in_order(standings, [winner, names[-1]])
    screen = client.get(reverse("tournaments:public", args=[event.pk])).content.decode()
    ranked = screen[screen.rindex("Standings") :]
    for winner in names[:2]:
        assert _in_order(ranked, [winner, names[-1]])

    second = play_round(event, organiser, random.Random(4))
    seats_2 = list(Seat.objects.filter(table__round=second).select_related("table"))
    bye_2 = next(s for s in seats_2 if s.table.is_bye)
    played_2 = [s for s in seats_2 if not s.table.is_bye]
    own = Seat.objects.filter(entrant_id=bye_2.entrant_id, table__is_bye=False).values_list(
        "score", flat=True
    )
    row = Standing.objects.get(event=event, entrant_id=bye_2.entrant_id)
    assert row.game_points == pytest.approx(sum(own) + sum(s.score or 0 for s in played_2) / len(played_2))


def test_tables_one_seat_shorter_pay_a_seat_the_same_on_average(
    client: Client, club: Any, organiser: Any
) -> None:
    """Nine players of Mister Spy at tables of 5 with shorter tables: the table of 4 pays
    5.03 2.51 1.26 0 (an average of 2.2 a seat, as 5 3 2 1 0 at the table of 5), and the
    settings and standings pages say so for both sizes."""
    event = make_event(club, organiser, players=9, game="mister-spy", size=5, uneven="shorter")
    rnd = play_places(event, organiser, random.Random(5))
    by_size: dict[int, list[float]] = {}
    for table in rnd.tables.prefetch_related("seats"):
        by_size[table.seats.count()] = sorted((s.points or 0 for s in table.seats.all()), reverse=True)
    assert by_size == {5: [5, 3, 2, 1, 0], 4: [5.03, 2.51, 1.26, 0]}
    assert sum(by_size[5]) / 5 == pytest.approx(sum(by_size[4]) / 4)
    assert balanced_points((5, 3, 2, 1, 0), 4) == (5.03, 2.51, 1.26, 0)
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    assert "tables of 5: <strong>5 3 2 1 0</strong> (2.2 a seat)" in page
    assert "tables of 4: <strong>5.03 2.51 1.26 0</strong> (2.2 a seat)" in page
    client.force_login(organiser)
    settings_page = client.get(reverse("tournaments:settings", args=[event.pk])).content.decode()
    assert "Tables of 4: <strong>5.03 2.51 1.26 0</strong>, an average of 2.2 a seat" in settings_page
    help_page = client.get(reverse("tournaments:scoring-help")).content.decode()
    assert "a seat can expect the same points at every table" in help_page
    assert "5.03 2.51 1.26 0" in help_page and "average game score of the players seated" in help_page


def test_sonneborn_berger_and_buchholz_cut_1_rank_the_standings_and_are_shown(
    client: Client, club: Any, organiser: Any, api_client: Any
) -> None:
    event = make_event(
        club,
        organiser,
        players=8,
        game="mister-spy",
        size=4,
        tiebreaks=["tournament_points", "sonneborn_berger", "buchholz_cut1"],
    )
    play_places(event, organiser, random.Random(6))
    play_places(event, organiser, random.Random(7))
    rows = list(standings_ranked(event).order_by("place", "pk"))
    computed = {r.player: r for r in services.standings_compute(event)}
    for row in rows:
        expected = computed[row.entrant_id]
        assert (row.sonneborn_berger, row.buchholz_cut1) == (
            expected.sonneborn_berger,
            expected.buchholz_cut1,
        )
        assert [name for name, _ in row.tiebreaks] == [
            "tournament_points",
            "sonneborn_berger",
            "buchholz_cut1",
        ]
    keys = [(-r.points, -r.sonneborn_berger, -r.buchholz_cut1) for r in rows]
    assert keys == sorted(keys)
    page = client.get(reverse("tournaments:event", args=[event.pk])).content.decode()
    assert 'title="Sonneborn-Berger">SB</th>' in page and 'title="Buchholz cut 1">BH-1</th>' in page
    exported = list(
        csv.DictReader(
            io.StringIO(
                client.get(reverse("tournaments:export", args=[event.pk, "standings"])).content.decode()
            )
        )
    )
    assert float(exported[0]["sonneborn_berger"]) == pytest.approx(rows[0].sonneborn_berger, abs=1e-3)
    assert float(exported[0]["buchholz_cut1"]) == pytest.approx(rows[0].buchholz_cut1, abs=1e-3)
    body = api_client.get(f"/api/events/{event.pk}/standings/").json()
    first = body["results"][0]
    assert first["sonneborn_berger"] == rows[0].sonneborn_berger
    assert first["buchholz_cut1"] == rows[0].buchholz_cut1


def test_a_new_players_rating_is_marked_provisional(client: Client, club: Any, api_client: Any) -> None:
    new = Player.objects.create(name="Newcomer", guest_of=club)
    old = Player.objects.create(name="Regular", guest_of=club)
    Rating.objects.create(player=new, game="black-spy", mu=30, sigma=8.0, ordinal=6.0, games=1)
    Rating.objects.create(player=old, game="black-spy", mu=30, sigma=4.0, ordinal=18.0, games=40)
    board = client.get(reverse("ratings:leaderboards") + "?game=black-spy").content.decode()
    row_new = board[board.index(">Newcomer<") :].split("</tr>")[0]
    row_old = board[board.index(">Regular<") :].split("</tr>")[0]
    assert 'class="provisional"' in row_new and 'class="provisional"' not in row_old
    api = {
        r["name"]: r["provisional"] for r in api_client.get("/api/leaderboards/black-spy/").json()["results"]
    }
    assert api == {"Newcomer": True, "Regular": False}
    profile = client.get(reverse("clubs:player", args=[new.pk])).content.decode()
    assert 'class="provisional"' in profile


def test_a_bye_round_before_any_result_counts_nothing_yet(club: Any, organiser: Any) -> None:
    """While none of the round's tables has a result, a bye's game score is 0 like everyone
    else's for that round; it becomes the round's average as results come in."""
    event = make_event(club, organiser, players=5, game="mister-spy", size=4, bye_rule="win")
    rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
    assert rnd.status == Round.Status.PUBLISHED
    rows = services.standings_compute(event)
    bye = next(r for r in rows if r.byes)
    assert bye.game_points == 0 and bye.points == 4
