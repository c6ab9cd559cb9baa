"""Leagues (seasons), leaderboards per club and season, and a player's rating history."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from spyleague.tournaments.models import League

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
