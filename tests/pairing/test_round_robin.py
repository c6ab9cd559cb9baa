"""Round robins: the circle method and group schedules at tables of 3 to 6."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import EventHistory, group_schedule, round_robin_pairs


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 1000), min_size=2, max_size=21, unique=True))
def test_circle_method_meets_everyone_once_with_balanced_seats(players) -> None:
    rounds = round_robin_pairs(players)
    n = len(players)
    assert len(rounds) == (n if n % 2 else n - 1)
    met = Counter(frozenset(t) for r in rounds for t in r.tables)
    assert set(met) == {frozenset(p) for p in combinations(players, 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        assert sorted(r.players) == sorted(players)
        assert len(r.byes) == n % 2
    assert Counter(p for r in rounds for p in r.byes) == (Counter(players) if n % 2 else Counter())
    hist = EventHistory(rounds)
    for p in players:
        counts = (*hist.seat_counts(p), 0, 0)
        assert abs(counts[0] - counts[1]) <= 1


def test_circle_method_rejects_duplicates() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        round_robin_pairs([1, 2, 2])


@pytest.mark.parametrize(("n", "size"), [(9, 3), (16, 4), (25, 5)])
def test_group_schedule_finds_repeat_free_designs(n, size) -> None:
    schedule = group_schedule(list(range(n)), preferred=size)
    assert schedule.repeats == 0 == schedule.lower_bound
    assert schedule.unmet_pairs == 0  # a resolvable design: everyone meets everyone once


@settings(max_examples=15, deadline=None)
@given(st.integers(5, 14), st.integers(3, 5), st.integers(1, 4), st.integers(0, 5))
def test_group_schedule_seats_everyone_each_round(n, size, rounds, seed) -> None:
    players = list(range(100, 100 + n))
    allowed = (size - 1, size) if size > 3 else (size,)
    schedule = group_schedule(
        players, preferred=size, allowed=allowed, rounds=rounds, max_byes=None, seed=seed, effort=3000
    )
    assert len(schedule.rounds) == rounds
    for r in schedule.rounds:
        assert sorted(r.players) == players
        assert all(len(t) in allowed for t in r.tables)
    meetings = Counter(frozenset(p) for r in schedule.rounds for t in r.tables for p in combinations(t, 2))
    assert schedule.repeats == sum(k - 1 for k in meetings.values())
    assert schedule.lower_bound <= schedule.repeats
    byes = Counter(p for r in schedule.rounds for p in r.byes)
    assert not byes or max(byes.values()) - min(byes.get(p, 0) for p in players) <= 1
    again = group_schedule(
        players, preferred=size, allowed=allowed, rounds=rounds, max_byes=None, seed=seed, effort=3000
    )
    assert again == schedule


def test_group_schedule_bound_between_rounds() -> None:
    # 12 players at tables of 4: every table of a later round has two players from one earlier
    # table, so 4 rounds force at least 9 repeats (and the search stays near that).
    schedule = group_schedule(list(range(12)), preferred=4, rounds=4, effort=20_000)
    assert schedule.lower_bound == 9
    assert schedule.repeats <= 14
