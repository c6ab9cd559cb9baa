"""Standings with tiebreaks in the organiser's order.

Input is per round: each table's results (player, place, game score, and optionally the tournament
points if the organiser set them by hand) and the players on a bye. Tournament points come from a
:class:`PointsScheme` by finishing place and table size; the defaults are

==========  =====================  ==========================================
table size  points by place        ties
==========  =====================  ==========================================
2           3 / 0                  a draw (both tied) scores 1 each
3           3 / 1 / 0              tied players share the points of the
4           4 / 2 / 1 / 0          places they cover equally (two tied for
5           5 / 3 / 2 / 1 / 0      2nd at a table of 4 get (2 + 1) / 2 = 1.5)
6           6 / 4 / 3 / 2 / 1 / 0
==========  =====================  ==========================================

(the winner gets one point per seat, the others count down from ``size - 2``; at 2 seats a win is
3 and a draw 1, as in most club leagues). Byes score by a :class:`ByeScoring` rule.

Tiebreaks (:data:`Tiebreak`), applied in the order given:

* ``tournament_points``: total tournament points, byes included.
* ``game_points``: total game score; with ``lowest_wins`` (Black Spy, Spy vs Spy) lower is better.
* ``opponents_average``: the average, over every opponent faced (each table counts every other
  player at it, once per meeting), of that opponent's tournament points: Buchholz for tables of
  any size.
* ``wins``: number of games finished alone in first place.
* ``head_to_head``: among the players still tied at this point, each meeting with another of them
  scores +1 to whoever placed better and -1 to the other; higher total is better.

Players tied on every tiebreak share a rank (1, 2, 2, 4) and are listed by player id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .tables import MAX_TABLE, MIN_TABLE

__all__ = [
    "DEFAULT_POINTS",
    "ByeScoring",
    "PointsScheme",
    "RoundResult",
    "SeatResult",
    "StandingsRow",
    "TableResult",
    "Tiebreak",
    "compute_standings",
]

Tiebreak = Literal["tournament_points", "game_points", "opponents_average", "wins", "head_to_head"]
TIEBREAKS: tuple[Tiebreak, ...] = (
    "tournament_points",
    "game_points",
    "opponents_average",
    "wins",
    "head_to_head",
)


def _default_points(size: int) -> tuple[float, ...]:
    """A win 3 of 0 at tables of 2; at a table of n, the winner n, then n - 2, n - 3 ... 0."""
    if size == 2:
        return (3.0, 0.0)
    return (float(size), *(float(p) for p in range(size - 2, -1, -1)))


# Tournament points by place, by table size: 3: 3 1 0, 4: 4 2 1 0, 5: 5 3 2 1 0, 6: 6 4 3 2 1 0, and
# so on for the larger tables of Spy vs Spy.
DEFAULT_POINTS: dict[int, tuple[float, ...]] = {
    n: _default_points(n) for n in range(MIN_TABLE, MAX_TABLE + 1)
}


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One player's result at a table: ``place`` 1 is best and equal places are ties."""

    player: int
    place: int
    game_score: float = 0.0
    tournament_points: float | None = None  # None: from the points scheme


@dataclass(frozen=True, slots=True)
class TableResult:
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    tables: tuple[TableResult, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PointsScheme:
    """Tournament points by place for each table size, and for an all-way tie (a draw)."""

    by_size: Mapping[int, tuple[float, ...]] = field(default_factory=lambda: dict(DEFAULT_POINTS))
    all_tied: Mapping[int, float] = field(default_factory=lambda: {2: 1.0})

    def table_points(self, places: Sequence[int]) -> list[float]:
        """Points for each seat of one table, given the seats' places (ties share)."""
        size = len(places)
        if size not in self.by_size:
            raise ValueError(f"no tournament points are set for tables of {size}")
        scale = self.by_size[size]
        if len(scale) != size:
            raise ValueError(f"the points for tables of {size} must list {size} places")
        if size > 1 and len(set(places)) == 1 and size in self.all_tied:
            return [self.all_tied[size]] * size
        ranked = sorted(range(size), key=lambda i: places[i])
        points = [0.0] * size
        start = 0
        while start < size:
            end = start
            while end + 1 < size and places[ranked[end + 1]] == places[ranked[start]]:
                end += 1
            share = sum(scale[start : end + 1]) / (end - start + 1)
            for k in range(start, end + 1):
                points[ranked[k]] = share
            start = end + 1
        return points

    def win(self, size: int) -> float:
        return self.table_points([1] + [2] * (size - 1))[0]

    def draw(self, size: int) -> float:
        return self.table_points([1] * size)[0]


@dataclass(frozen=True, slots=True)
class ByeScoring:
    """How a bye scores.

    ``rule``: ``"win"`` (points for a sole first place at a table of ``table_size``), ``"draw"``
    (points for an all-way tie there), ``"average"`` (the player's own average tournament points
    per game played in the event; 0 before any game) or ``"fixed"`` (``fixed_points``).
    ``game_points``: ``"average"`` (the player's average game score per game) or ``"zero"``.
    A bye is never a win and brings no opponent.
    """

    rule: Literal["win", "draw", "average", "fixed"] = "win"
    table_size: int = 2
    fixed_points: float = 0.0
    game_points: Literal["average", "zero"] = "average"


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One line of the standings. ``tiebreaks`` holds each chosen tiebreak's value, in order."""

    rank: int
    player: int
    points: float
    game_points: float
    opponents_average: float
    wins: int
    games: int
    byes: int
    tiebreaks: tuple[tuple[Tiebreak, float], ...]


@dataclass
class _Tally:
    points: float = 0.0
    game_points: float = 0.0
    played_points: float = 0.0
    wins: int = 0
    games: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    # other player -> list of +1 (placed better), -1 (worse), 0 (tie)
    against: dict[int, list[int]] = field(default_factory=dict)


def compute_standings(
    rounds: Iterable[RoundResult],
    *,
    tiebreaks: Sequence[Tiebreak] = ("tournament_points", "opponents_average", "game_points", "wins"),
    points: PointsScheme | None = None,
    bye: ByeScoring | None = None,
    lowest_wins: bool = False,
    players: Iterable[int] = (),
) -> tuple[StandingsRow, ...]:
    """Standings after ``rounds``; ``players`` adds entrants who have no result yet."""
    scheme = points or PointsScheme()
    bye_rule = bye or ByeScoring()
    for tb in tiebreaks:
        if tb not in TIEBREAKS:
            raise ValueError(f"unknown tiebreak {tb!r}; choose from {', '.join(TIEBREAKS)}")
    tallies: dict[int, _Tally] = {p: _Tally() for p in players}
    bye_rounds: list[int] = []
    for rnd in rounds:
        for table in rnd.tables:
            seats = table.seats
            ids = [s.player for s in seats]
            if len(set(ids)) != len(ids):
                raise ValueError("a player appears twice at one table")
            computed = scheme.table_points([s.place for s in seats])
            firsts = sum(1 for s in seats if s.place == min(x.place for x in seats))
            for seat, auto in zip(seats, computed, strict=True):
                tally = tallies.setdefault(seat.player, _Tally())
                tp = auto if seat.tournament_points is None else seat.tournament_points
                tally.points += tp
                tally.played_points += tp
                tally.game_points += seat.game_score
                tally.games += 1
                if seat.place == min(x.place for x in seats) and firsts == 1:
                    tally.wins += 1
                for other in seats:
                    if other.player == seat.player:
                        continue
                    tally.opponents.append(other.player)
                    outcome = (other.place > seat.place) - (other.place < seat.place)
                    tally.against.setdefault(other.player, []).append(outcome)
        for player in rnd.byes:
            tallies.setdefault(player, _Tally()).byes += 1
            bye_rounds.append(player)
    # Byes are scored once every game is known (the "average" rules need the whole event).
    for player in bye_rounds:
        tally = tallies[player]
        average_tp = tally.played_points / tally.games if tally.games else 0.0
        if bye_rule.rule == "win":
            tally.points += scheme.win(bye_rule.table_size)
        elif bye_rule.rule == "draw":
            tally.points += scheme.draw(bye_rule.table_size)
        elif bye_rule.rule == "average":
            tally.points += average_tp
        else:
            tally.points += bye_rule.fixed_points
    bye_game: dict[int, float] = {}
    for player in bye_rounds:
        tally = tallies[player]
        if bye_rule.game_points == "average" and tally.games:
            bye_game[player] = bye_game.get(player, 0.0) + tally.game_points / tally.games
    for player, extra in bye_game.items():
        tallies[player].game_points += extra

    def opp_average(player: int) -> float:
        opponents = tallies[player].opponents
        return sum(tallies[o].points for o in opponents) / len(opponents) if opponents else 0.0

    averages = {p: opp_average(p) for p in tallies}

    def value(player: int, tb: Tiebreak, group: set[int]) -> float:
        tally = tallies[player]
        if tb == "tournament_points":
            return tally.points
        if tb == "game_points":
            return -tally.game_points if lowest_wins else tally.game_points
        if tb == "opponents_average":
            return averages[player]
        if tb == "wins":
            return float(tally.wins)
        return float(sum(sum(tally.against.get(o, ())) for o in group if o != player))

    groups: list[list[int]] = [sorted(tallies)]
    shown: dict[int, list[tuple[Tiebreak, float]]] = {p: [] for p in tallies}
    for tb in tiebreaks:
        refined: list[list[int]] = []
        for group in groups:
            members = set(group)
            values = {p: value(p, tb, members) for p in group}
            for p in group:
                shown_value = -values[p] if tb == "game_points" and lowest_wins else values[p]
                shown[p].append((tb, shown_value))
            if len(group) == 1:
                refined.append(group)
                continue
            ordered = sorted(group, key=lambda p: (-round(values[p], 9), p))
            current = [ordered[0]]
            for p in ordered[1:]:
                if round(values[p], 9) == round(values[current[0]], 9):
                    current.append(p)
                else:
                    refined.append(current)
                    current = [p]
            refined.append(current)
        groups = refined

    rows: list[StandingsRow] = []
    position = 1
    for group in groups:
        for p in group:
            t = tallies[p]
            rows.append(
                StandingsRow(
                    rank=position,
                    player=p,
                    points=t.points,
                    game_points=t.game_points,
                    opponents_average=averages[p],
                    wins=t.wins,
                    games=t.games,
                    byes=t.byes,
                    tiebreaks=tuple(shown[p]),
                )
            )
        position += len(group)
    return tuple(rows)
