"""Swiss seating at tables of 2 to 6: few repeated opponents, similar standings, fair seats.

How a round is seated (:func:`seat_swiss_tables`):

1. :func:`pairing.tables.plan_tables` fixes the table sizes and how many byes are needed; the byes
   go to the lowest-standing players with the fewest byes so far.
2. The rest are seated in standings order (this is also the *greedy baseline*,
   :func:`greedy_tables`), larger tables first.
3. Local search swaps players between tables. The cost is lexicographic: repeated pairs first (a
   pair that already met), then extra meetings (a third meeting costs more than a second), then
   the *spread*: the sum over tables of the squared point difference of every pair at the table.
   Equivalently: a big weight times repeats plus a small weight times spread, with the big weight
   larger than any possible spread. Swaps are looked for first among nearby tables (similar
   standing), and the neighbourhood is widened only while repeats remain above the lower bound.
   If swaps alone get stuck above the bound, a short simulated annealing run (``effort`` moves,
   random numbers from ``random.Random(seed)``) tries to escape; the best seating seen is kept.
   A final pass makes spread-reducing swaps between neighbouring tables that add no repeat.
4. Seat order within each table is chosen by :func:`pairing.seats.seat_order`.

The lower bound (:func:`repeat_lower_bound`) is the larger of two sound bounds:

* Counting bound. Let ``u(p)`` be the number of seated players that ``p`` has never met. At a
  table of ``s`` players, ``p`` gets ``s - 1`` opponents, of whom at most ``min(u(p), s - 1)`` are
  new. The seats' needs ``s - 1`` are fixed by the table sizes; giving the largest needs to the
  players with the largest ``u`` maximises ``sum(min(u(p), need(p)))`` (sorting both the same way
  is optimal for ``min``), so no seating has more than ``floor(sum / 2)`` new pairs, and every
  other pair at a table is a repeat: ``repeats >= sum(C(s, 2)) - floor(sum / 2)``. Tight late in
  small events, e.g. 8 players at tables of 4 in round 3.
* Past-tables bound. The ``g`` present players of one earlier table all met each other; however
  they are spread over this round's tables they form at least ``f(g)`` pairs at a common table
  (spread as evenly as the seats allow; ``f`` is convex, so filling the emptiest table first is
  optimal). Tables of one round share no pair, so summing ``f`` over every earlier table counts
  each repeated pair of this round at most ``M`` times, ``M`` being the most times any present
  pair has met: ``repeats >= ceil(sum f / M)``. Tight e.g. for 12 players at tables of 4 in
  round 2 (at least one repeat per table).

In big events both are 0 (everyone has plenty of unmet players) and the search reaches it; in
small, dense late rounds the true minimum can be above both (the bound is not exact: finding the
exact minimum is a hard combinatorial problem).

Everything is deterministic for a given ``seed``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from itertools import combinations

from .history import EventHistory, Ranked, Round, RoundPlan, standings_points
from .seats import seat_order
from .tables import plan_tables

__all__ = [
    "choose_byes",
    "fewest_pairs",
    "greedy_tables",
    "repeat_lower_bound",
    "round_spread",
    "seat_swiss_tables",
]

POINT_STEPS = 10  # points are compared in tenths


def _as_history(history: Sequence[Round] | EventHistory) -> EventHistory:
    return history if isinstance(history, EventHistory) else EventHistory(history)


def choose_byes(order: Sequence[int], count: int, history: EventHistory) -> tuple[int, ...]:
    """The ``count`` players to sit out: fewest byes so far first, then the lowest standing."""
    if count <= 0:
        return ()
    position = {p: i for i, p in enumerate(order)}
    ranked = sorted(order, key=lambda p: (len(history.byes_of(p)), -position[p]))
    return tuple(sorted(ranked[:count], key=position.__getitem__))


def repeat_lower_bound(
    players: Sequence[int], sizes: Sequence[int], history: Sequence[Round] | EventHistory
) -> int:
    """A proven minimum number of repeated pairs for seating ``players`` at tables of ``sizes``.

    The larger of the counting bound and the past-tables bound described in the module
    docstring. ``sum(sizes)`` must equal ``len(players)``.
    """
    hist = _as_history(history)
    if sum(sizes) != len(players):
        raise ValueError("the table sizes must seat every player exactly once")
    return max(_counting_bound(players, sizes, hist), _past_tables_bound(players, sizes, hist))


def _counting_bound(players: Sequence[int], sizes: Sequence[int], hist: EventHistory) -> int:
    present = set(players)
    unmet = sorted(
        (len(players) - 1 - sum(1 for q in hist.opponents(p) if q in present) for p in players),
        reverse=True,
    )
    needs = sorted((s - 1 for s in sizes for _ in range(s)), reverse=True)
    new_ends = sum(min(u, need) for u, need in zip(unmet, needs, strict=True))
    total_pairs = sum(s * (s - 1) // 2 for s in sizes)
    return max(0, total_pairs - new_ends // 2)


def fewest_pairs(group: int, sizes: Sequence[int]) -> int:
    """Fewest pairs that ``group`` players must form when spread over tables of ``sizes``."""
    filled = [0] * len(sizes)
    pairs = 0
    for _ in range(group):
        t = min((i for i in range(len(sizes)) if filled[i] < sizes[i]), key=filled.__getitem__)
        pairs += filled[t]
        filled[t] += 1
    return pairs


def _past_tables_bound(players: Sequence[int], sizes: Sequence[int], hist: EventHistory) -> int:
    present = set(players)
    forced = 0
    cache: dict[int, int] = {}
    for rnd in hist.rounds:
        for table in rnd.tables:
            group = sum(1 for p in table if p in present)
            if group > 1:
                if group not in cache:
                    cache[group] = fewest_pairs(group, sizes)
                forced += cache[group]
    if forced == 0:
        return 0
    most = max((k for p in players for q, k in hist.opponents(p).items() if q in present), default=1)
    return -(-forced // most)


def round_spread(rnd: Round, points: dict[int, float]) -> float:
    """Sum over tables of the squared point difference of every pair at the table."""
    return sum((points[a] - points[b]) ** 2 for table in rnd.tables for a, b in combinations(table, 2))


def _chunks(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _finish(
    tables: list[list[int]],
    byes: tuple[int, ...],
    order: Sequence[int],
    points: dict[int, float],
    hist: EventHistory,
    bound: int,
    rng: random.Random,
    notes: tuple[str, ...] = (),
) -> RoundPlan:
    position = {p: i for i, p in enumerate(order)}
    ranked = sorted(tables, key=lambda t: (min(position[p] for p in t), -len(t)))
    seated = tuple(seat_order(sorted(t, key=position.__getitem__), hist, rng) for t in ranked)
    rnd = Round(seated, byes)
    return RoundPlan(rnd, hist.repeated_pairs(rnd), bound, round_spread(rnd, points), notes)


def greedy_tables(
    standings: Sequence[Ranked],
    history: Sequence[Round] | EventHistory = (),
    *,
    preferred: int = 4,
    allowed: Iterable[int] | None = None,
    max_byes: int | None = None,
    seed: int = 0,
) -> RoundPlan:
    """The baseline: byes as in :func:`seat_swiss_tables`, then tables filled in standings order."""
    hist = _as_history(history)
    points = standings_points(standings)
    order = [e.player for e in standings]
    plan = plan_tables(len(order), preferred, allowed, max_byes=max_byes)
    byes = choose_byes(order, plan.byes, hist)
    seated = [p for p in order if p not in set(byes)]
    bound = repeat_lower_bound(seated, plan.sizes, hist)
    return _finish(_chunks(seated, plan.sizes), byes, order, points, hist, bound, random.Random(seed))


def seat_swiss_tables(
    standings: Sequence[Ranked],
    history: Sequence[Round] | EventHistory = (),
    *,
    preferred: int = 4,
    allowed: Iterable[int] | None = None,
    max_byes: int | None = None,
    seed: int = 0,
    effort: int = 20_000,
) -> RoundPlan:
    """Seat the present players (``standings``, best first) for a Swiss round at tables.

    ``preferred``/``allowed`` are the table sizes (see :func:`pairing.tables.split_tables`);
    ``max_byes`` limits byes (``None``: as many as the sizes force, 0: raise instead).
    ``effort`` caps the simulated-annealing moves used only when swaps get stuck above the bound.
    """
    hist = _as_history(history)
    points = standings_points(standings)
    order = [e.player for e in standings]
    rng = random.Random(seed)
    plan = plan_tables(len(order), preferred, allowed, max_byes=max_byes)
    byes = choose_byes(order, plan.byes, hist)
    bye_set = set(byes)
    seated = [p for p in order if p not in bye_set]
    bound = repeat_lower_bound(seated, plan.sizes, hist)
    search = _TableSearch(seated, plan.sizes, points, hist, rng)
    search.improve(bound, effort)
    notes: tuple[str, ...] = ()
    if any(hist.byes_of(p) for p in byes):
        notes = ("every player has had a bye, so someone gets a second one",)
    return _finish(search.tables_by_player(), byes, order, points, hist, bound, rng, notes)


class _TableSearch:
    """Local search over table assignments; players are indices into the seated order."""

    def __init__(
        self,
        seated: list[int],
        sizes: Sequence[int],
        points: dict[int, float],
        hist: EventHistory,
        rng: random.Random,
    ) -> None:
        self.players = seated
        self.rng = rng
        m = len(seated)
        index = {p: i for i, p in enumerate(seated)}
        self.pts = [round(points[p] * POINT_STEPS) for p in seated]
        self.met: list[dict[int, int]] = []
        total_meetings = 0
        for p in seated:
            row = {index[q]: k for q, k in hist.opponents(p).items() if q in index}
            total_meetings += sum(row.values())
            self.met.append(row)
        gap = (max(self.pts) - min(self.pts)) if m else 0
        total_pairs = sum(s * (s - 1) // 2 for s in sizes)
        self.w_extra = total_pairs * gap * gap + 1
        self.w_repeat = self.w_extra * (total_meetings + 1)
        self.tables = _chunks(range(m), sizes)
        self.where = [0] * m
        for t, table in enumerate(self.tables):
            for i in table:
                self.where[i] = t

    # -- costs -------------------------------------------------------------------------------
    def pair_cost(self, i: int, j: int) -> int:
        k = self.met[i].get(j, 0)
        gap = self.pts[i] - self.pts[j]
        cost = gap * gap
        if k:
            cost += self.w_repeat + self.w_extra * (k - 1)
        return cost

    def total_cost(self) -> int:
        return sum(self.pair_cost(a, b) for table in self.tables for a, b in combinations(table, 2))

    def repeats(self) -> int:
        return sum(1 for table in self.tables for a, b in combinations(table, 2) if b in self.met[a])

    def delta(self, x: int, y: int) -> int:
        """Change of total cost if ``x`` and ``y`` (at different tables) swap."""
        w_repeat, w_extra, pts = self.w_repeat, self.w_extra, self.pts
        mx, my = self.met[x], self.met[y]
        px, py = pts[x], pts[y]
        d = 0
        for z in self.tables[self.where[x]]:
            if z == x:
                continue
            pz = pts[z]
            d += (py - pz) * (py - pz) - (px - pz) * (px - pz)
            ky = my.get(z, 0)
            kx = mx.get(z, 0)
            if ky:
                d += w_repeat + w_extra * (ky - 1)
            if kx:
                d -= w_repeat + w_extra * (kx - 1)
        for z in self.tables[self.where[y]]:
            if z == y:
                continue
            pz = pts[z]
            d += (px - pz) * (px - pz) - (py - pz) * (py - pz)
            kx = mx.get(z, 0)
            ky = my.get(z, 0)
            if kx:
                d += w_repeat + w_extra * (kx - 1)
            if ky:
                d -= w_repeat + w_extra * (ky - 1)
        return d

    def swap(self, x: int, y: int) -> None:
        tx, ty = self.where[x], self.where[y]
        table_x, table_y = self.tables[tx], self.tables[ty]
        table_x[table_x.index(x)] = y
        table_y[table_y.index(y)] = x
        self.where[x], self.where[y] = ty, tx

    def in_conflict(self, x: int) -> bool:
        mx = self.met[x]
        return any(z in mx for z in self.tables[self.where[x]] if z != x)

    # -- search ------------------------------------------------------------------------------
    def best_swap(self, x: int, window: int) -> tuple[int, int]:
        """The best partner for ``x`` within ``window`` tables, with its cost change."""
        t = self.where[x]
        best_d, best_y = 0, -1
        for u in range(max(0, t - window), min(len(self.tables), t + window + 1)):
            if u == t:
                continue
            for y in self.tables[u]:
                d = self.delta(x, y)
                if d < best_d:
                    best_d, best_y = d, y
        return best_d, best_y

    def repair(self, window: int) -> None:
        """Swap players out of repeated pairs while that lowers the cost."""
        changed = True
        while changed:
            changed = False
            for t in range(len(self.tables)):
                for x in list(self.tables[t]):
                    if self.where[x] != t or not self.in_conflict(x):
                        continue
                    _, y = self.best_swap(x, window)
                    if y != -1:
                        self.swap(x, y)
                        changed = True

    def polish(self, window: int, max_passes: int = 20) -> None:
        """Swaps between nearby tables that lower the cost (mostly the spread)."""
        for _ in range(max_passes):
            changed = False
            for t in range(len(self.tables)):
                for u in range(t + 1, min(len(self.tables), t + window + 1)):
                    for x in list(self.tables[t]):
                        if self.where[x] != t:
                            continue
                        for y in list(self.tables[u]):
                            if self.where[y] == u and self.where[x] == t and self.delta(x, y) < 0:
                                self.swap(x, y)
                                changed = True
            if not changed:
                return

    def anneal(self, moves: int, window: int, target_repeats: int) -> None:
        """Simulated annealing on swaps; keeps the best seating seen."""
        tables_count = len(self.tables)
        if tables_count < 2 or moves <= 0:
            return
        rng = self.rng
        cost = self.total_cost()
        best_cost = cost
        best_tables = [list(t) for t in self.tables]
        start_temp, end_temp = 0.6 * self.w_repeat, 0.02 * self.w_repeat
        m = len(self.players)
        for step in range(moves):
            temp = start_temp * (end_temp / start_temp) ** (step / moves)
            x = rng.randrange(m)
            t = self.where[x]
            low, high = max(0, t - window), min(tables_count - 1, t + window)
            u = rng.randint(low, high - 1)
            if u >= t:
                u += 1
            if u > high:
                continue
            table_u = self.tables[u]
            y = table_u[rng.randrange(len(table_u))]
            d = self.delta(x, y)
            if d <= 0 or rng.random() < math.exp(-d / temp):
                self.swap(x, y)
                cost += d
                if cost < best_cost:
                    best_cost = cost
                    best_tables = [list(tb) for tb in self.tables]
                    if self._repeats_of(best_tables) <= target_repeats:
                        break
        self.tables = best_tables
        for t, table in enumerate(self.tables):
            for i in table:
                self.where[i] = t

    def _repeats_of(self, tables: list[list[int]]) -> int:
        return sum(1 for table in tables for a, b in combinations(table, 2) if b in self.met[a])

    def improve(self, bound: int, effort: int) -> None:
        tables_count = len(self.tables)
        if tables_count < 2:
            return
        window = 2
        while True:
            self.repair(window)
            if self.repeats() <= bound or window >= tables_count:
                break
            window *= 2
        if self.repeats() > bound:
            self.anneal(effort, min(tables_count, max(window, 4)), bound)
            self.repair(tables_count)
        self.polish(2)

    def tables_by_player(self) -> list[list[int]]:
        return [[self.players[i] for i in table] for table in self.tables]
