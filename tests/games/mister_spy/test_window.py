"""The reaction window after a taunt: who is asked, what they may do, what the table sees."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.core import IllegalAction
from games.mister_spy import ENGINE
from games.mister_spy.engine import CAPTIVE, TURN, WINDOW, MisterSpyState

from .tables import play, table

LET_PASS = {"type": "let_pass"}
FOIL_A = {"type": "foil", "card": "taunt-A"}


def taunted(hands: list[list[str]]) -> MisterSpyState:
    """Seat 0 captured a spy-3 and taunted it with taunt-A."""
    state = table(hands, lairs=[[("lair-3", True)]] + [[] for _ in hands[1:]])
    return play(
        state,
        (0, {"type": "capture", "card": "spy-3", "reveal": []}),
        (0, {"type": "taunt", "card": "taunt-A"}),
    )


def test_every_opponent_is_asked_at_the_same_time_whether_or_not_they_can_foil() -> None:
    state = taunted([["spy-3", "taunt-A"], ["lair-2"], ["taunt-A"], ["spy-2"]])
    assert state.phase == WINDOW
    assert ENGINE.to_act(state) == {1, 2, 3}
    assert ENGINE.legal(state, 0) == []  # the taunter is not asked
    assert ENGINE.legal(state, 1) == [LET_PASS]
    assert ENGINE.legal(state, 2) == [LET_PASS, FOIL_A]
    assert ENGINE.legal(state, 3) == [LET_PASS]


def test_foil_is_offered_only_to_a_seat_holding_the_matching_letter() -> None:
    state = taunted([["spy-3", "taunt-A"], ["taunt-B"], []])
    for seat in (1, 2):
        with pytest.raises(IllegalAction, match="do not hold"):
            ENGINE.apply(state, seat, FOIL_A)
    with pytest.raises(IllegalAction, match="Only the other Taunt A"):
        ENGINE.apply(state, 1, {"type": "foil", "card": "taunt-B"})


def test_the_taunter_cannot_answer_its_own_taunt() -> None:
    state = taunted([["spy-3", "taunt-A"], [], []])
    with pytest.raises(IllegalAction, match="own taunt"):
        ENGINE.apply(state, 0, LET_PASS)


def test_the_window_closes_only_when_every_opponent_has_answered() -> None:
    state = taunted([["spy-3", "taunt-A"], [], ["taunt-A"], []])
    state = ENGINE.apply(state, 2, FOIL_A)
    assert state.phase == WINDOW and ENGINE.to_act(state) == {1, 3}
    assert "taunt-A" in state.hands[2]  # nothing happens before the window closes
    state = ENGINE.apply(state, 3, LET_PASS)
    assert state.phase == WINDOW
    state = ENGINE.apply(state, 1, LET_PASS)
    assert state.phase == TURN and state.turn == 1
    assert "taunt-A" not in state.hands[2]


def test_a_window_where_nobody_foils_lets_the_taunt_succeed() -> None:
    state = taunted([["spy-3", "taunt-A"], ["taunt-A"], []])
    state = play(state, (2, LET_PASS), (1, LET_PASS))
    assert state.phase == CAPTIVE and state.captive is not None and state.captive.points == 6


def test_let_pass_for_every_waiting_seat_always_closes_the_window() -> None:
    """What the online layer does when the time limit runs out."""
    state = taunted([["spy-3", "taunt-A"], ["taunt-A"], ["lair-4"], ["spy-8"], []])
    state = ENGINE.apply(state, 3, LET_PASS)
    for seat in sorted(ENGINE.to_act(state)):
        assert LET_PASS in ENGINE.legal(state, seat)
        state = ENGINE.apply(state, seat, LET_PASS)
    assert state.phase == CAPTIVE


def test_the_view_says_a_window_is_open_who_taunted_which_spy_the_stake_and_who_is_to_answer() -> None:
    state = taunted([["spy-3", "taunt-A"], ["taunt-A"], []])
    for seat in (None, 0, 1, 2):
        window = ENGINE.view(state, seat)["window"]
        assert window == {
            "taunter": 0,
            "spy": state.captive.id if state.captive else None,
            "spy_card": "spy-3",
            "taunt": "taunt-A",
            "value": 3,
            "stake": 6,
            "waiting": [1, 2],
        }
    state = ENGINE.apply(state, 2, LET_PASS)
    assert ENGINE.view(state, 1)["window"]["waiting"] == [1]
    assert ENGINE.view(state, 1)["to_act"] == [1]


def test_the_stake_doubles_again_with_each_taunt() -> None:
    state = taunted([["spy-3", "taunt-A", "taunt-B"], []])
    state = play(state, (1, LET_PASS), (0, {"type": "taunt", "card": "taunt-B"}))
    window = ENGINE.view(state, 1)["window"]
    assert (window["value"], window["stake"]) == (6, 12)


def test_answers_stay_hidden_until_the_window_closes() -> None:
    state = taunted([["spy-3", "taunt-A"], ["taunt-A"], [], []])
    foiled = ENGINE.apply(state, 1, FOIL_A)
    passed = ENGINE.apply(state, 1, LET_PASS)
    for seat in (None, 0, 2, 3):
        assert json.dumps(ENGINE.view(foiled, seat)) == json.dumps(ENGINE.view(passed, seat))


def test_being_asked_reveals_nothing_about_who_holds_the_match() -> None:
    holder_1 = taunted([["spy-3", "taunt-A"], ["taunt-A"], ["taunt-B"]])
    holder_2 = taunted([["spy-3", "taunt-A"], ["taunt-B"], ["taunt-A"]])
    assert ENGINE.to_act(holder_1) == ENGINE.to_act(holder_2)
    assert ENGINE.view(holder_1, 0) == ENGINE.view(holder_2, 0)
    assert ENGINE.view(holder_1, None) == ENGINE.view(holder_2, None)


def test_several_foilers_are_ordered_from_the_taunters_left() -> None:
    """Impossible with the real deck (two cards per letter), but the ruling is defined."""
    state = table([[], [], ["spy-3", "taunt-A"], []], lairs=[[], [], [("lair-3", True)], []], turn=2)
    state = play(
        state,
        (2, {"type": "capture", "card": "spy-3", "reveal": []}),
        (2, {"type": "taunt", "card": "taunt-A"}),
    )
    state = replace(state, hands=(("taunt-A",), ("taunt-A",), (), ("taunt-A",)))
    # seat 2's left is seat 3, then 0, then 1: seat 3 foils, seat 1 keeps its card
    state = play(state, (1, FOIL_A), (0, LET_PASS), (3, FOIL_A))
    assert "taunt-A" not in state.hands[3]  # (seat 3 has drawn for its turn since)
    assert state.hands[1] == ("taunt-A",) and state.hands[0] == ("taunt-A",)
    foil_event = next(e for e in reversed(ENGINE.events(state)) if e["event"] == "foil")
    assert foil_event["seat"] == 3


def test_the_reaction_window_is_on_a_timer_and_a_late_seat_lets_the_taunt_pass() -> None:
    """``reaction_window``/``timeout_action``: what the online layer asks when time runs out."""
    state = taunted([["spy-3", "taunt-A"], ["taunt-A"], [], []])
    assert ENGINE.reaction_window(state)
    assert ENGINE.timeout_action(state, 0) is None  # the taunter is not asked
    state = ENGINE.apply(state, 2, LET_PASS)
    assert ENGINE.timeout_action(state, 2) is None  # it has answered
    for seat in sorted(ENGINE.to_act(state)):
        action = ENGINE.timeout_action(state, seat)
        assert action == LET_PASS
        state = ENGINE.apply(state, seat, action)
    assert state.phase == CAPTIVE and not ENGINE.reaction_window(state)
    assert state.captive is not None and state.captive.points == 6  # the holder of taunt-A did not foil
    assert ENGINE.timeout_action(state, 0) is None  # a turn or a captive has no time limit


def test_turns_are_not_reaction_windows() -> None:
    state = table([["spy-3"], []])
    assert state.phase == TURN and not ENGINE.reaction_window(state)
    assert ENGINE.timeout_action(state, 0) is None and ENGINE.timeout_action(state, 1) is None
