"""The rulings of ``games/spies/__init__.py``, one test (or more) named after each."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from games.core import IllegalAction
from games.spies import ENGINE, SpiesState
from games.spies.engine import (
    BOARD,
    BOX,
    CAPTURED,
    COVER,
    EVADE,
    EVENT,
    MOVE,
    OVER,
    POLICE,
    REMOVED,
    SANCTIONED,
    SEARCH,
    SETUP_POLICE,
    SETUP_SECRETS,
    SURPLUS,
)

from .tables import (
    act,
    final_outcome,
    last_turn,
    legal_types,
    seat,
    secret,
    setup_game,
    spy,
    table,
)

DECLINE = {"type": "decline"}


def test_ruling_1_territory_is_the_home_country_and_colonies_police_serve_at_home_only() -> None:
    france = 3
    assert "tunis" in BOARD.territory[france] and "tunis" not in BOARD.police_cities[france]
    # an event award counts a spy in its own colony as in its own territory
    state = table(
        power="B", phase=EVENT, year=1937, tiles={"B": ["B5"]}, spies=[("B", 1, "amman"), ("F", 1, "amman")]
    )
    state = act(state, {"type": "play_event", "tile": "B5"})
    assert len(state.hands[4]) == 0 and len(state.hands[3]) == 1


def test_ruling_1_original_secrets_are_those_a_power_placed_at_set_up() -> None:
    state = ENGINE.start(5, 1, {})
    assert {s.origin for s in state.secrets if s.status == "hand"} == {0, 1, 2, 3, 4}
    assert all(s.origin is None for s in state.secrets if s.where in BOARD.secret_cities)


def test_ruling_2_set_up_goes_power_by_power_secrets_police_then_spies() -> None:
    state = ENGINE.start(5, 1, {})
    phases = []
    while state.phase.startswith("setup"):
        step = (state.power, state.phase)
        if not phases or phases[-1] != step:
            phases.append(step)
        legal = ENGINE.legal(state, seat(state))
        state = act(state, next((a for a in legal if a["type"] != "spies_done"), legal[0]))
    expected = [(p, ph) for p in range(5) for ph in ("setup_secrets", "setup_police", "setup_spies")]
    assert phases == expected
    assert all(len(h) == 3 for h in state.hands)  # chits drawn at the end


def test_ruling_2_secrets_are_placed_one_at_a_time_in_table_order() -> None:
    state = ENGINE.start(5, 1, {})
    assert state.phase == SETUP_SECRETS
    first = ENGINE.view(state, 0)["placing_secret"]
    assert first == "S1"
    state = act(state, ENGINE.legal(state, 0)[0])
    assert ENGINE.view(state, 0)["placing_secret"] == "S2"


def test_ruling_3_face_down_pieces_show_nationality_but_not_strength() -> None:
    state = table(power="G", phase=MOVE, spies=[("G", 4, "paris")], police=[("F", 3, "paris")])
    view = ENGINE.view(state, 3)
    assert view["spies"][0]["power"] == "G" and view["spies"][0]["strength"] is None
    assert ENGINE.view(state, 0)["spies"][0]["strength"] == 4
    assert ENGINE.view(state, 0)["police"][0]["strength"] is None


def test_ruling_3_piece_ids_follow_the_order_of_placement_not_strength() -> None:
    state = setup_game(5, 2)
    german = [s for s in state.spies if s.power == 0]
    assert [s.id for s in german] == [f"G-spy-{n}" for n in range(1, len(german) + 1)]
    other = ENGINE.start(5, 2, {})
    # placing the weakest spy first gives it id 1
    while other.phase != "setup_spies":
        other = act(other, ENGINE.legal(other, 0)[0])
    other = act(other, {"type": "place_spy", "strength": 1, "value": 1, "city": "rome"})
    assert other.spies[0].id == "G-spy-1" and other.spies[0].strength == 1


def test_ruling_3_captured_spies_and_cashed_secrets_lie_face_up() -> None:
    state = table(power="F", phase=SEARCH, police=[("F", 3, "paris")], spies=[("G", 2, "paris")])
    state = act(state, {"type": "search", "spy": "G-spy-1"}, DECLINE)
    assert ENGINE.view(state, 4)["spies"][0]["strength"] == 2


def test_ruling_4_police_are_re_placed_one_at_a_time_and_can_swap_full_cities() -> None:
    state = table(
        power="G",
        phase=POLICE,
        police=[("G", 3, "berlin"), ("G", 3, "berlin"), ("G", 1, "munich"), ("G", 1, "munich")],
    )
    assert ENGINE.view(state, 0)["step"]["police_next"] == "G-police-1"
    state = act(state, {"type": "police", "city": "munich"})
    assert {"type": "police_done"} not in ENGINE.legal(state, 0)  # Munich would hold 3
    state = act(
        state,
        {"type": "police", "city": "munich"},
        {"type": "police", "city": "berlin"},
        {"type": "police", "city": "berlin"},
    )
    assert [(p.strength, p.where) for p in state.police] == [
        (3, "munich"),
        (3, "munich"),
        (1, "berlin"),
        (1, "berlin"),
    ]
    assert state.phase == MOVE


def test_ruling_4_police_are_re_arranged_in_any_home_city_but_set_up_in_police_cities() -> None:
    assert "kiel" in BOARD.home_cities[0] and "kiel" not in BOARD.police_cities[0]
    state = table(
        power="G", phase=POLICE, police=[("G", 3, "berlin")], secrets=[{"where": "kiel", "origin": "G"}]
    )
    state = act(state, {"type": "police", "city": "kiel"})
    assert state.police[0].where == "kiel"
    assert secret(state, "S1").controller == "G-police-1"  # and control their secret there
    start = ENGINE.start(5, 2, {})
    while start.phase != SETUP_POLICE:
        start = act(start, ENGINE.legal(start, 0)[0])
    assert {a["city"] for a in ENGINE.legal(start, 0)} == set(BOARD.police_cities[0])
    # every power re-arranges among all its home cities (Germany: Dresden, Kiel, Leipzig,
    # Stettin and Stuttgart too), never in a colony
    for p, code in enumerate("GIRFB"):
        state = table(power=code, phase=POLICE, police=[(code, 1, BOARD.capitals[p])])
        cities = {a["city"] for a in ENGINE.legal(state, seat(state)) if a["type"] == "police"}
        assert cities == set(BOARD.home_cities[p]) and cities > set(BOARD.police_cities[p]), code
    assert {"dresden", "kiel", "leipzig", "stettin", "stuttgart"} <= set(BOARD.home_cities[0])


def test_ruling_5_police_control_their_original_secrets_automatically() -> None:
    state = table(
        power="G",
        phase=POLICE,
        police=[("G", 2, "berlin")],
        secrets=[{"where": "munich", "origin": "G"}, {"where": "munich", "origin": None}],
    )
    state = act(state, {"type": "police", "city": "munich"})
    assert secret(state, "S1").controller == "G-police-1"
    assert secret(state, "S2").controller is None  # not its own secret


def test_ruling_5_police_that_move_away_lose_control() -> None:
    state = table(
        power="G",
        phase=POLICE,
        police=[("G", 2, "munich")],
        secrets=[{"where": "munich", "origin": "G", "controller": "G-police-1"}],
    )
    state = act(state, {"type": "police", "city": "berlin"})
    assert secret(state, "S1").controller is None


def test_ruling_5_a_piece_controls_at_most_one_secret() -> None:
    state = table(
        power="G",
        phase=MOVE,
        spies=[("G", 2, "munich")],
        secrets=[
            {"where": "munich", "origin": "G", "controller": "G-spy-1"},
            {"where": "munich", "origin": "G"},
        ],
    )
    assert "guard" not in legal_types(state)


def test_ruling_5_a_spy_hands_an_original_secret_at_home_to_police() -> None:
    state = table(
        power="G",
        phase=MOVE,
        spies=[("G", 2, "munich")],
        police=[("G", 1, "munich")],
        secrets=[{"where": "munich", "origin": "G", "controller": "G-spy-1"}],
    )
    state = act(state, {"type": "hand", "spy": "G-spy-1", "to": "G-police-1"})
    assert secret(state, "S1").controller == "G-police-1"


def test_ruling_6_the_spys_owner_is_always_asked_even_without_chits() -> None:
    state = table(power="F", phase=SEARCH, police=[("F", 1, "paris")], spies=[("G", 2, "paris")])
    state = act(state, {"type": "search", "spy": "G-spy-1"})
    assert state.window is not None and state.window.kind == EVADE and ENGINE.legal(state, 0) == [DECLINE]


def test_ruling_6_both_sides_see_both_strengths_and_the_table_only_the_result() -> None:
    state = table(power="F", phase=SEARCH, police=[("F", 2, "paris")], spies=[("G", 3, "paris")])
    state = act(state, {"type": "search", "spy": "G-spy-1"}, DECLINE)
    assert ENGINE.view(state, 3)["spies"][0]["strength"] == 3
    assert ENGINE.view(state, 0)["police"][0]["strength"] == 2
    assert ENGINE.view(state, 1)["spies"][0]["strength"] is None
    assert ENGINE.view(state, 1)["police"][0]["strength"] is None
    public = [e for e in ENGINE.events(state, 1) if e["event"] == "search_result"]
    assert public == [
        {"event": "search_result", "power": "F", "spy": "G-spy-1", "city": "paris", "result": "no effect"}
    ]
    private = [e for e in ENGINE.events(state, 0) if e["event"] == "comparison"]
    assert private[0]["spy_strength"] == 3 and private[0]["police_strength"] == 2


def test_ruling_7_a_spy_passing_through_a_police_city_may_be_searched() -> None:
    state = table(power="G", phase=MOVE, police=[("F", 1, "lille")], spies=[("G", 3, "brussels")])
    state = act(state, {"type": "move", "spy": "G-spy-1", "to": "lille"})
    assert ENGINE.to_act(state) == {3}


def test_ruling_7_recruited_spies_have_not_moved() -> None:
    state = table(
        power="F", phase=MOVE, police=[("G", 3, "paris")], hands={"F": ["recruit"]}, reserve={"F": [(2, 2)]}
    )
    state = act(state, {"type": "recruit", "strength": 2, "value": 2})
    assert state.window is None and spy(state, "F-spy-1").where == "paris"


def test_ruling_8_an_uncontrolled_counterspy_is_removed_with_no_effect() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 1, "vienna")],
        secrets=[{"where": "vienna", "origin": None, "counterspy": 5}],
        hands={"F": ["discovery"]},
    )
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S1"})
    assert secret(state, "S1").status == REMOVED and spy(state, "F-spy-1").status == "map"


def test_ruling_8_papers_do_not_avoid_a_counterspy() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 1, "berlin"), ("G", 1, "berlin")],
        secrets=[{"where": "berlin", "origin": "G", "counterspy": 3, "controller": "G-spy-1"}],
        hands={"F": ["discovery", "papers"]},
    )
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S1"})
    assert state.window is not None and state.window.kind == COVER and ENGINE.to_act(state) == {0}
    state = act(state, DECLINE)
    assert spy(state, "F-spy-1").status == CAPTURED and "papers" in state.hands[3]


def test_ruling_8_counterspies_have_no_victory_point_value() -> None:
    assert all(s.value == 0 for s in BOARD.secrets if s.counterspy)


def test_ruling_8_a_counterspy_capture_outside_neutral_countries_goes_to_the_record() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 1, "tripoli"), ("I", 1, "tripoli")],
        secrets=[{"where": "tripoli", "origin": "I", "counterspy": 3, "controller": "I-spy-1"}],
        hands={"F": ["discovery"]},
    )
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S1"}, DECLINE)
    assert spy(state, "F-spy-1").status == CAPTURED and spy(state, "F-spy-1").captor == 1


def test_ruling_9_a_spy_that_controls_a_secret_cannot_discover_another() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 2, "vienna")],
        secrets=[
            {"where": "vienna", "origin": None, "controller": "F-spy-1"},
            {"where": "vienna", "origin": None},
        ],
        hands={"F": ["discovery"]},
    )
    assert "discover" not in legal_types(state)


def test_ruling_9_a_covered_discovery_shows_nothing() -> None:
    state = table(
        power="F",
        phase=MOVE,
        spies=[("F", 2, "prague"), ("G", 1, "prague")],
        secrets=[{"where": "prague", "origin": None, "controller": "G-spy-1", "known": ["G"]}],
        hands={"F": ["discovery"], "G": ["cover"]},
    )
    state = act(state, {"type": "discover", "spy": "F-spy-1", "secret": "S1"}, {"type": "cover"})
    assert secret(state, "S1").controller == "G-spy-1" and 3 not in secret(state, "S1").known
    assert state.money[3] == 16 and state.money[0] == 17


def test_ruling_10_cover_is_asked_of_the_defender_even_without_a_chit() -> None:
    state = table(
        power="F", phase=MOVE, spies=[("F", 2, "prague"), ("G", 1, "prague")], hands={"F": ["sanction"]}
    )
    state = act(state, {"type": "sanction", "spy": "F-spy-1", "target": "G-spy-1"})
    assert ENGINE.legal(state, 0) == [DECLINE]


def test_ruling_11_a_sanctioned_spy_is_removed_for_good_and_scores_a_marker() -> None:
    state = table(
        power="F",
        phase=MOVE,
        year=1934,
        spies=[("F", 2, "prague"), ("G", 5, "prague")],
        secrets=[{"where": "prague", "origin": None, "controller": "G-spy-1"}],
        hands={"F": ["sanction"]},
    )
    state = act(state, {"type": "sanction", "spy": "F-spy-1", "target": "G-spy-1"}, DECLINE)
    assert spy(state, "G-spy-1").status == SANCTIONED and spy(state, "G-spy-1").where is None
    assert secret(state, "S1").controller is None
    assert state.sanctions == ((3, "G-spy-1", 1934),)
    assert ENGINE.view(state, None)["power_info"][3]["victory_points"] == BOARD.sanction_marker_value * 4
    assert "escape" not in legal_types(replace(state, power=0, hands=(("escape",), (), (), (), ())))


def test_ruling_12_a_recruited_spy_enters_the_capital_and_may_move() -> None:
    state = table(power="I", phase=MOVE, hands={"I": ["recruit"]}, reserve={"I": [(4, 4), (1, 1)]})
    assert {a["strength"] for a in ENGINE.legal(state, 1) if a["type"] == "recruit"} == {4, 1}
    state = act(state, {"type": "recruit", "strength": 4, "value": 4})
    assert spy(state, "I-spy-1").where == "rome"
    assert any(a["type"] == "move" and a["spy"] == "I-spy-1" for a in ENGINE.legal(state, 1))


def test_ruling_12_an_escaped_spy_leaves_the_neutral_box_for_the_capital() -> None:
    from games.spies.engine import Piece

    state = table(power="R", phase=MOVE, hands={"R": ["escape"]})
    state = replace(state, spies=(Piece("R-spy-1", 2, True, 2, 2, None, BOX),))
    state = act(state, {"type": "escape", "spy": "R-spy-1"})
    assert spy(state, "R-spy-1").where == "moscow" and spy(state, "R-spy-1").status == "map"


def test_ruling_13_no_chit_is_played_while_a_spy_is_at_sea() -> None:
    state = table(
        power="B",
        phase=MOVE,
        spies=[("B", 3, "london"), ("B", 1, "london")],
        hands={"B": ["recruit"]},
        reserve={"B": [(1, 1)]},
    )
    assert "recruit" in legal_types(state)
    state = act(state, {"type": "move", "spy": "B-spy-1", "to": "north_sea"})
    assert legal_types(state) == {"move"}


def test_ruling_14_beginning_another_spy_finishes_the_first() -> None:
    state = table(power="G", phase=MOVE, spies=[("G", 3, "berlin"), ("G", 2, "munich")])
    state = act(
        state,
        {"type": "move", "spy": "G-spy-1", "to": "leipzig"},
        {"type": "move", "spy": "G-spy-2", "to": "vienna"},
    )
    assert state.turn.mover == "G-spy-2" and state.turn.used == 1
    assert state.turn.moved == {"G-spy-1", "G-spy-2"}


def test_ruling_15_cashing_in_is_a_choice_made_in_the_capital() -> None:
    state = table(
        power="G",
        phase=MOVE,
        spies=[("G", 3, "berlin")],
        secrets=[{"where": "berlin", "origin": None, "controller": "G-spy-1", "known": ["G"]}],
    )
    assert {"type": "cash", "spy": "G-spy-1"} in ENGINE.legal(state, 0)
    moved = act(state, {"type": "move", "spy": "G-spy-1", "to": "hamburg"})
    assert secret(moved, "S1").status == "map" and secret(moved, "S1").where == "hamburg"


def test_ruling_16_a_power_without_tiles_skips_the_event_step() -> None:
    state = table(power="F", phase=MOVE, tiles={"B": []})
    state = act(state, {"type": "end_turn"})
    assert state.power == 4 and state.phase == POLICE


def test_ruling_16_an_empty_cup_gives_nothing() -> None:
    state = table(power="G", phase=EVENT, tiles={"G": ["G1"]}, spies=[("R", 2, "berlin")])
    state = replace(state, cup=())
    state = act(state, {"type": "play_event", "tile": "G1"})
    assert state.hands[2] == () and state.phase == POLICE


def test_ruling_17_powers_over_the_limit_return_chits_one_at_a_time_in_turn_order() -> None:
    seven = ["papers"] * 7
    state = table(
        power="G",
        phase=EVENT,
        tiles={"G": ["G1"]},
        spies=[("I", 2, "berlin"), ("R", 2, "berlin")],
        hands={"I": seven, "R": ["cover"] * 7},
    )
    state = act(state, {"type": "play_event", "tile": "G1"})
    assert state.window is not None and state.window.kind == SURPLUS and state.window.power == 1
    state = act(state, {"type": "return_chit", "chit": "papers"})
    assert state.window is not None and state.window.power == 2
    state = act(state, {"type": "return_chit", "chit": "cover"})
    assert state.window is None and state.phase == POLICE
    assert [e["event"] for e in ENGINE.events(state, 0)][-2:] == ["return_chit", "return_chit"]


def test_ruling_18_an_offer_can_be_accepted_only_by_a_power_able_to_pay() -> None:
    state = table(power="G", phase=MOVE, hands={"F": []})
    state = act(
        state,
        {"type": "offer", "to": "F"},
        {"type": "offer_add", "item": "ask_chit", "chit": "cover"},
        {"type": "offer_send"},
    )
    assert ENGINE.legal(state, 3) == [DECLINE]


def trade_table(**changes: Any) -> SpiesState:
    args: dict[str, Any] = {
        "power": "G",
        "phase": MOVE,
        "spies": [("G", 3, "paris"), ("F", 2, "paris")],
        "secrets": [{"where": "paris", "origin": None, "value": 4, "controller": "G-spy-1", "known": ["G"]}],
    }
    args.update(changes)
    return table(**args)


def test_ruling_18_a_traded_secret_goes_to_a_spy_of_the_other_side_that_controls_nothing() -> None:
    # no French spy in Paris, or only one that already controls a secret: nothing to trade
    alone = trade_table(spies=[("G", 3, "paris"), ("F", 2, "lyon")])
    busy = trade_table(
        secrets=[
            {"where": "paris", "origin": None, "controller": "G-spy-1", "known": ["G"]},
            {"where": "paris", "origin": "F", "controller": "F-spy-1"},
        ]
    )
    for state in (alone, busy):
        state = act(state, {"type": "offer", "to": "F"})
        assert not [a for a in ENGINE.legal(state, 0) if a.get("item") == "give_secret"]
    # one free spy takes one secret: a second secret in the same city waits for a second spy
    two = trade_table(
        spies=[("G", 3, "paris"), ("G", 2, "paris"), ("F", 2, "paris")],
        secrets=[
            {"where": "paris", "origin": None, "controller": "G-spy-1", "known": ["G"]},
            {"where": "paris", "origin": None, "controller": "G-spy-2", "known": ["G"]},
        ],
    )
    two = act(two, {"type": "offer", "to": "F"}, {"type": "offer_add", "item": "give_secret", "secret": "S1"})
    assert not [a for a in ENGINE.legal(two, 0) if a.get("item") == "give_secret"]


def test_ruling_18_a_traded_counterspy_is_removed_with_no_effect() -> None:
    state = trade_table(
        police=[("F", 1, "paris")],
        spies=[("G", 1, "paris")],
        secrets=[{"where": "paris", "origin": "F", "counterspy": 5, "controller": "F-police-1"}],
    )
    state = act(state, {"type": "offer", "to": "F"})
    # asking for a secret shows nothing of it: any the other side controls where you have a free spy
    assert {"type": "offer_add", "item": "ask_secret", "secret": "S1"} in ENGINE.legal(state, 0)
    state = act(
        state,
        {"type": "offer_add", "item": "ask_secret", "secret": "S1"},
        {"type": "offer_send"},
        {"type": "accept"},
    )
    assert secret(state, "S1").status == REMOVED and spy(state, "G-spy-1").status == "map"
    assert ENGINE.view(state, None)["secrets"][0]["counterspy"] is True


def test_ruling_18_offers_per_turn_are_limited_by_the_option() -> None:
    state = table(power="G", phase=MOVE, offers_per_turn=1)
    state = act(state, {"type": "offer", "to": "F"}, {"type": "offer_cancel"})
    assert "offer" not in legal_types(state)
    assert "offer" not in legal_types(table(power="G", phase=MOVE, offers_per_turn=0))


def test_ruling_18_no_offer_while_a_spy_is_at_sea() -> None:
    state = table(power="B", phase=MOVE, spies=[("B", 3, "london")])
    state = act(state, {"type": "move", "spy": "B-spy-1", "to": "north_sea"})
    assert "offer" not in legal_types(state)


def test_ruling_19_foreign_secrets_not_cashed_in_score_nothing() -> None:
    state = last_turn(
        spies=[("F", 1, "lyon")],
        secrets=[{"where": "lyon", "origin": None, "value": 5, "controller": "F-spy-1", "known": ["F"]}],
    )
    state = act(state, {"type": "end_turn"})
    assert state.phase == OVER and secret(state, "S1").status == "map"
    assert ENGINE.view(state, None)["power_info"][3]["victory_points"] == 0


def test_ruling_20_a_seat_with_two_powers_is_ranked_by_its_better_power() -> None:
    state = last_turn(
        seats=3,
        secrets=[
            {"where": "rome", "origin": "I", "value": 1},
            {"where": "moscow", "origin": "R", "value": 2},
            {"where": "paris", "origin": "F", "value": 1},
            {"where": "london", "origin": "B", "value": 1},
        ],
    )
    outcome = final_outcome(state)
    assert outcome.scores == (2.0, 4.0, 2.0)
    assert outcome.places == (2, 1, 2)
    assert outcome.detail["scored_power"] == ["I", "R", "F"]  # the richer of F and B (equal: first)


def test_ruling_20_in_the_two_player_game_russia_belongs_to_no_seat_and_both_see_it() -> None:
    state = last_turn(
        seats=2,
        secrets=[{"where": "moscow", "origin": "R", "value": 5}],
        hands={"R": ["papers"]},
    )
    assert ENGINE.view(state, 0)["power_info"][2]["hand"] == ["papers"]
    assert ENGINE.view(state, 1)["power_info"][2]["hand"] == ["papers"]
    outcome = final_outcome(state)
    assert outcome.scores == (0.0, 0.0)
    assert outcome.detail["powers"]["R"]["seat"] is None and outcome.detail["winners"] == ["R"]


def test_ruling_20_what_a_player_learns_running_russia_stays_with_that_player() -> None:
    # 1934: the French-British player runs Russia, and a Russian spy discovers Vienna's secret.
    state = table(
        power="R",
        phase=MOVE,
        seats=2,
        year=1934,
        spies=[("R", 3, "vienna")],
        secrets=[{"where": "vienna", "origin": None, "value": 4}],
        hands={"R": ["discovery"]},
    )
    assert ENGINE.to_act(state) == {1}
    state = act(state, {"type": "discover", "spy": "R-spy-1", "secret": "S1"})
    assert ENGINE.view(state, 1)["secrets"][0]["value"] == 4
    assert ENGINE.view(state, 0)["secrets"][0]["value"] is None
    assert not [e for e in ENGINE.events(state, 0) if e["event"] == "secret_seen"]
    # 1935: Russia changes hands; what each player knows does not.
    state = replace(state, year=1935)
    assert ENGINE.to_act(state) == {0}
    assert ENGINE.view(state, 0)["secrets"][0]["value"] is None
    assert ENGINE.view(state, 1)["secrets"][0]["value"] == 4
    assert [e["value"] for e in ENGINE.events(state, 1) if e["event"] == "secret_seen"] == [4]
    # Russia's own things stay open to both: its spy's strength, its chits
    assert ENGINE.view(state, 0)["spies"][0]["strength"] == ENGINE.view(state, 1)["spies"][0]["strength"] == 3


def test_ruling_20_russia_changes_hands_when_the_year_changes() -> None:
    state = table(power="B", phase=MOVE, seats=2, year=1933)
    state = act(state, {"type": "end_turn"})
    while state.power != 2:
        state = act(state, ENGINE.timeout_action(state, seat(state)) or {})
    assert state.year == 1934 and ENGINE.to_act(state) == {1}


def test_ruling_21_a_players_two_powers_never_search_each_other() -> None:
    state = table(
        power="G",
        phase=SEARCH,
        seats=4,
        police=[("G", 3, "berlin")],
        spies=[("I", 1, "berlin"), ("F", 1, "berlin")],
    )
    assert {a["spy"] for a in ENGINE.legal(state, 0) if a["type"] == "search"} == {"F-spy-1"}
    # nor on arrival: an Italian spy entering a city of German police is not searched
    arriving = table(power="I", phase=MOVE, seats=4, police=[("G", 3, "berlin")], spies=[("I", 1, "leipzig")])
    arriving = act(arriving, {"type": "move", "spy": "I-spy-1", "to": "berlin"})
    assert arriving.window is None
    five = table(power="I", phase=MOVE, seats=5, police=[("G", 3, "berlin")], spies=[("I", 1, "leipzig")])
    five = act(five, {"type": "move", "spy": "I-spy-1", "to": "berlin"})
    assert five.window is not None and five.window.kind == "arrival"


def test_ruling_21_a_player_never_sanctions_its_other_powers_spy_nor_takes_its_secrets() -> None:
    def rome(seats: int) -> SpiesState:
        return table(
            power="G",
            phase=MOVE,
            seats=seats,
            spies=[("G", 4, "rome"), ("I", 1, "rome"), ("G", 3, "rome")],
            police=[("I", 1, "rome")],
            secrets=[
                {"where": "rome", "origin": "I", "controller": "I-police-1"},
                {"where": "rome", "origin": None, "controller": "I-spy-1", "known": ["I"]},
                {"where": "rome", "origin": "I"},
            ],
            hands={"G": ["discovery", "sanction"]},
            money={"G": 30},
        )

    four = rome(4)
    assert not {"discover", "sanction"} & legal_types(four)
    five = rome(5)
    assert {a["secret"] for a in ENGINE.legal(five, 0) if a["type"] == "discover"} == {"S1", "S2", "S3"}
    assert {a["target"] for a in ENGINE.legal(five, 0) if a["type"] == "sanction"} == {"I-spy-1"}


def test_ruling_21_a_player_never_takes_its_other_powers_secret_in_a_trade() -> None:
    # France holds an Italian secret in Paris where a German spy is free: Germany may not ask
    # for it (Discovery could not take it either), nor may France give it to Germany.
    def paris(seats: int, power: str = "G") -> SpiesState:
        return table(
            power=power,
            phase=MOVE,
            seats=seats,
            spies=[("G", 3, "paris"), ("F", 2, "paris"), ("F", 1, "paris")],
            secrets=[
                {"where": "paris", "origin": "I", "controller": "F-spy-1", "known": ["I", "F"]},
                {"where": "paris", "origin": None, "controller": "F-spy-2", "known": ["F"]},
            ],
        )

    def secrets_on_offer(state: SpiesState, who: int, item: str) -> set[str]:
        return {a["secret"] for a in ENGINE.legal(state, who) if a.get("item") == item}

    asking = act(paris(4), {"type": "offer", "to": "F"})
    assert secrets_on_offer(asking, 0, "ask_secret") == {"S2"}
    giving = act(paris(4, "F"), {"type": "offer", "to": "G"})
    assert secrets_on_offer(giving, 2, "give_secret") == {"S2"}
    with pytest.raises(IllegalAction):
        act(giving, {"type": "offer_add", "item": "give_secret", "secret": "S1"})
    # between five players Germany and Italy are rivals: the Italian secret may change hands
    assert secrets_on_offer(act(paris(5), {"type": "offer", "to": "F"}), 0, "ask_secret") == {"S1", "S2"}


def test_ruling_21_in_the_two_player_game_russia_is_one_of_its_players_powers_that_year() -> None:
    # 1933: the German-Italian player runs Russia; German police cannot search the Russian spy.
    odd = table(
        power="G", phase=SEARCH, seats=2, year=1933, police=[("G", 3, "berlin")], spies=[("R", 2, "berlin")]
    )
    assert "search" not in legal_types(odd)
    even = replace(odd, year=1934)
    assert "search" in legal_types(even)
    # A German secret a Russian spy took in another year is not cashed in by Russia while the
    # German-Italian player runs it; a German spy does not escape from Russia's record then either.
    cash = table(
        power="R",
        phase=MOVE,
        seats=2,
        year=1935,
        spies=[("R", 2, "moscow")],
        secrets=[{"where": "moscow", "origin": "G", "controller": "R-spy-1", "known": ["G", "R"]}],
    )
    assert "cash" not in legal_types(cash)
    assert "cash" in legal_types(replace(cash, year=1934))
    escape = table(
        power="G", phase=MOVE, seats=2, year=1935, spies=[("G", 2, "paris")], hands={"G": ["escape"]}
    )
    captured = replace(escape.spies[0], status=CAPTURED, where=None, captor=2, year=1934)
    escape = replace(escape, spies=(captured,))
    assert "escape" not in legal_types(escape)
    assert "escape" in legal_types(replace(escape, year=1936))


def test_ruling_22_turn_clock_keys_change_with_each_turn() -> None:
    state = table(power="F", phase=MOVE, turn_minutes=5)
    assert ENGINE.turn_clock(state) == {"key": "1933:F", "seconds": 300}
    state = act(state, {"type": "end_turn"})
    assert ENGINE.turn_clock(state) == {"key": "1933:B", "seconds": 300}


def test_ruling_22_timeout_actions_finish_a_turn() -> None:
    state = table(
        power="G", phase=EVENT, tiles={"G": ["G1", "G2"]}, police=[("G", 1, "berlin")], turn_minutes=5
    )
    moves = []
    while state.power == 0:
        action = ENGINE.timeout_action(state, seat(state))
        assert action is not None
        moves.append(action["type"])
        state = act(state, action)
    assert moves == ["discard_event", "police_done", "end_turn"]


def test_ruling_22_a_timeout_lands_a_spy_at_sea() -> None:
    state = table(power="B", phase=MOVE, spies=[("B", 3, "london")])
    state = act(state, {"type": "move", "spy": "B-spy-1", "to": "north_sea"})
    action = ENGINE.timeout_action(state, 4)
    assert action is not None and action["type"] == "move" and action["to"] not in BOARD.sea_zones
    assert ENGINE.timeout_action(state, 0) is None


def test_ruling_22_a_timed_out_set_up_places_everything_at_random_within_the_rules() -> None:
    orders: set[tuple[int, ...]] = set()
    for seed in range(4):
        state = ENGINE.start(5, seed, {"turn_minutes": 5})
        while state.phase.startswith("setup"):
            action = ENGINE.timeout_action(state, seat(state))
            assert action is not None and action["type"] != "spies_done"
            state = act(state, action)
        for p, setup in enumerate(BOARD.powers):
            assert sum(1 for s in state.spies if s.power == p) == setup.spies_at_start  # spies too
            police = [piece for piece in state.police if piece.power == p]
            assert sorted(piece.strength for piece in police) == sorted(setup.police)
            assert all(piece.where in BOARD.police_cities[p] for piece in police)
            orders.add(tuple(piece.strength for piece in police))
    # the table ids of the police say nothing of their strengths: not strongest first
    assert any(list(order) != sorted(order, reverse=True) for order in orders)
    assert len(orders) > 10


def test_rulings_are_all_written_in_the_docstring() -> None:
    import games.spies

    doc = games.spies.__doc__ or ""
    for n in range(1, 23):
        assert f"\n{n}. **" in doc or f"\n{n:>2}. **" in doc or f" {n}. **" in doc, n


@pytest.mark.parametrize(
    "bad", [{"type": "fly"}, {"type": "move"}, {"type": "end_turn", "now": True}, "end_turn", None]
)
def test_illegal_actions_are_refused_with_a_reason(bad: object) -> None:
    state = table(power="G", phase=MOVE, spies=[("G", 3, "berlin")])
    with pytest.raises(IllegalAction) as info:
        ENGINE.apply(state, 0, bad)
    assert info.value.reason
