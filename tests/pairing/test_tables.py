"""Splitting players into tables of the allowed sizes."""

from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import TablePlan, TableSizeError, plan_tables, split_tables
from pairing.tables import describe_sizes, uneven_sizes


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
    with pytest.raises(TableSizeError, match=r"outside 2\.\.99"):
        split_tables(200, 100)
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


# --- uneven counts: byes, shorter or longer tables ----------------------------------------------


def test_uneven_sizes_follow_the_choice_within_the_games_range() -> None:
    assert uneven_sizes(4) == (4,)
    assert uneven_sizes(4, "shorter") == (3, 4)
    assert uneven_sizes(4, "longer") == (4, 5)
    assert uneven_sizes(4, "shorter", range(3, 7)) == (3, 4)  # Black Spy, 3 to 6
    assert uneven_sizes(5, "longer", range(2, 7)) == (5, 6)  # Mister Spy, 2 to 6
    with pytest.raises(TableSizeError, match="tables of 2 are too small"):
        uneven_sizes(3, "shorter", range(3, 7))  # Black Spy has no tables of 2
    with pytest.raises(TableSizeError, match="tables of 6 are too large"):
        uneven_sizes(5, "longer", range(2, 6))  # Spies! is played by 2 to 5
    with pytest.raises(TableSizeError, match="tables of 1 are too small"):
        uneven_sizes(2, "shorter", range(1, 7))  # Spy vs Spy has a solo game, but not a table of 1
    with pytest.raises(TableSizeError, match="choose one of byes, shorter, longer"):
        uneven_sizes(4, "both")


def test_23_players_at_tables_of_4_by_each_choice() -> None:
    assert plan_tables(23, 4, uneven_sizes(4), max_byes=None) == TablePlan((4, 4, 4, 4, 4), 3)
    assert plan_tables(23, 4, uneven_sizes(4, "shorter"), max_byes=None) == TablePlan((4, 4, 4, 4, 4, 3), 0)
    assert plan_tables(23, 4, uneven_sizes(4, "longer"), max_byes=None) == TablePlan((5, 5, 5, 4, 4), 0)
    # No split at all: the fewest byes still.
    assert plan_tables(5, 4, uneven_sizes(4, "shorter"), max_byes=None) == TablePlan((4,), 1)


def test_sizes_in_words() -> None:
    assert describe_sizes((4, 4, 4, 4, 4, 3)) == "5 tables of 4 and 1 of 3"
    assert describe_sizes((2, 2, 2), byes=1) == "3 tables of 2 and 1 bye"
    assert describe_sizes((6,)) == "1 table of 6"
    assert describe_sizes(()) == "no tables"
