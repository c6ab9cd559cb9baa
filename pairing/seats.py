"""Seat order within a table: who sits in seat 0 (deals or starts), seat 1, and so on."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

from .history import EventHistory

__all__ = ["seat_order"]


def _count(history: EventHistory, player: int, seat: int) -> int:
    counts = history.seat_counts(player)
    return counts[seat] if seat < len(counts) else 0


def seat_order(table: Sequence[int], history: EventHistory, rng: random.Random) -> tuple[int, ...]:
    """Order one table's players so that seat positions rotate fairly.

    Seat 0 goes to the player who has sat there least often (then to one who was not in seat 0 in
    their last game); the other seats are filled so that the total of "times already in this seat"
    is as small as possible. Remaining ties are broken by ``rng``, so the order is fixed by the
    seed the caller used to make ``rng``.
    """
    players = list(table)
    if len(players) <= 1:
        return tuple(players)
    first_keys = {p: (_count(history, p, 0), 1 if history.last_seat(p) == 0 else 0) for p in players}
    lowest = min(first_keys.values())
    candidates = [p for p in players if first_keys[p] == lowest]
    first = candidates[0] if len(candidates) == 1 else rng.choice(candidates)
    rest = [p for p in players if p != first]
    best_cost: int | None = None
    best: list[tuple[int, ...]] = []
    for perm in permutations(rest):
        cost = 0
        for seat, player in enumerate(perm, start=1):
            cost += _count(history, player, seat)
        if best_cost is None or cost < best_cost:
            best_cost = cost
            best = [perm]
        elif cost == best_cost:
            best.append(perm)
    chosen = best[0] if len(best) == 1 else rng.choice(best)
    return (first, *chosen)
