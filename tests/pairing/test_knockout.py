"""Knockout brackets, heats and groups into a bracket."""

import random
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import (
    Match,
    Round,
    TableSizeError,
    bracket_order,
    first_round,
    groups_to_bracket,
    heat_qualifiers,
    heat_round,
    next_round,
    seed_by_rating,
    snake_groups,
)
from pairing.knockout import bracket_next, heat_plan, heat_seeds
from pairing.tables import uneven_sizes


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


# --- heats run to one final table -------------------------------------------------------------


def run_heats(
    count: int,
    size: int,
    advance: int,
    *,
    allowed: tuple[int, ...] | None = None,
    max_byes: int | None = None,
    seats: range = range(3, 7),
    seed: int = 0,
) -> list[Round]:
    """Heats played out with random places until the final; returns the rounds."""
    rng = random.Random(seed)
    players = list(range(100, 100 + count))
    rounds: list[Round] = []
    while True:
        plan = heat_plan(players, size, allowed, max_byes=max_byes, seats=seats)
        rounds.append(plan.round)
        if plan.final:
            return rounds
        assert len(rounds) < 20, "heats that do not end"
        places = {}
        for table in plan.round.tables:
            order = list(table)
            rng.shuffle(order)
            places |= {p: i + 1 for i, p in enumerate(order)}
        players = heat_qualifiers(plan.round, places, advance, heat_seeds(plan.round), at_least=seats.start)


def shape(rounds: list[Round]) -> list[tuple[list[int], int]]:
    return [([len(t) for t in r.tables], len(r.byes)) for r in rounds]


def test_heats_of_16_at_tables_of_4_top_2_play_to_a_final_of_4() -> None:
    assert shape(run_heats(16, 4, 2)) == [([4, 4, 4, 4], 0), ([4, 4], 0), ([4], 0)]


def test_heats_of_24_play_to_a_final_of_6_and_12_straight_to_one() -> None:
    assert shape(run_heats(24, 4, 2)) == [([4] * 6, 0), ([4, 4, 4], 0), ([6], 0)]
    assert shape(run_heats(12, 4, 2)) == [([4, 4, 4], 0), ([6], 0)]


def test_heats_of_18_start_with_byes_shorter_or_longer_tables() -> None:
    # Byes: the top 2 seeds go through; 16 play.
    rounds = run_heats(18, 4, 2, max_byes=None)
    assert shape(rounds)[0] == ([4, 4, 4, 4], 2)
    assert rounds[0].byes == (100, 101)
    assert shape(rounds)[-1] == ([6], 0)
    assert shape(run_heats(18, 4, 2, allowed=(3, 4)))[:2] == [([4, 4, 4, 3, 3], 0), ([4, 3, 3], 0)]
    assert shape(run_heats(18, 4, 2, allowed=(4, 5)))[0] == ([5, 5, 4, 4], 0)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 80),
    st.sampled_from([3, 4, 5, 6]),
    st.integers(1, 5),
    st.sampled_from(["byes", "shorter", "longer"]),
    st.integers(0, 1000),
)
def test_heats_always_end_in_one_final_table(count, size, advance, uneven, seed) -> None:
    advance = min(advance, size - 1)
    try:
        allowed = uneven_sizes(size, uneven, range(3, 7))
    except TableSizeError:
        return
    rounds = run_heats(count, size, advance, allowed=allowed, max_byes=None, seed=seed)
    final = rounds[-1]
    assert len(final.tables) == 1 and not final.byes
    assert 3 <= len(final.tables[0]) <= 6
    for earlier in rounds[:-1]:
        assert len(earlier.players) > 6 and all(len(t) in allowed for t in earlier.tables)


def test_a_heats_table_too_small_for_the_game_is_filled_by_the_best_placed() -> None:
    # Black Spy (3 to 6) at tables of 4, winners only: 8 players leave 2, too few for a table.
    heat = heat_round(list(range(1, 9)), 4)
    assert heat.tables == ((1, 4, 5, 8), (2, 3, 6, 7))
    places = {1: 2, 4: 1, 5: 3, 8: 4, 2: 1, 3: 2, 6: 3, 7: 4}
    assert heat_qualifiers(heat, places, 1, heat_seeds(heat)) == [2, 4]
    # The best second place (by seed: 1 before 3) joins them.
    assert heat_qualifiers(heat, places, 1, heat_seeds(heat), at_least=3) == [2, 4, 1]
    with pytest.raises(TableSizeError, match="2 players cannot fill a table: the game needs at least 3"):
        heat_plan([2, 4], 4, seats=range(3, 7))


def test_heats_qualifiers_skip_a_player_who_dropped_and_a_table_keeps_one_out() -> None:
    heat = Round(((1, 2, 3), (4, 5, 6, 7)), byes=(9,))
    places = {1: 1, 2: 2, 3: 3, 4: 1, 5: 2, 6: 3, 7: 4}
    seeds = [9, 1, 4, 2, 5, 3, 6, 7]
    assert heat_qualifiers(heat, places, 3, seeds) == [9, 1, 4, 2, 5, 6]  # a table of 3 sends 2
    # 4 dropped: 5 and 6 go through from their table; by place, then seed.
    assert heat_qualifiers(heat, places, 2, seeds, absent={4, 9}) == [1, 2, 5, 6]


@settings(max_examples=40, deadline=None)
@given(st.integers(7, 60), st.sampled_from([(3, 4), (4,), (4, 5), (5, 6)]), st.booleans())
def test_heat_seeds_undo_the_snake(count, allowed, byes) -> None:
    players = [1000 + i for i in range(count)]
    try:
        heat = heat_round(players, allowed[0], allowed, max_byes=None if byes else 0)
    except TableSizeError:
        return
    assert heat_seeds(heat) == players


# --- brackets with empty slots --------------------------------------------------------------


def test_an_empty_slot_gives_a_walkover_and_keeps_the_bracket_shape() -> None:
    assert bracket_next([1, 2, 3, 4]) == (Match(1, 2), Match(3, 4))
    assert bracket_next([1, None, 3, 4]) == (Match(1, None), Match(3, 4))
    assert bracket_next([None, None, 3, 4]) == (None, Match(3, 4))
    with pytest.raises(ValueError, match="even number"):
        bracket_next([1, 2, 3])


# --- groups into a bracket: group-mates meet as late as it allows ---------------------------


def meeting_rounds(matches: tuple[Match, ...], group_of: dict[int, int]) -> list[int]:
    """For each pair of group-mates, the round in which they could first meet (1: first round)."""
    slots = [p for m in matches for p in (m.first, m.second)]
    out = []
    for i in range(len(slots)):
        for j in range(i + 1, len(slots)):
            a, b = slots[i], slots[j]
            if a is not None and b is not None and group_of[a] == group_of[b]:
                out.append((i ^ j).bit_length())
    return sorted(out)


def test_12_players_in_3_groups_meet_their_group_mates_only_in_the_final() -> None:
    groups = [[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]
    matches = groups_to_bracket(groups, 2)
    group_of = {p: g for g, members in enumerate(groups) for p in members}
    assert meeting_rounds(matches, group_of) == [3, 3, 3]  # each group's two: only in the final
    # The group winners keep the byes, and each meets a runner-up of another group first.
    assert {m.first for m in matches if m.second is None} == {10, 20}
    assert all(m.second is None or group_of[m.first] != group_of[m.second] for m in matches)


def brute_best(groups: list[list[int]], advance: int) -> list[int]:
    """The best meeting profile over every placement within pots (and bye status)."""
    seeded = [g[place] for place in range(advance) for g in groups if place < len(g)]
    pot = {g[place]: place for g in groups for place in range(min(advance, len(g)))}
    size = 1 << (len(seeded) - 1).bit_length()
    order = bracket_order(size)
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in order]
    classes: dict[tuple[int, bool], list[int]] = {}
    for i, p in enumerate(slots):
        if p is not None:
            classes.setdefault((pot[p], slots[i ^ 1] is None), []).append(i)
    group_of = {p: g for g, members in enumerate(groups) for p in members}
    best: list[int] | None = None
    for perms in product(*(permutations([slots[i] for i in c]) for c in classes.values())):
        trial = list(slots)
        for c, perm in zip(classes.values(), perms, strict=True):
            for i, p in zip(c, perm, strict=True):
                trial[i] = p
        rounds = sorted(
            (i ^ j).bit_length()
            for i in range(size)
            for j in range(i + 1, size)
            if trial[i] is not None and trial[j] is not None and group_of[trial[i]] == group_of[trial[j]]
        )
        profile = [-rounds.count(r) for r in range(1, size.bit_length())]
        if best is None or profile > best:
            best = profile
    assert best is not None
    return best


@pytest.mark.slow
@pytest.mark.parametrize(
    ("groups", "advance"),
    [(2, 2), (3, 2), (4, 2), (5, 2), (3, 3), (4, 3), (2, 3), (6, 2), (5, 3)],
)
def test_groups_into_bracket_is_as_late_as_any_draw(groups, advance) -> None:
    rankings = [[10 * g + i for i in range(4)] for g in range(groups)]
    matches = groups_to_bracket(rankings, advance)
    group_of = {p: g for g, members in enumerate(rankings) for p in members}
    rounds = meeting_rounds(matches, group_of)
    size = 2 * len(matches)
    profile = [-rounds.count(r) for r in range(1, size.bit_length())]
    assert profile == brute_best(rankings, advance)
