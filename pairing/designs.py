"""Group schedules with a proof: known repeat-free designs, and an exact search for small groups.

:func:`pairing.round_robin.group_schedule` asks this module first.

Known designs (players ``0..n-1``; every pair meets at most once)
=================================================================

* Affine planes ``AG(2, q)`` for ``q`` in 2, 3, 4, 5, 7: ``q * q`` players at tables of ``q``
  for up to ``q + 1`` rounds. Player ``x * q + y`` is the point ``(x, y)`` over the field of
  ``q`` elements; round ``m`` (``m < q``) seats the lines ``y = m * x + b``, and the last round
  the lines ``x = c``. After ``q + 1`` rounds everyone has met everyone exactly once.
* Kirkman's fifteen schoolgirls: 15 players at tables of 3 for 7 rounds (the lines of the
  projective space ``PG(3, 2)``, packed into 7 parallel classes).

The exact schedule search
=========================

The repeats of a schedule are ``sum(k - 1)`` over the pairs that meet ``k >= 1`` times, which is
also the sum over rounds of the pairs seated together that met in an earlier round. The total
does not depend on the order of the rounds, and relabelling players does not change it, so the
search (:func:`fewest_schedule_repeats`, equal table sizes, no byes) may assume:

* round 1 seats the players in order (``0..s-1``, ``s..2s-1``, ...);
* rounds 1 and 2 are a pair of rounds with the *smallest overlap* (pairs seated together in both)
  among all pairs of rounds, so every other pair of rounds overlaps at least as much;
* round 2 is one representative of its *intersection matrix* (how many players of each round-1
  table sit at each round-2 table, up to reordering tables): players of a round-1 table are
  interchangeable, so every round 2 with that matrix is equivalent;
* rounds 3, 4, ... come in increasing order of their tables' bit masks.

Rounds 3 onward are enumerated by the branch and bound of :mod:`pairing.exact` (every seating
within the repeats still allowed), each checked against the overlap rule. A branch is cut when its
repeats so far plus a lower bound for each round still to seat (the per-round counting and
stuck-players bounds on the meetings so far, and the smallest overlap) reach the best schedule
known. When the tree is exhausted the best schedule is proven optimal. The work is capped by a
step budget; when it runs out the answer is only the best found.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from .exact import _bits, _OutOfBudget, _Search

__all__ = ["SCHEDULE_BUDGET", "affine_plane", "fewest_schedule_repeats", "kirkman_fifteen", "known_design"]

SCHEDULE_BUDGET = 500_000  # steps of the exact schedule search (about 1 s)

_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)  # the field of four elements: 2 is a root of x^2 + x + 1, addition is xor


def affine_plane(q: int) -> list[list[list[int]]]:
    """The ``q + 1`` parallel classes of ``AG(2, q)`` as rounds of tables of players ``0..q*q-1``.

    >>> affine_plane(2)
    [[[0, 2], [1, 3]], [[0, 3], [1, 2]], [[0, 1], [2, 3]]]
    """
    if q == 4:

        def add(a: int, b: int) -> int:
            return a ^ b

        def mul(a: int, b: int) -> int:
            return _GF4_MUL[a][b]
    elif q in (2, 3, 5, 7):

        def add(a: int, b: int) -> int:
            return (a + b) % q

        def mul(a: int, b: int) -> int:
            return (a * b) % q
    else:
        raise ValueError(f"no affine plane of order {q} is built in (2, 3, 4, 5 and 7 are)")
    rounds: list[list[list[int]]] = []
    for m in range(q):
        rounds.append([sorted(x * q + add(mul(m, x), b) for x in range(q)) for b in range(q)])
    rounds.append([[c * q + y for y in range(q)] for c in range(q)])
    return [sorted(rnd) for rnd in rounds]


_KIRKMAN_15 = (
    ((0, 1, 2), (3, 7, 11), (4, 9, 14), (5, 10, 12), (6, 8, 13)),
    ((0, 3, 4), (1, 7, 9), (2, 12, 13), (5, 8, 14), (6, 10, 11)),
    ((0, 5, 6), (1, 8, 10), (2, 11, 14), (3, 9, 13), (4, 7, 12)),
    ((0, 7, 8), (1, 11, 13), (2, 4, 5), (3, 10, 14), (6, 9, 12)),
    ((0, 9, 10), (1, 12, 14), (2, 3, 6), (4, 8, 11), (5, 7, 13)),
    ((0, 11, 12), (1, 3, 5), (2, 8, 9), (4, 10, 13), (6, 7, 14)),
    ((0, 13, 14), (1, 4, 6), (2, 7, 10), (3, 8, 12), (5, 9, 11)),
)


def kirkman_fifteen() -> list[list[list[int]]]:
    """A Kirkman triple system on 15 players: 7 rounds of 5 tables of 3, every pair meets once."""
    return [[list(t) for t in rnd] for rnd in _KIRKMAN_15]


def known_design(n: int, size: int, rounds: int) -> list[list[list[int]]] | None:
    """A repeat-free schedule of ``rounds`` rounds for ``n`` players at tables of ``size``, if built in."""
    design: list[list[list[int]]] | None = None
    if size * size == n and size in (2, 3, 4, 5, 7):
        design = affine_plane(size)
    elif n == 15 and size == 3:
        design = kirkman_fifteen()
    if design is None or rounds > len(design):
        return None
    return design[:rounds]


# -- exact search ---------------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _round_two_types(tables: int, size: int) -> list[tuple[int, list[list[int]]]]:
    """Every intersection matrix of two rounds up to reordering tables: (overlap, rows).

    Rows (round-2 tables) and columns (round-1 tables) both sum to ``size``. Only matrices with
    rows and columns in non-increasing lexicographic order are generated (every class has one),
    then duplicates are removed by a canonical form.
    """
    seen: dict[tuple[tuple[int, ...], ...], None] = {}
    col_left = [size] * tables

    def rows_from(built: list[tuple[int, ...]], tied: list[bool]) -> None:
        if len(built) == tables:
            canon = min(
                tuple(sorted((tuple(r[c] for c in perm) for r in built), reverse=True))
                for perm in permutations(range(tables))
            )
            seen.setdefault(canon, None)
            return
        row: list[int] = []
        previous = built[-1] if built else None

        def fill(c: int, left: int, below: bool) -> None:
            # ``below``: the row is already lexicographically below the previous one
            if c == tables:
                if left == 0:
                    new_tied = [tied[k] and row[k] == row[k + 1] for k in range(tables - 1)]
                    for k in range(tables):
                        col_left[k] -= row[k]
                    rows_from([*built, tuple(row)], new_tied)
                    for k in range(tables):
                        col_left[k] += row[k]
                return
            high = min(left, col_left[c])
            if c > 0 and tied[c - 1]:
                high = min(high, row[c - 1])
            if previous is not None and not below:
                high = min(high, previous[c])
            for v in range(high, -1, -1):
                row.append(v)
                fill(c + 1, left - v, below or (previous is not None and v < previous[c]))
                row.pop()

        fill(0, size, False)

    rows_from([], [True] * (tables - 1))
    out = [(sum(v * (v - 1) // 2 for r in rows for v in r), [list(r) for r in rows]) for rows in seen]
    out.sort()
    return out


class _ScheduleSearch:
    def __init__(self, n: int, size: int, rounds: int, budget: int, best: int, best_rounds: list[list[int]]):
        self.n, self.size, self.rounds = n, size, rounds
        self.tables = n // size
        self.sizes = [size] * self.tables
        self.budget = budget
        self.steps = 0
        self.best = best
        self.best_rounds = best_rounds  # each round a list of table masks
        self.smallest = 0

    def _mates(self, masks: Sequence[int]) -> list[int]:
        mates = [0] * self.n
        for mask in masks:
            for i in _bits(mask):
                mates[i] = mask & ~(1 << i)
        return mates

    def run(self) -> bool:
        """Search everything; true when the tree was exhausted (the best is optimal)."""
        s, t = self.size, self.tables
        first = [((1 << s) - 1) << (s * j) for j in range(t)]
        try:
            for overlap, rows in _round_two_types(t, s):
                if overlap * (self.rounds - 1) >= self.best:
                    break
                self.smallest = overlap
                second = [0] * t
                for j in range(t):  # round-1 table j hands out its players in order
                    start = s * j
                    for i, row in enumerate(rows):
                        for _ in range(row[j]):
                            second[i] |= 1 << start
                            start += 1
                met = [a | b for a, b in zip(self._mates(first), self._mates(second), strict=True)]
                self._extend([first, second], met, overlap)
        except _OutOfBudget:
            return False
        return True

    def _lower_bound(self, met: list[int]) -> int:
        probe = _Search(met, self.sizes, None, 10**9, 0)
        everyone = (1 << self.n) - 1
        degrees = [(probe.unmet[i] & everyone).bit_count() for i in range(self.n)]
        bound = max(probe.counting_bound(degrees), probe.stuck_bound(everyone, self.n))
        self.steps += probe.steps
        return max(bound, self.smallest)

    def _extend(self, done: list[list[int]], met: list[int], cost: int) -> None:
        r = len(done)
        if r == self.rounds:
            if cost < self.best:
                self.best = cost
                self.best_rounds = [list(rnd) for rnd in done]
            return
        each = self._lower_bound(met)
        allow = self.best - 1 - cost - (self.rounds - r - 1) * each
        if allow < each:
            return
        mates = [self._mates(rnd) for rnd in done]
        previous = tuple(sorted(done[-1])) if r >= 3 else None
        smallest = self.smallest

        def accept(stack: list[int]) -> bool:
            if previous is not None and tuple(sorted(stack)) <= previous:
                return False
            for m in mates:
                shared = sum((m[i] & mask).bit_count() for mask in stack for i in _bits(mask)) // 2
                if shared < smallest:
                    return False
            repeats = sum((met[i] & mask).bit_count() for mask in stack for i in _bits(mask)) // 2
            new_met = list(met)
            for mask in stack:
                for i in _bits(mask):
                    new_met[i] |= mask & ~(1 << i)
            self._extend([*done, list(stack)], new_met, cost + repeats)
            return False  # keep enumerating

        search = _Search(met, self.sizes, None, self.budget - self.steps, -1)
        search.best_cost = allow + 1
        search.accept = accept
        try:
            search.node((1 << self.n) - 1, 0)
        finally:
            self.steps += search.steps
        if self.steps > self.budget:
            raise _OutOfBudget


def fewest_schedule_repeats(
    n: int,
    size: int,
    rounds: int,
    incumbent: Sequence[Sequence[Sequence[int]]],
    *,
    budget: int = SCHEDULE_BUDGET,
) -> tuple[int, list[list[list[int]]], bool]:
    """The fewest repeats (``sum(k - 1)``) of ``rounds`` rounds for players ``0..n-1`` at tables of
    ``size``: (repeats, schedule, proven). ``incumbent`` is a known schedule to beat.

    ``proven`` is true when the search finished within ``budget`` steps: no schedule has fewer.

    >>> repeats, schedule, proven = fewest_schedule_repeats(6, 3, 2, [[[0, 1, 2], [3, 4, 5]]] * 2)
    >>> repeats, proven  # two tables of 3 in two rounds: some pair meets twice
    (2, True)
    """
    if n % size or len(incumbent) != rounds:
        raise ValueError("the schedule must seat every player at tables of one size each round")
    masks = [[sum(1 << p for p in table) for table in rnd] for rnd in incumbent]
    meetings: dict[tuple[int, int], int] = {}
    for rnd in incumbent:
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    key = (min(a, b), max(a, b))
                    meetings[key] = meetings.get(key, 0) + 1
    best = sum(k - 1 for k in meetings.values())
    if rounds < 2 or best == 0:
        return best, [[list(t) for t in rnd] for rnd in incumbent], True
    search = _ScheduleSearch(n, size, rounds, budget, best, masks)
    proven = search.run()
    schedule = [[list(_bits(mask)) for mask in rnd] for rnd in search.best_rounds]
    return search.best, schedule, proven
