"""What you can do during your turn and during another player's turn, and how to win:
one scenario per sentence of the rules (``shared/rules/spies.md``), named after it."""

from __future__ import annotations

import pytest

from games.core import IllegalAction, Outcome
from games.spies import ENGINE
from games.spies.engine import (
    ARRIVAL,
    BOX,
    CAPTURED,
    COVER,
    EVADE,
    EVENT,
    MOVE,
    OFFER,
    OVER,
    POLICE,
    RECORD,
    REMOVED,
    SEARCH,
    SURPLUS,
)

from .tables import (
    act,
    final_outcome,
    finish_turn,
    last_turn,
    legal_types,
    seat,
    secret,
    setup_game,
    spy,
    table,
    with_turn,
)

DECLINE = {"type": "decline"}


# ------------------------------------------------------------------ the year track


def test_each_time_britain_ends_a_turn_the_year_advances() -> None:
    state = table(power="F", phase=MOVE)
    state = act(state, {"type": "end_turn"})
    assert state.power == 4 and state.year == 1933
    state = finish_turn(state)
    assert state.power == 0 and state.year == 1934
    assert state.phase in (EVENT, POLICE)


def test_the_game_ends_when_britain_ends_its_1939_turn() -> None:
    state = last_turn()
    state = act(state, {"type": "end_turn"})
    assert state.phase == OVER and ENGINE.to_act(state) == frozenset()
    assert ENGINE.outcome(state) is not None
    assert ENGINE.outcome(table(power="B", phase=MOVE, year=1938)) is None


def test_a_full_game_has_seven_years_of_five_turns() -> None:
    state = setup_game(5, 6)
    turns = 0
    while state.phase != OVER:
        kinds = legal_types(state)
        if "end_turn" in kinds:
            state = act(state, {"type": "end_turn"})
            turns += 1
        elif state.window is not None:
            state = act(state, ENGINE.timeout_action(state, seat(state)) or {})
        else:
            state = act(state, ENGINE.timeout_action(state, seat(state)) or {})
    assert turns == 35


# ------------------------------------------------------------------ event tiles


def test_at_the_start_of_your_turn_you_play_a_tile_of_the_current_year_or_discard_any() -> None:
    state = table(power="G", phase=EVENT, year=1936, tiles={"G": ["G1", "G4", "G5"]})
    legal = ENGINE.legal(state, 0)
    assert {"type": "play_event", "tile": "G4"} in legal and {"type": "play_event", "tile": "G5"} in legal
    assert {"type": "play_event", "tile": "G1"} not in legal  # 1933 only
    assert {"type": "discard_event", "tile": "G1"} in legal  # any tile may be discarded
    assert "end_turn" not in legal_types(state) and "police" not in legal_types(state)  # you must do one
    with pytest.raises(IllegalAction, match="marked 1936"):
        ENGINE.apply(state, 0, {"type": "play_event", "tile": "G1"})


def test_a_tile_marked_with_two_years_is_playable_in_either() -> None:
    for year, playable in ((1934, False), (1935, True), (1936, True), (1937, False)):
        state = table(power="I", phase=EVENT, year=year, tiles={"I": ["I4"]})
        assert ({"type": "play_event", "tile": "I4"} in ENGINE.legal(state, 1)) is playable


def test_a_discarded_tile_is_face_down_and_a_played_tile_face_up() -> None:
    state = table(power="G", phase=EVENT, tiles={"G": ["G1", "G2"]})
    after = act(state, {"type": "discard_event", "tile": "G2"})
    assert after.phase == POLICE and after.discards[0] == ("G2",)
    assert ENGINE.view(after, 1)["power_info"][0]["discard_list"] is None
    assert ENGINE.view(after, 0)["power_info"][0]["discard_list"] == ["G2"]
    played = act(state, {"type": "play_event", "tile": "G1"})
    assert ENGINE.view(played, 3)["played_tiles"][0]["id"] == "G1"


def test_every_player_with_a_spy_in_a_listed_city_outside_its_territory_receives_the_award() -> None:
    # G2 (1934): Munich and Berlin, 2 pounds per city
    state = table(
        power="G",
        phase=EVENT,
        year=1934,
        tiles={"G": ["G2"]},
        spies=[
            ("F", 2, "munich"),
            ("F", 3, "berlin"),
            ("B", 1, "munich"),
            ("G", 3, "munich"),
            ("I", 2, "paris"),
        ],
        money={"G": 10, "I": 10, "F": 10, "B": 10, "R": 10},
    )
    state = act(state, {"type": "play_event", "tile": "G2"})
    assert state.money == (10, 10, 10, 14, 12)  # France: two cities; Britain: one; Germany: at home


def test_there_is_no_additional_reward_for_two_spies_in_a_city() -> None:
    state = table(
        power="G",
        phase=EVENT,
        year=1934,
        tiles={"G": ["G2"]},
        spies=[("F", 2, "munich"), ("F", 3, "munich")],
        money={"F": 0},
    )
    state = act(state, {"type": "play_event", "tile": "G2"})
    assert state.money[3] == 2


def test_chit_awards_are_drawn_at_random_from_the_cup() -> None:
    # G1 (1933): Berlin and Leipzig, 1 chit per city
    play = {"type": "play_event", "tile": "G1"}
    draws = set()
    for seed in range(8):
        state = table(
            power="G",
            phase=EVENT,
            tiles={"G": ["G1"]},
            spies=[("R", 2, "berlin"), ("R", 2, "leipzig")],
            seed=seed,
        )
        after = act(state, play)
        assert len(after.hands[2]) == 2 and len(after.cup) == len(state.cup) - 2
        draws.add(after.hands[2])
    assert len(draws) > 1  # the seed decides which chits come out of the cup


def test_you_can_never_have_more_than_seven_chits_and_return_the_surplus_of_your_choice() -> None:
    six = ["papers", "papers", "cover", "cover", "sanction", "recruit"]
    state = table(
        power="G",
        phase=EVENT,
        tiles={"G": ["G1"]},
        spies=[("R", 2, "berlin"), ("R", 2, "leipzig")],
        hands={"R": six},
    )
    state = act(state, {"type": "play_event", "tile": "G1"})
    assert state.window is not None and state.window.kind == SURPLUS
    assert ENGINE.to_act(state) == {2} and len(state.hands[2]) == 8
    choices = {a["chit"] for a in ENGINE.legal(state, 2)}
    assert {"papers", "cover", "sanction", "recruit"} <= choices
    state = act(state, {"type": "return_chit", "chit": "recruit"})
    assert len(state.hands[2]) == 7 and "recruit" not in state.hands[2]
    assert state.window is None and state.phase == POLICE


# ------------------------------------------------------------------ police


def test_you_rearrange_your_police_among_your_home_country_cities_no_more_than_two_per_city() -> None:
    state = table(
        power="G",
        phase=POLICE,
        police=[("G", 3, "berlin"), ("G", 2, "berlin"), ("G", 1, "hamburg")],
    )
    cities = {a["city"] for a in ENGINE.legal(state, 0) if a["type"] == "police"}
    assert cities == set(GERMAN_CITIES)  # every home country city, not only those coded for police
    state = act(state, {"type": "police", "city": "dresden"}, {"type": "police", "city": "dresden"})
    assert {"type": "police", "city": "dresden"} not in ENGINE.legal(state, 0)  # two there already
    state = act(state, {"type": "police", "city": "berlin"})
    assert [p.where for p in state.police] == ["dresden", "dresden", "berlin"]
    assert state.phase in (SEARCH, MOVE)


GERMAN_CITIES = (
    *("berlin", "breslau", "cologne", "dresden", "frankfurt", "hamburg", "kiel", "konigsberg"),
    *("leipzig", "munich", "stettin", "stuttgart"),
)


def test_police_may_be_left_where_they_are() -> None:
    state = table(power="G", phase=POLICE, police=[("G", 3, "berlin"), ("G", 2, "munich")])
    state = act(state, {"type": "police_done"})
    assert [p.where for p in state.police] == ["berlin", "munich"]
    assert state.phase == MOVE  # no enemy spy to search: straight to movement


# ------------------------------------------------------------------ searches


def search_table(police: int | tuple[int, ...], spy_strength: int, hands: dict[str, list[str]] | None = None):  # type: ignore[no-untyped-def]
    strengths = police if isinstance(police, tuple) else (police,)
    return table(
        power="F",
        phase=SEARCH,
        police=[("F", s, "paris") for s in strengths],
        spies=[("G", spy_strength, "paris")],
        hands=hands,
        money={"G": 20},
    )


def test_you_search_every_city_containing_your_police_and_enemy_spies() -> None:
    state = table(
        power="F",
        phase=SEARCH,
        police=[("F", 2, "paris"), ("F", 1, "lyon")],
        spies=[("G", 1, "paris"), ("I", 1, "lyon"), ("B", 1, "lille"), ("F", 1, "paris")],
    )
    assert {a.get("spy") for a in ENGINE.legal(state, 3) if a["type"] == "search"} == {"G-spy-1", "I-spy-1"}


def test_police_stronger_than_the_spy_capture_it() -> None:
    state = act(search_table(3, 2), {"type": "search", "spy": "G-spy-1"})
    assert state.window is not None and state.window.kind == EVADE and ENGINE.to_act(state) == {0}
    state = act(state, DECLINE)
    assert spy(state, "G-spy-1").status == CAPTURED
    assert spy(state, "G-spy-1").captor == 3 and spy(state, "G-spy-1").year == 1933


def test_both_police_in_a_city_are_combined() -> None:
    state = act(search_table((2, 1), 2), {"type": "search", "spy": "G-spy-1"}, DECLINE)
    assert spy(state, "G-spy-1").status == CAPTURED


def test_if_the_spy_is_as_strong_or_stronger_the_search_has_no_effect() -> None:
    for strength in (3, 4):
        state = act(search_table(3, strength), {"type": "search", "spy": "G-spy-1"}, DECLINE)
        assert spy(state, "G-spy-1").where == "paris" and spy(state, "G-spy-1").status == "map"


def test_police_search_once_per_turn_for_each_enemy_spy() -> None:
    state = table(
        power="F", phase=SEARCH, police=[("F", 1, "paris")], spies=[("G", 3, "paris"), ("G", 3, "paris")]
    )
    state = act(state, {"type": "search", "spy": "G-spy-1"}, DECLINE)
    assert {"type": "search", "spy": "G-spy-1"} not in ENGINE.legal(state, 3)
    assert {"type": "search", "spy": "G-spy-2"} in ENGINE.legal(state, 3)
    state = act(state, {"type": "search", "spy": "G-spy-2"}, DECLINE)
    assert state.phase == MOVE


def test_you_announce_which_spy_you_search_first() -> None:
    state = table(
        power="F", phase=SEARCH, police=[("F", 3, "paris")], spies=[("G", 1, "paris"), ("I", 1, "paris")]
    )
    state = act(state, {"type": "search", "spy": "I-spy-1"})
    assert state.window is not None and state.window.spy == "I-spy-1" and ENGINE.to_act(state) == {1}
    assert ENGINE.view(state, None)["events"][-1] == {
        "event": "search",
        "power": "F",
        "spy": "I-spy-1",
        "city": "paris",
    }


def test_a_spy_avoids_the_comparison_by_playing_papers_or_escape() -> None:
    for chit in ("papers", "escape"):
        state = act(search_table(5, 1, hands={"G": [chit]}), {"type": "search", "spy": "G-spy-1"})
        assert {"type": chit} in ENGINE.legal(state, 0)
        state = act(state, {"type": chit})
        assert spy(state, "G-spy-1").status == "map"
        assert chit not in state.hands[0] and state.money[0] == 20 - ENGINE_COST[chit]
        assert state.cup.count(chit) > 0


ENGINE_COST = {"papers": 2, "escape": 4, "cover": 3, "discovery": 4, "sanction": 8, "recruit": 6}


def test_papers_cannot_be_played_without_the_money_to_pay_for_it() -> None:
    state = table(
        power="F",
        phase=SEARCH,
        police=[("F", 5, "paris")],
        spies=[("G", 1, "paris")],
        hands={"G": ["papers"]},
        money={"G": 1},
    )
    state = act(state, {"type": "search", "spy": "G-spy-1"})
    assert ENGINE.legal(state, 0) == [DECLINE]


# ------------------------------------------------------------------ captures and counterspies


def counterspy_table(
    counterspy: int, spy_strength: int, city: str = "berlin", controller: str | None = "G-police-1"
):  # type: ignore[no-untyped-def]
    police = [("G", 1, city)] if controller == "G-police-1" else []
    return table(
        power="F",
        phase=MOVE,
        police=police,
        spies=[("F", spy_strength, city)] + ([("G", 1, city)] if controller == "G-spy-1" else []),
        secrets=[{"where": city, "origin": "G", "counterspy": counterspy, "controller": controller}],
        hands={"F": ["discovery"]},
    )


def test_a_counterspy_stronger_than_the_discovering_spy_captures_it() -> None:
    state = counterspy_table(4, 2)
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S1"})
    assert state.window is not None and state.window.kind == COVER  # the controller is asked first
    state = act(state, DECLINE)
    assert spy(state, "F-spy-1").status == CAPTURED and spy(state, "F-spy-1").captor == 0
    assert secret(state, "S1").status == REMOVED


def test_a_spy_as_strong_as_the_counterspy_is_not_captured_but_the_counterspy_is_removed() -> None:
    for strength in (3, 4):
        state = act(
            counterspy_table(3, strength), {"type": "discover", "spy": "F-spy-1", "secret": "S1"}, DECLINE
        )
        assert spy(state, "F-spy-1").status == "map"
        assert secret(state, "S1").status == REMOVED and secret(state, "S1").where is None


def test_a_captured_spy_goes_on_the_captors_record_under_the_year() -> None:
    state = table(power="F", phase=SEARCH, year=1936, police=[("F", 3, "paris")], spies=[("G", 1, "paris")])
    state = act(state, {"type": "search", "spy": "G-spy-1"}, DECLINE)
    record = ENGINE.view(state, None)["power_info"][3]["record"]
    assert record == [{"kind": "spy", "id": "G-spy-1", "year": 1936, "value": 1, "points": 3}]


def test_a_spy_captured_by_a_counterspy_in_a_neutral_country_goes_to_the_neutral_box() -> None:
    state = counterspy_table(4, 1, city="vienna", controller="G-spy-1")
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S1"}, DECLINE)
    assert spy(state, "F-spy-1").status == BOX and spy(state, "F-spy-1").captor is None
    assert ENGINE.view(state, None)["neutral_box"] == ["F-spy-1"]
    assert ENGINE.view(state, None)["power_info"][0]["record"] == []


def test_captured_spies_return_to_play_with_an_escape_chit() -> None:
    state = table(power="F", phase=SEARCH, police=[("F", 3, "paris")], spies=[("G", 1, "paris")])
    state = act(state, {"type": "search", "spy": "G-spy-1"}, DECLINE)
    assert state.phase == MOVE  # nobody left to search
    state = finish_turn(finish_turn(state))
    assert state.power == 0 and state.year == 1934
    from dataclasses import replace

    state = replace(state, phase=MOVE, hands=(("escape",), (), (), (), ()))
    state = act(state, {"type": "escape", "spy": "G-spy-1"})
    assert spy(state, "G-spy-1").status == "map" and spy(state, "G-spy-1").where == "berlin"
    assert ENGINE.view(state, None)["power_info"][3]["victory_points"] == 0


# ------------------------------------------------------------------ movement


def mover_table(where: str = "berlin", **kw):  # type: ignore[no-untyped-def]
    return table(power="G", phase=MOVE, spies=[("G", 3, where), ("G", 2, "munich")], **kw)


def test_a_spy_moves_by_rail_and_air_one_space_per_city_entered() -> None:
    state = mover_table()
    targets = {a["to"] for a in ENGINE.legal(state, 0) if a["type"] == "move" and a["spy"] == "G-spy-1"}
    assert {"hamburg", "leipzig", "konigsberg", "paris", "vienna", "copenhagen"} <= targets  # rail and air
    state = act(state, {"type": "move", "spy": "G-spy-1", "to": "paris"})
    assert spy(state, "G-spy-1").where == "paris" and state.turn.used == 1


def test_a_spy_moves_at_most_five_spaces_per_turn() -> None:
    state = mover_table()
    for city in ("hamburg", "cologne", "frankfurt", "stuttgart", "munich"):
        state = act(state, {"type": "move", "spy": "G-spy-1", "to": city})
    assert state.turn.used == 5
    assert not any(a["type"] == "move" and a["spy"] == "G-spy-1" for a in ENGINE.legal(state, 0))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "move", "spy": "G-spy-1", "to": "vienna"})


def test_to_sea_by_sea_and_from_sea_each_count_as_a_space() -> None:
    state = table(power="B", phase=MOVE, spies=[("B", 3, "london")])
    state = act(
        state,
        {"type": "move", "spy": "B-spy-1", "to": "north_sea"},  # to sea: a ship symbol of the same zone
        {"type": "move", "spy": "B-spy-1", "to": "baltic"},  # by sea: an adjoining zone
        {"type": "move", "spy": "B-spy-1", "to": "leningrad"},  # from sea: a port of the zone
    )
    assert spy(state, "B-spy-1").where == "leningrad" and state.turn.used == 3


def test_a_spy_cannot_move_from_sea_to_a_port_of_another_zone() -> None:
    state = table(power="B", phase=MOVE, spies=[("B", 3, "london")])
    state = act(state, {"type": "move", "spy": "B-spy-1", "to": "north_sea"})
    targets = {a["to"] for a in ENGINE.legal(state, 4) if a["type"] == "move"}
    assert "leningrad" not in targets and "hamburg" in targets


def test_a_spy_cannot_end_its_movement_at_sea() -> None:
    state = table(power="B", phase=MOVE, spies=[("B", 3, "london"), ("B", 1, "dover")])
    state = act(state, {"type": "move", "spy": "B-spy-1", "to": "north_sea"})
    kinds = legal_types(state)
    assert "end_turn" not in kinds
    assert all(a["spy"] == "B-spy-1" for a in ENGINE.legal(state, 4))
    with pytest.raises(IllegalAction, match="at sea"):
        ENGINE.apply(state, 4, {"type": "end_turn"})
    # with four spaces used the spy may not even put to sea
    state = with_turn(
        table(power="B", phase=MOVE, spies=[("B", 3, "london")]),
        mover="B-spy-1",
        used=4,
        moved=frozenset({"B-spy-1"}),
    )
    assert "north_sea" not in {a["to"] for a in ENGINE.legal(state, 4) if a["type"] == "move"}


def test_you_must_finish_moving_one_spy_before_you_begin_moving_another() -> None:
    state = mover_table()
    state = act(
        state,
        {"type": "move", "spy": "G-spy-1", "to": "leipzig"},
        {"type": "move", "spy": "G-spy-2", "to": "stuttgart"},
    )
    assert not any(a["type"] == "move" and a["spy"] == "G-spy-1" for a in ENGINE.legal(state, 0))
    with pytest.raises(IllegalAction, match="already moved"):
        ENGINE.apply(state, 0, {"type": "move", "spy": "G-spy-1", "to": "berlin"})


def test_you_move_your_spies_after_searching() -> None:
    state = table(
        power="F", phase=SEARCH, police=[("F", 1, "paris")], spies=[("G", 3, "paris"), ("F", 1, "lyon")]
    )
    assert "move" not in legal_types(state)
    state = act(state, {"type": "searches_done"})
    assert state.phase == MOVE and "move" in legal_types(state)


# ------------------------------------------------------------------ controlling secrets


def test_a_foreign_secret_is_controlled_only_by_playing_a_discovery_chit() -> None:
    base = table(
        power="F", phase=MOVE, spies=[("F", 3, "vienna")], secrets=[{"where": "vienna", "origin": None}]
    )
    assert "discover" not in legal_types(base)  # no chit
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "vienna")],
        secrets=[{"where": "vienna", "origin": None, "value": 3}],
        hands={"F": ["discovery"]},
    )
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S1"})
    assert secret(state, "S1").controller == "F-spy-1"
    assert state.money[3] == 20 - 4 and "discovery" not in state.hands[3]
    assert ENGINE.view(state, 3)["secrets"][0]["value"] == 3
    assert ENGINE.view(state, 0)["secrets"][0]["value"] is None


def test_a_secret_is_uncontrolled_controlled_or_enemy_controlled() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "vienna"), ("G", 2, "prague")],
        secrets=[
            {"where": "vienna", "origin": None},
            {"where": "vienna", "origin": None, "controller": "F-spy-1"},
            {"where": "prague", "origin": None, "controller": "G-spy-1"},
        ],
    )
    view = ENGINE.view(state, 3)
    assert [s["controller"] for s in view["secrets"]] == [None, "F-spy-1", "G-spy-1"]


def test_you_may_take_an_enemy_controlled_secret_with_a_discovery() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "prague"), ("G", 2, "prague")],
        secrets=[{"where": "prague", "origin": None, "controller": "G-spy-1"}],
        hands={"F": ["discovery"]},
    )
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S1"})
    assert state.window is not None and state.window.kind == COVER and ENGINE.to_act(state) == {0}
    state = act(state, DECLINE)
    assert secret(state, "S1").controller == "F-spy-1"


def test_your_original_secret_in_your_territory_is_controlled_by_placing_a_piece_on_it() -> None:
    state = table(power="F", phase=MOVE, spies=[("F", 3, "lyon")], secrets=[{"where": "lyon", "origin": "F"}])
    assert {"type": "guard", "spy": "F-spy-1", "secret": "S1"} in ENGINE.legal(state, 3)
    assert "discover" not in legal_types(state)  # no Discovery chit needed (or used)
    state = act(state, {"type": "guard", "spy": "F-spy-1", "secret": "S1"})
    assert secret(state, "S1").controller == "F-spy-1" and state.money[3] == 20


@pytest.mark.parametrize(
    ("spies", "original"),
    [
        ([("F", 3, "madrid")], {"where": "madrid", "origin": "F"}),
        ([("F", 3, "lyon"), ("G", 1, "lyon")], {"where": "lyon", "origin": "F", "controller": "G-spy-1"}),
    ],
    ids=["out_of_your_territory", "under_enemy_control"],
)
def test_your_original_secret_out_of_your_territory_or_under_enemy_control_needs_a_discovery(
    spies: list[tuple[str, int, str]], original: dict[str, str]
) -> None:
    state = table(power="F", phase=MOVE, spies=spies, secrets=[original], hands={"F": ["discovery"]})
    assert "guard" not in legal_types(state)
    assert {"type": "discover", "spy": "F-spy-1", "secret": "S1"} in ENGINE.legal(state, 3)


def test_a_spy_that_controls_a_secret_moves_it() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "vienna")],
        secrets=[{"where": "vienna", "origin": None, "controller": "F-spy-1"}],
    )
    state = act(state, {"type": "move", "spy": "F-spy-1", "to": "munich"})
    assert secret(state, "S1").where == "munich"


def test_a_secret_is_transferred_to_another_spy_in_the_same_city_who_may_move_with_it() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "vienna"), ("F", 2, "munich")],
        secrets=[{"where": "vienna", "origin": None, "controller": "F-spy-1"}],
    )
    state = act(
        state,
        {"type": "move", "spy": "F-spy-1", "to": "munich"},
        {"type": "hand", "spy": "F-spy-1", "to": "F-spy-2"},
        {"type": "move", "spy": "F-spy-2", "to": "stuttgart"},
    )
    assert secret(state, "S1").controller == "F-spy-2" and secret(state, "S1").where == "stuttgart"
    assert spy(state, "F-spy-1").where == "munich"


def test_the_second_spy_cannot_move_the_secret_if_it_has_moved_already() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "vienna"), ("F", 2, "innsbruck")],
        secrets=[{"where": "vienna", "origin": None, "controller": "F-spy-1"}],
    )
    state = act(
        state,
        {"type": "move", "spy": "F-spy-2", "to": "munich"},
        {"type": "move", "spy": "F-spy-1", "to": "munich"},
        {"type": "hand", "spy": "F-spy-1", "to": "F-spy-2"},
    )
    assert secret(state, "S1").controller == "F-spy-2"
    assert not any(a["type"] == "move" and a["spy"] == "F-spy-2" for a in ENGINE.legal(state, 3))


def test_only_one_piece_controls_a_secret_at_a_time() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "vienna"), ("F", 2, "vienna")],
        secrets=[{"where": "vienna", "origin": None, "controller": "F-spy-1"}],
        hands={"F": ["discovery"]},
    )
    assert "discover" not in legal_types(state)  # already yours
    state = act(state, {"type": "hand", "spy": "F-spy-1", "to": "F-spy-2"})
    assert [s.controller for s in state.secrets] == ["F-spy-2"]


def test_a_foreign_secret_moved_to_your_capital_is_cashed_in_for_20_pounds_and_a_chit() -> None:
    state = table(
        power="F",
        phase=MOVE,
        year=1935,
        spies=[("F", 3, "lille")],
        secrets=[{"where": "lille", "origin": "G", "value": 4, "controller": "F-spy-1", "known": ["G", "F"]}],
        money={"F": 5},
    )
    assert "cash" not in legal_types(state)
    state = act(state, {"type": "move", "spy": "F-spy-1", "to": "paris"})
    state = act(state, {"type": "cash", "spy": "F-spy-1"})
    assert state.money[3] == 25 and len(state.hands[3]) == 1
    cashed = secret(state, "S1")
    assert cashed.status == RECORD and cashed.holder == 3 and cashed.year == 1935 and cashed.where is None
    assert ENGINE.view(state, None)["power_info"][3]["victory_points"] == 4 * 3


def test_you_may_cash_in_only_foreign_secrets_during_the_game() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "paris")],
        secrets=[{"where": "paris", "origin": "F", "controller": "F-spy-1"}],
    )
    assert "cash" not in legal_types(state)


def test_a_secret_of_a_neutral_country_is_foreign_and_its_category_never_changes() -> None:
    state = table(
        power="G",
        phase=MOVE,
        spies=[("G", 3, "leipzig")],
        secrets=[{"where": "leipzig", "origin": None, "controller": "G-spy-1", "known": ["G"]}],
    )
    state = act(state, {"type": "move", "spy": "G-spy-1", "to": "berlin"}, {"type": "cash", "spy": "G-spy-1"})
    assert secret(state, "S1").holder == 0 and secret(state, "S1").origin is None


# ------------------------------------------------------------------ chits


def test_to_play_a_chit_you_spend_its_cost_and_return_it_to_the_cup() -> None:
    state = table(power="G", phase=MOVE, hands={"G": ["recruit"]}, money={"G": 10}, reserve={"G": [(3, 3)]})
    cup = state.cup.count("recruit")
    state = act(state, {"type": "recruit", "strength": 3, "value": 3})
    assert state.money[0] == 4 and state.hands[0] == () and state.cup.count("recruit") == cup + 1


def test_discovery_sanction_recruit_and_escape_are_played_during_your_movement() -> None:
    hands = {"G": ["discovery", "sanction", "recruit", "escape"]}
    for phase in (EVENT, POLICE, SEARCH):
        state = table(power="G", phase=phase, hands=hands, tiles={"G": ["G1"]}, police=[("G", 1, "berlin")])
        assert not legal_types(state) & {"discover", "sanction", "recruit", "escape"}, phase


# ------------------------------------------------------------------ diplomacy


def test_at_any_time_during_your_turn_you_may_offer_trades_of_chits_and_money() -> None:
    for phase in (EVENT, POLICE, MOVE):
        state = table(power="G", phase=phase, tiles={"G": ["G1"]}, police=[("G", 1, "berlin")])
        offers = {a["to"] for a in ENGINE.legal(state, 0) if a["type"] == "offer"}
        assert offers == {"I", "R", "F", "B"}, phase


def test_an_offer_of_chits_for_money_is_accepted_and_carried_out() -> None:
    state = table(power="G", phase=MOVE, hands={"G": ["papers"], "F": ["cover"]}, money={"G": 10, "F": 10})
    state = act(
        state,
        {"type": "offer", "to": "F"},
        {"type": "offer_add", "item": "give_chit", "chit": "papers"},
        {"type": "offer_add", "item": "ask_money", "amount": 5},
        {"type": "offer_send"},
    )
    assert state.window is not None and state.window.kind == OFFER and ENGINE.to_act(state) == {3}
    state = act(state, {"type": "accept"})
    assert state.hands[0] == () and state.hands[3] == ("cover", "papers")
    assert state.money[0] == 15 and state.money[3] == 5
    assert state.phase == MOVE and ENGINE.to_act(state) == {0}


def test_the_other_side_may_refuse_an_offer() -> None:
    state = table(power="G", phase=MOVE, money={"G": 10, "F": 10})
    state = act(
        state,
        {"type": "offer", "to": "F"},
        {"type": "offer_add", "item": "give_money", "amount": 5},
        {"type": "offer_send"},
    )
    state = act(state, DECLINE)
    assert state.money == (10, 20, 20, 10, 20) and state.phase == MOVE


def test_concessions_may_be_asked_or_granted() -> None:
    state = table(power="G", phase=MOVE)
    state = act(
        state,
        {"type": "offer", "to": "F"},
        {"type": "offer_add", "item": "grant", "concession": "no_search"},
        {"type": "offer_add", "item": "ask", "concession": "no_sanction"},
        {"type": "offer_send"},
    )
    terms = ENGINE.view(state, 3)["offer"]
    assert terms["give"]["concessions"] == ["no_search"] and terms["ask"]["concessions"] == ["no_sanction"]
    assert ENGINE.view(state, 1)["offer"] == {"from": "G", "to": "F", "sent": True}  # others see no terms
    state = act(state, {"type": "accept"})
    assert state.phase == MOVE


def test_diplomacy_may_trade_secrets_between_different_players() -> None:
    # Germany sells the secret its spy holds in Paris to the French spy there, and buys back its
    # own secret that a French spy holds in Berlin.
    state = table(
        power="G",
        phase=MOVE,
        spies=[("G", 3, "paris"), ("F", 2, "paris"), ("F", 1, "berlin"), ("G", 2, "berlin")],
        secrets=[
            {"where": "paris", "origin": None, "value": 4, "controller": "G-spy-1", "known": ["G"]},
            {"where": "berlin", "origin": "G", "value": 3, "controller": "F-spy-2", "known": ["G", "F"]},
        ],
        money={"G": 10, "F": 10},
    )
    state = act(state, {"type": "offer", "to": "F"})
    items = [a for a in ENGINE.legal(state, 0) if a.get("item") in ("give_secret", "ask_secret")]
    assert items == [
        {"type": "offer_add", "item": "give_secret", "secret": "S1"},
        {"type": "offer_add", "item": "ask_secret", "secret": "S2"},
    ]
    state = act(
        state,
        {"type": "offer_add", "item": "give_secret", "secret": "S1"},
        {"type": "offer_add", "item": "ask_secret", "secret": "S2"},
        {"type": "offer_add", "item": "ask_money", "amount": 5},
        {"type": "offer_send"},
    )
    terms = ENGINE.view(state, 3)["offer"]
    assert terms["give"]["secrets"] == ["S1"] and terms["ask"]["secrets"] == ["S2"]
    assert ENGINE.view(state, 3)["secrets"][0]["value"] is None  # face down until it changes hands
    state = act(state, {"type": "accept"})
    assert secret(state, "S1").controller == "F-spy-1" and secret(state, "S2").controller == "G-spy-2"
    assert ENGINE.view(state, 3)["secrets"][0]["value"] == 4  # the buyer sees what it bought
    assert ENGINE.view(state, 1)["secrets"][0]["value"] is None
    assert state.money[0] == 15 and state.money[3] == 5
    accepted = next(e for e in ENGINE.events(state, None) if e["event"] == "offer_accepted")
    assert accepted["new_control"] == {"S1": "F-spy-1", "S2": "G-spy-2"}


def test_two_countries_of_one_player_cannot_exchange_secrets() -> None:
    state = table(
        power="G",
        phase=MOVE,
        seats=4,
        spies=[("G", 3, "paris"), ("I", 2, "paris"), ("F", 2, "paris")],
        secrets=[{"where": "paris", "origin": None, "controller": "G-spy-1", "known": ["G"]}],
    )
    assert {a["to"] for a in ENGINE.legal(state, 0) if a["type"] == "offer"} == {"R", "F", "B"}
    state = act(state, {"type": "offer", "to": "F"})
    assert {"type": "offer_add", "item": "give_secret", "secret": "S1"} in ENGINE.legal(state, 0)


def test_event_tiles_cannot_be_exchanged() -> None:
    state = table(power="G", phase=MOVE, tiles={"G": ["G1"]})
    state = act(state, {"type": "offer", "to": "F"})
    items = {a.get("item") for a in ENGINE.legal(state, 0)}
    assert items == {"give_money", "ask_chit", "ask_money", "grant", "ask", None}
    assert all("tile" not in a for a in ENGINE.legal(state, 0))


def test_you_cannot_initiate_negotiations_during_an_opponents_turn() -> None:
    state = table(power="G", phase=MOVE)
    for other in (1, 2, 3, 4):
        assert ENGINE.legal(state, other) == []
        with pytest.raises(IllegalAction, match="Germany's turn"):
            ENGINE.apply(state, other, {"type": "offer", "to": "G"})


# ------------------------------------------------------------------ another player's turn


def test_you_search_an_enemy_spy_each_time_it_moves_into_a_city_containing_your_police() -> None:
    state = table(
        power="G", phase=MOVE, police=[("F", 1, "paris"), ("F", 1, "lille")], spies=[("G", 3, "brussels")]
    )
    state = act(state, {"type": "move", "spy": "G-spy-1", "to": "lille"})
    assert state.window is not None and state.window.kind == ARRIVAL and ENGINE.to_act(state) == {3}
    assert ENGINE.legal(state, 3) == [{"type": "search", "spy": "G-spy-1"}, DECLINE]
    state = act(
        state, {"type": "search", "spy": "G-spy-1"}, DECLINE
    )  # France searches, Germany does not evade
    assert spy(state, "G-spy-1").status == "map"  # 1 < 3: no effect
    state = act(state, {"type": "move", "spy": "G-spy-1", "to": "paris"})
    assert state.window is not None and state.window.kind == ARRIVAL  # searched again in the next city
    state = act(state, DECLINE)
    assert state.window is None and state.phase == MOVE


def test_an_arrival_search_that_captures_ends_the_spys_move() -> None:
    state = table(power="G", phase=MOVE, police=[("F", 3, "lille")], spies=[("G", 1, "brussels")])
    state = act(
        state,
        {"type": "move", "spy": "G-spy-1", "to": "lille"},
        {"type": "search", "spy": "G-spy-1"},
        DECLINE,
    )
    assert spy(state, "G-spy-1").status == CAPTURED and spy(state, "G-spy-1").captor == 3
    assert state.turn.mover is None and "move" not in legal_types(state)


def test_you_cannot_search_for_a_spy_that_has_not_moved() -> None:
    state = table(power="G", phase=MOVE, police=[("F", 3, "lille")], spies=[("G", 1, "lille")])
    assert state.window is None
    state = act(state, {"type": "end_turn"})
    assert state.window is None and state.power == 1


def test_papers_escape_and_cover_are_played_during_an_opponents_turn() -> None:
    # Papers against an arrival search on Germany's own turn is covered above; Cover:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 3, "vienna"), ("G", 2, "vienna")],
        hands={"F": ["sanction"], "G": ["cover"]},
    )
    state = act(state, {"type": "sanction", "spy": "F-spy-1", "target": "G-spy-1"})
    assert ENGINE.to_act(state) == {0} and {"type": "cover"} in ENGINE.legal(state, 0)
    state = act(state, {"type": "cover"})
    assert spy(state, "G-spy-1").status == "map" and state.hands[0] == ()


# ------------------------------------------------------------------ winning


def test_at_the_end_secrets_in_your_territory_not_held_by_an_enemy_spy_are_counted_under_1939() -> None:
    state = last_turn(
        spies=[("G", 1, "lyon"), ("F", 1, "marseille")],
        police=[("F", 1, "paris")],
        secrets=[
            {"where": "paris", "origin": "F", "value": 3, "controller": "F-police-1"},  # controlled by you
            {"where": "bordeaux", "origin": "F", "value": 2},  # uncontrolled
            {"where": "lyon", "origin": "F", "value": 5, "controller": "G-spy-1"},  # enemy-controlled
            {"where": "madrid", "origin": "F", "value": 4},  # out of the territory
            {"where": "algiers", "origin": "F", "value": 1},  # a colony is territory
            {"where": "marseille", "origin": "F", "counterspy": 3, "controller": "F-spy-1"},  # no value
        ],
    )
    state = act(state, {"type": "end_turn"})
    counted = {s.id for s in state.secrets if s.status == RECORD}
    assert counted == {"S1", "S2", "S5"}
    assert all(secret(state, s).year == 1939 for s in counted)
    mult = 2  # 1939
    assert ENGINE.view(state, None)["power_info"][3]["victory_points"] == (3 + 2 + 1) * mult


def test_victory_points_are_value_times_the_multiple_of_the_box() -> None:
    from dataclasses import replace

    from games.spies.engine import Piece

    state = replace(
        last_turn(),
        spies=(Piece("G-spy-1", 0, True, 3, 3, None, CAPTURED, captor=3, year=1933),),
        sanctions=((3, "I-spy-1", 1935),),
    )
    outcome = final_outcome(state)
    assert outcome.detail["powers"]["F"]["victory_points"] == 3 * 4 + 2 * 3


def tied_on_points(money: dict[str, int]) -> Outcome:
    """The outcome when France and Germany each count a secret worth 3 at home (6 points)."""
    secrets = [{"where": "paris", "origin": "F", "value": 3}, {"where": "berlin", "origin": "G", "value": 3}]
    return final_outcome(last_turn(secrets=secrets, money=money))


def test_the_player_with_the_most_victory_points_wins_and_a_tie_goes_to_the_richest() -> None:
    outcome = tied_on_points({"G": 10, "F": 12, "I": 0, "R": 0, "B": 0})
    assert outcome.scores == (6.0, 0.0, 0.0, 6.0, 0.0)
    assert outcome.places[3] == 1 and outcome.places[0] == 2
    assert outcome.detail["winners"] == ["F"]


def test_an_exact_tie_in_points_and_money_shares_the_place() -> None:
    outcome = tied_on_points({"G": 10, "F": 10, "I": 0, "R": 0, "B": 0})
    assert outcome.places[0] == outcome.places[3] == 1


# ------------------------------------------------------------------ fewer than five players


def test_with_four_players_one_person_plays_germany_and_italy() -> None:
    state = table(power="I", phase=MOVE, seats=4)
    assert ENGINE.to_act(state) == {0}
    assert ENGINE.view(state, 0)["powers"] == ["G", "I"]
    assert [ENGINE.view(state, s)["powers"] for s in (1, 2, 3)] == [["R"], ["F"], ["B"]]


def test_with_three_players_one_person_also_plays_britain_and_france() -> None:
    state = table(power="B", phase=MOVE, seats=3)
    assert ENGINE.to_act(state) == {2}
    assert ENGINE.view(state, 2)["powers"] == ["F", "B"]


def test_with_two_players_russia_is_played_on_alternate_years() -> None:
    odd = table(power="R", phase=MOVE, seats=2, year=1933)
    even = table(power="R", phase=MOVE, seats=2, year=1934)
    assert ENGINE.to_act(odd) == {0} and ENGINE.to_act(even) == {1}
    assert ENGINE.view(odd, 0)["powers"] == ["G", "I", "R"] and ENGINE.view(odd, 1)["powers"] == ["F", "B"]
    assert ENGINE.view(even, 1)["powers"] == ["R", "F", "B"]


def test_two_countries_of_one_player_cannot_exchange_chits_or_money() -> None:
    state = table(power="G", phase=MOVE, seats=4)
    offers = {a["to"] for a in ENGINE.legal(state, 0) if a["type"] == "offer"}
    assert offers == {"R", "F", "B"}


def test_victory_points_are_totalled_independently_for_each_country() -> None:
    state = last_turn(
        seats=4,
        secrets=[
            {"where": "berlin", "origin": "G", "value": 2},
            {"where": "rome", "origin": "I", "value": 5},
        ],
    )
    outcome = final_outcome(state)
    assert outcome.detail["powers"]["G"]["victory_points"] == 4
    assert outcome.detail["powers"]["I"]["victory_points"] == 10
    assert outcome.scores[0] == 10.0  # the seat is ranked by its better country (ruling 20)
