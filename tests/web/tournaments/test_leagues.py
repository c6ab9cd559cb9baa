"""Leagues (seasons), leaderboards per club and season, and a player's rating history."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from spyleague.scores.services import EntryLine, result_confirm, result_enter
from spyleague.tournaments import services
from spyleague.tournaments.models import League, Seat, Table
from spyleague.tournaments.selectors import league_table, standings_get

from .helpers import make_event, play_round

pytestmark = pytest.mark.django_db


def test_a_league_adds_up_its_events(client: Any, club: Any, organiser: Any, make_user: Any) -> None:
    client.force_login(organiser)
    response = client.post(
        reverse("tournaments:league-create", args=[club.slug]),
        {"name": "Winter Season", "game": "black-spy", "starts": "2026-11-01", "ends": "2027-02-28"},
    )
    league = League.objects.get()
    assert response["Location"] == reverse("tournaments:league", args=[league.pk])
    bad = client.post(
        reverse("tournaments:league-create", args=[club.slug]),
        {"name": "Backwards", "starts": "2026-11-01", "ends": "2026-10-01"},
    )
    assert "A season ends after it starts." in bad.content.decode()
    client.force_login(make_user(username="nobody"))
    assert (
        client.post(reverse("tournaments:league-create", args=[club.slug]), {"name": "X"}).status_code == 403
    )

    first = make_event(club, organiser, players=8, name="Night 1", league=league)
    play_round(first, organiser)
    assert first.league == league
    page = client.get(reverse("tournaments:league", args=[league.pk])).content.decode()
    assert "League table" in page and page.count("/clubs/players/") >= 8
    board = client.get(
        reverse("ratings:leaderboards"), {"game": "black-spy", "club": club.slug}
    ).content.decode()
    assert board.count("<tr>") == 9


def test_a_players_page_charts_the_rating_history(client: Any, club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=4)
    play_round(event, organiser)
    play_round(event, organiser)
    player = event.entrants.first().player  # type: ignore[union-attr]
    page = client.get(reverse("clubs:player", args=[player.pk]), {"game": "black-spy"}).content.decode()
    assert "<polyline" in page and "2 rated games" in page


def confirm(table: Table, organiser: Any, scores: list[float]) -> None:
    seats = list(table.seats.select_related("entrant__player").order_by("position"))
    event = table.round.event
    with TestCase.captureOnCommitCallbacks(execute=True):
        result = result_enter(
            user=organiser,
            game=event.game,
            club=event.club,
            table=table,
            entries=[EntryLine(s.entrant.player, sc) for s, sc in zip(seats, scores, strict=True)],
        )
        result_confirm(user=organiser, result=result)


def test_a_league_table_is_the_sum_of_its_events_standings_byes_and_ties_included(
    client: Any, club: Any, organiser: Any
) -> None:
    league = League.objects.create(club=club, name="Season")
    first = make_event(
        club, organiser, players=7, game="mister-spy", size=3, rounds=2, league=league, name="N1"
    )
    second = services.event_create(
        club=club,
        user=organiser,
        name="N2",
        game="mister-spy",
        table_size=3,
        rounds=2,
        league=league,
        bye_rule="average",
    )
    for e in first.entrants.all():  # the same seven players, a second night (byes scored otherwise)
        services.entrant_register(user=organiser, event=second, player=e.player)
    for event in (first, second):
        # Seven at tables of 3: two tables and a bye each round; the first table of each round ends
        # in a tie for first place.
        for _ in range(2):
            with TestCase.captureOnCommitCallbacks(execute=True):
                rnd = services.round_publish(user=organiser, rnd=services.round_pair(event=event))
            tables = list(rnd.tables.filter(is_bye=False).order_by("number"))
            assert len(tables) == 2 and rnd.tables.filter(is_bye=True).count() == 1
            confirm(tables[0], organiser, [30, 30, 10])  # a shared first place
            confirm(tables[1], organiser, [40, 20, 10])
    expected: dict[int, tuple[float, int, int, int, int]] = {}
    for event in (first, second):
        for row in standings_get(event=event):
            points, events, games, wins, byes = expected.get(row.player_id, (0.0, 0, 0, 0, 0))
            expected[row.player_id] = (
                points + row.points,
                events + 1,
                games + row.games,
                wins + row.wins,
                byes + row.byes,
            )
    table = league_table(league=league)
    assert len(table) == 7
    assert {
        line.player_id: (line.points, line.events, line.games, line.wins, line.byes) for line in table
    } == expected
    # Byes are in: the league has more points than the games alone gave (one bye a round).
    played = sum(
        s.points or 0 for s in Seat.objects.filter(table__round__event__league=league, table__is_bye=False)
    )
    assert sum(line.byes for line in table) == 4
    assert sum(line.points for line in table) > played
    # A shared first place is not a win: of the eight tables, the four without a tie were won.
    assert sum(line.wins for line in table) == 4
    # Ranked by points, then wins; players equal on both share a rank.
    keys = [(-line.points, -line.wins) for line in table]
    assert keys == sorted(keys)
    for before, after in pairwise(table):
        assert (after.rank == before.rank) == ((before.points, before.wins) == (after.points, after.wins))
    page = client.get(reverse("tournaments:league", args=[league.pk])).content.decode()
    assert "a shared first place is not a win" in page and "a bye counts as the event scored it" in page
