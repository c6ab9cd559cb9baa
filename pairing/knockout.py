"""Knockouts: seeded two-player brackets, heats at tables of 3 to 6, and groups into a bracket.

Brackets use the standard seeding order: in a bracket of ``P`` (the next power of two), seed 1
meets seed ``P``, seed 2 meets ``P - 1``, and so on, placed so that seeds 1 and 2 can only meet in
the final, 1-4 in the semi-finals, etc. Missing seeds are byes, so byes go to the top seeds.

Heats seat players snake-wise by seed (1, 2, 3 across the tables, then back), the top ``advance``
of each table go through, and the qualifiers are re-seeded by place in their heat, then by their
previous seed.

Groups: players are split into balanced groups snake-wise by seed; after the group stage the top
``advance`` of each group enter a bracket, group winners seeded first (in group order), then
runners-up, and so on. In the first knockout round, players from the same group are kept apart
where possible: the lower-seeded side of each match is re-assigned among players of the same pot
(same group place) by a minimum-cost matching, changing as few positions as it can.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .history import Round
from .matching import max_weight_matching
from .tables import split_tables

__all__ = [
    "Match",
    "bracket_order",
    "first_round",
    "groups_to_bracket",
    "heat_qualifiers",
    "heat_round",
    "next_round",
    "seed_by_rating",
    "snake_groups",
]


@dataclass(frozen=True, slots=True)
class Match:
    """A knockout match; ``second`` is ``None`` when ``first`` has a bye."""

    first: int
    second: int | None

    @property
    def is_bye(self) -> bool:
        return self.second is None


def seed_by_rating(ratings: Mapping[int, float]) -> list[int]:
    """Players by rating, highest first; equal ratings keep the lower player id first."""
    return sorted(ratings, key=lambda p: (-ratings[p], p))


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket position order for a bracket of ``size`` (a power of two).

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket size must be a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def _bracket_size(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return size


def first_round(players_by_seed: Sequence[int]) -> tuple[Match, ...]:
    """First-round matches in bracket order; top seeds get the byes when the count is short.

    >>> [(m.first, m.second) for m in first_round([10, 20, 30, 40, 50, 60])]
    [(10, None), (40, 50), (20, None), (30, 60)]
    """
    if len(set(players_by_seed)) != len(players_by_seed):
        raise ValueError("a player is listed twice")
    count = len(players_by_seed)
    if count < 2:
        raise ValueError("a knockout needs at least 2 players")
    order = bracket_order(_bracket_size(count))
    matches: list[Match] = []
    for i in range(0, len(order), 2):
        a, b = sorted((order[i], order[i + 1]))
        first = players_by_seed[a - 1]
        second = players_by_seed[b - 1] if b <= count else None
        matches.append(Match(first, second))
    return tuple(matches)


def next_round(winners: Sequence[int]) -> tuple[Match, ...]:
    """The next round from the winners of the previous one, given in bracket order."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("the next round needs an even number of winners, at least 2")
    return tuple(Match(winners[i], winners[i + 1]) for i in range(0, len(winners), 2))


def _snake(players: Sequence[int], capacities: Sequence[int]) -> list[list[int]]:
    """Deal players to tables 1..T, then T..1, and so on, skipping full tables."""
    tables: list[list[int]] = [[] for _ in capacities]
    forward = True
    remaining = list(players)
    while remaining:
        indices = range(len(tables)) if forward else range(len(tables) - 1, -1, -1)
        for t in indices:
            if remaining and len(tables[t]) < capacities[t]:
                tables[t].append(remaining.pop(0))
        forward = not forward
    return tables


def snake_groups(players_by_seed: Sequence[int], group_count: int) -> tuple[tuple[int, ...], ...]:
    """Split into ``group_count`` groups whose sizes differ by at most one, snake-wise by seed.

    >>> snake_groups([1, 2, 3, 4, 5, 6, 7, 8], 3)
    ((1, 6, 7), (2, 5, 8), (3, 4))
    """
    if group_count < 1 or group_count > len(players_by_seed):
        raise ValueError("the number of groups must be between 1 and the number of players")
    n = len(players_by_seed)
    base, extra = divmod(n, group_count)
    capacities = [base + (1 if g < extra else 0) for g in range(group_count)]
    return tuple(tuple(g) for g in _snake(players_by_seed, capacities))


def heat_round(players_by_seed: Sequence[int], preferred: int, allowed: Iterable[int] | None = None) -> Round:
    """Seat one round of heats snake-wise by seed; within a table the best seed sits in seat 0."""
    if len(set(players_by_seed)) != len(players_by_seed):
        raise ValueError("a player is listed twice")
    sizes = split_tables(len(players_by_seed), preferred, allowed)
    return Round(tuple(tuple(t) for t in _snake(players_by_seed, sizes)))


def heat_qualifiers(
    heat: Round, places: Mapping[int, int], advance: int, players_by_seed: Sequence[int]
) -> list[int]:
    """The top ``advance`` of each table, ordered for the next round by place, then by seed.

    ``places`` gives each seated player's finishing place at their table (1 is best; equal
    places are ties). A tie across the cut is broken by seed (see Rulings in the package docs).
    """
    if advance < 1:
        raise ValueError("at least one player per table must go through")
    seed = {p: i for i, p in enumerate(players_by_seed)}
    chosen: list[tuple[int, int, int]] = []
    for table in heat.tables:
        missing = [p for p in table if p not in places]
        if missing:
            raise ValueError(f"no place given for player {missing[0]}")
        ranked = sorted(table, key=lambda p: (places[p], seed.get(p, len(seed))))
        for p in ranked[:advance]:
            chosen.append((places[p], seed.get(p, len(seed)), p))
    return [p for _, _, p in sorted(chosen)]


def groups_to_bracket(group_rankings: Sequence[Sequence[int]], advance: int) -> tuple[Match, ...]:
    """First knockout round from group results (each group's players best first).

    Qualifiers are seeded by group place, then group order; same-group first-round matches are
    avoided where possible by re-assigning the lower-seeded side within its pot.
    """
    if advance < 1:
        raise ValueError("at least one player per group must go through")
    for index, group in enumerate(group_rankings):
        if len(group) < advance:
            raise ValueError(f"group {index + 1} has fewer than {advance} players")
    group_of: dict[int, int] = {}
    pot_of: dict[int, int] = {}
    seeded: list[int] = []
    for place in range(advance):
        for g, group in enumerate(group_rankings):
            player = group[place]
            if player in group_of:
                raise ValueError(f"player {player} is in two groups")
            group_of[player] = g
            pot_of[player] = place
            seeded.append(player)
    matches = list(first_round(seeded))
    real = [i for i, m in enumerate(matches) if m.second is not None]
    lower = [m.second for m in matches if m.second is not None]
    if all(group_of[matches[i].first] != group_of[p] for i, p in zip(real, lower, strict=True)):
        return tuple(matches)
    # Re-assign the lower-seeded sides: vertices 0..k-1 are matches, k..2k-1 the players.
    k = len(real)
    clash, pot_change, moved = 1_000_000, 1_000, 1
    edges: list[tuple[int, int, int]] = []
    for a, i in enumerate(real):
        top = matches[i].first
        original = lower[a]
        for b, player in enumerate(lower):
            cost = clash * (group_of[player] == group_of[top])
            cost += pot_change * abs(pot_of[player] - pot_of[original]) + moved * (a != b)
            edges.append((a, k + b, 2 * clash - cost))
    mate = max_weight_matching(2 * k, edges)
    for a, i in enumerate(real):
        player = lower[mate[a] - k]
        matches[i] = Match(matches[i].first, player)
    return tuple(matches)
