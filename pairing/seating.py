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
   Between the meetings and the spread comes the *odd tables* tier, when the round has tables
   of another size than the preferred one (one seat shorter or longer): each player seated at
   such a table costs ``d (d + 1) / 2``, ``d`` being how many more of them they have had than
   the present player who has had the fewest. So the odd tables go to those who have had the
   fewest, a second one only when everyone has had one (unless that would add a repeat), and a
   last pass looks across every table for a swap that spreads them better.
4. Small rounds (at most ``exact_up_to`` = 64 seated players). If the local search ends above the
   lower bound, the exact branch and bound of :mod:`pairing.exact` starts from its seating and
   looks for the true fewest repeats within ``exact_budget`` steps (a deterministic count: at most
   about 0.1 s at 24 players and 0.2 s at 64 on an idle machine; a whole round, local search and
   spread pass included, stays under about 0.5 s). When it exhausts its tree the minimum is
   proven and becomes the plan's ``repeat_lower_bound`` (so ``repeats_minimal`` is true); when the
   budget runs out the best seating found is kept with the bound below. Then, for every small
   round, a spread pass (:func:`pairing.exact.tightest_spread`, ``spread_budget`` steps) searches
   seatings with no more repeats for a smaller spread, followed by the swap pass above; the result
   is kept only if the lexicographic cost went down.
5. Seat order within each table is chosen by :func:`pairing.seats.seat_order`.

The lower bound (:func:`repeat_lower_bound`) is the largest of three sound bounds:

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
* Stuck-players bound (rounds of at most 200 players): a player with no *repeat-free table*
  (``s - 1`` players, never met by them nor by each other) sits at a table with a repeat, and a
  table holds at most ``s`` such players (``s`` the largest size): ``repeats >= ceil(stuck / s)``.
  Each player's check is a small clique search with a step budget; an unfinished check does not
  count the player, so the bound stays sound. It is what makes late rounds of 16 to 24 players
  provable: e.g. 24 players at tables of 4 in round 7, where the other two bounds say 0.

In big events all three are 0 (everyone has plenty of unmet players) and the search reaches it; in
small, dense late rounds the true minimum can be above them, and the exact search settles it.

Everything is deterministic for a given ``seed``.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Iterable, Sequence
from itertools import combinations

from .exact import (
    EXACT_BUDGET,
    EXACT_MAX_TABLE,
    EXACT_UP_TO,
    SPREAD_BUDGET,
    SeatingTiers,
    fewest_repeats,
    stuck_bound,
    tightest_spread,
)
from .history import EventHistory, Ranked, Round, RoundPlan, standings_points
from .seats import seat_order
from .tables import MIN_TABLE, plan_tables

__all__ = [
    "choose_byes",
    "fewest_pairs",
    "greedy_tables",
    "met_masks",
    "proven_minimum",
    "repeat_lower_bound",
    "round_spread",
    "seat_swiss_tables",
]

POINT_STEPS = 10  # points are compared in tenths
STUCK_UP_TO = 200  # players: the stuck-players bound is computed for rounds up to this size


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

    The largest of the counting, past-tables and stuck-players bounds described in the module
    docstring. ``sum(sizes)`` must equal ``len(players)``.
    """
    hist = _as_history(history)
    if sum(sizes) != len(players):
        raise ValueError("the table sizes must seat every player exactly once")
    bound = max(_counting_bound(players, sizes, hist), _past_tables_bound(players, sizes, hist))
    if (
        len(players) <= STUCK_UP_TO
        and max(sizes, default=0) <= EXACT_MAX_TABLE
        and any(hist.opponents(p) for p in players)
    ):
        bound = max(bound, stuck_bound(met_masks(players, hist), sizes))
    return bound


_MinimumKey = tuple[frozenset[int], tuple[int, ...], frozenset[tuple[int, int]]]
# Minima proven by the exact search, by players, sizes and the pairs among them that met (the
# explanation of a freshly seated round asks again). Only proven facts are kept, so reusing one
# never changes an answer except by knowing more.
_PROVEN: dict[_MinimumKey, int] = {}
_PROVEN_KEEP = 128
_PROVEN_LOCK = threading.Lock()


def _minimum_key(players: Sequence[int], sizes: Sequence[int], hist: EventHistory) -> _MinimumKey:
    present = set(players)
    pairs = frozenset((a, b) for a in players for b in hist.opponents(a) if a < b and b in present)
    return frozenset(players), tuple(sorted(sizes)), pairs


def _remember(key: _MinimumKey, minimum: int) -> None:
    with _PROVEN_LOCK:
        if key not in _PROVEN and len(_PROVEN) >= _PROVEN_KEEP:
            _PROVEN.pop(next(iter(_PROVEN)))
        _PROVEN[key] = minimum


def proven_minimum(
    tables: Sequence[Sequence[int]],
    history: Sequence[Round] | EventHistory,
    *,
    budget: int = EXACT_BUDGET,
    up_to: int = EXACT_UP_TO,
) -> int | None:
    """The true fewest repeated pairs for the players and table sizes of ``tables``, if provable.

    Runs the exact search of :mod:`pairing.exact` (rounds of at most ``up_to`` players, within
    ``budget`` steps) with ``tables`` as the seating to beat; ``None`` when it cannot settle it.
    A minimum proven earlier in this process for the same players, table sizes and meetings (by
    :func:`seat_swiss_tables` or this function) is returned at once.
    """
    hist = _as_history(history)
    players = [p for t in tables for p in t]
    sizes = [len(t) for t in tables]
    if not players or len(players) > up_to or any(not MIN_TABLE <= s <= EXACT_MAX_TABLE for s in sizes):
        return None
    key = _minimum_key(players, sizes, hist)
    if key in _PROVEN:
        return _PROVEN[key]
    bound = repeat_lower_bound(players, sizes, hist)
    start = 0
    incumbent: list[list[int]] = []
    for size in sizes:
        incumbent.append(list(range(start, start + size)))
        start += size
    found = fewest_repeats(
        met_masks(players, hist), sizes, incumbent=incumbent, lower_bound=bound, budget=budget
    )
    if not found.proven:
        return None
    _remember(key, found.repeats)
    return found.repeats


def met_masks(players: Sequence[int], hist: EventHistory) -> list[int]:
    """For each player (by position in ``players``), the bit mask of the present players met."""
    index = {p: i for i, p in enumerate(players)}
    return [sum(1 << index[q] for q in hist.opponents(p) if q in index) for p in players]


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
    exact_budget: int = EXACT_BUDGET,
    exact_up_to: int = EXACT_UP_TO,
    spread_budget: int = SPREAD_BUDGET,
) -> RoundPlan:
    """Seat the present players (``standings``, best first) for a Swiss round at tables.

    ``preferred``/``allowed`` are the table sizes (see :func:`pairing.tables.split_tables`);
    ``max_byes`` limits byes (``None``: as many as the sizes force, 0: raise instead).
    ``effort`` caps the simulated-annealing moves used only when swaps get stuck above the bound.
    Rounds of at most ``exact_up_to`` seated players get the exact search (``exact_budget``
    steps, 0 turns it off) and the spread pass (``spread_budget`` steps, 0 turns it off); see the
    module docstring.
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
    search = _TableSearch(seated, plan.sizes, points, hist, rng, preferred=preferred)
    search.improve(bound, effort)
    exact_fits = len(seated) <= exact_up_to and max(plan.sizes, default=0) <= EXACT_MAX_TABLE
    if search.repeats() > bound and exact_fits and exact_budget > 0:
        key = _minimum_key(seated, plan.sizes, hist)
        bound = max(bound, _PROVEN.get(key, bound))  # a minimum proven earlier for the same round
        exact = fewest_repeats(
            search.met_masks(),
            plan.sizes,
            points=search.pts,
            incumbent=search.tables,
            lower_bound=bound,
            budget=exact_budget,
        )
        if exact.repeats < search.repeats():
            search.set_tables(exact.tables)
            search.polish(len(plan.sizes))
        if exact.proven:
            bound = exact.repeats
            _remember(key, bound)
    if exact_fits and spread_budget > 0 and len(plan.sizes) > 1:
        before = search.total_cost()
        kept = [list(t) for t in search.tables]
        tiers = SeatingTiers(
            search.w_repeat, search.w_extra, search.w_odd, search.met, search.odd_cost, preferred
        )
        tight = tightest_spread(
            search.met_masks(), plan.sizes, search.pts, search.tables, budget=spread_budget, tiers=tiers
        )
        search.set_tables(tight.tables)
        search.polish(len(plan.sizes))
        if search.total_cost() >= before:
            search.set_tables(kept)
    search.spread_odd_tables()
    if search.odd_total() > search.fewest_odd():
        # The odd tables did not go to those who had the fewest: search again with them first,
        # and keep that seating if it repeats no more (the tiers above them come first).
        fair = _TableSearch(
            seated, plan.sizes, points, hist, random.Random(seed), preferred=preferred, odd_first=True
        )
        fair.improve(bound, effort)
        if fair.key() < search.key():
            search.set_tables(fair.tables)
            search.polish(len(plan.sizes))
            search.spread_odd_tables()
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
        *,
        preferred: int | None = None,
        odd_first: bool = False,
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
        # The odd tables tier: what sitting at a table of another size costs each player.
        self.preferred = preferred
        self.odd_cost = [0] * m
        if preferred is not None and any(s != preferred for s in sizes):
            had = [hist.odd_tables(p, preferred) for p in seated]
            fewest = min(had, default=0)
            self.odd_cost = [(h - fewest) * (h - fewest + 1) // 2 for h in had]
        gap = (max(self.pts) - min(self.pts)) if m else 0
        total_pairs = sum(s * (s - 1) // 2 for s in sizes)
        if odd_first:  # the odd tables above everything: how few repeats a fair seating has
            self.w_extra = total_pairs * gap * gap + 1
            self.w_repeat = self.w_extra * (total_meetings + 1)
            self.w_odd = self.w_repeat * (total_pairs + 1)
        else:
            self.w_odd = total_pairs * gap * gap + 1
            self.w_extra = self.w_odd * (sum(self.odd_cost) + 1)
            self.w_repeat = self.w_extra * (total_meetings + 1)
        self.tables = _chunks(range(m), sizes)
        self.where = [0] * m
        self._mark_odd()
        for t, table in enumerate(self.tables):
            for i in table:
                self.where[i] = t

    def _mark_odd(self) -> None:
        preferred = self.preferred
        self.odd = [preferred is not None and len(t) != preferred for t in self.tables]

    # -- costs -------------------------------------------------------------------------------
    def pair_cost(self, i: int, j: int) -> int:
        k = self.met[i].get(j, 0)
        gap = self.pts[i] - self.pts[j]
        cost = gap * gap
        if k:
            cost += self.w_repeat + self.w_extra * (k - 1)
        return cost

    def total_cost(self) -> int:
        pairs = sum(self.pair_cost(a, b) for table in self.tables for a, b in combinations(table, 2))
        return pairs + self.w_odd * self.odd_total()

    def odd_total(self) -> int:
        """The odd tables tier: the cost of everyone seated at a table of another size."""
        return sum(self.odd_cost[i] for t, table in enumerate(self.tables) if self.odd[t] for i in table)

    def repeats(self) -> int:
        return sum(1 for table in self.tables for a, b in combinations(table, 2) if b in self.met[a])

    def delta(self, x: int, y: int) -> int:
        """Change of total cost if ``x`` and ``y`` (at different tables) swap."""
        w_repeat, w_extra, pts = self.w_repeat, self.w_extra, self.pts
        mx, my = self.met[x], self.met[y]
        px, py = pts[x], pts[y]
        d = 0
        odd_x, odd_y = self.odd[self.where[x]], self.odd[self.where[y]]
        if odd_x != odd_y:  # x goes to y's table and y to x's: one of them now sits at the odd one
            moved = self.odd_cost[x] - self.odd_cost[y]
            d += self.w_odd * (moved if odd_y else -moved)
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

    def start_odd_tables_fair(self) -> None:
        """Before the search: whoever sits at an odd table having had more of them than someone
        at a table of the preferred size changes places with the nearest such player in the
        standings (repeats this makes are the search's to mend, the odd tables tier then
        keeping what it can of this)."""
        for t, table in enumerate(self.tables):
            if not self.odd[t]:
                continue
            for x in list(table):
                others = [
                    y
                    for u, other in enumerate(self.tables)
                    if not self.odd[u]
                    for y in other
                    if self.odd_cost[y] < self.odd_cost[x]
                ]
                if others:
                    y = min(
                        others, key=lambda y: (self.odd_cost[y], abs(self.pts[x] - self.pts[y]), abs(x - y))
                    )
                    self.swap(x, y)

    def improve(self, bound: int, effort: int) -> None:
        tables_count = len(self.tables)
        if tables_count < 2:
            return
        self.start_odd_tables_fair()
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

    def spread_odd_tables(self) -> None:
        """Swaps anywhere in the room that lower the cost, for each player seated at an odd
        table who has had more of them than someone: the neighbouring tables the other passes
        look at may all have had theirs."""
        if not any(self.odd):
            return
        changed = True
        while changed:
            changed = False
            for t, table in enumerate(self.tables):
                if not self.odd[t]:
                    continue
                for x in list(table):
                    if self.where[x] != t or not self.odd_cost[x]:
                        continue
                    d, y = self.best_swap(x, len(self.tables))
                    if y != -1 and d < 0:
                        self.swap(x, y)
                        changed = True

    def fewest_odd(self) -> int:
        """The odd tables tier at its lowest, repeats aside: the odd seats given to those who
        have had the fewest."""
        seats = sum(len(t) for u, t in enumerate(self.tables) if self.odd[u])
        return sum(sorted(self.odd_cost)[:seats])

    def key(self) -> tuple[int, int, int, int]:
        """The cost's tiers in order: repeated pairs, further meetings, odd tables, spread."""
        repeats = extra = spread = 0
        for table in self.tables:
            for a, b in combinations(table, 2):
                k = self.met[a].get(b, 0)
                if k:
                    repeats += 1
                    extra += k - 1
                gap = self.pts[a] - self.pts[b]
                spread += gap * gap
        return repeats, extra, self.odd_total(), spread

    def met_masks(self) -> list[int]:
        return [sum(1 << j for j in row) for row in self.met]

    def set_tables(self, tables: Iterable[Iterable[int]]) -> None:
        """Replace the seating (tables of indices); tables are put in standings order."""
        self.tables = sorted((sorted(t) for t in tables), key=lambda t: (t[0], -len(t)))
        self._mark_odd()
        for t, table in enumerate(self.tables):
            for i in table:
                self.where[i] = t

    def tables_by_player(self) -> list[list[int]]:
        return [[self.players[i] for i in table] for table in self.tables]
