"""Swiss pairing for two-player games, as a maximum-weight perfect matching.

Each present player is a vertex (plus one "bye" vertex when the count is odd). An edge's cost
encodes, in strict order of importance (each tier's unit is larger than the largest possible total
of all lower tiers, so no amount of a lower tier can buy one unit of a higher one):

1. a bye beyond the fewest: each bye the player given the bye already had beyond the fewest any
   present player had (so a second bye only when everyone has had one, a third only when everyone
   has had two);
2. a repeated pair (a table whose two players met before, however often): the unit that the
   plan's ``repeats`` and ``repeat_lower_bound`` and :func:`minimum_repeats` count, so the plan
   always has the fewest repeated pairs possible;
3. each further earlier meeting of a repeated pair (``k - 1`` for a pair that met ``k`` times), so
   among pairings with the fewest repeated pairs a third meeting is worse than a second;
4. which player gets the bye: the lowest-standing one (of those with the fewest byes, by tier 1);
5. the score difference of the pair, squared (so two one-point floats beat one two-point float).

Tier 2 counts pairs, not meetings: one pair meeting for the third time (one repeated pair) beats
two pairs meeting for the second time (two repeated pairs), though both add two earlier meetings.

The matching maximises ``C - cost`` with maximum cardinality, so it is perfect and optimal on its
candidate edges. A complete graph of 1,000 players is far too slow for a blossom algorithm in
Python, so the candidate edges are each player's ``candidates`` nearest-ranked non-opponents, the
neighbouring-rank edges (so a perfect matching always exists) and the Dutch-style "top half
against bottom half" partners within each score group; the bye vertex joins the lowest player and
the lowest players with the fewest byes. Those slide pairs cost nothing and are given to the solver
as its starting matching (see :mod:`pairing.matching`), which is what makes a 1,000-player round
take milliseconds.

If the answer still repeats a pairing, events of up to 300 players are solved again on the complete
graph, which makes the answer exactly optimal in every tier. Larger events compute the true minimum
number of repeated pairs (``n/2`` minus a maximum matching of the never-met graph) and, while the
answer is above it (or the bye went to a player without the fewest byes), double the candidate
count up to the complete graph; there the number of repeated pairs is minimal, though lower tiers
are only optimal on the candidate graph. Either way a repeat is only given when every pairing of
the present players that gives the bye (if any) to a player with the fewest byes has one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import groupby

from .history import EventHistory, Ranked, Round, RoundPlan, standings_points
from .matching import max_weight_matching
from .seating import seat_swiss_tables
from .seats import seat_order

__all__ = ["matching_problem", "minimum_repeats", "pair_swiss", "swiss_round"]

POINT_STEPS = 10  # points are compared in tenths
COMPLETE_UP_TO = 300  # events this small fall back to the complete graph as soon as a repeat shows


def _as_history(history: Sequence[Round] | EventHistory) -> EventHistory:
    return history if isinstance(history, EventHistory) else EventHistory(history)


def swiss_round(
    standings: Sequence[Ranked],
    history: Sequence[Round] | EventHistory = (),
    *,
    preferred: int = 2,
    allowed: Iterable[int] | None = None,
    max_byes: int | None = None,
    seed: int = 0,
) -> RoundPlan:
    """One Swiss round at any table size: matching for tables of 2 only, else seating search.

    For two-player tables ``max_byes`` is ignored (an odd count always gives one bye).
    """
    sizes = set(allowed) if allowed is not None else {preferred}
    if sizes == {2} and preferred == 2:
        return pair_swiss(standings, history, seed=seed)
    return seat_swiss_tables(
        standings, history, preferred=preferred, allowed=sizes, max_byes=max_byes, seed=seed
    )


def pair_swiss(
    standings: Sequence[Ranked],
    history: Sequence[Round] | EventHistory = (),
    *,
    seed: int = 0,
    candidates: int = 24,
) -> RoundPlan:
    """Pair the present players (``standings``, best first) for a two-player Swiss round.

    ``history`` holds the earlier rounds; players in it who are absent from ``standings`` have
    dropped and are ignored, players in ``standings`` absent from it are late entrants. Tables are
    returned best pair first, each in seat order (seat 0 starts), balanced from past seat counts.
    """
    hist = _as_history(history)
    points = standings_points(standings)
    order = [entry.player for entry in standings]
    rng = random.Random(seed)
    n = len(order)
    if n == 0:
        return RoundPlan(Round(()), (), 0, 0.0)
    if n == 1:
        note = ("only one player is present",)
        return RoundPlan(Round((), byes=(order[0],)), (), 0, 0.0, note)

    width = max(1, candidates)
    mate: list[int] = []
    bound: int | None = None
    while True:
        mate = _solve(order, points, hist, width)
        repeats = _count_repeats(order, mate, hist)
        if width >= n or (repeats == 0 and not _avoidable_extra_bye(order, mate, hist)):
            break
        if n <= COMPLETE_UP_TO:
            width = n  # small event: solve exactly on the complete graph
            continue
        if bound is None:
            bound = minimum_repeats(order, hist)
        if repeats <= bound and not _avoidable_extra_bye(order, mate, hist):
            break
        width *= 2
    if bound is None:
        bound = 0 if _count_repeats(order, mate, hist) == 0 else minimum_repeats(order, hist)

    byes: tuple[int, ...] = ()
    pairs: list[tuple[int, int]] = []
    for i, j in enumerate(mate):
        if j == n:
            byes = (order[i],)
        elif i < j < n:
            pairs.append((i, j))
    pairs.sort()
    tables = tuple(seat_order((order[i], order[j]), hist, rng) for i, j in pairs)
    rnd = Round(tables, byes)
    repeated = hist.repeated_pairs(rnd)
    spread = sum((points[a] - points[b]) ** 2 for a, b in tables)
    notes: list[str] = []
    for player in byes:
        had = len(hist.byes_of(player))
        if had == 1:
            notes.append(f"player {player} gets a second bye: every present player has had one")
        elif had > 1:
            notes.append(f"player {player} gets another bye: every present player has had {had}")
    return RoundPlan(rnd, repeated, bound, spread, tuple(notes))


def _avoidable_extra_bye(order: list[int], mate: list[int], hist: EventHistory) -> bool:
    """Whether the bye went to a player with more byes than some other present player."""
    n = len(order)
    given = [order[i] for i, j in enumerate(mate) if j == n]
    if not given:
        return False
    had = len(hist.byes_of(given[0]))
    return had > 0 and any(len(hist.byes_of(p)) < had for p in order)


def _count_repeats(order: list[int], mate: list[int], hist: EventHistory) -> int:
    n = len(order)
    return sum(1 for i, j in enumerate(mate) if i < j < n and hist.times_met(order[i], order[j]))


def _solve(order: list[int], points: dict[int, float], hist: EventHistory, width: int) -> list[int]:
    vertex_count, edges, initial = matching_problem(order, points, hist, width)
    return max_weight_matching(vertex_count, edges, initial=initial)


def matching_problem(
    order: list[int], points: dict[int, float], hist: EventHistory, width: int
) -> tuple[int, list[tuple[int, int, int]], list[tuple[int, int]]]:
    """The weighted graph :func:`pair_swiss` solves (vertex ``i`` is ``order[i]``, vertex ``n``
    the bye): vertex count, ``(u, v, weight)`` edges and the zero-cost starting matching."""
    n = len(order)
    odd = n % 2 == 1
    bye_vertex = n
    steps = [round(points[p] * POINT_STEPS) for p in order]
    met = [hist.opponents(p) for p in order]
    byes = [len(hist.byes_of(p)) for p in order]
    fewest_byes = min(byes)

    # Each tier's unit exceeds the largest total of all lower tiers over one pairing: at most
    # n/2 tables of squared gaps, bye positions up to n - 1, further meetings at most those of
    # every pair that met more than once, at most n/2 repeated pairs.
    max_gap = max(steps) - min(steps)
    further = sum(sum(m.values()) - len(m) for m in met) // 2
    tier_bye_position = (n // 2 + 1) * max_gap * max_gap + 1
    tier_extra_meeting = tier_bye_position * (n + 1)
    tier_repeated_pair = tier_extra_meeting * (further + 1)
    tier_extra_bye = tier_repeated_pair * (n // 2 + 1)

    def pair_cost(i: int, j: int) -> int:
        gap = steps[i] - steps[j]
        k = met[i].get(order[j], 0)
        if k:
            return tier_repeated_pair + tier_extra_meeting * (k - 1) + gap * gap
        return gap * gap

    def bye_cost(i: int) -> int:
        return tier_extra_bye * (byes[i] - fewest_byes) + tier_bye_position * (n - 1 - i)

    costs: dict[tuple[int, int], int] = {}
    complete = width >= n
    for i in range(n):
        if complete:
            for j in range(i + 1, n):
                costs[(i, j)] = pair_cost(i, j)
            continue
        found = 0
        for j in range(i + 1, n):
            if found >= width:
                break
            if order[j] not in met[i]:
                costs[(i, j)] = pair_cost(i, j)
                found += 1
        if i + 1 < n:
            costs[(i, i + 1)] = pair_cost(i, i + 1)

    # Starting matching: the bye to the lowest player if eligible, then top half against bottom
    # half within each score group among players who have not met.
    initial: list[tuple[int, int]] = []
    pool = list(range(n))
    if odd:
        found = 0
        for i in range(n - 1, -1, -1):
            if complete or i == n - 1 or (byes[i] == fewest_byes and found < width):
                costs[(i, bye_vertex)] = bye_cost(i)
                found += byes[i] == fewest_byes
        if byes[n - 1] == fewest_byes:
            initial.append((n - 1, bye_vertex))
            pool.pop()
    for _, group_iter in groupby(pool, key=lambda i: steps[i]):
        group = list(group_iter)
        half = len(group) // 2
        top, bottom = group[:half], group[half:]
        used: set[int] = set()
        for k, i in enumerate(top):
            for offset in range(len(bottom)):
                j = bottom[(k + offset) % len(bottom)]
                if j not in used and order[j] not in met[i]:
                    used.add(j)
                    costs[(i, j)] = 0
                    initial.append((i, j))
                    break

    top_cost = max(costs.values())
    edges = [(i, j, top_cost + 1 - c) for (i, j), c in costs.items()]
    if min(costs.values()) != 0:
        initial = []
    return n + (1 if odd else 0), edges, initial


def minimum_repeats(players: Sequence[int], history: Sequence[Round] | EventHistory) -> int:
    """The fewest repeated pairs a two-player pairing of ``players`` can have.

    Every pairing uses ``n/2`` tables (with the bye as one when ``n`` is odd), and at most a
    maximum matching's worth of them can be pairs who never met, so the minimum is ``n/2`` minus
    the size of a maximum matching in the never-met graph. The bye may go to any player with the
    fewest byes so far (one who has not had one, if any), as :func:`pair_swiss` never gives a bye
    to anyone else.
    """
    hist = _as_history(history)
    n = len(players)
    vertices = n + (n % 2)
    met = [hist.opponents(p) for p in players]
    edges = [(i, j, 1) for i in range(n) for j in range(i + 1, n) if players[j] not in met[i]]
    if n % 2:
        byes = [len(hist.byes_of(p)) for p in players]
        fewest = min(byes)
        edges.extend((i, n, 1) for i in range(n) if byes[i] == fewest)
    # Greedy start: every edge has the same weight, so any matching is a valid warm start.
    mate = [-1] * vertices
    initial: list[tuple[int, int]] = []
    for i, j, _ in edges:
        if mate[i] == -1 and mate[j] == -1:
            mate[i], mate[j] = j, i
            initial.append((i, j))
    result = max_weight_matching(vertices, edges, initial=initial)
    matched = sum(1 for v in result if v != -1) // 2
    return vertices // 2 - matched
