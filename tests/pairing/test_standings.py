"""Standings: points by place, byes, tiebreaks in order, shared ranks."""

import itertools
from math import fsum

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import ByeScoring, PointsScheme, RoundResult, SeatResult, TableResult, compute_standings
from pairing.standings import DEFAULT_POINTS, TIEBREAKS, balanced_points, balanced_scheme


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
    # 8, plus round 1's average game score as the bye's: (10 + 4) / 2.
    assert win[3].game_points == 15
    draw = {r.player: r for r in compute_standings(base, bye=ByeScoring(rule="draw"))}
    assert draw[3].points == 4
    four = {r.player: r for r in compute_standings(base, bye=ByeScoring(rule="win", table_size=4))}
    assert four[3].points == 7
    average = {
        r.player: r for r in compute_standings(base, bye=ByeScoring(rule="average", game_points="zero"))
    }
    assert average[3].points == 6 and average[2].points == 0
    assert average[3].game_points == 8  # "zero": the bye brings no game score
    assert win[2].game_points == 4 + 7  # round 2's average: (8 + 6) / 2
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


def test_ruling_7_a_round_one_bye_in_a_lowest_wins_game_ranks_below_the_table_winners() -> None:
    """Nine players of Black Spy at tables of 4, the bye scoring a win: the bye's game score is
    the round's average, not 0 (the best Black Spy score there is), so both table winners,
    level with it on tournament points, rank above it. The same rule in round 2."""
    scores_1 = [
        (1, 1, 20),
        (2, 2, 60),
        (3, 3, 70),
        (4, 4, 90),
        (5, 1, 30),
        (6, 2, 40),
        (7, 3, 80),
        (8, 4, 90),
    ]
    round_1 = RoundResult(
        (table(*scores_1[:4]), table(*scores_1[4:])),
        byes=(9,),
    )
    rows = compute_standings(
        [round_1],
        tiebreaks=("tournament_points", "game_points", "opponents_average"),
        points=balanced_scheme(4),
        bye=ByeScoring(rule="win", table_size=4),
        lowest_wins=True,
    )
    by_player = {r.player: r for r in rows}
    assert by_player[9].points == 4 and by_player[9].game_points == 60  # 480 / 8
    assert [r.player for r in rows[:3]] == [1, 5, 9]
    round_2 = RoundResult(
        (
            table((9, 1, 50), (2, 2, 55), (3, 3, 65), (4, 4, 70)),
            table((5, 1, 10), (6, 2, 60), (7, 3, 70), (8, 4, 100)),
        ),
        byes=(1,),
    )
    two = {
        r.player: r for r in compute_standings([round_1, round_2], bye=ByeScoring(rule="win", table_size=4))
    }
    assert two[1].game_points == 20 + 60  # round 2's average: 480 / 8, the same rule
    assert two[9].game_points == 60 + 50


@st.composite
def events_with_byes(draw: st.DrawFn) -> tuple[list[RoundResult], bool]:
    players = list(range(1, draw(st.integers(5, 14)) + 1))
    rounds = []
    for _ in range(draw(st.integers(1, 4))):
        order = draw(st.permutations(players))
        byes = draw(st.integers(0, min(3, len(order) - 2)))
        seated = order[byes:]
        tables = []
        while seated:
            size = min(len(seated), draw(st.integers(2, 5)))
            if len(seated) - size == 1:
                size += 1
            group, seated = seated[:size], seated[size:]
            places = draw(st.lists(st.integers(1, len(group)), min_size=len(group), max_size=len(group)))
            scores = draw(st.lists(st.integers(-5, 90), min_size=len(group), max_size=len(group)))
            tables.append(table(*zip(group, places, scores, strict=True)))
        rounds.append(RoundResult(tuple(tables), tuple(order[:byes])))
    return rounds, draw(st.booleans())


@settings(max_examples=60, deadline=None)
@given(events_with_byes())
def test_ruling_7_every_bye_scores_its_rounds_average_whichever_score_wins(
    event: tuple[list[RoundResult], bool],
) -> None:
    """Worked out independently: a player's game score is their own scores plus, for each bye,
    the average score of the players seated in that round; a bye adds no game and no win."""
    rounds, lowest_wins = event
    rows = {r.player: r for r in compute_standings(rounds, lowest_wins=lowest_wins, tiebreaks=TIEBREAKS)}
    for player, row in rows.items():
        own = [s.game_score for r in rounds for t in r.tables for s in t.seats if s.player == player]
        averages = []
        for r in rounds:
            if player in r.byes:
                seated = [s.game_score for t in r.tables for s in t.seats]
                averages.append(sum(seated) / len(seated) if seated else 0)
        assert row.game_points == pytest.approx(sum(own) + sum(averages))
        assert row.games == len(own) and row.byes == len(averages)


def _placed(seats: list[tuple[int, int]], lowest_wins: bool) -> TableResult:
    """A table of (player, score), each placed by score: 1 plus the number who did better."""
    sign = 1 if lowest_wins else -1
    return table(*((p, 1 + sum(1 for _, o in seats if sign * o < sign * x), x) for p, x in seats))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(1, 4), st.booleans(), st.data())
def test_ruling_7_a_bye_never_beats_a_table_winner_where_every_table_scores_alike(
    size: int, tables_count: int, lowest_wins: bool, data: st.DataObject
) -> None:
    """Where every table of a round adds up to the same game score (a Black Spy deal is 60 at any
    table), a lowest-wins table's winner has at most the round's average and a highest-wins one
    at least: a bye scored as a win never ranks above a sole winner, whichever score wins."""
    total = size * 15
    tables = []
    for t in range(tables_count):
        cuts = sorted(data.draw(st.lists(st.integers(0, total), min_size=size - 1, max_size=size - 1)))
        scores = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        tables.append(_placed([(t * size + i + 1, x) for i, x in enumerate(scores)], lowest_wins))
    bye_player = tables_count * size + 1
    rows = compute_standings(
        [RoundResult(tuple(tables), byes=(bye_player,))],
        tiebreaks=("tournament_points", "game_points"),
        points=balanced_scheme(size),
        bye=ByeScoring(rule="win", table_size=size),
        lowest_wins=lowest_wins,
    )
    rank = {r.player: r.rank for r in rows}
    for row in rows:
        if row.wins:
            assert rank[row.player] <= rank[bye_player]


def test_ruling_15_sonneborn_berger_and_buchholz_cut_1_at_multiplayer_tables() -> None:
    rounds = [
        RoundResult((table((1, 1, 0), (2, 2, 0), (3, 2, 0), (4, 4, 0)),), byes=(5,)),
        RoundResult((table((1, 3, 0), (5, 1, 0), (2, 2, 0)), table((3, 1, 0), (4, 2, 0)))),
    ]
    rows = {
        r.player: r
        for r in compute_standings(
            rounds, points=balanced_scheme(4), bye=ByeScoring(rule="win", table_size=4)
        )
    }
    points = {p: r.points for p, r in rows.items()}
    # Round 1 (4 seats: 4 2 1 0, 2 and 3 tied for 2nd: 1.5 each); round 2: a table of 3 pays
    # 3.94 1.31 0, a table of 2 pays 3.5 0 (the average of 1.75 a seat).
    assert points == {1: 4.0, 2: 1.5 + 1.31, 3: 1.5 + 3.5, 4: 0.0, 5: 4.0 + 3.94}
    # Player 1 beat 2, 3 and 4 in round 1, was beaten by 5 and 2 in round 2.
    assert rows[1].sonneborn_berger == pytest.approx(points[2] + points[3] + points[4])
    # Player 2 tied with 3 (half), beat 4, then beat 1.
    assert rows[2].sonneborn_berger == pytest.approx(points[3] / 2 + points[4] + points[1])
    # Buchholz cut 1: the average of the opponents at each table, the lowest round left out.
    r1 = (points[2] + points[3] + points[4]) / 3
    r2 = (points[5] + points[2]) / 2
    assert rows[1].buchholz_cut1 == pytest.approx(max(r1, r2))
    # Player 5's bye is the round cut: its one table counts whole.
    assert rows[5].buchholz_cut1 == pytest.approx((points[1] + points[2]) / 2)
    assert rows[4].buchholz_cut1 == pytest.approx(points[3])  # round 1 (1.5 + 4 + 1.5... ) is cut
    assert rows[5].sonneborn_berger == pytest.approx(points[1] + points[2])


@settings(max_examples=100, deadline=None)
@given(
    st.integers(2, 12),
    st.lists(st.integers(-3, 30), min_size=2, max_size=12),
)
def test_ruling_14_a_seat_expects_the_same_points_at_every_table_size(size: int, scale: list[int]) -> None:
    """Every size's points pay a seat on average what the event's own tables pay (to the cent),
    the event's own scale is kept, and the scaled ones still go down (or stay) with the place."""
    scheme = balanced_scheme(len(scale), [float(p) for p in sorted(scale, reverse=True)])
    own = sorted(scale, reverse=True)
    assert list(scheme.by_size[len(scale)]) == own
    mean = fsum(own) / len(own)
    other = scheme.by_size[size]
    assert len(other) == size
    assert abs(fsum(other) - mean * size) <= 0.005
    assert all(a >= b for a, b in itertools.pairwise(other))


def test_ruling_14_the_short_tables_of_a_five_seat_event() -> None:
    assert balanced_points(DEFAULT_POINTS[5], 4) == (5.03, 2.51, 1.26, 0.0)
    assert balanced_points(DEFAULT_POINTS[4], 5) == (3.97, 2.39, 1.59, 0.8, 0.0)
    assert balanced_scheme(2).draw(2) == 1.0  # a draw at an event of 2s, as before
    assert balanced_scheme(3).by_size[2] == (2.67, 0.0)
