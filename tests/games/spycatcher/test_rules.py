"""One scenario per sentence of the rule sheet (shared/rules/spycatcher.md), named after it."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from games.core import IllegalAction, InvalidOptions
from games.spycatcher import ENGINE
from games.spycatcher.cards import DECK, MASTERS, NUMBER, SUIT, SUITS
from games.spycatcher.engine import DISCARD, DRAW, MOVE, OVER, ROLL, SEEK, WINDOW, SpycatcherState

from .tables import LEAGUE, all_cards, events_of, play, table, with_die

ROLL_DIE = {"type": "roll"}
DECLINE = {"type": "decline"}
RUN_567 = ["court-5", "court-6", "court-7"]


def rolled(state: SpycatcherState, die: int, seat: int | None = None) -> SpycatcherState:
    return ENGINE.apply(with_die(state, die), state.turn if seat is None else seat, ROLL_DIE)


def seeking(hands: list[list[str]], *, permissions: list[list[str]] | None = None) -> SpycatcherState:
    """Seat 0 rolls a 1 from court-1 and lands on court-2, a challenge square of the court circle."""
    state = table(
        hands,
        positions=["court-1"] + ["c1"] * (len(hands) - 1),
        phase=ROLL,
        permissions=permissions,
    )
    state = rolled(state, 1)
    assert state.phase == SEEK and state.board.squares[state.positions[0]].id == "court-2"
    return state


def sought(hands: list[list[str]], cards: list[str], **kw: object) -> SpycatcherState:
    state = seeking(hands, **kw)  # type: ignore[arg-type]
    return ENGINE.apply(state, 0, {"type": "seek", "cards": cards})


# Contents of the game ----------------------------------------------------------------


def test_contents_a_pack_of_52_influence_cards_four_suits_numbered_1_to_12_and_a_master_each() -> None:
    assert len(DECK) == len(set(DECK)) == 52
    for suit in SUITS:
        numbered = sorted(NUMBER[c] for c in DECK if SUIT[c] == suit and c in NUMBER)
        assert numbered == list(range(1, 13))
        assert MASTERS[suit] in DECK
    assert Counter(SUIT[c] for c in DECK) == dict.fromkeys(SUITS, 13)


def test_contents_four_packs_of_13_location_cards() -> None:
    assert sorted(LEAGUE.packs) == sorted(SUITS)
    assert all(len(pack) == 13 for pack in LEAGUE.packs.values())


def test_contents_six_playing_pieces_so_two_to_six_players() -> None:
    assert ENGINE.seats == range(2, 7)
    for seats in (1, 7):
        with pytest.raises(InvalidOptions, match="2 to 6 players"):
            ENGINE.start(seats, 1, {})


def test_contents_one_die_every_roll_is_one_to_six() -> None:
    state = table([["court-1"], ["press-1"]], positions=["c1", "c1"], phase=ROLL)
    seen = set()
    for rolls in range(200):
        after = ENGINE.apply(replace(state, rolls=rolls), 0, ROLL_DIE)
        seen.add(events_of(after, "roll")[-1]["die"])
    assert seen == {1, 2, 3, 4, 5, 6}


# The object of the game --------------------------------------------------------------


def test_object_the_first_player_back_at_the_centre_with_all_four_permission_cards_wins() -> None:
    state = table(
        [["court-1"], ["press-1"]],
        positions=["north-4", "c1"],
        permissions=[list(SUITS), []],
        phase=ROLL,
    )
    state = rolled(state, 2)
    assert state.phase == OVER and state.winner == 0
    assert ENGINE.board_drawing(state)["squares"][state.positions[0]]["kind"] == "centre"
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == {0} and outcome.places == (1, 2)


def test_object_reaching_the_centre_without_all_four_permission_cards_does_not_win() -> None:
    state = table(
        [["court-1"], ["press-1"]],
        positions=["north-4", "c1"],
        permissions=[["court", "press", "publisher"], []],
        phase=ROLL,
    )
    state = rolled(state, 2)
    assert state.phase == DRAW and state.turn == 1 and ENGINE.outcome(state) is None
    assert LEAGUE.squares[state.positions[0]].id == "centre"


# To begin play -------------------------------------------------------------------------


def test_to_begin_the_four_location_packs_are_shuffled_and_placed_face_down() -> None:
    orders = {ENGINE.start(3, seed, {}).locations for seed in range(5)}
    assert len(orders) == 5  # shuffled by the seed
    state = ENGINE.start(3, 1, {})
    assert [sorted(p) for p in state.locations] == [sorted(c.id for c in LEAGUE.packs[s]) for s in SUITS]
    assert ENGINE.view(state, 0)["location_packs"] == dict.fromkeys(SUITS, 13)


def test_to_begin_every_piece_starts_in_mi5() -> None:
    state = ENGINE.start(5, 3, {})
    assert ENGINE.view(state, None)["positions"] == ["mi5"] * 5


def test_to_begin_seven_cards_each_the_rest_face_down_and_the_top_card_turned_face_up_on_the_discard() -> (
    None
):
    state = ENGINE.start(4, 11, {})
    assert [len(h) for h in state.hands] == [7, 7, 7, 7]
    assert len(state.discard) == 1 and state.pack_left == 52 - 28 - 1
    assert all_cards(state) == Counter(DECK)
    view = ENGINE.view(state, None)
    assert view["discard"] == {"top": state.discard[0], "cards": 1}
    assert view["pack"] == 23


def test_to_begin_roll_the_die_to_see_who_starts_then_play_continues_clockwise() -> None:
    firsts = set()
    for seed in range(30):
        state = ENGINE.start(4, seed, {})
        (roll_off,) = events_of(state, "roll_for_first")
        last = roll_off["rounds"][-1]
        best = max(last.values())
        assert [int(s) for s, die in last.items() if die == best] == [roll_off["seat"]]
        assert state.turn == roll_off["seat"] == state.first
        firsts.add(state.turn)
    assert firsts == {0, 1, 2, 3}
    state = table([["court-1"], ["court-2"], ["court-3"]], positions=["c1"] * 3, phase=ROLL, turn=2)
    state = rolled(state, 2)  # c1 -> c3, a blank square
    assert state.turn == 0 and state.phase == DRAW


# Sequence of play ------------------------------------------------------------------------


def test_sequence_1_take_a_card_from_the_pack_or_the_discard_pile_giving_eight() -> None:
    hand = ["court-1", "court-2", "press-3", "press-4", "government-5", "publisher-6", "publisher-7"]
    state = table([hand, ["press-1"]], pack=["court-9"], discard=["press-12", "government-11"])
    assert ENGINE.legal(state, 0) == [{"type": "draw", "from": "pack"}, {"type": "draw", "from": "discard"}]
    from_pack = ENGINE.apply(state, 0, {"type": "draw", "from": "pack"})
    assert len(from_pack.hands[0]) == 8 and "court-9" in from_pack.hands[0]
    from_discard = ENGINE.apply(state, 0, {"type": "draw", "from": "discard"})
    assert len(from_discard.hands[0]) == 8 and "government-11" in from_discard.hands[0]
    assert from_discard.discard == ("press-12",)
    assert from_pack.phase == from_discard.phase == DISCARD


def test_sequence_2_discard_one_card_face_up_on_the_discard_pile() -> None:
    state = table([["court-1", "court-2"], ["press-1"]], pack=["court-9"], discard=["press-12"])
    state = play(state, (0, {"type": "draw", "from": "pack"}))
    assert ENGINE.legal(state, 0) == [
        {"type": "discard", "card": c} for c in ("court-1", "court-2", "court-9")
    ]
    state = play(state, (0, {"type": "discard", "card": "court-2"}))
    assert state.discard[-1] == "court-2" and state.phase == ROLL
    assert ENGINE.view(state, 1)["discard"]["top"] == "court-2"


def test_sequence_3_move_the_number_shown_obeying_the_one_way_system() -> None:
    state = table([["court-1"], ["press-1"]], positions=["c1", "c1"], phase=ROLL)
    state = rolled(state, 2)
    assert LEAGUE.squares[state.positions[0]].id == "c3"  # c1 -> c2 -> c3, never backwards
    state = table([["court-1"], ["press-1"]], positions=["mi5", "c1"], phase=ROLL)
    state = rolled(state, 3)
    assert LEAGUE.squares[state.positions[0]].id == "west-4"  # out of MI5 the one way


def test_sequence_3_where_the_one_way_system_forks_the_player_chooses() -> None:
    state = table([["court-1"], ["press-1"]], positions=["c6", "c1"], phase=ROLL)
    state = rolled(state, 2)  # c6 -> c7, which forks: c8 or north-1
    assert state.phase == MOVE
    assert ENGINE.legal(state, 0) == [{"type": "move", "to": "c8"}, {"type": "move", "to": "north-1"}]
    down = play(state, (0, {"type": "move", "to": "north-1"}))
    assert LEAGUE.squares[down.positions[0]].id == "north-1" and down.turn == 1


def test_sequence_4_a_blank_square_ends_the_turn_and_play_passes_to_the_left() -> None:
    state = table([["court-1"], ["press-1"], ["press-2"]], positions=["c1"] * 3, phase=ROLL, turn=1)
    state = rolled(state, 2)
    assert state.turn == 2 and state.phase == DRAW


def test_sequence_5_an_action_square_is_obeyed_and_then_the_turn_ends() -> None:
    state = table([["court-1"], ["press-1"]], positions=["c3", "c1"], phase=ROLL)
    state = rolled(state, 2)  # c5: report to MI5 for questioning
    assert LEAGUE.squares[state.positions[0]].id == "mi5"
    assert state.turn == 1 and state.phase == DRAW


# Action squares -------------------------------------------------------------------------


def test_action_squares_there_are_20_and_every_one_carries_an_instruction() -> None:
    actions = [sq for sq in LEAGUE.squares if sq.kind == "action"]
    assert len(actions) == 20
    kinds = Counter(sq.instruction.do for sq in actions if sq.instruction)
    for named in ("go_to_mi5", "replace_influence", "replace_permission", "give_permission"):
        assert kinds[named] >= 2


def test_action_report_to_mi5_for_questioning() -> None:
    state = table([["court-1"], ["press-1"]], positions=["north-2", "c1"], phase=ROLL)
    state = rolled(state, 1)  # north-3
    assert LEAGUE.squares[state.positions[0]].id == "mi5"
    (event,) = events_of(state, "instruction")
    assert event["do"] == "go_to_mi5" and event["from"] == "north-3"


def test_action_replace_your_influence_cards_at_the_bottom_of_the_discard_pile_new_ones_from_the_pack() -> (
    None
):
    hand = ["court-1", "court-2", "court-3", "press-4", "press-5", "press-6", "publisher-7"]
    state = table([hand, ["press-1"]], positions=["c7", "c1"], phase=ROLL, discard=["government-1"])
    state = rolled(state, 2)  # c7 -> c8 -> c9 (or the north spoke)
    state = play(state, (0, {"type": "move", "to": "c9"}))
    assert state.discard == (*hand, "government-1")  # under the pile; the top card stays on top
    assert len(state.hands[0]) == 7 and not set(state.hands[0]) & set(hand)


def test_action_replace_a_permission_card_puts_it_at_the_bottom_of_its_pack() -> None:
    state = table(
        [["court-1"], ["press-1"]],
        positions=["c11", "c1"],
        permissions=[["government", "press"], []],
        phase=ROLL,
    )
    card = state.permissions[0][0]
    state = rolled(state, 1)  # c12: replace your Government card
    assert state.permissions[0] == ("press-permission-1",)
    assert state.locations[SUITS.index("government")][-1] == card


def test_action_give_a_permission_card_to_a_player_of_your_choice() -> None:
    state = table(
        [["court-1"], ["press-1"], ["press-2"]],
        positions=["c13", "c1", "c1"],
        permissions=[["court", "press"], [], ["press"]],
        phase=ROLL,
    )
    state = rolled(state, 1)  # c14: give a permission card
    court, press = state.permissions[0]
    assert ENGINE.legal(state, 0) == [
        {"type": "give", "card": court, "to": 1},
        {"type": "give", "card": court, "to": 2},
        {"type": "give", "card": press, "to": 1},
    ]
    state = play(state, (0, {"type": "give", "card": court, "to": 2}))
    assert state.permissions[0] == (press,) and court in state.permissions[2]
    assert state.turn == 1


def test_action_you_cannot_give_a_permission_card_to_a_player_who_has_one_of_that_type() -> None:
    state = table(
        [["court-1"], ["press-1"]],
        positions=["c13", "c1"],
        permissions=[["court"], ["court"]],
        phase=ROLL,
    )
    state = rolled(state, 1)
    assert len(state.permissions[0]) == 1 and len(state.permissions[1]) == 1  # no gift possible
    assert events_of(state, "no_gift") == [{"event": "no_gift", "seat": 0}]


def test_action_you_cannot_give_a_player_their_fourth_permission_card() -> None:
    state = table(
        [["court-1"], ["press-1"], ["press-2"]],
        positions=["c13", "c1", "c1"],
        permissions=[["court"], ["government", "press", "publisher"], []],
        phase=ROLL,
    )
    state = rolled(state, 1)
    # only seat 2 can take it, so the gift is made without asking
    assert state.permissions[0] == () and len(state.permissions[2]) == 1
    assert events_of(state, "give")[0]["to"] == 2


def test_you_may_only_hold_one_of_each_permission_card() -> None:
    state = table(
        [["court-5", "court-6", "court-7"], ["press-1"]],
        positions=["court-1", "c1"],
        permissions=[["court"], []],
        phase=ROLL,
    )
    assert ENGINE.legal(state, 0) == [ROLL_DIE]  # no staying for a court card already held
    state = rolled(state, 1)
    assert state.phase == DRAW and state.turn == 1  # no asking for a second court card


# Seeking permission --------------------------------------------------------------------------


def test_sequence_6_on_a_challenge_square_the_player_may_attempt_to_take_a_permission_card() -> None:
    state = seeking([[*RUN_567, "press-1"], ["press-2"]])
    assert ENGINE.legal(state, 0) == [{"type": "pass"}, {"type": "seek", "cards": RUN_567}]
    passed = play(state, (0, {"type": "pass"}))
    assert passed.turn == 1 and passed.permissions[0] == ()


def test_seeking_permission_needs_three_cards_of_the_circles_suit_in_numerical_sequence() -> None:
    hand = ["court-1", "court-2", "court-4", "press-5", "press-6", "press-7", "court-9"]
    state = seeking([hand, ["government-1"]])
    assert ENGINE.legal(state, 0) == [{"type": "pass"}]  # a press run is the wrong suit; 1, 2, 4 is no run
    for cards in (["court-1", "court-2", "court-4"], ["press-5", "press-6", "press-7"]):
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 0, {"type": "seek", "cards": cards})
    state = seeking([["court-1", "court-2", "court-3", "court-4"], ["government-1"]])
    assert [a["cards"] for a in ENGINE.legal(state, 0)[1:]] == [
        ["court-1", "court-2", "court-3"],
        ["court-2", "court-3", "court-4"],
    ]


def test_the_three_cards_are_placed_face_down_and_the_player_announces_seeking_permission() -> None:
    state = sought([[*RUN_567, "press-1"], ["press-2"], ["court-12"]], RUN_567)
    assert state.phase == WINDOW
    assert state.hands[0] == ("press-1",)
    (event,) = events_of(state, "seek")
    assert event == {"event": "seek", "seat": 0, "circle": "court", "face_down": 3}
    for seat in (None, 1, 2):
        assert ENGINE.view(state, seat)["window"]["cards"] is None
        assert "court-5" not in str(ENGINE.view(state, seat))
    assert ENGINE.view(state, 0)["window"]["cards"] == RUN_567


def test_if_no_challenge_the_cards_are_turned_up_and_the_player_takes_the_top_permission_card() -> None:
    state = sought([RUN_567, ["press-2"], ["court-12"]], RUN_567)
    top = state.locations[0][0]
    state = play(state, (1, DECLINE), (2, DECLINE))
    (event,) = events_of(state, "unchallenged")
    assert event["cards"] == RUN_567 and event["result"] == "granted"
    assert state.permissions[0] == (top,) and state.locations[0][0] != top


def test_the_three_cards_go_to_the_bottom_of_the_discard_pile_and_three_new_cards_are_drawn() -> None:
    state = table(
        [[*RUN_567, "press-1"], ["press-2"]], positions=["court-1", "c1"], phase=ROLL, discard=["press-9"]
    )
    state = rolled(state, 1)
    state = play(state, (0, {"type": "seek", "cards": RUN_567}))
    state = replace_pack(state, ["government-1", "government-2", "government-3"])
    state = play(state, (1, DECLINE))
    assert state.discard == (*RUN_567, "press-9")  # at the bottom: press-9 stays on top
    assert sorted(state.hands[0]) == ["government-1", "government-2", "government-3", "press-1"]


def replace_pack(state: SpycatcherState, top: list[str]) -> SpycatcherState:
    """Put ``top`` on top of the pack (the cards come from lower in the pack)."""
    rest = [c for c in state.pack[state.top :] if c not in top]
    return replace(state, pack=(*top, *rest), top=0)


def test_a_master_card_played_to_take_a_permission_card_returns_to_the_bottom_of_the_discard_pile() -> None:
    state = seeking([["court-M", "press-1"], ["press-2"]])
    assert {"type": "seek", "cards": ["court-M"]} in ENGINE.legal(state, 0)
    state = replace_pack(state, ["government-7"])
    state = play(state, (0, {"type": "seek", "cards": ["court-M"]}), (1, DECLINE))
    assert state.discard[0] == "court-M"
    assert sorted(state.hands[0]) == ["government-7", "press-1"]
    assert len(state.permissions[0]) == 1


def test_permission_cards_are_openly_displayed_and_gaining_one_ends_the_turn() -> None:
    state = sought([RUN_567, ["press-2"], ["press-3"]], RUN_567)
    state = play(state, (1, DECLINE), (2, DECLINE))
    card = state.permissions[0][0]
    for seat in (None, 0, 1, 2):
        shown = ENGINE.view(state, seat)["permissions"][0]
        assert shown == [{"card": card, "suit": "court", "title": LEAGUE.cards[card].title}]
    assert state.turn == 1 and state.phase == DRAW


# Master cards ---------------------------------------------------------------------------------


def test_a_master_card_seeking_permission_is_automatically_successful_no_challenge_is_effective() -> None:
    state = sought([["court-M"], ["court-10", "court-11", "court-12"], []], ["court-M"])
    state = play(
        state, (1, {"type": "challenge", "cards": ["court-10", "court-11", "court-12"]}), (2, DECLINE)
    )
    (event,) = events_of(state, "challenge")
    assert event["result"] == "granted" and event["beaten_by"] == []
    assert len(state.permissions[0]) == 1


def test_a_master_card_played_as_a_challenge_is_automatically_successful() -> None:
    run = ["court-10", "court-11", "court-12"]
    state = sought([run, ["court-M"]], run)
    state = play(state, (1, {"type": "challenge", "cards": ["court-M"]}))
    (event,) = events_of(state, "challenge")
    assert event["result"] == "refused" and event["beaten_by"] == [1] and event["total"] == 33
    assert state.permissions[0] == ()


def test_a_master_card_must_be_of_the_suit_of_the_circle_it_is_played_in() -> None:
    state = seeking([["press-M", "press-1"], ["government-M"]])
    assert ENGINE.legal(state, 0) == [{"type": "pass"}]
    with pytest.raises(IllegalAction, match="Only Court cards"):
        ENGINE.apply(state, 0, {"type": "seek", "cards": ["press-M"]})
    state = sought([[*RUN_567], ["government-M", "court-1"]], RUN_567)
    assert {"type": "challenge", "cards": ["government-M"]} not in ENGINE.legal(state, 1)
    with pytest.raises(IllegalAction, match="Only Court cards"):
        ENGINE.apply(state, 1, {"type": "challenge", "cards": ["government-M"]})


# The challenge ---------------------------------------------------------------------------------


def test_the_challenge_every_other_player_may_challenge_once_permission_is_sought() -> None:
    state = seeking([[*RUN_567], ["court-1"], ["press-1"], []])
    assert ENGINE.to_act(state) == {0}  # nobody challenges before the cards are down
    state = play(state, (0, {"type": "seek", "cards": RUN_567}))
    assert ENGINE.to_act(state) == {1, 2, 3}
    assert ENGINE.legal(state, 0) == []


def test_the_challenge_is_one_two_or_three_cards_of_the_correct_suit() -> None:
    state = sought([[*RUN_567], ["court-1", "court-2", "court-3", "court-4", "press-9"]], RUN_567)
    sizes = Counter(len(a["cards"]) for a in ENGINE.legal(state, 1) if a["type"] == "challenge")
    assert sizes == {1: 4, 2: 6, 3: 4}
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, {"type": "challenge", "cards": ["court-1", "court-2", "court-3", "court-4"]})


def test_the_challenge_the_rule_sheets_example_1_2_9_totals_12_and_does_not_beat_5_6_7() -> None:
    state = sought([[*RUN_567], ["court-1", "court-2", "court-9"]], RUN_567)
    state = play(state, (1, {"type": "challenge", "cards": ["court-1", "court-2", "court-9"]}))
    (event,) = events_of(state, "challenge")
    assert (event["total"], event["challenges"][0]["total"], event["result"]) == (18, 12, "granted")
    assert len(state.permissions[0]) == 1  # "the player can take a card from the circle"


def test_the_challenge_succeeds_with_a_total_greater_than_the_run() -> None:
    state = sought([[*RUN_567], ["court-8", "court-11"]], RUN_567)
    state = play(state, (1, {"type": "challenge", "cards": ["court-8", "court-11"]}))
    (event,) = events_of(state, "challenge")
    assert event["result"] == "refused" and event["challenges"][0]["total"] == 19


def test_a_successful_challenge_the_seeker_discards_takes_three_new_cards_no_permission_and_moves_on() -> (
    None
):
    state = sought([[*RUN_567, "press-1"], ["court-8", "court-11", "press-2"]], RUN_567)
    state = replace_pack(
        state, ["government-1", "government-2", "government-3", "government-4", "government-5"]
    )
    state = play(state, (1, {"type": "challenge", "cards": ["court-8", "court-11"]}))
    assert sorted(state.hands[0]) == ["government-1", "government-2", "government-3", "press-1"]
    assert state.permissions[0] == () and state.must_move == {0}
    # on seat 0's next turn it must move on from the challenge square
    next_turn = replace(state, turn=0, phase=ROLL)
    assert ENGINE.legal(next_turn, 0) == [ROLL_DIE]
    assert {"type": "stay"} in ENGINE.legal(replace(next_turn, must_move=frozenset()), 0)
    moved = rolled(next_turn, 1)
    assert moved.must_move == frozenset() and LEAGUE.squares[moved.positions[0]].id == "court-3"


def test_all_cards_played_in_a_challenge_go_to_the_bottom_of_the_discard_pile_whatever_the_result() -> None:
    for challenge, result in ((["court-1", "court-2"], "granted"), (["court-8", "court-12"], "refused")):
        hands = [[*RUN_567], ["court-1", "court-2", "court-8", "court-12"], ["court-3"]]
        state = table(hands, positions=["court-1", "c1", "c1"], phase=ROLL, discard=["press-12"])
        state = rolled(state, 1)
        state = play(
            state,
            (0, {"type": "seek", "cards": RUN_567}),
            (2, {"type": "challenge", "cards": ["court-3"]}),
            (1, {"type": "challenge", "cards": challenge}),
        )
        (event,) = events_of(state, "challenge")
        assert event["result"] == result
        assert state.discard == (*RUN_567, *challenge, "court-3", "press-12")
        assert len(state.hands[1]) == 4 and len(state.hands[2]) == 1  # (ruling 1: hands refilled)


def test_no_challenge_can_be_made_with_cards_of_an_incorrect_suit() -> None:
    state = sought([[*RUN_567], ["press-12", "government-11", "publisher-10"]], RUN_567)
    assert ENGINE.legal(state, 1) == [DECLINE]
    with pytest.raises(IllegalAction, match="Only Court cards"):
        ENGINE.apply(state, 1, {"type": "challenge", "cards": ["press-12"]})


# Influence cards -------------------------------------------------------------------------------


def test_when_the_pack_runs_out_the_discard_pile_is_shuffled_to_be_the_new_influence_pack() -> None:
    state = table(
        [["court-1"], ["press-1"]],
        pack=["court-9"],
        discard=["press-12", "government-11", "publisher-10"],
        full_deck=False,
    )
    state = play(state, (0, {"type": "draw", "from": "pack"}))
    assert state.discard == () and sorted(state.pack[state.top :]) == sorted(
        ["press-12", "government-11", "publisher-10"]
    )
    assert events_of(state, "reshuffle") == [{"event": "reshuffle", "cards": 3}]
    assert ENGINE.legal(play(state, (0, {"type": "discard", "card": "court-1"})), 0) == [ROLL_DIE]
