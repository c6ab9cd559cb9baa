"""Splitting players into tables of the allowed sizes."""

from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import TablePlan, TableSizeError, plan_tables, split_tables


def test_known_splits() -> None:
    assert split_tables(12, 4) == (4, 4, 4)
    assert split_tables(10, 4, (3, 4)) == (4, 3, 3)
    assert split_tables(14, 4, (3, 4)) == (4, 4, 3, 3)
    assert split_tables(9, 4, (3, 4, 5)) == (5, 4)
    assert split_tables(7, 2, (2, 3)) == (3, 2, 2)
    assert split_tables(0, 4) == ()


def test_impossible_splits_say_why() -> None:
    with pytest.raises(TableSizeError, match="10 players cannot be split into tables of 4"):
        split_tables(10, 4)
    with pytest.raises(TableSizeError, match="the smallest allowed table has 3 seats"):
        split_tables(2, 3)
    with pytest.raises(TableSizeError, match=r"outside 2\.\.6"):
        split_tables(10, 7)
    with pytest.raises(TableSizeError, match="not among the allowed sizes"):
        split_tables(10, 4, (3, 5))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 60), st.integers(2, 6), st.sets(st.integers(2, 6), max_size=3))
def test_splits_use_allowed_sizes_and_prefer_the_preferred(n, preferred, extra) -> None:
    allowed = tuple(sorted(extra | {preferred}))
    # Brute force: every multiset of allowed sizes summing to n, ranked by the documented key.
    options = [
        combo
        for count in range(n // 2 + 1)
        for combo in combinations_with_replacement(allowed, count)
        if sum(combo) == n
    ]
    if not options:
        with pytest.raises(TableSizeError):
            split_tables(n, preferred, allowed)
        return
    sizes = split_tables(n, preferred, allowed)
    assert sum(sizes) == n
    assert set(sizes) <= set(allowed)
    assert list(sizes) == sorted(sizes, reverse=True)

    def key(combo: tuple[int, ...]) -> tuple[int, int, int]:
        return (sum(s != preferred for s in combo), sum(abs(s - preferred) for s in combo), len(combo))

    assert key(sizes) == min(key(c) for c in options)


def test_plan_gives_the_fewest_byes() -> None:
    assert plan_tables(9, 2, max_byes=1) == TablePlan((2, 2, 2, 2), 1)
    assert plan_tables(10, 4, max_byes=None) == TablePlan((4, 4), 2)
    assert plan_tables(11, 4, (3, 4)) == TablePlan((4, 4, 3), 0)
    with pytest.raises(TableSizeError, match="cannot be split"):
        plan_tables(10, 4)
    with pytest.raises(TableSizeError, match="with at most 1 bye"):
        plan_tables(11, 4, max_byes=1)
    with pytest.raises(TableSizeError, match="cannot fill a table"):
        plan_tables(1, 2, max_byes=1)
