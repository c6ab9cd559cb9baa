"""What each seat may see: face-down police, spies, secrets and tiles stay hidden."""

from __future__ import annotations

import json

import pytest

from games.spies import ENGINE
from games.spies.engine import MOVE

from .tables import act, setup_game, table


def test_views_and_legal_actions_are_json() -> None:
    state = setup_game(5, 1)
    for seat in (None, 0, 1, 2, 3, 4):
        json.dumps(ENGINE.view(state, seat))
    json.dumps(ENGINE.legal(state, 0))
    json.dumps(ENGINE.board())


def test_a_seat_sees_its_own_chits_and_tiles_and_only_the_counts_of_others() -> None:
    state = table(
        power="G", phase=MOVE, hands={"G": ["papers"], "F": ["cover", "escape"]}, tiles={"F": ["F1", "F2"]}
    )
    france = ENGINE.view(state, 3)["power_info"]
    assert france[3]["hand"] == ["cover", "escape"] and [t["id"] for t in france[3]["tile_list"]] == [
        "F1",
        "F2",
    ]
    assert france[0]["hand"] is None and france[0]["chits"] == 1
    germany = ENGINE.view(state, 0)["power_info"]
    assert germany[3]["hand"] is None and germany[3]["chits"] == 2 and germany[3]["tiles"] == 2
    assert germany[3]["tile_list"] is None


def test_a_spectator_sees_no_hand_tile_or_strength() -> None:
    state = table(
        power="G", phase=MOVE, hands={"G": ["papers"]}, spies=[("G", 3, "paris")], police=[("F", 2, "paris")]
    )
    view = ENGINE.view(state, None)
    assert all(p["hand"] is None and p["tile_list"] is None for p in view["power_info"])
    assert view["spies"][0]["strength"] is None and view["police"][0]["strength"] is None
    assert view["powers"] == [] and view["sees"] == []


def test_secret_values_are_seen_only_by_those_who_know_them() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "vienna")],
        secrets=[
            {"where": "berlin", "origin": "G", "value": 4},
            {"where": "vienna", "origin": None, "value": 3},
            {"where": "rome", "origin": "I", "counterspy": 3},
        ],
        hands={"F": ["discovery"]},
    )
    germany = ENGINE.view(state, 0)["secrets"]
    assert germany[0]["value"] == 4 and germany[1]["value"] is None and germany[2]["counterspy"] is None
    italy = ENGINE.view(state, 1)["secrets"]
    assert italy[2]["counterspy"] is True and italy[2]["strength"] == 3
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S2"})
    assert ENGINE.view(state, 3)["secrets"][1]["value"] == 3
    assert ENGINE.view(state, 0)["secrets"][1]["value"] is None
    assert ENGINE.view(state, None)["secrets"][1]["controller"] == "F-spy-1"  # control is public


def test_the_origin_of_a_secret_is_public() -> None:
    state = table(
        power="G",
        phase=MOVE,
        secrets=[{"where": "berlin", "origin": "G"}, {"where": "geneva", "origin": None}],
    )
    assert [s["origin"] for s in ENGINE.view(state, None)["secrets"]] == ["G", None]


def test_drawn_chits_are_told_only_to_the_drawer() -> None:
    state = table(power="G", phase="event", tiles={"G": ["G1"]}, spies=[("R", 2, "berlin")])
    state = act(state, {"type": "play_event", "tile": "G1"})
    russia = [e for e in ENGINE.events(state, 2) if e["event"] == "drew"]
    assert russia and russia[0]["private"] == ["R"] and len(russia[0]["chits"]) == 1
    assert not [e for e in ENGINE.events(state, 0) if e["event"] == "drew"]
    assert next(e for e in ENGINE.events(state, 0) if e["event"] == "draw")["count"] == 1


def test_reserves_are_seen_only_by_their_power() -> None:
    state = table(power="G", phase=MOVE, reserve={"G": [(5, 5), (1, 1)]})
    assert ENGINE.view(state, 0)["power_info"][0]["reserve_list"] == [
        {"strength": 5, "value": 5},
        {"strength": 1, "value": 1},
    ]
    assert ENGINE.view(state, 1)["power_info"][0]["reserve_list"] is None
    assert ENGINE.view(state, 1)["power_info"][0]["reserve"] == 2


def test_a_seat_running_two_powers_sees_both() -> None:
    state = table(
        power="G", phase=MOVE, seats=4, hands={"G": ["papers"], "I": ["cover"]}, spies=[("I", 4, "paris")]
    )
    view = ENGINE.view(state, 0)
    assert view["power_info"][0]["hand"] == ["papers"] and view["power_info"][1]["hand"] == ["cover"]
    assert view["spies"][0]["strength"] == 4
    assert ENGINE.view(state, 1)["spies"][0]["strength"] is None


def test_during_set_up_others_see_only_that_a_secret_was_placed() -> None:
    state = ENGINE.start(5, 3, {})
    state = act(state, ENGINE.legal(state, 0)[0])
    placed = next(s for s in ENGINE.view(state, 4)["secrets"] if s["origin"] == "G" and s["status"] == "map")
    assert placed["value"] is None
    assert next(s for s in ENGINE.view(state, 0)["secrets"] if s["id"] == placed["id"])["value"] is not None


def test_asking_a_view_for_a_seat_that_does_not_exist_fails() -> None:
    state = table(power="G", phase=MOVE)
    with pytest.raises(ValueError, match="no seat 5"):
        ENGINE.view(state, 5)


def test_the_board_gives_coordinates_for_drawing_the_map() -> None:
    board = ENGINE.board()
    paris = next(c for c in board["cities"] if c["id"] == "paris")
    assert paris["capital"] and 2 < paris["lon"] < 3 and 48 < paris["lat"] < 49
    assert {z["id"] for z in board["sea_zones"]} >= {"north_sea", "baltic", "black_sea"}
    assert ["london", "paris"] in board["air"]
