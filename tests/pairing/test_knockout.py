"""Knockout brackets, heats and groups into a bracket."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import (
    Match,
    Round,
    bracket_order,
    first_round,
    groups_to_bracket,
    heat_qualifiers,
    heat_round,
    next_round,
    seed_by_rating,
    snake_groups,
)


@pytest.mark.parametrize("size", [1, 2, 4, 8, 16, 32, 64])
def test_bracket_order_pairs_one_against_n_and_keeps_top_seeds_apart(size) -> None:
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    if size >= 2:
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
        half = size // 2
        assert (1 in order[:half]) != (2 in order[:half])
    if size >= 4:
        quarters = [order[i : i + size // 4] for i in range(0, size, size // 4)]
        assert sorted(next(s for s in (1, 2, 3, 4) if s in q) for q in quarters) == [1, 2, 3, 4]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 70))
def test_byes_go_to_the_top_seeds(n) -> None:
    players = [1000 + i for i in range(n)]
    matches = first_round(players)
    byes = sorted(players.index(m.first) for m in matches if m.is_bye)
    size = 1 << (n - 1).bit_length()
    assert byes == list(range(size - n))
    assert sorted(p for m in matches for p in (m.first, m.second) if p is not None) == players


def test_next_round_and_rating_seeds() -> None:
    assert seed_by_rating({7: 1500.0, 3: 1700.0, 9: 1500.0}) == [3, 7, 9]
    assert next_round([1, 4, 2, 3]) == (Match(1, 4), Match(2, 3))
    with pytest.raises(ValueError):
        next_round([1, 2, 3])
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)


def test_heats_are_seeded_snake_wise_and_qualifiers_reseeded() -> None:
    seeds = list(range(1, 13))
    heat = heat_round(seeds, 4)
    assert heat.tables == ((1, 6, 7, 12), (2, 5, 8, 11), (3, 4, 9, 10))
    places = {1: 2, 6: 1, 7: 3, 12: 4, 2: 1, 5: 2, 8: 3, 11: 4, 3: 1, 4: 2, 9: 3, 10: 4}
    assert heat_qualifiers(heat, places, 2, seeds) == [2, 3, 6, 1, 4, 5]
    mixed = heat_round(list(range(1, 11)), 4, (3, 4))
    assert [len(t) for t in mixed.tables] == [4, 3, 3]


def test_ruling_10_tie_across_the_cut_goes_to_the_better_seed() -> None:
    heat = Round(((1, 2, 3),))
    assert heat_qualifiers(heat, {1: 1, 2: 2, 3: 2}, 2, [1, 2, 3]) == [1, 2]
    assert heat_qualifiers(heat, {1: 1, 2: 2, 3: 2}, 2, [1, 3, 2]) == [1, 3]
    with pytest.raises(ValueError, match="no place given"):
        heat_qualifiers(heat, {1: 1}, 1, [1, 2, 3])


def test_snake_groups_are_balanced() -> None:
    groups = snake_groups(list(range(1, 11)), 3)
    assert groups == ((1, 6, 7, 10), (2, 5, 8), (3, 4, 9))
    assert snake_groups([1, 2, 3, 4, 5, 6, 7, 8], 2) == ((1, 4, 5, 8), (2, 3, 6, 7))


def test_ruling_11_groups_into_bracket_winners_first_and_no_same_group_first_round() -> None:
    # Four groups, top two through: A1 B1 C1 D1 A2 B2 C2 D2 as seeds 1..8.
    rankings = [["A1", "A2", "A3"], ["B1", "B2", "B3"], ["C1", "C2", "C3"], ["D1", "D2", "D3"]]
    ids = {name: i for i, name in enumerate(n for g in rankings for n in g)}
    matches = groups_to_bracket([[ids[n] for n in g] for g in rankings], 2)
    names = {i: n for n, i in ids.items()}
    pairs = [(names[m.first], names[m.second]) for m in matches if m.second is not None]
    assert [a for a, _ in pairs] == ["A1", "D1", "B1", "C1"]
    assert all(a[0] != b[0] for a, b in pairs)
    assert all(b.endswith("2") for _, b in pairs)


def test_groups_into_bracket_moves_as_little_as_possible() -> None:
    # Two groups of which the top two go through: seeds A1 B1 A2 B2 give A1-B2 and B1-A2 already.
    matches = groups_to_bracket([[1, 2], [3, 4]], 2)
    assert matches == (Match(1, 4), Match(3, 2))
    # One group of three, two through: the only match is within the group (unavoidable).
    assert groups_to_bracket([[1, 2, 3]], 2) == (Match(1, 2),)
    # Three groups, two through: six players, byes to the two group winners on top.
    six = groups_to_bracket([[1, 2], [3, 4], [5, 6]], 2)
    assert sum(m.is_bye for m in six) == 2
    assert all(m.second is None or (m.first - 1) // 2 != (m.second - 1) // 2 for m in six)
