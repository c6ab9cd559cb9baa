"""Round robins: every pair once at tables of 2, and group schedules at tables of 3 to 6.

:func:`round_robin_pairs` is the circle method: one position stays fixed and the rest rotate one
step each round. With an odd number of players the fixed position is the bye, so everyone sits out
once and plays ``n - 1`` games. Seat 0 alternates so that every player starts exactly half their
games (even ``n``: half rounded one way or the other).

:func:`group_schedule` seats a group over several rounds at tables of 3 to 6 with as few repeated
pairs as possible (the "social golfer" problem, which has no general formula):

1. If a repeat-free design is built in for the count, size and rounds (affine planes for 4, 9, 16
   and 25 players, Kirkman's 15 schoolgirls: :mod:`pairing.designs`), it is used.
2. Otherwise each round is seated by the Swiss seating (with its exact search for small rounds)
   against the rounds before it, then simulated annealing (``effort`` swaps,
   ``random.Random(seed)``) swaps players within rounds to lower
   ``sum over pairs of C(meetings, 2)``, keeping the schedule seen with the fewest repeats; it
   stops early at the lower bound.
3. With equal tables, no byes and at most 4 tables (or 5 tables of 3), the exact schedule search
   of :mod:`pairing.designs` then tries to beat it within ``exact_budget`` steps (the annealing
   gets a quarter of ``effort`` in that case); when it finishes, the answer is proven optimal and
   ``lower_bound`` is raised to it (e.g. 12 players at tables of 4 over 4 rounds: 13, where the
   formula gives 9).

Seats are then rotated fairly round by round.

:func:`round_robin_schedule` is a whole round robin: as many rounds as it takes for everyone to
meet everyone. At tables of 2 (byes when the count is odd) that is the circle method's ``n - 1``
rounds (``n`` when odd). At other sizes it is the fewest rounds, from the counting minimum
(``ceil((n - 1) / (s - 1))`` for the largest table ``s``, and enough tables for every pair) up,
in which :func:`group_schedule` seats every pair at least once; it stops at ``max_rounds``, and
the schedule's ``unmet_pairs`` then says how many pairs never meet (the caller tells the
organiser). The same arguments with ``rounds`` set to that number give the same schedule again,
so an event can rebuild it round by round.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from .designs import SCHEDULE_BUDGET, fewest_schedule_repeats, known_design
from .exact import EXACT_MAX_TABLE
from .history import EventHistory, PlayerStanding, Round
from .seating import fewest_pairs, seat_swiss_tables
from .seats import seat_order
from .tables import plan_tables

__all__ = ["GroupSchedule", "group_schedule", "round_robin_pairs", "round_robin_schedule"]

ROUND_BUDGET = 20_000  # exact-search steps per round while building a schedule round by round


def round_robin_pairs(players: Sequence[int]) -> tuple[Round, ...]:
    """All rounds of a two-player round robin (``n - 1`` rounds, or ``n`` with a bye when odd).

    >>> [r.tables for r in round_robin_pairs([1, 2, 3, 4])]
    [((1, 4), (3, 2)), ((3, 1), (2, 4)), ((1, 2), (4, 3))]
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    slots: list[int | None] = list(players)
    if len(slots) % 2:
        slots.insert(0, None)
    m = len(slots)
    if m < 2:
        return ()
    fixed, rotating = slots[0], slots[1:]
    rounds: list[Round] = []
    for r in range(m - 1):
        arrangement = [fixed, *rotating]
        tables: list[tuple[int, int]] = []
        byes: list[int] = []
        for i in range(m // 2):
            x, y = arrangement[i], arrangement[m - 1 - i]
            if (i == 0 and r % 2 == 1) or i % 2 == 1:
                x, y = y, x
            if x is None:
                if y is not None:
                    byes.append(y)
            elif y is None:
                byes.append(x)
            else:
                tables.append((x, y))
        rounds.append(Round(tuple(tables), tuple(byes)))
        rotating = rotating[-1:] + rotating[:-1]
    return tuple(rounds)


@dataclass(frozen=True, slots=True)
class GroupSchedule:
    """The rounds of a group schedule, its repeated pairs, and a proven minimum for them.

    ``repeats`` counts every extra meeting: a pair seated together three times counts 2.
    """

    rounds: tuple[Round, ...]
    repeats: int
    lower_bound: int
    unmet_pairs: int


def group_schedule(
    players: Sequence[int],
    *,
    preferred: int = 4,
    allowed: Iterable[int] | None = None,
    rounds: int | None = None,
    max_byes: int | None = None,
    seed: int = 0,
    effort: int = 200_000,
    exact_budget: int = SCHEDULE_BUDGET,
) -> GroupSchedule:
    """Seat ``players`` for ``rounds`` rounds at tables of the given sizes, repeating few pairs.

    ``rounds`` defaults to the fewest rounds in which everyone could meet everyone:
    ``ceil((n - 1) / (preferred - 1))``. Byes (when the sizes force them) rotate: each round they
    go to the players with the fewest byes so far.
    """
    order = list(players)
    if len(set(order)) != len(order):
        raise ValueError("a player is listed twice")
    n = len(order)
    plan = plan_tables(n, preferred, allowed, max_byes=max_byes)
    if rounds is None:
        rounds = max(1, math.ceil((n - 1) / (preferred - 1))) if n > 1 else 0
    rng = random.Random(seed)

    bound = _schedule_bound(order, plan.sizes, rounds)
    uniform = plan.byes == 0 and bool(plan.sizes) and len(set(plan.sizes)) == 1
    size = plan.sizes[0] if plan.sizes else 0
    design = known_design(n, size, rounds) if uniform else None
    built: list[Round] = []
    if design is not None:
        # A repeat-free design is built in: seat it (players by position in ``players``).
        tables = [[[order[i] for i in table] for table in rnd] for rnd in design]
        built = [Round(tuple(tuple(t) for t in rnd)) for rnd in tables]
    else:
        # Sequential construction: each round seated against the ones before it.
        bye_counts = dict.fromkeys(order, 0)
        for r in range(rounds):
            # Byes rotate through the list in order, fewest byes first.
            rotated = order[(r * plan.byes) % n :] + order[: (r * plan.byes) % n] if n else []
            byes = sorted(rotated, key=lambda p: bye_counts[p])[: plan.byes]
            for p in byes:
                bye_counts[p] += 1
            sitting_out = set(byes)
            present = [PlayerStanding(p) for p in order if p not in sitting_out]
            seated = seat_swiss_tables(
                present,
                built,
                preferred=preferred,
                allowed=allowed,
                max_byes=0,
                seed=rng.randrange(2**32),
                effort=max(1000, effort // max(1, rounds)),
                exact_budget=ROUND_BUDGET,
                spread_budget=0,
            )
            built.append(Round(seated.round.tables, tuple(byes)))
        tables = [[list(t) for t in rnd.tables] for rnd in built]
        exact = uniform and exact_budget > 0 and _exact_fits(len(plan.sizes), size)
        _anneal_schedule(tables, effort // 4 if exact else effort, rng, bound)
        if exact and _repeats(tables) > bound:
            index = {p: i for i, p in enumerate(order)}
            incumbent = [[[index[p] for p in t] for t in rnd] for rnd in tables]
            found, schedule, proven = fewest_schedule_repeats(n, size, rounds, incumbent, budget=exact_budget)
            if found < _repeats(tables):
                tables = [[[order[i] for i in t] for t in rnd] for rnd in schedule]
            if proven:
                bound = found

    # Seat rotation, round by round.
    final: list[Round] = []
    for r, rnd in enumerate(built):
        hist = EventHistory(final)
        seated_tables = tuple(seat_order(t, hist, rng) for t in tables[r])
        final.append(Round(seated_tables, rnd.byes))
    meetings = _meetings(tables)
    repeats = sum(k - 1 for k in meetings.values())
    unmet = n * (n - 1) // 2 - len(meetings)
    return GroupSchedule(tuple(final), repeats, bound, unmet)


def round_robin_schedule(
    players: Sequence[int],
    *,
    preferred: int = 2,
    allowed: Iterable[int] | None = None,
    max_byes: int | None = None,
    rounds: int | None = None,
    max_rounds: int = 30,
    seed: int = 0,
) -> GroupSchedule:
    """A whole round robin: every pair meets, in as few rounds as this module finds.

    ``rounds`` fixes the number of rounds (to rebuild a schedule found before); by default it is
    the fewest in which every pair meets (at most ``max_rounds``).

    >>> len(round_robin_schedule(list(range(7))).rounds)
    7
    >>> s = round_robin_schedule(list(range(7)), preferred=4, allowed=(3, 4))
    >>> len(s.rounds), s.unmet_pairs
    (3, 0)
    """
    order = list(players)
    sizes = set(allowed) if allowed is not None else {preferred}
    if sizes == {2} and preferred == 2:
        circle = round_robin_pairs(order)
        if rounds is not None:
            circle = circle[:rounds]
        return GroupSchedule(circle, 0, 0, 0)
    n = len(order)
    if rounds is not None:
        return group_schedule(
            order, preferred=preferred, allowed=allowed, rounds=rounds, max_byes=max_byes, seed=seed
        )
    plan = plan_tables(n, preferred, allowed, max_byes=max_byes)
    largest = max(plan.sizes, default=2)
    per_round = sum(s * (s - 1) // 2 for s in plan.sizes)
    all_pairs = n * (n - 1) // 2
    needed = max(1, math.ceil((n - 1) / max(1, largest - 1)), math.ceil(all_pairs / max(1, per_round)))
    needed = min(needed, max_rounds)
    while True:
        schedule = group_schedule(
            order, preferred=preferred, allowed=allowed, rounds=needed, max_byes=max_byes, seed=seed
        )
        if schedule.unmet_pairs == 0 or needed >= max_rounds:
            return schedule
        needed = min(max_rounds, needed + max(1, schedule.unmet_pairs // max(1, per_round)))


def _exact_fits(tables: int, size: int) -> bool:
    """Whether the exact schedule search is tried: its round-2 enumeration stays small."""
    return size <= EXACT_MAX_TABLE and (tables <= 4 or (tables == 5 and size == 3))


def _repeats(tables: list[list[list[int]]]) -> int:
    return sum(k - 1 for k in _meetings(tables).values())


def _meetings(tables: list[list[list[int]]]) -> dict[tuple[int, int], int]:
    meetings: dict[tuple[int, int], int] = {}
    for rnd in tables:
        for table in rnd:
            for a, b in combinations(sorted(table), 2):
                meetings[(a, b)] = meetings.get((a, b), 0) + 1
    return meetings


def _schedule_bound(players: Sequence[int], sizes: Sequence[int], rounds: int) -> int:
    """A proven minimum of repeats (extra meetings) for any schedule of these sizes.

    * Overall: the schedule has ``rounds * sum(C(s, 2))`` pair-meetings but only ``C(n, 2)`` pairs.
    * Per player: a player who plays ``g`` rounds meets at least ``g * (smallest - 1)`` opponents;
      more than ``n - 1`` of those must repeat. With byes, only rounds every player surely plays
      (byes rotate, so nobody sits out more than ``ceil(rounds * byes / n)`` times) are counted.
    * Between rounds (no byes only): a table of round ``r2`` holds ``s`` players who sat at the
      tables of an earlier round ``r1``; spread as evenly as possible they still form
      ``f(s)`` pairs that met in ``r1``. Summed over round pairs this counts a pair met ``k`` times
      ``C(k, 2) <= (k - 1) * rounds / 2`` times, so repeats ``>= 2 * sum / rounds``.
    """
    n = len(players)
    if n == 0 or rounds == 0 or not sizes:
        return 0
    per_round = sum(s * (s - 1) // 2 for s in sizes)
    overall = rounds * per_round - n * (n - 1) // 2
    byes = n - sum(sizes)
    sure_rounds = rounds - math.ceil(rounds * byes / n)
    per_player = n * max(0, sure_rounds * (min(sizes) - 1) - (n - 1)) // 2
    between = 0
    if byes == 0 and rounds > 1:
        forced = sum(fewest_pairs(s, sizes) for s in sizes) * rounds * (rounds - 1) // 2
        between = -(-2 * forced // rounds)
    return max(0, overall, per_player, between)


def _meet(meetings: dict[tuple[int, int], int], a: int, b: int) -> int:
    """Add a meeting of ``a`` and ``b``; returns the change in repeats (1 if they had met)."""
    key = (a, b) if a < b else (b, a)
    k = meetings.get(key, 0)
    meetings[key] = k + 1
    return 1 if k else 0


def _unmeet(meetings: dict[tuple[int, int], int], a: int, b: int) -> int:
    """Remove a meeting of ``a`` and ``b``; returns the change in repeats (-1 if still met)."""
    key = (a, b) if a < b else (b, a)
    k = meetings[key] - 1
    meetings[key] = k
    return -1 if k else 0


def _anneal_schedule(tables: list[list[list[int]]], moves: int, rng: random.Random, target: int) -> None:
    """Swap players within rounds to lower sum(C(meetings, 2)); keeps the schedule seen with the
    fewest repeats (then the lowest sum)."""
    rounds = [r for r in range(len(tables)) if len(tables[r]) >= 2]
    if not rounds or moves <= 0:
        return
    meetings = _meetings(tables)

    def count(a: int, b: int) -> int:
        return meetings.get((a, b) if a < b else (b, a), 0)

    def repeats() -> int:
        return sum(k - 1 for k in meetings.values() if k > 1)

    current = repeats()
    if current <= target:
        return
    cost = sum(k * (k - 1) // 2 for k in meetings.values())
    best_key = (current, cost)
    best = [[list(t) for t in rnd] for rnd in tables]
    start_temp, end_temp = 2.0, 0.05
    for step in range(moves):
        temp = start_temp * (end_temp / start_temp) ** (step / moves)
        r = rounds[rng.randrange(len(rounds))]
        rnd = tables[r]
        t, u = rng.sample(range(len(rnd)), 2)
        i, j = rng.randrange(len(rnd[t])), rng.randrange(len(rnd[u]))
        x, y = rnd[t][i], rnd[u][j]
        d = 0
        for z in rnd[t]:
            if z != x:
                d += count(y, z) - (count(x, z) - 1)
        for z in rnd[u]:
            if z != y:
                d += count(x, z) - (count(y, z) - 1)
        if d <= 0 or rng.random() < math.exp(-d / temp):
            for z in rnd[t]:
                if z != x:
                    current += _unmeet(meetings, x, z) + _meet(meetings, y, z)
            for z in rnd[u]:
                if z != y:
                    current += _unmeet(meetings, y, z) + _meet(meetings, x, z)
            rnd[t][i], rnd[u][j] = y, x
            cost += d
            if (current, cost) < best_key:
                best_key = (current, cost)
                best = [[list(tb) for tb in rn] for rn in tables]
                if current <= target:
                    break
    for r, rnd in enumerate(best):
        tables[r] = rnd
