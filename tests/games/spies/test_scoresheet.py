"""The tabletop score sheet check: victory points per power, money for the tie-break, places."""

from __future__ import annotations

import pytest

from games.spies import ENGINE
from games.spies.bots import BOTS, play_game
from games.spies.scoresheet import check_sheet, places_of, sheet_from_outcome

VP = {"G": 30, "I": 12, "R": 20, "F": 24, "B": 18}
MONEY = {"G": 5, "I": 40, "R": 10, "F": 12, "B": 30}


def test_a_good_five_player_sheet_is_ranked_by_victory_points() -> None:
    check = check_sheet(5, VP, MONEY)
    assert check.ok, check.messages
    assert check.places == (1, 5, 3, 2, 4)
    assert check.power_places == {"G": 1, "I": 5, "R": 3, "F": 2, "B": 4}


def test_a_tie_in_points_goes_to_the_richest() -> None:
    check = check_sheet(5, {**VP, "F": 30}, {**MONEY, "F": 6})
    assert check.places[3] == 1 and check.places[0] == 2


def test_a_tie_in_points_and_money_shares_the_place() -> None:
    check = check_sheet(5, {**VP, "F": 30}, {**MONEY, "F": 5})
    assert check.places[0] == check.places[3] == 1 and sorted(check.places)[2] == 3


def test_a_player_running_two_powers_is_scored_for_each_and_ranked_by_the_better() -> None:
    check = check_sheet(4, VP, MONEY)
    assert check.ok
    assert check.player_powers[0] == ("G", "I")
    assert check.scored_power == ("G", "R", "F", "B")
    assert check.power_places["I"] == 5  # Italy still has its own place
    assert check.places == (1, 3, 2, 4)


def test_three_players_two_of_them_with_two_powers() -> None:
    check = check_sheet(3, VP, MONEY)
    assert check.player_powers == (("G", "I"), ("R",), ("F", "B"))
    assert check.scored_power == ("G", "R", "F")
    assert check.places == (1, 3, 2)


def test_in_the_two_player_game_russia_belongs_to_neither_player() -> None:
    check = check_sheet(2, {**VP, "R": 60}, MONEY)
    assert check.ok, check.messages
    assert check.power_places["R"] == 1
    assert check.places == (1, 2)


@pytest.mark.parametrize(
    ("vp", "money", "words"),
    [
        ({**VP, "G": -2}, MONEY, "cannot be negative"),
        ({**VP, "G": 2.5}, MONEY, "not a whole number"),
        ({**VP, "G": 1}, MONEY, "cannot be made"),
        ({**VP, "G": 10_000}, MONEY, "more than any power can hold"),
        (VP, {**MONEY, "B": -1}, "never goes below 0"),
        (VP, {**MONEY, "B": "lots"}, "not a whole number of pounds"),
        ({k: v for k, v in VP.items() if k != "R"}, MONEY, "Russia has no victory points"),
        ({**VP, "X": 3}, MONEY, "X, which is not a power"),
    ],
)
def test_bad_sheets_are_explained(vp: dict[str, object], money: dict[str, object], words: str) -> None:
    check = check_sheet(5, vp, money)
    assert not check.ok
    assert any(words in m for m in check.messages), check.messages
    if any(p.power is not None for p in check.problems):
        assert check.places == () or check.ok is False


def test_the_player_count_is_checked() -> None:
    check = check_sheet(6, VP, MONEY)
    assert any("2 to 5 players" in m for m in check.messages)
    assert check.places == ()


def test_together_the_powers_cannot_hold_more_than_the_game_gives() -> None:
    big = 500
    check = check_sheet(5, dict.fromkeys(VP, big), MONEY)
    assert any("together" in m for m in check.messages), check.messages


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_sheets_of_engine_games_check_and_rank_as_the_engine_does(seats: int) -> None:
    state, _ = play_game([BOTS["heuristic"]] * seats, seats * 7)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    vp, money = sheet_from_outcome(outcome.detail)
    check = check_sheet(seats, vp, money)
    assert check.ok, check.messages
    assert check.places == outcome.places
    assert list(check.scored_power) == outcome.detail["scored_power"]
    assert places_of(seats, list(vp.values()), list(money.values())) == outcome.places
