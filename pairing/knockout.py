"""Knockouts: seeded two-player brackets, heats at tables of 3 to 6, and groups into a bracket.

Brackets use the standard seeding order: in a bracket of ``P`` (the next power of two), seed 1
meets seed ``P``, seed 2 meets ``P - 1``, and so on, placed so that seeds 1 and 2 can only meet in
the final, 1-4 in the semi-finals, etc. Missing seeds are byes, so byes go to the top seeds.
Each later round pairs the winners of neighbouring matches (:func:`bracket_next`); a slot left
empty (its player dropped out, or both players of a match did) gives the neighbour a walkover,
and the bracket keeps its shape, so the top half still meets the bottom half in the final.

Heats (:func:`heat_plan`) seat players snake-wise by seed (1, 2, 3 across the tables, then back),
the top ``advance`` of each table go through, and the qualifiers are re-seeded by place in their
heat, then by their previous seed. Rulings:

* The final: as soon as the players left fit at one table of the game (at most its largest
  table, 6 at most), they play one final table of whatever size that is: 16 players at tables
  of 4 with the top 2 through play 4 tables, then 2, then a final of 4; 24 play 6, 3, then a
  final of 6. The final's result decides the event (a tie for first there is a shared win:
  nobody has to go through).
* A count that does not divide follows the event's choice (:func:`pairing.tables.uneven_sizes`):
  shorter or longer tables, or byes; a bye in heats goes to the top seeds and goes through, as
  a bye does in a bracket (18 at tables of 4: the top 2 seeds through, 16 play).
* A table always sends at least one player out: a table of ``s`` sends ``min(advance, s - 1)``
  through (a shorter table of 3 with ``advance=3`` sends 2).
* A player who dropped out does not go through; the next player at their table takes the place.
* Too few for the next table: when the qualifiers would be fewer than the game's smallest table
  (2 of Black Spy, played by 3 to 6), the best-placed players who did not qualify fill it, by
  place at their table, then by seed (:func:`heat_qualifiers` with ``at_least``).

Groups: players are split into balanced groups snake-wise by seed; after the group stage the top
``advance`` of each group enter a bracket, group winners seeded first (in group order), then
runners-up, and so on (a pot for each group place). Within a pot the players are then placed so
that players of one group meet as late as the bracket allows, as the big sports draws do: first
as few pairs of group-mates as possible who could meet in the first round, then in the second,
and so on up to the final; among equally good draws, the one that moves players of the lowest
pots from their seeded positions rather than higher ones (runners-up before group winners), and
the fewest of them. Players only move within their pot and between positions with the same
bye, so the top seeds keep the byes and a group winner always meets a lower pot first. Twelve
players in three groups, two through: each group's winner and runner-up are in opposite halves,
so no semi-final repeats a group game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .history import Round
from .tables import DEFAULT_SEATS, MAX_TABLE, MIN_TABLE, TableSizeError, plan_tables

__all__ = [
    "HeatPlan",
    "Match",
    "bracket_next",
    "bracket_order",
    "first_round",
    "groups_to_bracket",
    "heat_plan",
    "heat_qualifiers",
    "heat_round",
    "heat_seeds",
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


def bracket_next(slots: Sequence[int | None]) -> tuple[Match | None, ...]:
    """The next round from the bracket's slots in order, ``None`` for a slot left empty.

    Neighbouring slots meet; a player whose neighbour's slot is empty has a walkover (a bye), and
    two empty slots give an empty slot (``None``) in the round after.

    >>> bracket_next([1, 4, None, 3, None, None, 5, 6])
    (Match(first=1, second=4), Match(first=3, second=None), None, Match(first=5, second=6))
    """
    if len(slots) < 2 or len(slots) % 2:
        raise ValueError("the next round needs an even number of slots, at least 2")
    present = [p for p in slots if p is not None]
    if len(set(present)) != len(present):
        raise ValueError("a player is listed twice")
    out: list[Match | None] = []
    for i in range(0, len(slots), 2):
        a, b = slots[i], slots[i + 1]
        if a is None and b is None:
            out.append(None)
        elif a is None or b is None:
            out.append(Match(a if a is not None else b, None))  # type: ignore[arg-type]
        else:
            out.append(Match(a, b))
    return tuple(out)


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


def heat_round(
    players_by_seed: Sequence[int],
    preferred: int,
    allowed: Iterable[int] | None = None,
    *,
    max_byes: int | None = 0,
) -> Round:
    """Seat one round of heats snake-wise by seed; within a table the best seed sits in seat 0.

    When the sizes need byes (``max_byes`` allows them), the top seeds have them and go through.
    """
    if len(set(players_by_seed)) != len(players_by_seed):
        raise ValueError("a player is listed twice")
    plan = plan_tables(len(players_by_seed), preferred, allowed, max_byes=max_byes)
    byes, seated = players_by_seed[: plan.byes], players_by_seed[plan.byes :]
    return Round(tuple(tuple(t) for t in _snake(seated, plan.sizes)), tuple(byes))


def heat_seeds(heat: Round) -> list[int]:
    """The seed order a round of heats was seated from: its byes first, then the snake undone.

    >>> heat_seeds(heat_round(list(range(1, 11)), 4, (3, 4)))
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    """
    tables = [list(t) for t in heat.tables]
    taken = [0] * len(tables)
    order = list(heat.byes)
    forward = True
    left = sum(len(t) for t in tables)
    while left:
        indices = range(len(tables)) if forward else range(len(tables) - 1, -1, -1)
        for t in indices:
            if taken[t] < len(tables[t]):
                order.append(tables[t][taken[t]])
                taken[t] += 1
                left -= 1
        forward = not forward
    return order


@dataclass(frozen=True, slots=True)
class HeatPlan:
    """One round of heats, and whether it is the final (one table that decides the event)."""

    round: Round
    final: bool


def heat_plan(
    players_by_seed: Sequence[int],
    preferred: int,
    allowed: Iterable[int] | None = None,
    *,
    max_byes: int | None = 0,
    seats: range = DEFAULT_SEATS,
) -> HeatPlan:
    """The next round of heats: the final when everyone fits at one table of the game (``seats``,
    its range of players), else heats as :func:`heat_round` seats them.

    >>> heat_plan(list(range(1, 7)), 4, seats=range(3, 7))
    HeatPlan(round=Round(tables=((1, 2, 3, 4, 5, 6),), byes=()), final=True)
    >>> heat_plan(list(range(1, 9)), 4, seats=range(3, 7)).round.tables
    ((1, 4, 5, 8), (2, 3, 6, 7))
    """
    if len(set(players_by_seed)) != len(players_by_seed):
        raise ValueError("a player is listed twice")
    smallest = max(MIN_TABLE, seats.start)
    largest = min(MAX_TABLE, seats.stop - 1)
    count = len(players_by_seed)
    if count < smallest:
        players = f"{count} player{'s' if count != 1 else ''}"
        raise TableSizeError(f"{players} cannot fill a table: the game needs at least {smallest}")
    if count <= largest:
        return HeatPlan(Round((tuple(players_by_seed),)), True)
    return HeatPlan(heat_round(players_by_seed, preferred, allowed, max_byes=max_byes), False)


def heat_qualifiers(
    heat: Round,
    places: Mapping[int, int],
    advance: int,
    players_by_seed: Sequence[int],
    *,
    at_least: int = 0,
    absent: Iterable[int] = (),
) -> list[int]:
    """Who goes through from a round of heats, ordered for the next round by place, then by seed.

    ``places`` gives each seated player's finishing place at their table (1 is best; equal
    places are ties). A table of ``s`` sends its best ``min(advance, s - 1)`` players who are
    not ``absent`` (dropped out); a tie across the cut is broken by seed (see Rulings in the
    package docs). Players with a bye go through as if first. When that makes fewer than
    ``at_least`` players, the best-placed others who are not absent fill up to it, by place,
    then by seed.
    """
    if advance < 1:
        raise ValueError("at least one player per table must go through")
    seed = {p: i for i, p in enumerate(players_by_seed)}
    gone = set(absent)

    def key(p: int) -> tuple[int, int, int]:
        return (places[p], seed.get(p, len(seed)), p)

    chosen: list[int] = []
    others: list[int] = []
    for table in heat.tables:
        missing = [p for p in table if p not in places]
        if missing:
            raise ValueError(f"no place given for player {missing[0]}")
        ranked = sorted((p for p in table if p not in gone), key=key)
        through = min(advance, len(table) - 1)
        chosen += ranked[:through]
        others += ranked[through:]
    byes = [p for p in heat.byes if p not in gone]
    if len(chosen) + len(byes) < at_least:
        others.sort(key=key)
        chosen += others[: at_least - len(chosen) - len(byes)]
    order = {p: key(p) for p in chosen} | {p: (1, seed.get(p, len(seed)), p) for p in byes}
    return sorted(order, key=order.__getitem__)


def groups_to_bracket(group_rankings: Sequence[Sequence[int]], advance: int) -> tuple[Match, ...]:
    """First knockout round from group results (each group's players best first).

    The top ``advance`` of each group go through (all of a group with fewer). They are seeded by
    group place, then group order, and then placed within their pot so that group-mates meet as
    late as the bracket allows (see the module docs).
    """
    if advance < 1:
        raise ValueError("at least one player per group must go through")
    group_of: dict[int, int] = {}
    pot_of: dict[int, int] = {}
    seeded: list[int] = []
    for place in range(advance):
        for g, group in enumerate(group_rankings):
            if place >= len(group):
                continue
            player = group[place]
            if player in group_of:
                raise ValueError(f"player {player} is in two groups")
            group_of[player] = g
            pot_of[player] = place
            seeded.append(player)
    count = len(seeded)
    if count < 2:
        raise ValueError("a knockout needs at least 2 players")
    order = bracket_order(_bracket_size(count))
    # The bracket's positions: the player in each (None: a bye's empty side), as seeded.
    slots: list[int | None] = [seeded[s - 1] if s <= count else None for s in order]
    seeded_at = {p: i for i, p in enumerate(slots) if p is not None}
    # Positions that may trade players: same pot, and a bye for both or neither.
    classes: dict[tuple[int, bool], list[int]] = {}
    for i, p in enumerate(slots):
        if p is not None:
            classes.setdefault((pot_of[p], slots[i ^ 1] is None), []).append(i)
    weight = {p: (count + 1) ** (advance - 1 - pot_of[p]) for p in seeded}  # moving a higher pot costs more
    _separate_groups(slots, group_of, seeded_at, weight, [c for c in classes.values() if len(c) > 1])
    matches: list[Match] = []
    for i in range(0, len(order), 2):
        top, low = (i, i + 1) if order[i] < order[i + 1] else (i + 1, i)
        first = slots[top]
        assert first is not None  # the better seed of a pair is always there
        matches.append(Match(first, slots[low]))
    return tuple(matches)


def _separate_groups(
    slots: list[int | None],
    group_of: Mapping[int, int],
    seeded_at: Mapping[int, int],
    move_cost: Mapping[int, int],
    classes: Sequence[Sequence[int]],
) -> None:
    """Swap players within ``classes`` (lists of positions) so that group-mates meet as late as
    possible: steepest descent on (group-mate meetings by round, earliest first; the cost of the
    players moved from their seeded positions)."""
    levels = max(1, (len(slots) - 1).bit_length())
    members: dict[int, set[int]] = {}  # group -> positions of its players
    for i, p in enumerate(slots):
        if p is not None:
            members.setdefault(group_of[p], set()).add(i)
    pairs = sum(len(v) * (len(v) - 1) // 2 for v in members.values())
    if pairs == 0:
        return
    # A meeting in round r weighs more than all meetings in later rounds together.
    weights = [0] + [(pairs + 1) ** (levels - r) for r in range(1, levels + 1)]

    def pull(group: int, at: int, skip: int) -> int:
        """The weight of a player of ``group`` at position ``at`` against the group's others."""
        return sum(weights[(at ^ k).bit_length()] for k in members[group] if k != skip)

    def gain(i: int, j: int) -> tuple[int, int]:
        """How much swapping positions i and j (players of two groups) lowers the cost."""
        a, b = slots[i], slots[j]
        assert a is not None and b is not None
        ga, gb = group_of[a], group_of[b]
        early = pull(ga, i, i) - pull(ga, j, i) + pull(gb, j, j) - pull(gb, i, j)
        moved = move_cost[a] * ((seeded_at[a] != i) - (seeded_at[a] != j))
        moved += move_cost[b] * ((seeded_at[b] != j) - (seeded_at[b] != i))
        return early, moved

    while True:
        choice: tuple[tuple[int, int], int, int] | None = None
        for positions in classes:
            for x in range(len(positions)):
                for y in range(x + 1, len(positions)):
                    i, j = positions[x], positions[y]
                    a, b = slots[i], slots[j]
                    if a is None or b is None or group_of[a] == group_of[b]:
                        continue
                    better = gain(i, j)
                    if better > (0, 0) and (choice is None or better > choice[0]):
                        choice = (better, i, j)
        if choice is None:
            return
        _, i, j = choice
        a, b = slots[i], slots[j]
        assert a is not None and b is not None
        members[group_of[a]] ^= {i, j}
        members[group_of[b]] ^= {i, j}
        slots[i], slots[j] = b, a
