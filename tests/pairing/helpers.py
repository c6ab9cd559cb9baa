"""Small brute-force references and event simulators shared by the pairing tests."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from itertools import combinations

from pairing import EventHistory, PlayerStanding, Round


def random_history(players: Sequence[int], rounds: int, table: int, rng: random.Random) -> list[Round]:
    """Random earlier rounds at tables of ``table`` (the last table takes the rest)."""
    history: list[Round] = []
    for _ in range(rounds):
        order = list(players)
        rng.shuffle(order)
        tables = [tuple(order[i : i + table]) for i in range(0, len(order), table)]
        byes: tuple[int, ...] = ()
        if len(tables[-1]) < 2:
            byes = tables.pop()
        history.append(Round(tuple(tables), byes))
    return history


def standings_of(points: dict[int, float]) -> list[PlayerStanding]:
    return [PlayerStanding(p, points[p]) for p in sorted(points, key=lambda p: (-points[p], p))]


def perfect_matchings(vertices: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not vertices:
        yield []
        return
    first, rest = vertices[0], vertices[1:]
    for k, other in enumerate(rest):
        for tail in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def partitions(players: list[int], sizes: list[int]) -> Iterator[list[tuple[int, ...]]]:
    """Every split of ``players`` into unordered tables of the given sizes."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in mates]
            for tail in partitions(remaining, left):
                yield [(first, *mates), *tail]


def repeats_of(tables: Sequence[Sequence[int]], history: EventHistory) -> int:
    return sum(1 for t in tables for a, b in combinations(t, 2) if history.times_met(a, b))
