"""Spy vs Spy is for an "unlimited amount of players": its tournaments race at tables above 6.

Every other game keeps the tables its range of players allows (Black Spy 3-6 ...).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse

from spyleague.tournaments.models import Event, Round

from .helpers import make_event, pairs_of, play_round

pytestmark = pytest.mark.django_db


def sizes(rnd: Round) -> list[int]:
    return sorted((t.seats.count() for t in rnd.tables.filter(is_bye=False)), reverse=True)


def test_a_spy_vs_spy_swiss_races_at_tables_of_10_with_points_for_each_place(
    club: Any, organiser: Any
) -> None:
    event = make_event(club, organiser, players=30, game="spy-vs-spy", size=10, rounds=3)
    assert event.points_by_place == [10, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    first = play_round(event, organiser, random.Random(1))
    second = play_round(event, organiser, random.Random(2))
    assert sizes(first) == sizes(second) == [10, 10, 10]
    # 3 tables of 10 twice: a table of round 2 takes its 10 from the 3 tables of round 1, at best
    # 4 + 3 + 3 of them, so 6 + 3 + 3 pairs meet again there; the pairing reaches that minimum.
    repeats = pairs_of(first) & pairs_of(second)
    assert len(repeats) == 3 * (6 + 3 + 3)
    event.refresh_from_db()
    # Each table of 10 gives 10 + 8 + 7 + ... + 1 + 0 = 46 tournament points.
    assert sum(event.standings.values_list("points", flat=True)) == 2 * 3 * 46
    assert event.standings.count() == 30


def test_spy_vs_spy_heats_at_tables_of_8_end_in_a_final_of_the_survivors(club: Any, organiser: Any) -> None:
    event = make_event(club, organiser, players=32, game="spy-vs-spy", size=8, format="knockout", advance=2)
    shapes = []
    while event.status != Event.Status.FINISHED:
        rnd = play_round(event, organiser, random.Random(len(shapes)))
        shapes.append((rnd.stage, sizes(rnd)))
        event.refresh_from_db()
    assert shapes == [("heats", [8, 8, 8, 8]), ("final", [8])]


def test_only_spy_vs_spy_takes_tables_above_6_on_the_form(client: Any, club: Any, organiser: Any) -> None:
    client.force_login(organiser)
    url = reverse("tournaments:create", args=[club.slug])
    base = {"kind": "tournament", "rounds": 3, "bye_rule": "win", "format": "swiss", "uneven": "byes"}
    made = client.post(url, {**base, "name": "Big race", "game": "spy-vs-spy", "table_size": 12})
    assert made.status_code == 302 and Event.objects.get(name="Big race").table_size == 12
    refused = client.post(url, {**base, "name": "Big tricks", "game": "black-spy", "table_size": 7})
    assert (
        refused.status_code == 200 and "Black Spy is played at tables of 3 to 6." in refused.content.decode()
    )
    assert not Event.objects.filter(name="Big tricks").exists()
    longer = client.post(
        url, {**base, "name": "Longer", "game": "spy-vs-spy", "table_size": 8, "uneven": "longer"}
    )
    assert longer.status_code == 302
