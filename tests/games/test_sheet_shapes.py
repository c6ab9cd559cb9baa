"""Every score sheet and score pad check answers any shape of input with problems in words, never
an exception: more entries than players or fewer, seats out of range, names missing, an empty
sheet. (An ``IndexError`` on a Black Spy deal with more ``taken`` entries than players, one of
the extra ones wrong, once answered a scorepad's round with a server error.)

The values are of the types the checks take (the serializers and forms see to that); their number
and their range are anything.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.black_spy.scorepad import ScoreRules, Taken, check_deal, deal_from_taken, tally
from games.mister_spy.scoresheet import END_33, END_DECK
from games.mister_spy.scoresheet import check_sheet as mister_spy_check
from games.spies.board import POWER_CODES
from games.spies.scoresheet import check_sheet as spies_check
from games.spy_vs_spy.scoresheet import RaceEntry, ScoreSheet
from games.spy_vs_spy.scoresheet import check_sheet as spy_vs_spy_check
from games.spycatcher.cards import SUITS
from games.spycatcher.scoresheet import check_sheet as spycatcher_check

SHAPES = settings(max_examples=300, deadline=None)

any_int = st.integers(min_value=-(10**6), max_value=10**6)
small = st.integers(min_value=-3, max_value=20)
names = st.none() | st.lists(st.text(max_size=8), max_size=9)
rules = st.builds(
    ScoreRules,
    players=st.integers(min_value=3, max_value=6),
    no_good_spies=st.booleans(),
    capture_or_release=st.booleans(),
    going_back=st.booleans(),
    end_value_override=st.none() | st.integers(min_value=1, max_value=500),
)
taken = st.builds(
    Taken,
    black_spies=small,
    black_ranks=st.frozensets(small, max_size=12),
    coloured_spies=small,
)


@SHAPES
@given(st.lists(taken, max_size=9), rules, st.sampled_from([None, "give", "subtract"]), names)
def test_a_black_spy_deal_from_what_was_taken(
    takens: list[Taken], rules: ScoreRules, choice: Any, names: Any
) -> None:
    check = deal_from_taken(takens, rules, choice, names)
    assert check.ok or all(isinstance(p, str) and p for p in check.problems)
    if len(takens) != rules.players:
        assert not check.ok and "players took" in check.problems[0]


@SHAPES
@given(st.lists(any_int, max_size=9), rules, names)
def test_a_black_spy_deal_in_points(points: list[int], rules: ScoreRules, names: Any) -> None:
    check = check_deal(points, rules, names)
    assert check.ok == (not check.problems)


@SHAPES
@given(st.lists(st.lists(st.integers(min_value=-60, max_value=80), max_size=8), max_size=12), rules, names)
def test_a_black_spy_pad_tallied(deals: list[list[int]], rules: ScoreRules, names: Any) -> None:
    result = tally(deals, rules, names)
    assert len(result.totals) == rules.players


race = st.builds(
    RaceEntry,
    points=st.lists(st.none() | st.integers(min_value=-40, max_value=60), max_size=9).map(tuple),
    first=st.none() | st.integers(min_value=-3, max_value=12),
)


@SHAPES
@given(
    st.lists(st.text(max_size=6), max_size=8).map(tuple),
    st.lists(race, max_size=10).map(tuple),
    st.booleans(),
)
def test_a_spy_vs_spy_sheet(players: tuple[str, ...], races: tuple[RaceEntry, ...], half: bool) -> None:
    result = spy_vs_spy_check(ScoreSheet(players=players, races=races, half_decks=half))
    assert all(p.message for p in result.problems)
    assert all(len(t) == len(players) for t in result.totals)


@SHAPES
@given(small, st.lists(any_int, max_size=9), st.sampled_from([None, END_33, END_DECK, "stopped"]))
def test_a_mister_spy_sheet(players: int, points: list[int], end: Any) -> None:
    check = mister_spy_check(players, points, end)
    assert check.ok == (not check.problems)


@SHAPES
@given(
    small,
    st.lists(st.lists(st.sampled_from([*SUITS, "joker", ""]), max_size=6), max_size=9),
    st.none() | small,
    st.none() | st.lists(small, max_size=9),
)
def test_a_spycatcher_sheet(players: int, permissions: list[list[str]], winner: Any, places: Any) -> None:
    check = spycatcher_check(players, permissions, winner, places)
    assert check.ok == (not check.problems)


powers = st.dictionaries(st.sampled_from([*POWER_CODES, "X", "g"]), any_int, max_size=7)


@SHAPES
@given(small, powers, powers)
def test_a_spies_sheet(players: int, victory_points: dict[str, int], money: dict[str, int]) -> None:
    check = spies_check(players, victory_points, money)
    assert check.ok == (not check.problems)


@pytest.mark.parametrize("extra", [1, 2, 4])
def test_more_taken_entries_than_players_one_of_them_wrong_is_said_in_words(extra: int) -> None:
    """The report's case: four players, more entries, an extra one impossible."""
    takens = [Taken(6, frozenset({1, 2, 3}))] + [Taken()] * 3 + [Taken(black_spies=9)] * extra
    check = deal_from_taken(takens, ScoreRules(players=4), names=["Ann", "Bob", "Cy", "Dee"])
    assert check.problems == (f"Enter what each of the 4 players took, not {4 + extra}.",)
