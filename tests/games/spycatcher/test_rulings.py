"""One test per ruling in the package docstring (games/spycatcher/__init__.py), by number."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

import games.spycatcher
from games.core import IllegalAction, chance
from games.spycatcher import ENGINE, Spycatcher, SpycatcherState, board_from_dict
from games.spycatcher.board import Board
from games.spycatcher.cards import DECK, SUITS, runs, total
from games.spycatcher.engine import DRAW, END_LIMIT, MOVE, OVER, REPLACE, ROLL, SEEK

from .tables import LEAGUE, TINY_PATH, all_cards, engine_for, events_of, play, table, with_die

ROLL_DIE = {"type": "roll"}
STAY = {"type": "stay"}
DECLINE = {"type": "decline"}
RUN_567 = ["court-5", "court-6", "court-7"]


def tiny_with(**squares: dict[str, Any]) -> Board:
    """The tiny test board with some squares changed (``a2={"kind": ..., "instruction": ...}``)."""
    data = json.loads(TINY_PATH.read_text())
    for square in data["squares"]:
        square.update(squares.get(square["id"].replace("-", "_"), {}))
    return board_from_dict(data)


def rolled(state: SpycatcherState, die: int) -> SpycatcherState:
    return engine_for(state).apply(with_die(state, die), state.turn, ROLL_DIE)


def sought(hands: list[list[str]], cards: list[str], **kw: Any) -> SpycatcherState:
    state = table(hands, positions=["court-1"] + ["c1"] * (len(hands) - 1), phase=ROLL, **kw)
    state = rolled(state, 1)
    return ENGINE.apply(state, 0, {"type": "seek", "cards": cards})


def top_of_pack(state: SpycatcherState, top: list[str]) -> SpycatcherState:
    rest = [c for c in state.pack[state.top :] if c not in top]
    return replace(state, pack=(*top, *rest), top=0)


def test_every_ruling_is_written_in_the_docstring() -> None:
    doc = games.spycatcher.__doc__ or ""
    assert "Rulings" in doc
    for number in range(1, 22):
        assert f"\n{number}. **" in doc


def test_ruling_1_hand_size_seven_by_default_five_as_an_option_and_hands_are_always_refilled() -> None:
    state = ENGINE.start(3, 4, {})
    assert [len(h) for h in state.hands] == [7, 7, 7]
    state = play(state, (state.turn, {"type": "draw", "from": "pack"}))
    assert len(state.hands[state.turn]) == 8
    five = ENGINE.start(3, 4, {"hand_size": 5})
    assert [len(h) for h in five.hands] == [5, 5, 5] and five.pack_left == 52 - 15 - 1
    five = play(five, (five.turn, {"type": "draw", "from": "pack"}))
    assert len(five.hands[five.turn]) == 6
    with pytest.raises(Exception, match="7 \\(as dealt\\) or 5"):
        ENGINE.start(3, 4, {"hand_size": 6})
    # after a challenge the seeker and each challenger draw back what they laid down
    state = sought([[*RUN_567, "press-1"], ["court-1", "court-2", "press-2"]], RUN_567)
    state = play(state, (1, {"type": "challenge", "cards": ["court-1", "court-2"]}))
    assert [len(h) for h in state.hands] == [4, 3]


def test_ruling_2_master_cards_have_no_number_are_never_in_a_run_and_add_nothing() -> None:
    assert len(DECK) == 52 and sum(1 for c in DECK if c.endswith("-M")) == 4
    assert runs(["court-10", "court-11", "court-12", "court-M"], "court") == [
        ("court-10", "court-11", "court-12")
    ]
    assert runs(["court-11", "court-12", "court-M"], "court") == []
    assert total(["court-M", "court-3"]) == 3


def test_ruling_3_master_cards_are_played_alone_and_only_in_their_own_circle() -> None:
    state = sought([[*RUN_567], ["court-M", "court-1", "press-M"]], RUN_567)
    challenges = [a["cards"] for a in ENGINE.legal(state, 1) if a["type"] == "challenge"]
    assert ["court-M"] in challenges
    assert not any(len(c) > 1 and "court-M" in c for c in challenges)
    assert ["press-M"] not in challenges
    with pytest.raises(IllegalAction, match="on its own"):
        ENGINE.apply(state, 1, {"type": "challenge", "cards": ["court-1", "court-M"]})


def test_ruling_4_who_may_seek_permission_asked_even_with_nothing_to_play() -> None:
    state = table([["press-1", "press-2"], ["press-3"]], positions=["court-1", "c1"], phase=ROLL)
    state = rolled(state, 1)
    assert state.phase == SEEK and ENGINE.legal(state, 0) == [{"type": "pass"}]
    # the same table with a run: the other seats cannot tell the two apart
    with_run = table([RUN_567, ["press-3"]], positions=["court-1", "c1"], phase=ROLL)
    with_run = rolled(with_run, 1)
    assert ENGINE.view(state, 1)["phase"] == ENGINE.view(with_run, 1)["phase"] == SEEK
    assert ENGINE.to_act(state) == ENGINE.to_act(with_run)
    # holding the circle's card: not asked at all
    held = table([RUN_567, ["press-3"]], positions=["court-1", "c1"], phase=ROLL, permissions=[["court"], []])
    assert rolled(held, 1).phase == DRAW


def test_ruling_5_one_face_down_card_is_the_master_a_challenge_against_it_fails_and_is_discarded() -> None:
    state = sought([["court-M", "press-1"], ["court-12", "court-11"]], ["court-M"])
    assert ENGINE.view(state, 1)["window"]["face_down"] == 1
    state = play(state, (1, {"type": "challenge", "cards": ["court-11", "court-12"]}))
    (event,) = events_of(state, "challenge")
    assert event["result"] == "granted" and event["total"] is None
    assert state.discard[:3] == ("court-M", "court-11", "court-12")


def test_ruling_6_the_window_asks_everyone_at_once_answers_hidden_challengers_do_not_pool() -> None:
    state = sought([[*RUN_567], ["court-10"], ["court-8"], ["press-1"]], RUN_567)
    assert ENGINE.to_act(state) == {1, 2, 3}
    assert all(DECLINE in ENGINE.legal(state, s) for s in (1, 2, 3))
    assert ENGINE.legal(state, 3) == [DECLINE]
    assert ENGINE.reaction_window(state) is True
    assert ENGINE.timeout_action(state, 2) == DECLINE and ENGINE.timeout_action(state, 0) is None
    state = play(state, (1, {"type": "challenge", "cards": ["court-10"]}))
    assert ENGINE.to_act(state) == {2, 3}
    state = play(state, (2, {"type": "challenge", "cards": ["court-8"]}), (3, DECLINE))
    (event,) = events_of(state, "challenge")
    assert event["result"] == "granted"  # 10 and 8 would beat 18 together, but each is counted alone
    assert ENGINE.reaction_window(state) is False


def test_ruling_6_an_equal_total_does_not_beat_the_run() -> None:
    state = sought([[*RUN_567], ["court-8", "court-10"]], RUN_567)
    state = play(state, (1, {"type": "challenge", "cards": ["court-8", "court-10"]}))
    assert events_of(state, "challenge")[0]["result"] == "granted"


def test_ruling_7_settling_order_seeker_then_challengers_from_the_seekers_left() -> None:
    hands = [["court-1"], ["court-2", "court-3"], [*RUN_567, "press-1"]]
    state = table(hands, positions=["c1", "c1", "court-1"], phase=ROLL, turn=2, discard=["press-12"])
    state = rolled(state, 1)
    state = play(state, (2, {"type": "seek", "cards": RUN_567}))
    state = top_of_pack(
        state, ["government-1", "government-2", "government-3", "government-4", "government-5"]
    )
    state = play(
        state,
        (1, {"type": "challenge", "cards": ["court-2"]}),
        (0, {"type": "challenge", "cards": ["court-1"]}),
    )
    assert state.discard == (*RUN_567, "court-1", "court-2", "press-12")
    assert state.hands[2] == ("government-1", "government-2", "government-3", "press-1")
    assert state.hands[0] == ("government-4",) and state.hands[1] == ("court-3", "government-5")


def test_ruling_8_a_permission_card_is_kept_and_its_instruction_followed() -> None:
    card = next(c for c in LEAGUE.packs["court"] if c.instruction.do == "go_to_mi5")
    state = sought([[*RUN_567], ["press-1"]], RUN_567)
    state = replace(
        state, locations=((card.id, *(c for c in state.locations[0] if c != card.id)), *state.locations[1:])
    )
    state = play(state, (1, DECLINE))
    assert state.permissions[0] == (card.id,)
    assert LEAGUE.squares[state.positions[0]].id == "mi5" and state.turn == 1


def test_ruling_8_a_location_card_that_is_no_permission_is_followed_and_goes_under_its_pack() -> None:
    from .tables import TINY

    state = table([[*RUN_567], ["press-1"]], board=TINY, positions=["court-a", "a1"], phase=ROLL)
    assert state.locations[0][0] == "tc-refused"
    state = rolled(state, 1)
    state = play(state, (0, {"type": "seek", "cards": RUN_567}), (1, DECLINE))
    assert state.permissions[0] == () and state.locations[0][-1] == "tc-refused"
    assert TINY.squares[state.positions[0]].id == "mi5"
    assert events_of(state, "location_card")[0]["kept"] is False


def test_ruling_9_staying_on_a_challenge_square_instead_of_rolling() -> None:
    state = table([[*RUN_567], ["press-1"]], positions=["court-4", "c1"], phase=ROLL)
    assert ENGINE.legal(state, 0) == [ROLL_DIE, STAY]
    stayed = play(state, (0, STAY))
    assert stayed.phase == SEEK and stayed.positions == state.positions
    no_stay = table(
        [[*RUN_567], ["press-1"]], positions=["court-4", "c1"], phase=ROLL, options={"may_stay": False}
    )
    assert ENGINE.legal(no_stay, 0) == [ROLL_DIE]
    with pytest.raises(IllegalAction, match="without staying"):
        ENGINE.apply(no_stay, 0, STAY)
    refused = table([[*RUN_567], ["press-1"]], positions=["court-4", "c1"], phase=ROLL, must_move=[0])
    with pytest.raises(IllegalAction, match="must move on"):
        ENGINE.apply(refused, 0, STAY)
    blank = table([[*RUN_567], ["press-1"]], positions=["c1", "c1"], phase=ROLL)
    assert ENGINE.legal(blank, 0) == [ROLL_DIE]


def test_ruling_10_only_the_end_of_a_move_counts_and_a_single_end_needs_no_choice() -> None:
    state = table([["court-1"], ["press-1"]], positions=["c4", "c1"], phase=ROLL)
    state = rolled(state, 2)  # over c5 (report to MI5) to c6
    assert LEAGUE.squares[state.positions[0]].id == "c6" and state.turn == 1
    assert not events_of(state, "instruction")


def test_ruling_11_with_all_four_the_piece_stops_at_the_centre_without_an_exact_throw() -> None:
    four = table(
        [["court-1"], ["press-1"]], positions=["north-4", "c1"], phase=ROLL, permissions=[list(SUITS), []]
    )
    won = rolled(four, 6)
    assert won.phase == OVER and won.winner == 0 and LEAGUE.squares[won.positions[0]].id == "centre"
    three = table(
        [["court-1"], ["press-1"]], positions=["north-4", "c1"], phase=ROLL, permissions=[list(SUITS[:3]), []]
    )
    passing = rolled(three, 3)  # north-5, centre, then east-1 or west-1
    assert passing.phase == MOVE and ENGINE.legal(passing, 0) == [
        {"type": "move", "to": "east-1"},
        {"type": "move", "to": "west-1"},
    ]


def test_ruling_11_reaching_the_centre_through_an_instruction_also_wins() -> None:
    board = tiny_with(a4={"instruction": {"do": "move", "steps": 3}, "text": "Move on 3 squares."})
    state = table(
        [["court-1"], ["press-1"]],
        board=board,
        positions=["press-b", "a1"],
        phase=ROLL,
        permissions=[list(SUITS), []],
    )
    state = rolled(state, 1)  # a4: move on 3 -> pub-a, pub-b, centre
    assert state.phase == OVER and state.winner == 0


def test_ruling_12_a_piece_sent_onto_an_action_square_obeys_it_too() -> None:
    # seed 1, 3 seats: c26 "move on 3" lands on c29 "report to MI5", which is obeyed
    state = table([["court-1"], ["press-1"], ["press-2"]], positions=["c25", "c1", "c1"], phase=ROLL)
    state = rolled(state, 1)
    assert [(e["from"], e["do"]) for e in events_of(state, "instruction")] == [
        ("c26", "move"),
        ("c29", "go_to_mi5"),
    ]
    assert state.positions[0] == LEAGUE.mi5 and state.turn == 1


def test_ruling_12_challenge_squares_are_still_used_only_after_the_die() -> None:
    tip = table(
        [[*RUN_567, "press-5", "press-6", "press-7"], ["court-1"]], positions=["c1", "c1"], phase=ROLL
    )
    tip = rolled(tip, 1)  # c2: go to the Press circle; no seeking on arrival
    assert LEAGUE.squares[tip.positions[0]].id == "press-5" and tip.turn == 1 and tip.phase == DRAW
    tip = replace(tip, turn=0, phase=ROLL)
    assert STAY in ENGINE.legal(tip, 0)  # ...but it may stay there next turn


def test_ruling_12_an_action_square_is_obeyed_once_a_turn_so_a_loop_ends() -> None:
    board = tiny_with(
        a2={"instruction": {"do": "go_to", "square": "a4"}, "text": "Go to a4."},
        a4={"instruction": {"do": "go_to", "square": "a2"}, "text": "Go to a2."},
    )
    state = table([["court-1"], ["press-1"]], board=board, positions=["court-b", "a1"], phase=ROLL)
    state = rolled(state, 1)  # a2 -> a4 -> a2 again: not obeyed twice
    assert [e["from"] for e in events_of(state, "instruction")] == ["a2", "a4"]
    assert events_of(state, "obeyed_already") == [{"event": "obeyed_already", "seat": 0, "square": "a2"}]
    assert board.squares[state.positions[0]].id == "a2" and state.turn == 1
    # the next turn obeys them again
    state = replace(state, turn=0, phase=ROLL, positions=(board.index["court-b"], state.positions[1]))
    state = rolled(state, 1)
    assert [e["from"] for e in events_of(state, "instruction")] == ["a2", "a4", "a2", "a4"]


def test_ruling_13_roll_again_works_once_a_turn() -> None:
    board = tiny_with(
        a2={"instruction": {"do": "roll_again"}, "text": "Roll again."},
        a3={"kind": "action", "instruction": {"do": "roll_again"}, "text": "Roll again."},
    )
    state = table([["court-1"], ["press-1"]], board=board, positions=["a1", "a1"], phase=ROLL)
    rolls = next(
        r for r in range(10_000) if [chance(1, "die", r + k).randint(1, 6) for k in (0, 1)] == [3, 3]
    )
    state = engine_for(state).apply(replace(state, rolls=rolls), 0, ROLL_DIE)
    assert [e["die"] for e in events_of(state, "roll")] == [3, 3]
    assert board.squares[state.positions[0]].id == "a3" and state.turn == 1


def test_ruling_14_replace_a_permission_card_of_your_choice_or_nothing_if_you_hold_none() -> None:
    board = tiny_with(a2={"instruction": {"do": "replace_permission", "kind": "any"}, "text": "Replace one."})
    engine = Spycatcher({"tiny": board})
    state = table(
        [["court-1"], ["press-1"]],
        board=board,
        positions=["court-b", "a1"],
        phase=ROLL,
        permissions=[["court", "press"], []],
    )
    state = rolled(state, 1)
    assert state.phase == REPLACE
    court, press = state.permissions[0]
    assert engine.legal(state, 0) == [{"type": "replace", "card": court}, {"type": "replace", "card": press}]
    assert ENGINE.view(state, 1)["instruction"] == {"do": "replace_permission", "kind": "any"}
    state = engine.apply(state, 0, {"type": "replace", "card": press})
    assert state.permissions[0] == (court,) and state.locations[SUITS.index("press")][-1] == press
    none = table([["court-1"], ["press-1"]], board=board, positions=["court-b", "a1"], phase=ROLL)
    none = rolled(none, 1)
    assert none.turn == 1 and none.phase == DRAW


def test_ruling_15_a_gift_is_compulsory_when_possible() -> None:
    state = table(
        [["court-1"], ["press-1"], ["press-2"]],
        positions=["c13", "c1", "c1"],
        permissions=[["court"], [], []],
        phase=ROLL,
    )
    state = rolled(state, 1)
    assert {a["type"] for a in ENGINE.legal(state, 0)} == {"give"}
    with pytest.raises(IllegalAction, match="You cannot 'roll' now"):
        ENGINE.apply(state, 0, ROLL_DIE)
    # an instruction that names a kind gives only that kind
    board = tiny_with(
        a2={"instruction": {"do": "give_permission", "kind": "press"}, "text": "Give your Press card."}
    )
    named = table(
        [["court-1"], ["press-1"], ["press-2"]],
        board=board,
        positions=["court-b", "a1", "a1"],
        permissions=[["court", "press"], [], []],
        phase=ROLL,
    )
    named = rolled(named, 1)
    press = named.permissions[0][1]
    assert engine_for(named).legal(named, 0) == [
        {"type": "give", "card": press, "to": 1},
        {"type": "give", "card": press, "to": 2},
    ]


def test_ruling_16_replaced_influence_cards_are_never_shown() -> None:
    hand = ["court-1", "court-2", "court-3", "press-4", "press-5", "press-6", "publisher-7"]
    state = table([hand, ["press-1"]], positions=["c8", "c1"], phase=ROLL, discard=["government-12"])
    state = rolled(state, 1)  # c9: replace your influence cards
    shown = json.dumps([ENGINE.view(state, 1), ENGINE.view(state, None)])
    for card in hand:
        assert f'"{card}"' not in shown
    assert ENGINE.view(state, 1)["discard"] == {"top": "government-12", "cards": 8}


def test_ruling_17_only_the_top_discard_shows_and_an_empty_pile_reshuffles_at_the_next_draw() -> None:
    state = table([["court-1"], ["press-1"]], pack=["court-9"], full_deck=False, positions=["c1", "c1"])
    state = play(state, (0, {"type": "draw", "from": "pack"}))
    assert state.pack_left == 0 and state.discard == () and not events_of(state, "reshuffle")
    state = play(state, (0, {"type": "discard", "card": "court-1"}))
    state = rolled(state, 2)
    assert ENGINE.legal(state, 1) == [{"type": "draw", "from": "pack"}, {"type": "draw", "from": "discard"}]
    state = play(state, (1, {"type": "draw", "from": "pack"}))
    assert events_of(state, "reshuffle") == [{"event": "reshuffle", "cards": 1}]
    assert state.hands[1] == ("court-1", "press-1")
    pile = table([["court-1"], ["press-1"]], discard=["press-2", "press-3", "press-4"])
    assert ENGINE.view(pile, 1)["discard"] == {"top": "press-4", "cards": 3}
    assert "press-2" not in json.dumps(ENGINE.view(pile, 1))


def test_ruling_18_a_missed_turn_is_skipped_whole_and_counts_as_a_turn() -> None:
    state = table(
        [["court-1"], ["press-1"], ["press-2"]], positions=["c1"] * 3, phase=ROLL, missing=[0, 1, 0]
    )
    before = state.turns
    state = rolled(state, 2)
    assert state.turn == 2 and state.phase == DRAW and state.missing == (0, 0, 0)
    assert state.turns == before + 2
    assert events_of(state, "miss_turn") == [{"event": "miss_turn", "seat": 1}]
    missed = table([["court-1"], ["press-1"]], positions=["c16", "c1"], phase=ROLL)
    missed = rolled(missed, 1)  # c17: miss your next turn
    assert missed.missing == (1, 0)


def test_ruling_19_dealing_one_at_a_time_from_seat_0_and_the_first_player_option() -> None:
    from games.core import shuffled

    state = ENGINE.start(4, 21, {})
    deck = shuffled(DECK, 21, "deal")
    for seat in range(4):
        assert sorted(state.hands[seat]) == sorted(deck[seat:28:4])
    assert state.discard == (deck[28],)
    fixed = ENGINE.start(4, 21, {"first_player": 3})
    assert fixed.turn == 3 and not events_of(fixed, "roll_for_first")
    with pytest.raises(Exception, match="no seat 4"):
        ENGINE.start(4, 21, {"first_player": 4})


def test_ruling_20_the_turn_limit_stops_the_game_and_places_by_permission_cards() -> None:
    state = ENGINE.start(2, 5, {"turn_limit": 1, "first_player": 0})
    while ENGINE.to_act(state):
        seat = min(ENGINE.to_act(state))
        state = ENGINE.apply(state, seat, ENGINE.legal(state, seat)[0])
    assert state.end == END_LIMIT and state.turns == 2
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.detail["end"] == END_LIMIT and outcome.places == (1, 1)
    assert ENGINE.options["turn_limit"].default == 150


def test_ruling_21_scores_are_permission_cards_and_five_for_the_winner() -> None:
    state = table(
        [["court-1"], ["press-1"], ["press-2"], ["press-3"]],
        positions=["north-4", "c1", "c1", "c1"],
        permissions=[list(SUITS), ["court", "press"], list(SUITS), ["government", "publisher"]],
        phase=ROLL,
    )
    state = rolled(state, 2)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.scores == (5.0, 2.0, 4.0, 2.0) and outcome.places == (1, 3, 2, 3)
    assert outcome.detail["permissions"][1] == ["court", "press"]


def test_ruling_6_challenges_are_played_face_up_and_leave_the_hand_at_once() -> None:
    state = sought([[*RUN_567], ["court-10", "press-1"], ["court-8", "press-2"]], RUN_567)
    challenged = play(state, (1, {"type": "challenge", "cards": ["court-10"]}))
    declined = play(state, (1, DECLINE))
    assert [len(h) for h in challenged.hands] == [0, 1, 2] and [len(h) for h in declined.hands] == [0, 2, 2]
    for seat in (None, 0, 2):
        assert ENGINE.view(challenged, seat)["window"]["challenges"] == [
            {"seat": 1, "cards": ["court-10"], "total": 10}
        ]
        assert ENGINE.view(declined, seat)["window"]["challenges"] == []
    assert ENGINE.view(challenged, 1)["window"]["answer"] == ["court-10"]
    assert ENGINE.view(declined, 1)["window"]["answer"] == "decline"
    assert all_cards(challenged) == all_cards(declined)
    # the challenger draws back what it played once the window closes (ruling 7)
    closed = play(challenged, (2, DECLINE))
    assert [len(h) for h in closed.hands] == [3, 2, 2]
