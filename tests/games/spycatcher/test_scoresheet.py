"""The tabletop score sheet check."""

from __future__ import annotations

from games.spycatcher import ENGINE
from games.spycatcher.bots import BOTS, play_game
from games.spycatcher.scoresheet import check_sheet

ALL = ["court", "government", "press", "publisher"]


def test_a_good_sheet_places_the_winner_first_then_by_permission_cards() -> None:
    check = check_sheet(4, [["court", "press"], ALL, [], ["government", "publisher"]], winner=1)
    assert check.ok and check.problems == ()
    assert check.scores == (2, 5, 0, 2)
    assert check.places == (2, 1, 4, 2)


def test_another_player_may_hold_all_four_without_having_reached_the_centre() -> None:
    check = check_sheet(3, [ALL, ALL, ["press"]], winner=0)
    assert check.ok and check.places == (1, 2, 3)


def test_a_game_stopped_without_a_winner_is_ranked_by_permission_cards() -> None:
    check = check_sheet(3, [["court"], ["court", "press"], ["court"]])
    assert check.ok and check.winner is None and check.places == (2, 1, 2)


def test_the_winner_must_hold_all_four() -> None:
    check = check_sheet(2, [["court", "press"], []], winner=0)
    assert check.messages == [
        "Player 1 is named the winner but holds court and press; the winner returns to the centre "
        "holding all four permission cards (missing: government and publisher)."
    ]


def test_a_player_holds_at_most_one_of_each_kind() -> None:
    check = check_sheet(2, [["court", "court", "press"], ["spies"]])
    assert check.messages == [
        "Player 1 lists 2 court cards, but a player may only hold one of each permission card.",
        "Player 2 lists 'spies', which is not a permission card: the four kinds are court, government, "
        "press and publisher.",
    ]
    assert check.permissions == (("court", "press"), ())


def test_the_players_and_the_lists_must_agree() -> None:
    assert check_sheet(7, [[]] * 7).messages == ["Spycatcher is played by 2 to 6 players, not 7."]
    check = check_sheet(3, [["court"], []])
    assert check.messages == [
        "The sheet lists permission cards for 2 players, but 3 played; give a list for each player "
        "(an empty one for none)."
    ]
    assert check.places == ()
    assert check_sheet(2, ["court", []]).messages == [
        "Player 1's permission cards must be a list of kinds, not 'court'."
    ]
    assert check_sheet(2, [ALL, []], winner=2).messages == ["The winner 2 is not one of the players."]


def test_a_finishing_order_is_checked_and_explained() -> None:
    sheet = [ALL, ["court"], ["court", "press", "government"]]
    assert check_sheet(3, sheet, winner=0, places=[1, 3, 2]).ok
    check = check_sheet(3, sheet, winner=0, places=[2, 1, 3])
    assert check.messages == [
        "Player 1 is placed 2nd but should be 1st: the winner comes first.",
        "Player 2 is placed 1st but should be 3rd: with 1 permission card they finish there (the winner "
        "first, then the others by permission cards held; equal numbers share a place).",
        "Player 3 is placed 3rd but should be 2nd: with 3 permission cards they finish there (the winner "
        "first, then the others by permission cards held; equal numbers share a place).",
    ]
    assert check_sheet(3, sheet, winner=0, places=[1, 2]).messages == [
        "The finishing order gives 2 places for 3 players."
    ]


def test_the_engine_and_the_sheet_rank_a_finished_game_alike() -> None:
    for seats, seed in ((2, 3), (5, 4)):
        state, _ = play_game([BOTS["heuristic"]] * seats, seed)
        outcome = ENGINE.outcome(state)
        assert outcome is not None
        check = check_sheet(
            seats, outcome.detail["permissions"], outcome.detail["winner"], list(outcome.places)
        )
        assert check.ok and check.places == outcome.places
        assert check.scores == tuple(int(score) for score in outcome.scores)
