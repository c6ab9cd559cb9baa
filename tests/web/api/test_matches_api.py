"""Online matches through the API, with the tiny test engine."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase

from tests.web.play.conftest import race_to_ten  # noqa: F401  (registers the test engine)

pytestmark = pytest.mark.django_db


def test_create_start_act_and_replay(api_client: Any, make_user: Any) -> None:
    ann = make_user(username="ann")
    api_client.force_authenticate(ann)
    with TestCase.captureOnCommitCallbacks(execute=True):
        created = api_client.post(
            "/api/matches/",
            {
                "game": "race-to-ten",
                "seats": 2,
                "start": True,
                "fill_with": "random",
                "options": {"target": 4},
            },
            format="json",
        )
    assert created.status_code == 201, created.content
    match = api_client.get(f"/api/matches/{created.json()['id']}/").json()  # after the bots' first moves
    assert match["seat"] == 0 and match["status"] == "playing"
    while match["status"] == "playing":
        assert match["to_act"] == [0]
        with TestCase.captureOnCommitCallbacks(execute=True):
            response = api_client.post(
                f"/api/matches/{match['id']}/act/",
                {"action": match["legal"][0], "version": match["version"]},
                format="json",
            )
        assert response.status_code == 200, response.content
        match = api_client.get(f"/api/matches/{match['id']}/").json()  # after the bot's reply
    assert match["outcome"]["places"] in ([1, 2], [2, 1])
    replay = api_client.get(f"/api/matches/{match['id']}/replay/?step=1").json()
    assert (
        replay["step"] == 1 and replay["view"]["total"] in (1, 2) and len(replay["moves"]) == match["version"]
    )


def test_refusals_have_reasons_and_status_codes(api_client: Any, make_user: Any) -> None:
    ann, bob, eve = make_user(username="ann"), make_user(username="bob"), make_user(username="eve")
    api_client.force_authenticate(ann)
    match = api_client.post("/api/matches/", {"game": "race-to-ten", "seats": 2}, format="json").json()
    api_client.force_authenticate(bob)
    assert api_client.post(f"/api/matches/{match['id']}/join/").json()["seat"] == 1
    api_client.force_authenticate(ann)
    match = api_client.post(f"/api/matches/{match['id']}/start/").json()
    first = match["to_act"][0]
    mover, waiter = (ann, bob) if first == 0 else (bob, ann)
    api_client.force_authenticate(waiter)
    assert api_client.post(
        f"/api/matches/{match['id']}/act/", {"action": {"type": "add", "n": 1}}, format="json"
    ).json() == {"detail": "It is not your turn."}
    api_client.force_authenticate(eve)
    stranger = api_client.post(
        f"/api/matches/{match['id']}/act/", {"action": {"type": "add", "n": 1}}, format="json"
    )
    assert stranger.status_code == 403
    api_client.force_authenticate(mover)
    stale = api_client.post(
        f"/api/matches/{match['id']}/act/", {"action": {"type": "add", "n": 1}, "version": 7}, format="json"
    )
    assert stale.status_code == 409
    illegal = api_client.post(
        f"/api/matches/{match['id']}/act/", {"action": {"type": "add", "n": 9}}, format="json"
    )
    assert illegal.status_code == 400 and "add 1 or 2" in illegal.json()["detail"]
    # A spectator sees no legal actions.
    api_client.force_authenticate(eve)
    assert api_client.get(f"/api/matches/{match['id']}/").json()["legal"] == []
