"""Swiss seating at tables of 3 to 6: properties, brute-force optimality, bound soundness."""

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import (
    EventHistory,
    PlayerStanding,
    Round,
    greedy_tables,
    plan_tables,
    repeat_lower_bound,
    seat_swiss_tables,
    split_tables,
)

from .helpers import partitions, random_history, repeats_of, standings_of


@st.composite
def events(draw: st.DrawFn, max_players: int = 24):
    preferred = draw(st.integers(3, 6))
    allowed = draw(st.sampled_from([(preferred,), (preferred - 1, preferred), (preferred, preferred + 1)]))
    allowed = tuple(s for s in allowed if 2 <= s <= 6)
    n = draw(st.integers(preferred, max_players))
    players = draw(st.lists(st.integers(0, 10**4), min_size=n, max_size=n, unique=True))
    rng = random.Random(draw(st.integers(0, 10**6)))
    history = random_history(players, draw(st.integers(0, 5)), preferred, rng)
    points = {p: float(draw(st.integers(0, 6))) for p in players}
    return standings_of(points), history, preferred, allowed


@settings(max_examples=60, deadline=None)
@given(events(), st.integers(0, 3))
def test_every_present_player_seated_once_at_the_asked_sizes(event, seed) -> None:
    standings, history, preferred, allowed = event
    plan = seat_swiss_tables(standings, history, preferred=preferred, allowed=allowed, seed=seed, effort=2000)
    players = [s.player for s in standings]
    assert sorted(plan.round.players) == sorted(players)
    expected = plan_tables(len(players), preferred, allowed, max_byes=None)
    assert sorted((len(t) for t in plan.round.tables), reverse=True) == list(expected.sizes)
    assert len(plan.round.byes) == expected.byes
    # Deterministic for a seed, and never worse than the standings-order baseline.
    again = seat_swiss_tables(
        standings, history, preferred=preferred, allowed=allowed, seed=seed, effort=2000
    )
    assert again == plan
    baseline = greedy_tables(standings, history, preferred=preferred, allowed=allowed, seed=seed)
    assert plan.round.byes == baseline.round.byes
    assert plan.repeats <= baseline.repeats
    assert plan.repeat_lower_bound <= plan.repeats


@st.composite
def small_events(draw: st.DrawFn):
    preferred = draw(st.sampled_from([3, 4]))
    n = draw(st.integers(6, 10))
    allowed = (preferred - 1, preferred)
    players = list(range(n))
    rng = random.Random(draw(st.integers(0, 10**6)))
    history = random_history(players, draw(st.integers(1, 5)), preferred, rng)
    points = {p: float(draw(st.integers(0, 3))) for p in players}
    return standings_of(points), history, preferred, allowed


@settings(max_examples=40, deadline=None)
@given(small_events())
def test_fewest_repeats_and_sound_bound_against_brute_force(event) -> None:
    standings, history, preferred, allowed = event
    hist = EventHistory(history)
    players = [s.player for s in standings]
    sizes = split_tables(len(players), preferred, allowed)
    fewest = min(repeats_of(tables, hist) for tables in partitions(players, list(sizes)))
    assert repeat_lower_bound(players, sizes, hist) <= fewest
    plan = seat_swiss_tables(standings, hist, preferred=preferred, allowed=allowed, seed=0)
    assert plan.repeats == fewest


def test_counting_bound_is_tight_when_few_opponents_are_left() -> None:
    history = [Round(((0, 1, 2, 3), (4, 5, 6, 7))), Round(((0, 1, 4, 5), (2, 3, 6, 7)))]
    players = list(range(8))
    # Each player has two unmet players left but needs three opponents: 12 pairs, at most 8 new.
    assert repeat_lower_bound(players, (4, 4), EventHistory(history)) == 4
    plan = seat_swiss_tables([PlayerStanding(p) for p in players], history, preferred=4)
    assert plan.repeats == 4
    assert plan.repeats_minimal


def test_past_tables_bound_where_counting_says_nothing() -> None:
    history = [Round(((0, 1, 2, 3), (4, 5, 6, 7)))]
    # Every player still has four unmet players, but each table of 4 takes two from each old one.
    assert repeat_lower_bound(list(range(8)), (4, 4), EventHistory(history)) == 4
    assert seat_swiss_tables([PlayerStanding(p) for p in range(8)], history, preferred=4).repeats == 4


def test_past_tables_bound_for_twelve_players_in_round_two() -> None:
    history = [Round(((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)))]
    plan = seat_swiss_tables([PlayerStanding(p) for p in range(12)], history, preferred=4)
    assert plan.repeat_lower_bound == 3  # four players from three old tables: one pair each
    assert plan.repeats == 3


def test_similar_standing_sits_together_when_nothing_repeats() -> None:
    points = {p: float(p // 4) for p in range(16)}
    plan = seat_swiss_tables(standings_of(points), [], preferred=4)
    assert plan.spread == 0
    assert plan.round.tables[0] and {points[p] for p in plan.round.tables[0]} == {3.0}


def test_beats_greedy_seating_on_a_realistic_event() -> None:
    rng = random.Random(5)
    players = list(range(120))
    points = dict.fromkeys(players, 0.0)
    history: list[Round] = []
    for number in range(6):
        plan = seat_swiss_tables(standings_of(points), history, preferred=4, seed=number)
        greedy = greedy_tables(standings_of(points), history, preferred=4)
        assert plan.repeats <= greedy.repeats
        history.append(plan.round)
        for table in plan.round.tables:
            order = list(table)
            rng.shuffle(order)
            for place, p in enumerate(order):
                points[p] += (4, 2, 1, 0)[place]
    plan = seat_swiss_tables(standings_of(points), history, preferred=4, seed=7)
    greedy = greedy_tables(standings_of(points), history, preferred=4)
    assert plan.repeats == 0 < greedy.repeats


def test_ruling_3_larger_tables_at_the_top_and_repeats_before_spread() -> None:
    plan = seat_swiss_tables([PlayerStanding(p, 10 - p) for p in range(10)], [], preferred=4, allowed=(3, 4))
    assert [len(t) for t in plan.round.tables] == [4, 3, 3]
    # Leaders 0 and 1 met: one of them moves down even though that widens the spread.
    history = [Round(((0, 1, 2),), byes=())]
    plan = seat_swiss_tables([PlayerStanding(p, 10 - p) for p in range(9)], history, preferred=3)
    assert plan.repeats == 0
    assert plan.spread > 0


def test_byes_go_to_the_lowest_without_one_and_never_twice_while_avoidable() -> None:
    players = list(range(10))  # tables of 4 only: two byes a round
    points = {p: float(10 - p) for p in players}
    first = seat_swiss_tables(standings_of(points), [], preferred=4)
    assert set(first.round.byes) == {8, 9}
    history: list[Round] = [first.round]
    for number in range(4):
        history.append(seat_swiss_tables(standings_of(points), history, preferred=4, seed=number).round)
    counts = Counter(p for r in history for p in r.byes)
    assert sorted(counts.values()) == [1] * 10


def test_ruling_4_seat_zero_rotates_fairly() -> None:
    rng = random.Random(1)
    for n, size in ((16, 4), (15, 4), (30, 5)):
        points = dict.fromkeys(range(n), 0.0)
        history: list[Round] = []
        for _ in range(8):
            plan = seat_swiss_tables(standings_of(points), history, preferred=size, allowed=(size - 1, size))
            history.append(plan.round)
            for table in plan.round.tables:
                order = list(table)
                rng.shuffle(order)
                for place, p in enumerate(order):
                    points[p] += len(table) - 1 - place
        hist = EventHistory(history)
        firsts = [(hist.seat_counts(p) or (0,))[0] for p in range(n)]
        assert max(firsts) - min(firsts) <= 2, (n, sorted(firsts))


def test_repeated_pairs_report_the_rounds_they_met() -> None:
    history = [Round(((0, 1, 2),)), Round(((0, 1, 3),))]
    plan = seat_swiss_tables([PlayerStanding(p) for p in range(3)], history, preferred=3)
    pairs = {rp.players: rp.rounds for rp in plan.repeated_pairs}
    assert pairs[(0, 1)] == (1, 2)
    assert all(len(set(pair)) == 2 for pair in combinations(plan.round.tables[0], 2))


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(st.integers(5, 23), st.sampled_from([3, 4, 5]), st.integers(0, 10**6))
def test_multiplayer_byes_at_most_once_while_avoidable(n, size, seed) -> None:
    rng = random.Random(seed)
    plan0 = plan_tables(n, size, max_byes=None)
    if plan0.byes == 0:
        return
    players = list(range(n))
    points = dict.fromkeys(players, 0.0)
    history: list[Round] = []
    for number in range(n // plan0.byes):
        plan = seat_swiss_tables(standings_of(points), history, preferred=size, seed=number, effort=500)
        history.append(plan.round)
        for table in plan.round.tables:
            for p in table:
                points[p] += rng.randint(0, 3)
        counts = Counter(p for r in history for p in r.byes)
        assert max(counts.values()) == 1


def _swiss_event(players: int, preferred: int, allowed: tuple[int, ...], rounds: int, seed: int):
    """A Swiss of ``rounds`` rounds with random results: each round seated against the ones
    before it, the standings' points going up by a random amount for each player."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(players), 0.0)
    history: list[Round] = []
    plans = []
    for _ in range(rounds):
        plan = seat_swiss_tables(
            standings_of(points), history, preferred=preferred, allowed=allowed, seed=seed
        )
        plans.append(plan)
        history.append(plan.round)
        for table in plan.round.tables:
            for p in table:
                points[p] += rng.choice((0, 1, 2, 4))
    return history, plans


def _odd_cost(tables, hist: EventHistory, preferred: int, present) -> int:
    had = {p: hist.odd_tables(p, preferred) for p in present}
    fewest = min(had.values())
    return sum(
        (had[p] - fewest) * (had[p] - fewest + 1) // 2 for t in tables if len(t) != preferred for p in t
    )


def _extra_meetings(tables, hist: EventHistory) -> int:
    return sum(max(0, hist.times_met(a, b) - 1) for t in tables for a, b in combinations(t, 2))


@settings(max_examples=40, deadline=None)
@given(small_events())
def test_ruling_14_odd_tables_go_to_who_had_fewest_after_repeats_against_brute_force(event) -> None:
    """Among every seating of a small round, the plan has the fewest repeated pairs, then the
    fewest further meetings, then the fairest odd tables (ruling 14): nobody who has had more
    tables of the other size sits at one where someone who has had fewer could."""
    standings, history, preferred, allowed = event
    hist = EventHistory(history)
    players = [s.player for s in standings]
    sizes = split_tables(len(players), preferred, allowed)
    best = min(
        (repeats_of(t, hist), _extra_meetings(t, hist), _odd_cost(t, hist, preferred, players))
        for t in partitions(players, list(sizes))
    )
    plan = seat_swiss_tables(standings, hist, preferred=preferred, allowed=allowed, seed=0)
    tables = plan.round.tables
    got = (
        repeats_of(tables, hist),
        _extra_meetings(tables, hist),
        _odd_cost(tables, hist, preferred, players),
    )
    assert got == best


@pytest.mark.parametrize(
    ("players", "preferred", "allowed", "rounds"),
    [
        (24, 5, (4, 5), 4),
        (22, 4, (3, 4), 3),
        (41, 4, (3, 4), 4),
        (38, 5, (4, 5), 4),
        (29, 4, (4, 5), 4),
        (59, 6, (5, 6), 4),
        (25, 3, (3, 4), 4),
    ],
)
def test_ruling_14_nobody_has_a_second_odd_table_while_someone_has_had_none(
    players: int, preferred: int, allowed: tuple[int, ...], rounds: int
) -> None:
    """Swiss events whose tables are of two sizes, each round's results at random: after every
    round the players' counts of tables of the other size differ by at most one (seated in
    standings order, the bottom of the room would have them round after round), for as long as
    no round has to repeat a pair. (Where a fair seating would repeat a pair, the repeat is avoided first:
    34 players at tables of 6 seat two tables of 5, and in round 2 a table of 5 taken only from
    the 24 players of round 1's four tables of 6 must seat two of them together again.)"""
    for seed in range(3):
        history, plans = _swiss_event(players, preferred, allowed, rounds, seed)
        for number in range(1, rounds + 1):
            if plans[number - 1].repeats:
                break  # the round could not avoid a repeat (it would without the odd tables too)
            had = Counter(dict.fromkeys(range(players), 0))
            for rnd in history[:number]:
                for table in rnd.tables:
                    if len(table) != preferred:
                        had.update(table)
            assert max(had.values()) - min(had.values()) <= 1, (seed, number, sorted(had.values()))
