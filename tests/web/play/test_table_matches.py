"""A tournament table played online reports its own result."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase
from django.urls import reverse

from spyleague.play import services
from spyleague.play.models import Match
from spyleague.play.selectors import match_picture
from spyleague.tournaments import services as events
from spyleague.tournaments.models import Standing, Table

pytestmark = pytest.mark.django_db


def test_an_online_table_reports_into_the_standings(
    client: Any, club: Any, organiser: Any, make_user: Any
) -> None:
    event = events.event_create(
        club=club,
        user=organiser,
        name="Online Cup",
        game="race-to-ten",
        format="swiss",
        rounds=1,
        table_size=2,
    )
    ann, bob = make_user(username="ann"), make_user(username="bob")
    for user in (ann, bob):
        events.entrant_register(user=user, event=event)
    rnd = events.round_publish(user=organiser, rnd=events.round_pair(event=event))
    table = rnd.tables.get()
    stranger = make_user(username="eve")
    with pytest.raises(services.MoveRejected):
        services.match_for_table(user=stranger, table=table)

    client.force_login(ann)
    response = client.post(reverse("tournaments:online", args=[event.pk, table.pk]))
    match = Match.objects.get(table=table)
    assert response["Location"] == match.get_absolute_url()
    assert services.match_for_table(user=bob, table=table) == match  # one match per table
    players = {s.number: s.player.user for s in match.seat_set.select_related("player__user")}
    with TestCase.captureOnCommitCallbacks(execute=True):
        while match.status == Match.Status.PLAYING:
            seat = match_picture(match=match, seat=0).to_act[0]
            legal = match_picture(match=match, seat=seat).legal
            services.match_move_submit(match_id=match.pk, user=players[seat], action=legal[-1])
            match.refresh_from_db()
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED and table.source == Table.Source.ONLINE
    winner = [s for s in table.seats.all() if s.place == 1]
    assert len(winner) == 1
    assert winner[0].points == 3
    events.standings_recompute(event=event)
    assert Standing.objects.get(event=event, entrant=winner[0].entrant).points == 3
