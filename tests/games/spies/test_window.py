"""Reaction windows on another power's turn: who is asked, what they may do, and timeouts."""

from __future__ import annotations

import pytest

from games.core import IllegalAction
from games.spies import ENGINE
from games.spies.engine import ARRIVAL, COVER, EVADE, MOVE, OFFER, SEARCH, SURPLUS

from .tables import act, spy, table

DECLINE = {"type": "decline"}


def arrival() -> object:
    state = table(
        power="G",
        phase=MOVE,
        police=[("F", 2, "lille")],
        spies=[("G", 1, "brussels")],
        hands={"G": ["papers", "escape"]},
        money={"G": 20},
    )
    return act(state, {"type": "move", "spy": "G-spy-1", "to": "lille"})


def test_the_police_owner_alone_is_asked_when_an_enemy_spy_arrives() -> None:
    state = arrival()
    assert ENGINE.reaction_window(state)  # type: ignore[arg-type]
    assert state.window.kind == ARRIVAL  # type: ignore[attr-defined]
    assert ENGINE.to_act(state) == {3}  # type: ignore[arg-type]
    assert ENGINE.acting_power(state) == 3  # type: ignore[arg-type]
    assert ENGINE.legal(state, 0) == []  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="France is answering"):
        ENGINE.apply(state, 0, {"type": "end_turn"})  # type: ignore[arg-type]


def test_after_a_search_the_spys_owner_answers_with_papers_escape_or_decline() -> None:
    state = act(arrival(), {"type": "search", "spy": "G-spy-1"})  # type: ignore[arg-type]
    assert state.window is not None and state.window.kind == EVADE
    assert ENGINE.to_act(state) == {0}
    assert ENGINE.legal(state, 0) == [{"type": "papers"}, {"type": "escape"}, DECLINE]
    state = act(state, {"type": "papers"})
    assert state.window is None and state.phase == MOVE and ENGINE.to_act(state) == {0}
    assert spy(state, "G-spy-1").where == "lille"
    assert any(e["event"] == "evaded" and e["chit"] == "papers" for e in ENGINE.events(state, 4))


def test_windows_close_with_decline_and_play_resumes() -> None:
    state = act(arrival(), DECLINE)  # type: ignore[arg-type]
    assert state.window is None and state.phase == MOVE
    assert any(a["type"] == "move" for a in ENGINE.legal(state, 0))


@pytest.mark.parametrize("kind", [ARRIVAL, EVADE, COVER, OFFER])
def test_decline_is_always_legal_and_is_the_timeout_answer(kind: str) -> None:
    if kind == ARRIVAL:
        state = arrival()
    elif kind == EVADE:
        state = act(arrival(), {"type": "search", "spy": "G-spy-1"})  # type: ignore[arg-type]
    elif kind == COVER:
        state = act(
            table(
                power="F",
                phase=MOVE,
                spies=[("F", 1, "rome"), ("I", 1, "rome")],
                hands={"F": ["sanction"], "I": ["cover"]},
            ),
            {"type": "sanction", "spy": "F-spy-1", "target": "I-spy-1"},
        )
    else:
        state = act(
            table(power="F", phase=MOVE, money={"F": 10}),
            {"type": "offer", "to": "I"},
            {"type": "offer_add", "item": "give_money", "amount": 1},
            {"type": "offer_send"},
        )
    assert state.window.kind == kind  # type: ignore[attr-defined]
    (seat,) = ENGINE.to_act(state)  # type: ignore[arg-type]
    assert DECLINE in ENGINE.legal(state, seat)  # type: ignore[arg-type]
    assert ENGINE.timeout_action(state, seat) == DECLINE  # type: ignore[arg-type]
    after = ENGINE.apply(state, seat, DECLINE)  # type: ignore[arg-type]
    assert after.window is None


def test_a_surplus_window_times_out_by_returning_a_chit() -> None:
    state = table(
        power="G", phase=SEARCH, spies=[("R", 2, "berlin")], hands={"R": ["papers"] * 7}, tiles={"G": ["G1"]}
    )
    from dataclasses import replace

    state = replace(state, phase="event")
    state = act(state, {"type": "play_event", "tile": "G1"})
    assert state.window is not None and state.window.kind == SURPLUS
    assert ENGINE.reaction_window(state)
    action = ENGINE.timeout_action(state, 2)
    assert action is not None and action["type"] == "return_chit"
    assert ENGINE.timeout_action(state, 0) is None


def test_the_turn_holder_is_not_a_reaction_window() -> None:
    state = table(power="G", phase=MOVE)
    assert not ENGINE.reaction_window(state)
    assert ENGINE.timeout_action(state, 0) == {"type": "end_turn"}
    assert ENGINE.turn_clock(state) is None  # no time limit set


def test_no_turn_clock_while_a_window_is_open() -> None:
    state = table(
        power="G", phase=MOVE, police=[("F", 2, "lille")], spies=[("G", 1, "brussels")], turn_minutes=5
    )
    assert ENGINE.turn_clock(state) == {"key": "1933:G", "seconds": 300}
    state = act(state, {"type": "move", "spy": "G-spy-1", "to": "lille"})
    assert ENGINE.turn_clock(state) is None


def test_the_seat_of_a_two_power_player_answers_for_the_right_power() -> None:
    state = table(
        power="F",
        phase=MOVE,
        seats=4,
        spies=[("F", 1, "rome"), ("I", 1, "rome")],
        hands={"F": ["sanction"], "I": ["cover"]},
    )
    state = act(state, {"type": "sanction", "spy": "F-spy-1", "target": "I-spy-1"})
    assert ENGINE.to_act(state) == {0} and ENGINE.acting_power(state) == 1
    assert ENGINE.view(state, 0)["acting"] == "I"
    assert {"type": "cover"} in ENGINE.legal(state, 0)
