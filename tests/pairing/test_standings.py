"""Standings: points by place, byes, tiebreaks in order, shared ranks."""

import pytest

from pairing import ByeScoring, PointsScheme, RoundResult, SeatResult, TableResult, compute_standings


def table(*seats: tuple[int, int, float]) -> TableResult:
    return TableResult(tuple(SeatResult(p, place, score) for p, place, score in seats))


def ranks(rows) -> list[tuple[int, int]]:
    return [(r.rank, r.player) for r in rows]


def test_ruling_5_default_points_by_table_size_and_ties() -> None:
    scheme = PointsScheme()
    assert scheme.table_points([1, 2]) == [3, 0]
    assert scheme.table_points([1, 1]) == [1, 1]  # a draw
    assert scheme.table_points([2, 1, 3]) == [1, 3, 0]
    assert scheme.table_points([1, 2, 3, 4]) == [4, 2, 1, 0]
    assert scheme.table_points([1, 2, 2, 4]) == [4, 1.5, 1.5, 0]
    assert scheme.table_points([1, 1, 1, 1]) == [1.75] * 4
    assert scheme.table_points([1, 2, 3, 4, 5]) == [5, 3, 2, 1, 0]
    assert scheme.table_points([1, 2, 3, 4, 5, 6]) == [6, 4, 3, 2, 1, 0]
    custom = PointsScheme(by_size={3: (5.0, 2.0, 0.0)}, all_tied={})
    assert custom.table_points([1, 1, 1]) == [7 / 3] * 3
    with pytest.raises(ValueError, match="tables of 4"):
        custom.table_points([1, 2, 3, 4])


def test_points_game_points_and_manual_override() -> None:
    rounds = [
        RoundResult((table((1, 1, 10), (2, 2, 7)), table((3, 1, 9), (4, 1, 9)))),
        RoundResult((TableResult((SeatResult(1, 1, 5, tournament_points=2.0), SeatResult(3, 2, 4))),)),
    ]
    rows = {r.player: r for r in compute_standings(rounds)}
    assert rows[1].points == 5  # 3 + the organiser's 2
    assert rows[3].points == 1 and rows[4].points == 1
    assert rows[1].game_points == 15
    assert rows[1].wins == 2 and rows[3].wins == 0  # a draw is not a win


def test_ruling_6_shared_first_is_not_a_win_and_opponents_average_over_multiplayer() -> None:
    rounds = [RoundResult((table((1, 1, 0), (2, 1, 0), (3, 3, 0), (4, 4, 0)),))]
    rows = {r.player: r for r in compute_standings(rounds)}
    assert rows[1].wins == 0 and rows[1].points == 3
    # Opponents of player 3: 1 (3), 2 (3), 4 (0): average 2.
    assert rows[3].opponents_average == pytest.approx(2.0)


def test_ruling_8_opponents_average_counts_each_meeting() -> None:
    rounds = [
        RoundResult((table((1, 1, 0), (2, 2, 0)), table((3, 1, 0), (4, 2, 0)))),
        RoundResult((table((1, 1, 0), (2, 2, 0)), table((3, 1, 0), (4, 2, 0)))),
        RoundResult((table((1, 1, 0), (3, 2, 0)), table((2, 1, 0), (4, 2, 0)))),
    ]
    rows = {r.player: r for r in compute_standings(rounds)}
    # Player 1 met 2 twice (3 pts) and 3 once (6 pts): (3 + 3 + 6) / 3.
    assert rows[1].opponents_average == pytest.approx(4.0)


def test_ruling_7_bye_rules() -> None:
    base = [
        RoundResult((table((1, 1, 10), (2, 2, 4)),), byes=(3,)),
        RoundResult((table((3, 1, 8), (1, 2, 6)),), byes=(2,)),
    ]
    win = {r.player: r for r in compute_standings(base)}
    assert win[3].points == 6 and win[3].byes == 1 and win[3].wins == 1
    assert win[3].game_points == 16  # 8 plus an average game (8)
    draw = {r.player: r for r in compute_standings(base, bye=ByeScoring(rule="draw"))}
    assert draw[3].points == 4
    four = {r.player: r for r in compute_standings(base, bye=ByeScoring(rule="win", table_size=4))}
    assert four[3].points == 7
    average = {
        r.player: r for r in compute_standings(base, bye=ByeScoring(rule="average", game_points="zero"))
    }
    assert average[3].points == 6 and average[2].points == 0
    assert average[3].game_points == 8
    fixed = {r.player: r for r in compute_standings(base, bye=ByeScoring(rule="fixed", fixed_points=1.5))}
    assert fixed[2].points == 1.5


def test_tiebreaks_apply_in_the_chosen_order_and_ties_share_rank() -> None:
    rounds = [RoundResult((table((1, 1, 30), (2, 2, 5)), table((3, 1, 20), (4, 2, 25))))]
    by_game = compute_standings(rounds, tiebreaks=("tournament_points", "game_points"))
    assert ranks(by_game) == [(1, 1), (2, 3), (3, 4), (4, 2)]
    assert by_game[0].tiebreaks == (("tournament_points", 3.0), ("game_points", 30.0))
    no_game = compute_standings(rounds, tiebreaks=("tournament_points",))
    assert ranks(no_game) == [(1, 1), (1, 3), (3, 2), (3, 4)]
    lowest = compute_standings(rounds, tiebreaks=("tournament_points", "game_points"), lowest_wins=True)
    assert ranks(lowest) == [(1, 3), (2, 1), (3, 2), (4, 4)]
    assert lowest[0].tiebreaks[1] == ("game_points", 20.0)
    with pytest.raises(ValueError, match="unknown tiebreak"):
        compute_standings(rounds, tiebreaks=("luck",))  # type: ignore[arg-type]


def test_ruling_9_head_to_head_among_the_still_tied() -> None:
    # Players 1-4 all finish on 6 points. Among them 1 beat 2 and 3, 2 beat 3; 4 met none of them.
    rounds = [
        RoundResult((table((1, 1, 0), (2, 2, 0)), table((3, 1, 0), (5, 2, 0)), table((4, 1, 0), (6, 2, 0)))),
        RoundResult((table((1, 1, 0), (3, 2, 0)), table((2, 1, 0), (5, 2, 0)))),
        RoundResult((table((2, 1, 0), (3, 2, 0)), table((4, 1, 0), (5, 2, 0)))),
        RoundResult((table((3, 1, 0), (6, 2, 0)),)),
    ]
    rows = compute_standings(rounds, tiebreaks=("tournament_points", "head_to_head"))
    top = [r for r in rows if r.points == 6]
    assert [(r.rank, r.player) for r in top] == [(1, 1), (2, 2), (2, 4), (4, 3)]
    assert {r.player: r.tiebreaks[1][1] for r in top} == {1: 2.0, 2: 0.0, 4: 0.0, 3: -2.0}


def test_late_entrants_and_players_without_results() -> None:
    rows = compute_standings([RoundResult((table((1, 1, 0), (2, 2, 0)),))], players=[1, 2, 9])
    assert ranks(rows) == [(1, 1), (2, 2), (3, 9)]  # 2 faced a 3-point opponent, 9 nobody
    assert rows[2].games == 0 and rows[2].opponents_average == 0
