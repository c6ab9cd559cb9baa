"""Hidden information as the cards show it: what ``view`` shows each seat and a spectator."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.spycatcher import ENGINE, SpycatcherState
from games.spycatcher.engine import ROLL

from .tables import LEAGUE, play, table, with_die

RUN = ["court-5", "court-6", "court-7"]
OTHER_RUN = ["court-1", "court-2", "court-3"]


def dumped(state: SpycatcherState, seat: int | None) -> str:
    return json.dumps(ENGINE.view(state, seat))


def sought(run: list[str], others: list[list[str]]) -> SpycatcherState:
    state = table([[*run, "press-1"], *others], positions=["court-1"] + ["c1"] * len(others), phase=ROLL)
    state = ENGINE.apply(with_die(state, 1), 0, {"type": "roll"})
    return ENGINE.apply(state, 0, {"type": "seek", "cards": run})


def test_you_see_your_own_hand_and_only_how_many_cards_the_others_hold() -> None:
    state = table([["court-1", "press-2"], ["government-7", "publisher-M", "press-9"], []])
    view = ENGINE.view(state, 0)
    assert view["hand"] == ["court-1", "press-2"] and view["hands"] == [2, 3, 0]
    for card in ("government-7", "publisher-M", "press-9"):
        for seat in (0, 2, None):
            assert f'"{card}"' not in dumped(state, seat)
    assert ENGINE.view(state, None)["hand"] is None
    assert ENGINE.view(state, 1)["hand"] == ["government-7", "press-9", "publisher-M"]


def test_the_pack_and_the_location_packs_show_only_how_many_cards_they_hold() -> None:
    state = ENGINE.start(3, 8, {})
    view = ENGINE.view(state, None)
    assert view["pack"] == state.pack_left
    assert view["location_packs"] == {"court": 13, "government": 13, "press": 13, "publisher": 13}
    shown = dumped(state, 0)
    for card in state.pack[state.top :]:
        assert f'"{card}"' not in shown
    assert "permission-" not in shown
    reordered = replace(
        state, pack=tuple(reversed(state.pack)), locations=tuple(p[::-1] for p in state.locations)
    )
    for seat in (None, 0, 1, 2):
        assert dumped(reordered, seat) == dumped(state, seat)


def test_the_face_down_run_is_hidden_until_the_window_closes() -> None:
    low = sought(OTHER_RUN, [["press-2"], ["press-3"]])
    high = sought(RUN, [["press-2"], ["press-3"]])
    for seat in (None, 1, 2):
        assert dumped(low, seat) == dumped(high, seat)
        assert ENGINE.view(high, seat)["window"]["cards"] is None
    assert ENGINE.view(high, 0)["window"]["cards"] == RUN
    closed = play(high, (1, {"type": "decline"}), (2, {"type": "decline"}))
    assert next(e for e in ENGINE.view(closed, 2)["events"] if e["event"] == "unchallenged")["cards"] == RUN


def test_challenges_are_face_up_to_everyone_as_they_are_played() -> None:
    state = sought(RUN, [["court-12", "court-11", "press-2"], ["court-M", "press-3"], ["press-4"]])
    state = play(state, (1, {"type": "challenge", "cards": ["court-11", "court-12"]}))
    played = [{"seat": 1, "cards": ["court-11", "court-12"], "total": 23}]
    for seat in (None, 0, 1, 2, 3):
        view = ENGINE.view(state, seat)
        assert view["window"]["challenges"] == played
        assert view["window"]["waiting"] == [2, 3]
        assert view["hands"][1] == 1  # the two cards lie on the table, out of the hand
        assert view["events"][-1] == {
            "event": "challenge_played",
            "seat": 1,
            "seeker": 0,
            "circle": "court",
            "cards": ["court-11", "court-12"],
            "total": 23,
        }
        assert view["window"]["cards"] == (RUN if seat == 0 else None)  # the run stays face down
    assert ENGINE.view(state, 1)["hand"] == ["press-2"]
    assert ENGINE.view(state, 1)["window"]["answer"] == ["court-11", "court-12"]
    state = play(state, (3, {"type": "decline"}), (2, {"type": "challenge", "cards": ["court-M"]}))
    (event,) = [e for e in ENGINE.events(state) if e["event"] == "challenge"]
    assert [c["seat"] for c in event["challenges"]] == [1, 2] and event["result"] == "refused"


def test_a_decline_shows_only_as_an_answer_without_cards() -> None:
    state = sought(RUN, [["court-12", "court-11"], ["press-3"]])
    declined = play(state, (1, {"type": "decline"}))
    for seat in (None, 0, 2):
        view = ENGINE.view(declined, seat)
        assert view["window"]["challenges"] == [] and view["window"]["waiting"] == [2]
        assert view["window"]["answer"] is None
    assert ENGINE.view(declined, 1)["window"]["answer"] == "decline"


def test_being_asked_to_answer_reveals_nothing_about_who_can_challenge() -> None:
    holder_1 = sought(RUN, [["court-9"], ["press-3"]])
    holder_2 = sought(RUN, [["press-3"], ["court-9"]])
    assert ENGINE.to_act(holder_1) == ENGINE.to_act(holder_2) == {1, 2}
    assert dumped(holder_1, 0) == dumped(holder_2, 0)
    assert dumped(holder_1, None) == dumped(holder_2, None)


def test_permission_cards_positions_and_the_discard_top_are_public() -> None:
    state = table(
        [["court-1"], ["press-1"]],
        positions=["c5", "press-3"],
        permissions=[["court"], ["press", "publisher"]],
        discard=["government-2", "government-9"],
    )
    for seat in (None, 0, 1):
        view = ENGINE.view(state, seat)
        assert view["positions"] == ["c5", "press-3"]
        assert [[p["suit"] for p in held] for held in view["permissions"]] == [
            ["court"],
            ["press", "publisher"],
        ]
        assert view["discard"] == {"top": "government-9", "cards": 2}
        assert '"government-2"' not in dumped(state, seat)


def test_views_are_json_and_name_the_board() -> None:
    state = ENGINE.start(6, 2, {"hand_size": 5})
    for seat in (None, *range(6)):
        view = json.loads(dumped(state, seat))
        assert view["board"] == "league" and view["options"]["hand_size"] == 5
        assert view["to_act"] == [state.turn] and view["phase"] == "draw"
    assert LEAGUE.squares[LEAGUE.index[view["positions"][0]]].kind == "mi5"


def test_a_view_for_a_seat_that_is_not_at_the_table_is_refused() -> None:
    state = ENGINE.start(2, 1, {})
    for seat in (2, -1, True):
        with pytest.raises(ValueError, match="no seat"):
            ENGINE.view(state, seat)


def test_apply_names_the_problem_with_a_seat_or_an_action() -> None:
    from games.core import IllegalAction

    state = ENGINE.start(2, 1, {"first_player": 1})
    for seat, action, reason in (
        (True, {"type": "draw", "from": "pack"}, "no seat True"),
        (5, {"type": "draw", "from": "pack"}, "no seat 5"),
        (0, {"type": "draw", "from": "pack"}, "seat 1's turn"),
        (1, "draw", 'must be an object with a "type"'),
        (1, {"type": "roll"}, "You cannot 'roll' now; you may: draw"),
        (1, {"type": "draw", "from": "deck"}, '"from": "pack"'),
    ):
        with pytest.raises(IllegalAction, match=reason):
            ENGINE.apply(state, seat, action)  # type: ignore[arg-type]
