"""Cards chosen by ticking boxes (the Black Spy pass, The Mole's draft) are sent as one action: the
legal action with exactly those cards, or a refusal that changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from games import get_engine
from spyleague.play import services
from spyleague.play.models import Match
from spyleague.play.state import match_state

pytestmark = pytest.mark.django_db

CHOSEN = json.dumps({"type": "pass", "cards": "__chosen__"})


def hand_of(match: Match) -> list[str]:
    return list(get_engine("black-spy").view(match_state(match), 0)["hand"])


def passing(make_user: Any, client: Any) -> Match:
    user = make_user(username="noor")
    match = services.match_create(user=user, game="black-spy", seats=4, seed=12)
    services.match_start(user=user, match_id=match.pk, fill_with="heuristic")
    match.refresh_from_db()
    client.force_login(user)
    return match


@pytest.mark.parametrize("ticked", [0, 1, 2, 4])
def test_a_pass_of_other_than_three_ticked_cards_is_refused_and_passes_nothing(
    client: Any, make_user: Any, ticked: int
) -> None:
    match = passing(make_user, client)
    hand = hand_of(match)
    version = match.version
    answer = client.post(
        reverse("play:act", args=[match.pk]),
        {"action": CHOSEN, "cards": hand[:ticked], "version": str(version)},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 400
    match.refresh_from_db()
    assert match.version == version and not match.moves.filter(seat=0).exists()
    assert sorted(hand_of(match)) == sorted(hand)


def test_three_ticked_cards_are_passed_in_one_move(client: Any, make_user: Any) -> None:
    match = passing(make_user, client)
    hand = hand_of(match)
    answer = client.post(
        reverse("play:act", args=[match.pk]),
        {"action": CHOSEN, "cards": hand[:3], "version": str(match.version)},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200
    match.refresh_from_db()
    move = match.moves.get(seat=0)
    assert move.action["type"] == "pass" and sorted(move.action["cards"]) == sorted(hand[:3])
    assert not set(hand[:3]) & set(hand_of(match))
