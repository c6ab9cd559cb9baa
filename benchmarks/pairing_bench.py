"""Benchmark for the pure pairing package (run: .venv/bin/python benchmarks/pairing_bench.py).

Prints, each with the baseline measured in the same run:

* Swiss, 2 seats, 1,000 players, round 9 (8 simulated rounds of history): time and repeats;
  baselines: networkx's ``max_weight_matching`` on the very same candidate graph (no warm start)
  and pairing in standings order (1 v 2, 3 v 4, ...).
* Swiss tables of 4, 1,000 players, round 9: time, repeated pairs, the proven lower bound, and
  the greedy seating (tables filled in standings order): its repeats and time; the points spread
  of both (sum over tables of squared pair differences, and the mean points range per table).
* Small Swiss events at tables of 4 (24 and 40 players, 6 rounds, random results, several seeds):
  total repeated pairs over the event and the sum of the per-round proven lower bounds for the
  full seating (local search, exact search, spread pass), the local search alone (as before the
  exact search: ``exact_budget=0, spread_budget=0``) and the greedy baseline, each playing its
  own event with the same random results; rounds proven minimal; total spread; time per round.
* Ratings: 100,000 random results of 3 to 6 players recomputed with openskill Plackett-Luce;
  baseline: the public ``PlackettLuce.rate`` call per result.

Timings are the best of ``--repeat`` runs (the machine is shared, so the median is printed too).
Everything is seeded; ``--quick`` shrinks the sizes for a smoke run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pairing import (
    EventHistory,
    PlayerStanding,
    Round,
    RoundPlan,
    greedy_tables,
    pair_swiss,
    recompute_ratings,
    seat_swiss_tables,
)
from pairing.swiss import matching_problem


def timed[T](fn: Callable[[], T], repeat: int) -> tuple[T, float, float]:
    times: list[float] = []
    result: T | None = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    assert result is not None
    return result, min(times), statistics.median(times)


def standings(points: dict[int, float]) -> list[PlayerStanding]:
    return [PlayerStanding(p, points[p]) for p in sorted(points, key=lambda p: (-points[p], p))]


def repeats_in(tables: Sequence[Sequence[int]], hist: EventHistory) -> int:
    return sum(1 for t in tables for a, b in combinations(t, 2) if hist.times_met(a, b))


def mean_range(rnd: Round, points: dict[int, float]) -> float:
    ranges = [max(points[p] for p in t) - min(points[p] for p in t) for t in rnd.tables]
    return sum(ranges) / len(ranges)


def swiss_two(players: int, repeat: int) -> None:
    import networkx as nx

    rng = random.Random(2024)
    points = dict.fromkeys(range(players), 0.0)
    history: list[Round] = []
    for number in range(8):
        plan = pair_swiss(standings(points), history, seed=number)
        history.append(plan.round)
        for a, b in plan.round.tables:
            roll = rng.random()
            if roll < 0.45:
                points[a] += 3
            elif roll < 0.9:
                points[b] += 3
            else:
                points[a] += 1
                points[b] += 1
        for p in plan.round.byes:
            points[p] += 3
    hist = EventHistory(history)
    table = standings(points)
    plan, best, median = timed(lambda: pair_swiss(table, hist, seed=9), repeat)
    print(f"Swiss, 2 seats, {players} players, round 9 (8 rounds of history)")
    print(f"  pair_swiss:        {best * 1000:8.1f} ms (median {median * 1000:.1f})  repeats {plan.repeats}")
    print(f"                     proven minimum {plan.repeat_lower_bound}, tables {len(plan.round.tables)}")
    gaps = [abs(points[a] - points[b]) for a, b in plan.round.tables]
    print(
        f"                     pairs on different points {sum(g > 0 for g in gaps)},"
        f" largest gap {max(gaps):g}"
    )

    order = [e.player for e in table]
    vertex_count, edges, _ = matching_problem(order, points, hist, 24)
    graph = nx.Graph()
    graph.add_nodes_from(range(vertex_count))
    graph.add_weighted_edges_from(edges)
    start = time.perf_counter()
    nx.max_weight_matching(graph, maxcardinality=True)
    nx_time = time.perf_counter() - start
    print(
        f"  networkx, same {len(edges)}-edge graph, no warm start: {nx_time * 1000:8.1f} ms"
        f"  (pair_swiss is {nx_time / best:.0f}x faster)"
    )
    naive = [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]
    print(f"  standings order 1v2, 3v4 ...: repeats {repeats_in(naive, hist)}")


def swiss_tables(players: int, repeat: int) -> None:
    rng = random.Random(7)
    points = dict.fromkeys(range(players), 0.0)
    history: list[Round] = []
    for number in range(8):
        plan = seat_swiss_tables(standings(points), history, preferred=4, seed=number)
        history.append(plan.round)
        for t in plan.round.tables:
            order = list(t)
            rng.shuffle(order)
            for place, p in enumerate(order):
                points[p] += (4, 2, 1, 0)[place]
    hist = EventHistory(history)
    table = standings(points)
    plan, best, median = timed(lambda: seat_swiss_tables(table, hist, preferred=4, seed=9), repeat)
    greedy, g_best, g_median = timed(lambda: greedy_tables(table, hist, preferred=4, seed=9), repeat)
    print(f"\nSwiss, tables of 4, {players} players, round 9 (8 rounds of history)")
    print(f"  seat_swiss_tables: {best * 1000:8.1f} ms (median {median * 1000:.1f})")
    print(f"    repeated pairs {plan.repeats}, proven lower bound {plan.repeat_lower_bound}")
    print(
        f"    spread: sum of squared pair gaps {plan.spread:g},"
        f" mean points range {mean_range(plan.round, points):.3f}"
    )
    print(f"  greedy (standings order): {g_best * 1000:8.1f} ms (median {g_median * 1000:.1f})")
    print(f"    repeated pairs {greedy.repeats}")
    print(
        f"    spread: sum of squared pair gaps {greedy.spread:g}, mean points range "
        f"{mean_range(greedy.round, points):.3f}"
    )
    ratio = "n/a (both 0)" if greedy.repeats == 0 else f"{plan.repeats / greedy.repeats:.3f}"
    print(
        f"  repeats vs greedy: {plan.repeats} / {greedy.repeats} = {ratio};"
        f" time vs greedy {best / g_best:.1f}x"
    )


def small_event(
    players: int, rounds: int, seed: int, seat: Callable[..., RoundPlan]
) -> tuple[list[RoundPlan], list[float], float]:
    """One simulated Swiss event at tables of 4: (plans, time per round, total spread)."""
    rng = random.Random(seed)
    points = dict.fromkeys(range(players), 0.0)
    history: list[Round] = []
    plans: list[RoundPlan] = []
    times: list[float] = []
    spread = 0.0
    for number in range(rounds):
        start = time.perf_counter()
        plan = seat(standings(points), history, preferred=4, seed=seed * 100 + number)
        times.append(time.perf_counter() - start)
        plans.append(plan)
        spread += plan.spread
        history.append(plan.round)
        for t in plan.round.tables:
            order = list(t)
            rng.shuffle(order)
            for place, p in enumerate(order):
                points[p] += (4, 2, 1, 0)[place]
    return plans, times, spread


def small_events(sizes: Sequence[int], rounds: int, seeds: int) -> None:
    def local_only(*args: object, **kwargs: object) -> RoundPlan:
        return seat_swiss_tables(*args, exact_budget=0, spread_budget=0, **kwargs)  # type: ignore[arg-type]

    methods: list[tuple[str, Callable[..., RoundPlan]]] = [
        ("new (exact + spread)", seat_swiss_tables),
        ("old local search alone", local_only),
        ("greedy", greedy_tables),
    ]
    for players in sizes:
        print(f"\nSwiss, tables of 4, {players} players, {rounds} rounds, {seeds} seeds (means per event)")
        print(
            f"  {'method':24} {'repeats':>8} {'sum of bounds':>14} {'proven rounds':>14}"
            f" {'spread':>8} {'ms/round':>9} {'max ms':>7}"
        )
        for name, seat in methods:
            repeats = bounds = minimal = 0
            spread = 0.0
            times: list[float] = []
            per_seed: list[int] = []
            for seed in range(seeds):
                plans, event_times, event_spread = small_event(players, rounds, seed, seat)
                per_seed.append(sum(p.repeats for p in plans))
                repeats += per_seed[-1]
                bounds += sum(p.repeat_lower_bound for p in plans)
                minimal += sum(p.repeats_minimal for p in plans)
                spread += event_spread
                times += event_times
            print(
                f"  {name:24} {repeats / seeds:8.2f} {bounds / seeds:14.2f}"
                f" {minimal / seeds:8.2f} of {rounds} {spread / seeds:8.0f}"
                f" {1000 * statistics.mean(times):9.1f} {1000 * max(times):7.0f}"
                f"   per seed {per_seed}"
            )


def ratings(results_count: int, repeat: int) -> None:
    rng = random.Random(99)
    results = []
    for _ in range(results_count):
        k = rng.randint(3, 6)
        players = rng.sample(range(5000), k)
        places = list(range(1, k + 1))
        rng.shuffle(places)
        results.append(list(zip(players, places, strict=True)))
    table, best, median = timed(lambda: recompute_ratings(results), repeat)
    sample = results[: max(1, results_count // 10)]
    _, public, _ = timed(lambda: recompute_ratings(sample, method="rate"), 1)
    public_total = public * results_count / len(sample)
    print(f"\nRatings, {results_count} random results of 3-6 players (openskill Plackett-Luce)")
    print(
        f"  recompute_ratings (direct): {best:6.2f} s (median {median:.2f})"
        f"  = {best / results_count * 1e6:.1f} us per result, history points {len(table.history)}"
    )
    print(
        f"  public PlackettLuce.rate:   {public_total:6.2f} s (measured on {len(sample)} results)"
        f"  = {public / len(sample) * 1e6:.1f} us per call; direct is {public_total / best:.1f}x faster"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="small sizes for a smoke run")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    players = 100 if args.quick else 1000
    swiss_two(players, args.repeat)
    swiss_tables(players, args.repeat)
    small_events((24, 40), 6, 3 if args.quick else 10)
    ratings(5000 if args.quick else 100_000, args.repeat)


if __name__ == "__main__":
    main()
