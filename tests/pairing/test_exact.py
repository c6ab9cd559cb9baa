"""The exact seating search: brute-force minima, proofs, the 24-player case, determinism, spread."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pairing import (
    EventHistory,
    PlayerStanding,
    Round,
    explain_repeats,
    repeat_lower_bound,
    seat_swiss_tables,
)
from pairing.exact import fewest_repeats, stuck_bound, tightest_spread
from pairing.seating import met_masks, proven_minimum

from .helpers import partitions, random_history, repeats_of, standings_of

PLACE_POINTS = {3: (3, 1, 0), 4: (4, 2, 1, 0), 5: (5, 3, 2, 1, 0)}


def brute_minimum(players: list[int], sizes: list[int], hist: EventHistory) -> int:
    return min(repeats_of(tables, hist) for tables in partitions(players, sizes))


def play(plan_round: Round, points: dict[int, float], rng: random.Random) -> None:
    """Random results: places shuffled, points by place; a bye scores 3."""
    for table in plan_round.tables:
        order = list(table)
        rng.shuffle(order)
        for place, p in enumerate(order):
            points[p] += PLACE_POINTS[len(table)][place]
    for p in plan_round.byes:
        points[p] += 3


def chunks(sizes: list[int]) -> list[list[int]]:
    """Players 0, 1, ... seated in order at tables of ``sizes``."""
    out, start = [], 0
    for s in sizes:
        out.append(list(range(start, start + s)))
        start += s
    return out


@st.composite
def dense_rounds(draw: st.DrawFn):
    """Players with a random (often dense) history and table sizes that seat them all."""
    sizes = draw(
        st.sampled_from([[4, 4], [3, 3, 3], [4, 4, 4], [3, 3, 3, 3], [4, 3, 3], [5, 5], [2, 2, 2, 2]])
    )
    players = list(range(sum(sizes)))
    rng = random.Random(draw(st.integers(0, 10**6)))
    history = random_history(players, draw(st.integers(1, 6)), draw(st.sampled_from([3, 4])), rng)
    return players, sizes, history


@settings(max_examples=60, deadline=None)
@given(dense_rounds())
def test_exact_search_equals_brute_force_and_bounds_are_sound(case) -> None:
    players, sizes, history = case
    hist = EventHistory(history)
    fewest = brute_minimum(players, sizes, hist)
    met = met_masks(players, hist)
    found = fewest_repeats(met, sizes)
    assert found.proven
    assert found.repeats == fewest
    assert sorted(len(t) for t in found.tables) == sorted(sizes)
    assert sorted(p for t in found.tables for p in t) == players
    assert repeats_of(found.tables, hist) == fewest
    assert stuck_bound(met, sizes) <= fewest
    assert repeat_lower_bound(players, sizes, hist) <= fewest
    # With a worse seating to beat and a proven bound to stop at, the answer is the same.
    start = chunks(sizes)
    again = fewest_repeats(met, sizes, incumbent=start, lower_bound=repeat_lower_bound(players, sizes, hist))
    assert (again.repeats, again.proven) == (fewest, True)


@pytest.mark.parametrize(
    ("n", "size", "rounds", "seed"), [(8, 4, 5, 1), (12, 4, 6, 2), (12, 3, 6, 3), (9, 3, 5, 4)]
)
def test_every_round_of_a_small_swiss_event_reaches_the_exhaustive_minimum(n, size, rounds, seed) -> None:
    rng = random.Random(seed)
    points = dict.fromkeys(range(n), 0.0)
    history: list[Round] = []
    for number in range(rounds):
        plan = seat_swiss_tables(standings_of(points), history, preferred=size, seed=number)
        seated = [p for t in plan.round.tables for p in t]
        fewest = brute_minimum(sorted(seated), [len(t) for t in plan.round.tables], EventHistory(history))
        assert plan.repeats == fewest, (number, plan.repeats, fewest)
        assert plan.repeat_lower_bound == fewest  # proven: the page can say "the fewest possible"
        assert plan.repeats_minimal
        history.append(plan.round)
        play(plan.round, points, rng)


def twenty_four_player_event(seed: int) -> tuple[list[PlayerStanding], list[Round]]:
    """Four rounds seated by the local search alone (as before the exact search existed)."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(24), 0.0)
    history: list[Round] = []
    for number in range(4):
        plan = seat_swiss_tables(
            standings_of(points),
            history,
            preferred=4,
            seed=seed * 100 + number,
            exact_budget=0,
            spread_budget=0,
        )
        history.append(plan.round)
        play(plan.round, points, rng)
    return standings_of(points), history


def test_twenty_four_players_round_five_finds_the_repeat_free_seating() -> None:
    # The case from the web tests: the local search alone ends at 1 repeat, the bound says 0,
    # and no single swap helps. The exact search finds the repeat-free seating.
    standings, history = twenty_four_player_event(0)
    local = seat_swiss_tables(standings, history, preferred=4, seed=400, exact_budget=0, spread_budget=0)
    assert local.repeats == 1 and local.repeat_lower_bound == 0
    (why,) = explain_repeats(local.round, history)
    assert "The fewest possible for these players and table sizes is 0 repeated pairs" in why.text
    plan = seat_swiss_tables(standings, history, preferred=4, seed=400)
    assert plan.repeats == 0 == plan.repeat_lower_bound
    assert sorted(plan.round.players) == list(range(24))


def test_a_proven_minimum_above_the_old_bound_is_reported_and_explained_as_forced() -> None:
    # Round 7 of such an event: the counting and past-tables bounds say 0, the stuck-players bound
    # 6, and the exact search proves 9.
    standings, history = twenty_four_player_event(3)
    rng = random.Random(7)
    points = {s.player: s.points for s in standings}
    for number in (4, 5):
        plan = seat_swiss_tables(standings_of(points), history, preferred=4, seed=100 + number)
        history.append(plan.round)
        play(plan.round, points, rng)
    plan = seat_swiss_tables(standings_of(points), history, preferred=4, seed=106)
    seated = [p for t in plan.round.tables for p in t]
    hist = EventHistory(history)
    assert stuck_bound(met_masks(seated, hist), [4] * 6) == 6
    assert plan.repeats == 9 == plan.repeat_lower_bound
    assert plan.repeats_minimal
    assert proven_minimum(plan.round.tables, hist) == plan.repeats
    explained = explain_repeats(plan.round, history)
    assert explained and all(e.forced for e in explained)
    assert "the proven minimum" in explained[0].text
    assert sorted(seated) == list(range(24))


def test_same_seed_same_plan_and_a_tiny_budget_keeps_the_old_bound() -> None:
    standings, history = twenty_four_player_event(2)
    rng = random.Random(3)
    points = {s.player: s.points for s in standings}
    plan = seat_swiss_tables(standings_of(points), history, preferred=4, seed=9)
    history.append(plan.round)
    play(plan.round, points, rng)
    first = seat_swiss_tables(standings_of(points), history, preferred=4, seed=11)
    assert seat_swiss_tables(standings_of(points), history, preferred=4, seed=11) == first
    starved = seat_swiss_tables(standings_of(points), history, preferred=4, seed=11, exact_budget=5)
    assert starved.repeat_lower_bound == repeat_lower_bound(
        [p for t in starved.round.tables for p in t], [4] * 6, EventHistory(history)
    )
    assert starved.repeat_lower_bound <= first.repeat_lower_bound <= first.repeats <= starved.repeats


def test_out_of_budget_answer_is_the_best_found_and_not_proven() -> None:
    rng = random.Random(11)
    players = list(range(20))
    history = random_history(players, 5, 4, rng)
    met = met_masks(players, EventHistory(history))
    start = chunks([4] * 5)
    full = fewest_repeats(met, [4] * 5, incumbent=start)
    cut = fewest_repeats(met, [4] * 5, incumbent=start, budget=3)
    assert full.proven and not cut.proven
    assert full.repeats <= cut.repeats <= repeats_of(start, EventHistory(history))
    assert fewest_repeats(met, [4] * 5, incumbent=start, budget=3) == cut  # deterministic


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([[4, 4], [3, 3, 3], [4, 3, 3], [4, 4, 4], [5, 5]]),
    st.integers(0, 3),
    st.integers(0, 10**6),
)
def test_spread_pass_keeps_repeats_and_matches_brute_force(sizes, rounds, seed) -> None:
    rng = random.Random(seed)
    players = list(range(sum(sizes)))
    history = random_history(players, rounds, 3, rng) if rounds else []
    hist = EventHistory(history)
    points = sorted((rng.randint(0, 12) for _ in players), reverse=True)  # standings order
    met = met_masks(players, hist)
    start = fewest_repeats(met, sizes)
    tight = tightest_spread(met, sizes, points, start.tables, budget=10**7)
    assert tight.proven and tight.repeats <= start.repeats == repeats_of(start.tables, hist)
    assert repeats_of(tight.tables, hist) == tight.repeats

    def spread(tables) -> int:
        return sum((points[a] - points[b]) ** 2 for t in tables for a, b in combinations(t, 2))

    best = min(spread(t) for t in partitions(players, sizes) if repeats_of(t, hist) <= start.repeats)
    assert spread(tight.tables) == best


def test_exact_search_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="seat every player"):
        fewest_repeats([0, 0, 0], [2, 2])
    with pytest.raises(ValueError, match="between 2 and 6"):
        fewest_repeats([0] * 7, [7])
    with pytest.raises(ValueError, match="incumbent"):
        fewest_repeats([0] * 4, [2, 2], incumbent=[[0, 1], [1, 2]])
