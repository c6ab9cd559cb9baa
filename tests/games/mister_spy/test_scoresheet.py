"""The tabletop score sheet check."""

from __future__ import annotations

import random

import pytest

from games.mister_spy import ENGINE
from games.mister_spy.scoresheet import (
    MOST_POINTS,
    SheetCheck,
    check_sheet,
    frontier,
    least_spies_value,
    least_taunts,
)


def test_a_good_sheet_gives_places_highest_first() -> None:
    check = check_sheet(4, [12, 30, 7, 0])
    assert check.ok and check.problems == ()
    assert check.places == (2, 1, 3, 4)
    assert check.winner_at_33 is None


def test_equal_scores_share_a_place() -> None:
    assert check_sheet(3, [15, 7, 15], end="deck empty").places == (1, 3, 1)


def test_a_33_point_win_is_recognised() -> None:
    check = check_sheet(3, [33, 32, 0], end="33 points")
    assert check.ok and check.winner_at_33 == 0 and check.places == (1, 2, 3)


def test_points_cannot_be_negative() -> None:
    check = check_sheet(2, [-4, 10])
    assert check.messages == ["Player 1 has -4 points, but points cannot be negative."]


def test_a_score_of_1_is_impossible() -> None:
    assert "smallest Spy is worth 2" in check_sheet(2, [1, 10]).messages[0]


def test_scores_must_be_whole_numbers() -> None:
    check = check_sheet(2, [2.5, 10])  # type: ignore[list-item]
    assert not check.ok and "whole number" in check.messages[0] and check.places == ()


def test_one_score_per_player_and_2_to_6_players() -> None:
    assert "3 scores for 2 players" in check_sheet(2, [3, 4, 5]).messages[0]
    assert "2 to 6 players" in check_sheet(7, [0] * 7).messages[0]


def test_only_one_player_can_reach_33() -> None:
    check = check_sheet(3, [40, 35, 2])
    assert "Player 1 and Player 2 have 33 or more" in check.messages[0]
    assert check.winner_at_33 is None


def test_the_end_must_match_the_scores() -> None:
    assert (
        "ended at 33 points, not when the deck ran out"
        in check_sheet(2, [35, 3], end="deck empty").messages[0]
    )
    assert "nobody has 33" in check_sheet(2, [30, 3], end="33 points").messages[0]
    assert "Unknown end" in check_sheet(2, [30, 3], end="timeout").messages[0]


def test_no_player_can_pass_what_the_deck_allows() -> None:
    # at most 32 before the last Spy, and an 8 taunted with all nine letters is 4096
    assert MOST_POINTS == 32 + 8 * 2**9
    assert check_sheet(2, [MOST_POINTS, 0]).ok
    assert "more than anyone can reach" in check_sheet(2, [MOST_POINTS + 1, 0]).messages[0]
    # 4095 is odd and far above 32: no last Spy makes it
    assert least_taunts(4095) is None
    assert "cannot be made from the deck" in check_sheet(2, [4095, 0]).messages[0]


def test_the_total_cannot_exceed_what_the_spies_are_worth() -> None:
    # the winner's 4128 takes the 8 and nine taunts; five 32s then need more Spies than are left
    assert least_spies_value([4128, 32, 32, 32, 32, 32]) > 83
    check = check_sheet(6, [4128, 32, 32, 32, 32, 32])
    assert check.messages and "more Spies than the deck holds" in check.messages[-1]
    assert check_sheet(6, [4128, 32, 32, 32, 0, 0]).ok
    assert "at least 27 successful taunts" in check_sheet(3, [4128, 4128, 4128]).messages[-1]


def test_least_taunts_and_the_printed_value_frontier() -> None:
    assert least_taunts(0) == 0 and least_taunts(32) == 0 and least_taunts(2) == 0
    assert least_taunts(1) is None
    assert frontier(32)[:3] == (32, 24, 8)  # 8+7+6+6+5; 8x2 + 7+6+3; 8x4


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_every_engine_game_passes_the_sheet_check(seats: int) -> None:
    for seed in range(15):
        rng = random.Random(seed)
        state = ENGINE.start(seats, seed, {})
        while ENGINE.to_act(state):
            seat = min(ENGINE.to_act(state))
            legal = ENGINE.legal(state, seat)
            state = ENGINE.apply(state, seat, legal[rng.randrange(len(legal))])
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        check = check_sheet(seats, [int(s) for s in outcome.scores], end=outcome.detail["end"])
        assert isinstance(check, SheetCheck)
        assert check.ok, check.messages
        assert check.places == outcome.places
