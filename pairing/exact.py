"""The exact fewest repeated pairs for one round at tables, by branch and bound (small events).

The local search of :mod:`pairing.seating` can stop above the true minimum in small, dense rounds
(late rounds of an event of 8 to 60 players), and the cheap lower bounds cannot always show that
the minimum is higher. :func:`fewest_repeats` settles it within a deterministic work budget.

Players are indices ``0..m-1`` (standings order, best first); ``met[i]`` is the bit mask of the
players ``i`` already met. A *repeat-free table* for ``x`` is a table of ``x`` and players who
are all mutually unmet (a clique of the never-met graph).

The search
==========

A node is the set of players still unseated plus the table sizes still open; its cost is the
number of met pairs at the tables placed so far. The incumbent (the local search's seating) gives
the cost to beat; the search stops as soon as it reaches the given proven lower bound.

* Bounds at a node, against what the incumbent still allows:

  - the counting bound of :mod:`pairing.seating` among the unseated players (a player with ``u``
    unmet players left at a table of ``s`` has at least ``s - 1 - u`` met mates; each repeat has
    two ends);
  - the *stuck-players bound*: a player with no repeat-free table among the unseated sits at a
    table with a repeat, and a table holds at most ``s`` such players, so at least
    ``ceil(stuck / s)`` repeats remain (``s`` the largest open size);
  - when 3 or more repeats are still allowed, its generalisation, the *cheapest-table bound*:
    ``c(x)`` is the fewest met pairs of any table for ``x`` among the unseated; a table costs at
    least the largest ``c`` of its members, so with the ``c`` sorted from the largest, the sum of
    every ``s``-th one (positions 0, s, 2s, ...) is a bound. ``c`` only grows down the tree, so
    each node recomputes it only for players whose cheapest table lost a member.

* Branching. When no more repeats are allowed, the node is an exact cover: the search branches on
  the player (among the few with the fewest unmet players) with the fewest repeat-free tables, and
  stops at once when one has none. Otherwise the pivot is the player whose cheapest table costs
  most (when that bound was computed; ties: fewest unmet players left, then best standing), else
  the one with the fewest unmet players left; its table is tried for each open size, largest
  first, mates
  taken from the never-met players first, then the others, each group in order of standing
  closeness (points, then place), so the first seating found is also good on spread. Mates are
  added only while the table's met pairs stay within what the incumbent allows, and a list is cut
  as soon as too few usable players are left.
* Memory: a set of unseated players whose completion was searched in full with some allowance is
  remembered; reaching it again with no larger allowance is cut at once.

The spread pass
===============

:func:`tightest_spread` keeps the repeats at most those of a given seating and looks for a smaller
spread (sum over tables of squared point differences of every pair): depth first from the
best-standing unseated player, mates by closeness, cut when the spread so far plus the smallest
spread the unseated players could have on their own (consecutive chunks of the standings, which
is optimal for them alone) reaches the best found, or when the counting bound (or, with no repeat
left, a player without a repeat-free table) shows the repeats cannot be kept.

Proofs and budgets
==================

When the tree is exhausted (or the lower bound is reached) the answer is the true minimum:
``proven`` is true. The budget counts candidate mates and nodes tried (each a few big-integer bit
operations, 1 to 3 microseconds in CPython); when it runs out the best seating found is returned
with ``proven`` false. There is no chance and no clock in it: the same input gives the same answer
on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "EXACT_BUDGET",
    "EXACT_MAX_TABLE",
    "EXACT_UP_TO",
    "SPREAD_BUDGET",
    "ExactSeating",
    "SeatingTiers",
    "fewest_repeats",
    "stuck_bound",
    "tightest_spread",
]

EXACT_UP_TO = 64  # players; larger rounds are left to the local search by default
EXACT_BUDGET = 60_000  # steps: at most about 0.1 s at 24 players, 0.2 s at 64 (CPython 3.12, idle)
STUCK_BUDGET = 50_000  # steps for the stuck-players bound on its own
CHEAPEST_FROM = 3  # allowance from which the cheapest-table bound replaces the stuck-players one
SPREAD_BUDGET = 15_000  # steps for the spread pass once the repeats are settled


@dataclass(frozen=True, slots=True)
class ExactSeating:
    """Result of :func:`fewest_repeats`: tables of indices, their met pairs, and whether proven."""

    tables: tuple[tuple[int, ...], ...]
    repeats: int
    proven: bool
    steps: int


class _OutOfBudget(Exception):
    pass


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first (via the binary string: fastest in CPython)."""
    return [i for i, c in enumerate(bin(mask)[:1:-1]) if c == "1"]


class _Search:
    def __init__(
        self,
        met: Sequence[int],
        sizes: Sequence[int],
        points: Sequence[int] | None,
        budget: int,
        target: int,
    ) -> None:
        m = len(met)
        self.m = m
        full = (1 << m) - 1
        self.met = list(met)
        self.unmet = [full & ~met[i] & ~(1 << i) for i in range(m)]
        self.counts = [0] * 7
        for s in sizes:
            self.counts[s] += 1
        self.points = list(points) if points is not None else [0] * m
        self.plain = points is None  # no standings: plain index order
        self.budget = budget
        self.steps = 0
        self.target = target
        self.best_cost = sum(s * (s - 1) // 2 for s in sizes) + 1
        self.best: list[int] = []
        self.stack: list[int] = []
        self.failed: dict[int, int] = {}
        self.accept: Callable[[list[int]], bool] | None = None
        self.probe = 4  # players whose repeat-free tables are counted to choose an exact-cover pivot
        self._order: dict[int, list[int]] = {}
        self._last_clique = 0
        self.cheap = [0] * m  # per player: a lower bound on the met pairs of their table
        self.witness = [0] * m  # ... and a table reaching it (0: none known)

    def _tick(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise _OutOfBudget

    def order(self, i: int) -> list[int]:
        """Everyone but ``i``, closest in standing first (points, then place)."""
        found = self._order.get(i)
        if found is None and self.plain:
            found = [j for j in range(self.m) if j != i]
            self._order[i] = found
        elif found is None:
            pts = self.points
            found = sorted(
                (j for j in range(self.m) if j != i), key=lambda j: (abs(pts[i] - pts[j]), abs(i - j), j)
            )
            self._order[i] = found
        return found

    # -- bounds ----------------------------------------------------------------------------------
    def counting_bound(self, degrees: list[int]) -> int:
        counts = self.counts
        pairs = 0
        new_ends = 0
        degrees.sort(reverse=True)
        k = 0
        for s in range(6, 1, -1):
            c = counts[s]
            if not c:
                continue
            pairs += c * s * (s - 1) // 2
            need = s - 1
            for d in degrees[k : k + c * s]:
                new_ends += d if d < need else need
            k += c * s
        return pairs - new_ends // 2

    def stuck_bound(self, unseated: int, limit: int) -> int:
        """``ceil(stuck / s)``; stops counting once it exceeds ``limit``."""
        largest = max(s for s in range(2, 7) if self.counts[s])
        enough = limit * largest
        stuck = 0
        unmet = self.unmet
        ranked = sorted(((unmet[i] & unseated).bit_count(), i) for i in _bits(unseated))
        for _, x in ranked:
            if self.cliques(x, unseated, 1) == []:
                stuck += 1
                if stuck > enough:
                    break
        return -(-stuck // largest)

    def cliques(self, x: int, unseated: int, cap: int) -> list[tuple[int, int]] | None:
        """Repeat-free tables for ``x`` among ``unseated`` as (size, mask); None once ``cap`` found."""
        unmet = self.unmet
        pool = unmet[x] & unseated
        free = [q for q in self.order(x) if pool >> q & 1]
        suffix = [0] * (len(free) + 1)
        for k in range(len(free) - 1, -1, -1):
            suffix[k] = suffix[k + 1] | (1 << free[k])
        out: list[tuple[int, int]] = []

        def grow(start: int, need: int, chosen: int, common: int, size: int) -> bool:
            for k in range(start, len(free) - need + 1):
                if (suffix[k] & common).bit_count() < need:
                    return False
                q = free[k]
                if not common >> q & 1:
                    continue
                self._tick()
                if need > 1:
                    if grow(k + 1, need - 1, chosen | (1 << q), common & unmet[q], size):
                        return True
                else:
                    out.append((size, chosen | (1 << q)))
                    if len(out) >= cap:
                        self._last_clique = chosen | (1 << q)
                        return True
            return False

        for s in range(6, 1, -1):
            if self.counts[s] and grow(0, s - 1, 1 << x, pool, s):
                return None
        return out

    def cheapest(self, x: int, unseated: int, floor: int, cap: int) -> tuple[int, int]:
        """The cheapest table for ``x`` among ``unseated``: (met pairs, mask).

        ``floor`` is known to be at most the answer (the search stops when it finds a table that
        cheap); when every table costs more than ``cap`` the answer is ``(cap + 1, 0)``.
        """
        if floor == 0 and cap >= 0:
            found = self.cliques(x, unseated, 1)
            if found is None:
                return 0, self._last_clique
            floor = 1
        unmet, met = self.unmet, self.met
        pool = unseated & ~(1 << x)
        order = [q for q in self.order(x) if pool >> q & 1]
        free = [q for q in order if unmet[x] >> q & 1] + [q for q in order if not unmet[x] >> q & 1]
        best = [cap + 1, 0]

        def grow(start: int, need: int, chosen: int, cost: int) -> bool:
            for k in range(start, len(free) - need + 1):
                q = free[k]
                c = cost + (met[q] & chosen).bit_count()
                if c >= best[0]:
                    continue
                self._tick()
                if need > 1:
                    if grow(k + 1, need - 1, chosen | (1 << q), c):
                        return True
                else:
                    best[0], best[1] = c, chosen | (1 << q)
                    if c <= floor:
                        return True
            return False

        for s in range(6, 1, -1):
            if self.counts[s] and grow(0, s - 1, 1 << x, 0):
                break
        return best[0], best[1]

    def table_bound(self, unseated: int, allow: int, cheap: list[int], witness: list[int], stale: int) -> int:
        """Each table costs at least its members' cheapest table; ``cheap``/``witness`` are
        updated in place for the players whose witness table lost a member (``stale`` bits)."""
        largest = max(s for s in range(2, 7) if self.counts[s])
        values: list[int] = []
        for x in _bits(unseated):
            w = witness[x]
            if not w or w & stale or not self.counts[w.bit_count()]:
                cheap[x], witness[x] = self.cheapest(x, unseated, cheap[x], allow)
                if cheap[x] > allow:
                    return cheap[x]
            values.append(cheap[x])
        values.sort(reverse=True)
        return sum(values[::largest])

    # -- search ----------------------------------------------------------------------------------
    def node(self, unseated: int, cost: int) -> bool:
        """Search the completions of ``unseated``; true means stop (the target was reached)."""
        if not unseated:
            if cost < self.best_cost and (self.accept is None or self.accept(self.stack)):
                self.best_cost = cost
                self.best = list(self.stack)
                return cost <= self.target
            return False
        allow = self.best_cost - 1 - cost
        if allow < 0:
            return False
        known = self.failed.get(unseated)
        if known is not None and known >= allow:
            return False
        self._tick()
        unmet = self.unmet
        degrees: list[int] = []
        pivot, pivot_degree = -1, self.m
        for i in _bits(unseated):
            d = (unmet[i] & unseated).bit_count()
            degrees.append(d)
            if d < pivot_degree:
                pivot, pivot_degree = i, d
        if self.counting_bound(degrees) > allow:
            self._remember(unseated, allow)
            return False
        if allow == 0:
            return self._cover(unseated, cost)
        cheap, witness = list(self.cheap), list(self.witness)
        if allow < CHEAPEST_FROM:
            if self.stuck_bound(unseated, allow) > allow:
                self._remember(unseated, allow)
                return False
        elif self.table_bound(unseated, allow, cheap, witness, ~unseated) > allow:
            self._remember(unseated, allow)
            return False
        else:  # the player whose cheapest table costs most goes first
            pivot = max(_bits(unseated), key=lambda i: (cheap[i], -(unmet[i] & unseated).bit_count(), -i))
        saved = self.cheap, self.witness
        self.cheap, self.witness = cheap, witness
        pool = unseated & ~(1 << pivot)
        order = [q for q in self.order(pivot) if pool >> q & 1]
        free = [q for q in order if unmet[pivot] >> q & 1]
        free += [q for q in order if not unmet[pivot] >> q & 1]
        suffix = [0] * (len(free) + 1)
        for k in range(len(free) - 1, -1, -1):
            suffix[k] = suffix[k + 1] | (1 << free[k])
        for s in range(6, 1, -1):
            if not self.counts[s] or s - 1 > len(free):
                continue
            self.counts[s] -= 1
            try:
                stop = self._pick(unseated, cost, free, suffix, 0, s - 1, 1 << pivot, unmet[pivot], 0)
            finally:
                self.counts[s] += 1
            if stop:
                self.cheap, self.witness = saved
                return True
        self.cheap, self.witness = saved
        self._remember(unseated, self.best_cost - 1 - cost, searched=True)
        return False

    def _cover(self, unseated: int, cost: int) -> bool:
        """No repeat may be added: branch on the player with the fewest repeat-free tables."""
        unmet = self.unmet
        ranked = sorted(((unmet[i] & unseated).bit_count(), i) for i in _bits(unseated))
        choices: list[tuple[int, int]] | None = None
        for _, x in ranked[: self.probe]:
            found = self.cliques(x, unseated, len(choices) if choices is not None else 1 << 30)
            if found is None:
                continue
            if not found:
                self._remember(unseated, 0)
                return False
            choices = found
            if len(found) == 1:
                break
        assert choices is not None
        for s, table in choices:
            self.counts[s] -= 1
            self.stack.append(table)
            try:
                stop = self.node(unseated & ~table, cost)
            finally:
                self.stack.pop()
                self.counts[s] += 1
            if stop:
                return True
            if self.best_cost - 1 - cost < 0:
                return False
        self._remember(unseated, self.best_cost - 1 - cost, searched=True)
        return False

    def _remember(self, unseated: int, allow: int, searched: bool = False) -> None:
        # A subtree searched in full proves nothing when solutions may be refused (``accept``).
        if searched and self.accept is not None:
            return
        if allow >= 0 and self.failed.get(unseated, -1) < allow:
            self.failed[unseated] = allow

    def _pick(
        self,
        unseated: int,
        cost: int,
        free: list[int],
        suffix: list[int],
        start: int,
        need: int,
        chosen: int,
        common: int,
        table_cost: int,
    ) -> bool:
        met = self.met
        for k in range(start, len(free) - need + 1):
            spare = self.best_cost - 1 - cost - table_cost
            if spare < 0:
                return False
            if spare == 0 and (suffix[k] & common).bit_count() < need:
                return False
            q = free[k]
            add = (met[q] & chosen).bit_count()
            if add > spare:
                continue
            self._tick()
            now = chosen | (1 << q)
            if need > 1:
                if self._pick(
                    unseated,
                    cost,
                    free,
                    suffix,
                    k + 1,
                    need - 1,
                    now,
                    common & self.unmet[q],
                    table_cost + add,
                ):
                    return True
            else:
                self.stack.append(now)
                stop = self.node(unseated & ~now, cost + table_cost + add)
                self.stack.pop()
                if stop:
                    return True
        return False


@dataclass(frozen=True, slots=True)
class SeatingTiers:
    """The tiers of a seating's cost above its spread, as :mod:`pairing.seating` weighs them: each
    repeated pair costs ``repeat``, each further meeting of one (``meetings[i][j]`` times met)
    ``extra``, and each player seated at a table of another size than ``preferred`` ``odd`` times
    their ``odd_cost``. The spread search then minimises the whole cost, not the spread alone."""

    repeat: int
    extra: int
    odd: int
    meetings: Sequence[Mapping[int, int]]
    odd_cost: Sequence[int]
    preferred: int | None


class _Spread(_Search):
    """Smallest spread among seatings with at most ``limit`` repeats (depth first, bounded); with
    ``tiers``, the smallest whole cost (the tiers above the spread, then the spread)."""

    def __init__(
        self,
        met: Sequence[int],
        sizes: Sequence[int],
        points: Sequence[int],
        budget: int,
        limit: int,
        tiers: SeatingTiers | None = None,
    ):
        super().__init__(met, sizes, points, budget, 0)
        self.limit = limit
        self.tiers = tiers
        self.best_spread = 0
        self.ordered = all(points[i] >= points[i + 1] for i in range(len(points) - 1))
        self._floors: dict[tuple[int, tuple[int, ...]], int] = {}

    def table_tiers(self, mask: int, size: int) -> int:
        """What a table costs in the tiers above the spread (0 without ``tiers``)."""
        tiers = self.tiers
        if tiers is None:
            return 0
        members = _bits(mask)
        cost = 0
        for a, i in enumerate(members):
            mine = tiers.meetings[i]
            for j in members[a + 1 :]:
                k = mine.get(j, 0)
                if k:
                    cost += tiers.repeat + tiers.extra * (k - 1)
        if tiers.preferred is not None and size != tiers.preferred:
            cost += tiers.odd * sum(tiers.odd_cost[i] for i in members)
        return cost

    def table_spread(self, mask: int) -> int:
        pts = self.points
        vals = [pts[i] for i in _bits(mask)]
        total = sum(vals)
        return len(vals) * sum(v * v for v in vals) - total * total

    def floor(self, unseated: int) -> int:
        """Smallest spread of the unseated players alone: consecutive standings chunks."""
        pts = self.points
        vals = [pts[i] for i in _bits(unseated)]
        if not self.ordered:
            vals.sort()
        open_sizes = [s for s in range(2, 7) if self.counts[s]]
        if len(open_sizes) == 1:
            size = open_sizes[0]
            result = 0
            for start in range(0, len(vals), size):
                chunk = vals[start : start + size]
                total = sum(chunk)
                result += size * sum(v * v for v in chunk) - total * total
            return result
        sums = [0]
        squares = [0]
        for v in vals:
            sums.append(sums[-1] + v)
            squares.append(squares[-1] + v * v)
        memo: dict[tuple[int, ...], int] = {}

        def best(start: int, left: tuple[int, ...]) -> int:
            if start == len(vals):
                return 0
            found = memo.get(left)
            if found is not None:
                return found
            result = -1
            for k, s in enumerate(open_sizes):
                if not left[k]:
                    continue
                total = sums[start + s] - sums[start]
                here = s * (squares[start + s] - squares[start]) - total * total
                rest = best(start + s, (*left[:k], left[k] - 1, *left[k + 1 :]))
                if result < 0 or here + rest < result:
                    result = here + rest
            memo[left] = result
            return result

        return best(0, tuple(self.counts[s] for s in open_sizes))

    def spread_node(self, unseated: int, repeats: int, spread: int) -> None:
        if not unseated:
            if spread < self.best_spread:
                self.best_spread = spread
                self.best = list(self.stack)
                self.best_cost = repeats
            return
        allow = self.limit - repeats
        if allow < 0 or spread + self.floor(unseated) >= self.best_spread:
            return
        self._tick()
        unmet = self.unmet
        degrees = [(unmet[i] & unseated).bit_count() for i in _bits(unseated)]
        if self.counting_bound(degrees) > allow:
            return
        if allow == 0:
            ranked = sorted(zip(degrees, _bits(unseated), strict=True))
            if any(self.cliques(x, unseated, 1) == [] for _, x in ranked[:2]):
                return
        pivot = (unseated & -unseated).bit_length() - 1
        pool = unseated & ~(1 << pivot)
        free = [q for q in self.order(pivot) if pool >> q & 1]
        v = self.points[pivot]
        for s in range(6, 1, -1):
            if self.counts[s] and s - 1 <= len(free):
                self.counts[s] -= 1
                try:
                    self._spread_pick(unseated, repeats, spread, free, 0, s, s - 1, 1 << pivot, 0, v, v * v)
                finally:
                    self.counts[s] += 1

    def _spread_pick(
        self,
        unseated: int,
        repeats: int,
        spread: int,
        free: list[int],
        start: int,
        size: int,
        need: int,
        chosen: int,
        cost: int,
        total: int,
        squares: int,
    ) -> None:
        met, pts = self.met, self.points
        for k in range(start, len(free) - need + 1):
            q = free[k]
            add = (met[q] & chosen).bit_count()
            if repeats + cost + add > self.limit:
                continue
            self._tick()
            now = chosen | (1 << q)
            v = pts[q]
            if need > 1:
                self._spread_pick(
                    unseated,
                    repeats,
                    spread,
                    free,
                    k + 1,
                    size,
                    need - 1,
                    now,
                    cost + add,
                    total + v,
                    squares + v * v,
                )
            else:
                here = size * (squares + v * v) - (total + v) ** 2 + self.table_tiers(now, size)
                if spread + here >= self.best_spread:
                    continue
                self.stack.append(now)
                self.spread_node(unseated & ~now, repeats + cost + add, spread + here)
                self.stack.pop()


# The searches here are written for tables of 2 to 6 (every game but Spy vs Spy); a round with a
# larger table (Spy vs Spy races at any size) is seated by the heuristics of :mod:`pairing.seating`.
EXACT_MAX_TABLE = 6


def _check(met: Sequence[int], sizes: Sequence[int]) -> None:
    if sum(sizes) != len(met):
        raise ValueError("the table sizes must seat every player exactly once")
    if any(not 2 <= s <= 6 for s in sizes):
        raise ValueError("table sizes must be between 2 and 6")


def fewest_repeats(
    met: Sequence[int],
    sizes: Sequence[int],
    *,
    points: Sequence[int] | None = None,
    incumbent: Sequence[Sequence[int]] | None = None,
    lower_bound: int = 0,
    budget: int = EXACT_BUDGET,
    accept: Callable[[list[int]], bool] | None = None,
) -> ExactSeating:
    """Seat players ``0..m-1`` at tables of ``sizes`` with the fewest pairs that already met.

    ``met[i]`` is the bit mask of players ``i`` has met (symmetric, without ``i``); ``points``
    (integers, default all equal) only orders the choices so that similar players sit together in
    the first seating found. ``incumbent`` is a known seating to beat; ``lower_bound`` a proven
    minimum (the search stops when it reaches it). ``budget`` caps the steps. ``accept``, when
    given, is asked about every better seating found (as bit masks of tables) and may refuse it;
    ``proven`` then means "no better seating it accepts".

    >>> met = [0b0010, 0b0001, 0b1000, 0b0100]  # 0 met 1, 2 met 3
    >>> found = fewest_repeats(met, (2, 2))
    >>> found.tables, found.repeats, found.proven
    (((0, 2), (1, 3)), 0, True)
    """
    _check(met, sizes)
    m = len(met)
    search = _Search(met, sizes, points, budget, lower_bound)
    search.accept = accept
    if incumbent is not None:
        masks = [sum(1 << i for i in table) for table in incumbent]
        if sorted(i for table in incumbent for i in table) != list(range(m)):
            raise ValueError("the incumbent must seat every player exactly once")
        search.best = masks
        search.best_cost = sum((met[i] & mask).bit_count() for mask in masks for i in _bits(mask)) // 2
    proven = True
    if not m:
        search.best, search.best_cost = [], 0
    elif search.best_cost > lower_bound:
        try:
            search.node((1 << m) - 1, 0)
        except _OutOfBudget:
            proven = False
    tables = tuple(tuple(_bits(mask)) for mask in search.best)
    return ExactSeating(tables, search.best_cost, proven, search.steps)


def tightest_spread(
    met: Sequence[int],
    sizes: Sequence[int],
    points: Sequence[int],
    incumbent: Sequence[Sequence[int]],
    *,
    budget: int = SPREAD_BUDGET,
    tiers: SeatingTiers | None = None,
) -> ExactSeating:
    """Among seatings with no more repeats than ``incumbent``, one with the smallest spread found
    (with ``tiers``, the smallest whole cost: see :class:`SeatingTiers`).

    Spread is the sum over tables of squared point differences of every pair (``points`` are
    integers). Depth first from the best-standing player, mates by closeness; a branch is cut when
    its spread so far plus the smallest spread the unseated players could have on their own
    (consecutive standings chunks, which is optimal for them alone) reaches the best found.
    ``proven`` is true when the tree was exhausted, i.e. the spread is the smallest possible.
    """
    _check(met, sizes)
    masks = [sum(1 << i for i in table) for table in incumbent]
    repeats = sum((met[i] & mask).bit_count() for mask in masks for i in _bits(mask)) // 2
    search = _Spread(met, sizes, points, budget, repeats, tiers)
    search.best = masks
    search.best_cost = repeats
    search.best_spread = sum(
        search.table_spread(mask) + search.table_tiers(mask, mask.bit_count()) for mask in masks
    )
    proven = True
    if met:
        try:
            search.spread_node((1 << len(met)) - 1, 0, 0)
        except _OutOfBudget:
            proven = False
    tables = tuple(tuple(_bits(mask)) for mask in search.best)
    return ExactSeating(tables, search.best_cost, proven, search.steps)


def stuck_bound(met: Sequence[int], sizes: Sequence[int], *, budget: int = STUCK_BUDGET) -> int:
    """Proven minimum of repeats: players with no repeat-free table, at most ``max(sizes)`` a table.

    Players whose check does not finish within ``budget`` steps are not counted (so the bound
    stays sound, only weaker).

    >>> stuck_bound([0b010, 0b001, 0b000], (3,))  # 0 and 1 met: nobody has a repeat-free table
    1
    """
    _check(met, sizes)
    m = len(met)
    if not m:
        return 0
    search = _Search(met, sizes, None, budget, 0)
    everyone = (1 << m) - 1
    stuck = 0
    for x in range(m):
        if search.steps >= budget:
            break
        search.budget = search.steps + max(1, (budget - search.steps) // (m - x))
        try:
            if search.cliques(x, everyone, 1) == []:
                stuck += 1
        except _OutOfBudget:
            search.steps = search.budget
    return -(-stuck // max(sizes))
