"""A replay shows each viewer what they saw: a player of the match their own seat, anyone else
the spectator's board; nobody sees a card they did not see at the table."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from games import get_engine
from spyleague.play import services
from spyleague.play.models import Match
from spyleague.play.state import match_state

pytestmark = pytest.mark.django_db


def finished_black_spy(user: Any) -> Match:
    match = services.match_create(user=user, game="black-spy", seats=3, seed=5, options={"end_value": 40})
    services.match_start(user=user, match_id=match.pk, fill_with="heuristic")
    engine = get_engine("black-spy")
    for _ in range(2000):
        match.refresh_from_db()
        if match.status == Match.Status.FINISHED:
            return match
        state = match_state(match)
        if 0 not in engine.to_act(state):  # the bots' turn: their task runs on commit, held back here
            services.match_run_bots(match_id=match.pk)
            continue
        services.match_move_submit(match_id=match.pk, user=user, action=dict(engine.legal(state, 0)[0]))
    raise AssertionError("the game did not end")


def hand_shown(html: str) -> list[str]:
    """The cards drawn in the page's "Your hand" tray (Black Spy has several cards of one code)."""
    start = html.find('aria-label="Your hand"')
    if start < 0:
        return []
    return sorted(re.findall(r'data-card="([a-z]+-\d+)"', html[start : html.find("</section>", start)]))


def test_a_player_replays_from_their_seat_and_a_stranger_as_a_spectator(client: Any, make_user: Any) -> None:
    noor, eve = make_user(username="noor"), make_user(username="eve")
    match = finished_black_spy(noor)
    engine = get_engine("black-spy")
    url = reverse("play:replay", args=[match.pk])
    for step in (0, 5, match.version // 2):
        hand = sorted(engine.view(match_state(match, upto=step), 0)["hand"])
        client.force_login(noor)
        mine = client.get(url, {"step": step}).content.decode()
        assert "as you saw it from your seat" in mine
        assert hand and hand_shown(mine) == hand  # her own hand, as she held it then
        client.force_login(eve)
        theirs = client.get(url, {"step": step}).content.decode()
        assert "as a spectator saw it" in theirs and hand_shown(theirs) == []
