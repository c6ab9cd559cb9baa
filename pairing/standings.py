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

An event played at tables of one size that also seats some tables one seat shorter or longer
scores those by :func:`balanced_scheme`: their usual points scaled so that a seat's average is the
same at every size (an event of 5s pays 5 3 2 1 0, an average of 2.2 a seat; its tables of 4 pay
5.03 2.51 1.26 0, an average of 2.2 too), so the points a seat can expect do not depend on the
table it was given.

A bye brings the points of its :class:`ByeScoring` rule and, as its game score, the average game
score of the players seated in that round (0 while none of that round's results is in). It is the
same rule in every round and for every game, whether the highest or the lowest score wins: a player
on a bye scores like the round's average player, never like its best one.

Tiebreaks (:data:`Tiebreak`), applied in the order given:

* ``tournament_points``: total tournament points, byes included.
* ``game_points``: total game score, byes included as above; with ``lowest_wins`` (Black Spy,
  Spy vs Spy) lower is better.
* ``opponents_average``: the average, over every opponent faced (each table counts every other
  player at it, once per meeting), of that opponent's tournament points: Buchholz for tables of
  any size.
* ``buchholz_cut1``: Buchholz with the weakest round left out. Each round played is worth the
  average tournament points of the opponents at that table; they are added up, and the lowest
  round is left out. A round not played (a bye) is worth nothing and is the one left out.
* ``sonneborn_berger``: the tournament points of every opponent beaten, plus half those of every
  opponent tied with. At a table of any size an opponent is beaten when they placed below you
  there, and tied when you shared a place.
* ``wins``: number of games finished alone in first place.
* ``head_to_head``: among the players still tied at this point, each meeting with another of them
  scores +1 to whoever placed better and -1 to the other; higher total is better.

Players tied on every tiebreak share a rank (1, 2, 2, 4) and are listed by player id.

The pieces :func:`compute_standings` is made of (:func:`table_meetings`, :func:`round_average`,
:func:`own_figures`, :func:`opponent_figures` and :func:`rank_figures`) are public so that a caller
keeping stored standings can work out a few players again with exactly the same arithmetic. Sums
are :func:`math.fsum`, which does not depend on the order of what it adds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import fsum
from typing import Literal, get_args

from .tables import MAX_TABLE, MIN_TABLE

__all__ = [
    "DEFAULT_POINTS",
    "TIEBREAKS",
    "ByeScoring",
    "Figures",
    "Meeting",
    "PointsScheme",
    "RoundResult",
    "SeatResult",
    "StandingsRow",
    "TableResult",
    "Tiebreak",
    "balanced_points",
    "balanced_scheme",
    "compute_standings",
    "head_to_head",
    "opponent_figures",
    "own_figures",
    "prefix_key",
    "rank_figures",
    "round_average",
    "shown_tiebreaks",
    "table_meetings",
    "tiebreak_value",
]

Tiebreak = Literal[
    "tournament_points",
    "game_points",
    "opponents_average",
    "wins",
    "head_to_head",
    "buchholz_cut1",
    "sonneborn_berger",
]
TIEBREAKS: tuple[Tiebreak, ...] = get_args(Tiebreak)


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


def balanced_points(points: Sequence[float], size: int) -> tuple[float, ...]:
    """Points by place at a table of ``size`` that pay a seat on average what ``points`` (the
    scale of a table of ``len(points)``) pays: the default scale for ``size`` (see
    :data:`DEFAULT_POINTS`), scaled, in hundredths, any rounding left with first place (a scale
    whose average is 0 or less keeps its spread about that average instead).

    >>> balanced_points((5, 3, 2, 1, 0), 4)
    (5.03, 2.51, 1.26, 0.0)
    >>> balanced_points((4, 2, 1, 0), 3)
    (3.94, 1.31, 0.0)
    """
    if len(points) == size:
        return tuple(float(p) for p in points)
    if not points:
        raise ValueError("a scale of points needs at least one place")
    mean = fsum(points) / len(points)
    total = mean * size  # what a table of ``size`` pays in all
    base = DEFAULT_POINTS[size]
    if total > 0:
        scaled = [p * total / fsum(base) for p in base]
    else:  # a scale that pays nothing or less on average: its spread about that mean
        spread = (max(points) - min(points)) / (base[0] - base[-1])
        base_mean = fsum(base) / size
        scaled = [mean + (p - base_mean) * spread for p in base]
    cents = [round(p * 100) for p in scaled]
    cents[0] += round(total * 100) - sum(cents)
    return tuple(c / 100 for c in cents)


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


def balanced_scheme(table_size: int, points: Sequence[float] | None = None) -> PointsScheme:
    """The points of an event played at tables of ``table_size``: ``points`` (default: that
    size's :data:`DEFAULT_POINTS`) there, and at every other size the :func:`balanced_points`
    that pay a seat the same on average. A draw at 2 seats scores 1 each only where 2 is the
    event's own table size with its default points (elsewhere tied players share, as at
    every other size)."""
    return _balanced_scheme(table_size, None if points is None else tuple(float(p) for p in points))


@functools.lru_cache(maxsize=256)
def _balanced_scheme(table_size: int, points: tuple[float, ...] | None) -> PointsScheme:
    """``balanced_scheme``, worked out once for each size and points (a scheme is not changed)."""
    base = tuple(float(p) for p in points) if points else DEFAULT_POINTS[table_size]
    if len(base) != table_size:
        raise ValueError(f"the points for tables of {table_size} must list {table_size} places")
    by_size = {n: balanced_points(base, n) for n in DEFAULT_POINTS}
    all_tied = {2: 1.0} if table_size == 2 and base == DEFAULT_POINTS[2] else {}
    return PointsScheme(by_size=by_size, all_tied=all_tied)


@dataclass(frozen=True, slots=True)
class ByeScoring:
    """How a bye scores.

    ``rule``: ``"win"`` (points for a sole first place at a table of ``table_size``), ``"draw"``
    (points for an all-way tie there), ``"average"`` (the player's own average tournament points
    per game played in the event; 0 before any game) or ``"fixed"`` (``fixed_points``).
    ``game_points``: ``"round_average"`` (the average game score of the players seated in the
    bye's round) or ``"zero"``. A bye is never a win and brings no opponent.
    """

    rule: Literal["win", "draw", "average", "fixed"] = "win"
    table_size: int = 2
    fixed_points: float = 0.0
    game_points: Literal["round_average", "zero"] = "round_average"


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
    sonneborn_berger: float = 0.0
    buchholz_cut1: float = 0.0
    head_to_head: float | None = None  # None: not among the tiebreaks


@dataclass(frozen=True, slots=True)
class Meeting:
    """One counted table as one of its players had it: their place, game score, tournament
    points and whether it was a win (alone in first place), and each opponent with their place."""

    place: int
    score: float
    points: float
    won: bool
    opponents: tuple[tuple[int, int], ...]


@dataclass(slots=True)
class Figures:
    """One player's figures: their own (from their tables and byes), then those that depend on
    the opponents' points (:func:`opponent_figures`)."""

    points: float = 0.0
    game_points: float = 0.0
    wins: int = 0
    games: int = 0
    byes: int = 0
    opponents_average: float = 0.0
    sonneborn_berger: float = 0.0
    buchholz_cut1: float = 0.0


def table_meetings(table: TableResult, scheme: PointsScheme) -> list[tuple[int, Meeting]]:
    """Each seat of a table as ``(player, Meeting)``, in seat order."""
    seats = table.seats
    ids = [s.player for s in seats]
    if len(set(ids)) != len(ids):
        raise ValueError("a player appears twice at one table")
    computed = scheme.table_points([s.place for s in seats])
    best = min((s.place for s in seats), default=0)
    firsts = sum(1 for s in seats if s.place == best)
    out = []
    for seat, auto in zip(seats, computed, strict=True):
        out.append(
            (
                seat.player,
                Meeting(
                    place=seat.place,
                    score=seat.game_score,
                    points=auto if seat.tournament_points is None else seat.tournament_points,
                    won=seat.place == best and firsts == 1,
                    opponents=tuple((o.player, o.place) for o in seats if o.player != seat.player),
                ),
            )
        )
    return out


def round_average(tables: Iterable[TableResult]) -> float:
    """The average game score of the players seated at ``tables`` (a round's counted tables):
    the game score of that round's byes. 0 while there are none."""
    scores = [s.game_score for t in tables for s in t.seats]
    return fsum(scores) / len(scores) if scores else 0.0


def own_figures(
    meetings: Sequence[Meeting], bye_games: Sequence[float], scheme: PointsScheme, bye: ByeScoring
) -> Figures:
    """A player's own figures from their counted tables and their byes (``bye_games``: the game
    score each bye brings, its round's :func:`round_average`)."""
    games = len(meetings)
    if bye.rule == "win":
        per_bye = scheme.win(bye.table_size)
    elif bye.rule == "draw":
        per_bye = scheme.draw(bye.table_size)
    elif bye.rule == "average":
        per_bye = fsum(m.points for m in meetings) / games if games else 0.0
    else:
        per_bye = bye.fixed_points
    bye_scores = bye_games if bye.game_points == "round_average" else ()
    return Figures(
        points=fsum([*(m.points for m in meetings), *([per_bye] * len(bye_games))]),
        game_points=fsum([*(m.score for m in meetings), *bye_scores]),
        wins=sum(1 for m in meetings if m.won),
        games=games,
        byes=len(bye_games),
    )


def opponent_figures(figures: Figures, meetings: Sequence[Meeting], points: Mapping[int, float]) -> None:
    """Set the figures that depend on the opponents' tournament points (``points``, by player):
    the opponents' average, Buchholz cut 1 and Sonneborn-Berger (see the module docstring)."""
    met = [points[o] for m in meetings for o, _ in m.opponents]
    figures.opponents_average = fsum(met) / len(met) if met else 0.0
    figures.sonneborn_berger = fsum(
        points[o] * (1.0 if m.place < theirs else 0.5)
        for m in meetings
        for o, theirs in m.opponents
        if m.place <= theirs
    )
    rounds = sorted(
        fsum(points[o] for o, _ in m.opponents) / len(m.opponents) for m in meetings if m.opponents
    )
    figures.buchholz_cut1 = fsum(rounds if figures.byes else rounds[1:])


def tiebreak_value(figures: Figures, tb: Tiebreak, lowest_wins: bool) -> float:
    """A tiebreak's value from a player's figures (any tiebreak but head to head); higher is
    better, so game points count against a player when the lowest score wins."""
    if tb == "game_points":
        return -figures.game_points if lowest_wins else figures.game_points
    if tb == "tournament_points":
        return figures.points
    if tb == "head_to_head":
        raise ValueError("head to head depends on who else is tied")
    return float(getattr(figures, tb))


Against = Callable[[Collection[int]], Mapping[int, Mapping[int, Sequence[int]]]]


def rank_figures(
    figures: Mapping[int, Figures], *, tiebreaks: Sequence[Tiebreak], lowest_wins: bool, against: Against
) -> tuple[dict[int, int], dict[Tiebreak, dict[int, float]], dict[Tiebreak, dict[int, float]]]:
    """Each player's rank, each tiebreak's value by player (higher is better), and those values
    rounded to the 9 decimals they are compared to: tiebreaks in order, players tied on all of
    them share a rank. Head to head counts the meetings within the group still tied when it
    comes: ``against(players)`` gives each of those players' outcomes against each opponent
    (+1 placed better, -1 worse, 0 tied); it is asked once, and only if some are tied."""
    for tb in tiebreaks:
        if tb not in TIEBREAKS:
            raise ValueError(f"unknown tiebreak {tb!r}; choose from {', '.join(TIEBREAKS)}")
    players = list(figures)
    values: dict[Tiebreak, dict[int, float]] = {
        tb: {p: tiebreak_value(f, tb, lowest_wins) for p, f in figures.items()}
        for tb in tiebreaks
        if tb != "head_to_head"
    }
    rounded: dict[Tiebreak, dict[int, float]] = {
        tb: {p: round(v, 9) for p, v in column.items()} for tb, column in values.items()
    }
    if "head_to_head" in tiebreaks:
        before = tiebreaks[: tiebreaks.index("head_to_head")]
        groups: dict[tuple[float, ...], list[int]] = {}
        for p in players:
            groups.setdefault(tuple(rounded[tb][p] for tb in before), []).append(p)
        tied = [p for group in groups.values() if len(group) > 1 for p in group]
        met = against(tied) if tied else {}
        h2h: dict[int, float] = {}
        for group in groups.values():
            members = set(group)
            for p in group:
                h2h[p] = head_to_head(p, met.get(p, {}), members) if len(group) > 1 else 0.0
        values["head_to_head"] = h2h
        rounded["head_to_head"] = {p: round(v, 9) for p, v in h2h.items()}
    key = {p: tuple(-rounded[tb][p] for tb in tiebreaks) for p in players}
    order = sorted(players, key=lambda p: (key[p], p))
    ranks: dict[int, int] = {}
    position = 1
    for index, p in enumerate(order):
        if index and key[p] != key[order[index - 1]]:
            position = index + 1
        ranks[p] = position
    return ranks, values, rounded


def prefix_key(figures: Figures, tiebreaks: Sequence[Tiebreak], lowest_wins: bool) -> tuple[float, ...]:
    """A player's values of the tiebreaks before head to head, rounded as they are compared: the
    players with the same key are the group head to head is counted in."""
    before = tiebreaks[: tiebreaks.index("head_to_head")] if "head_to_head" in tiebreaks else tiebreaks
    return tuple(round(tiebreak_value(figures, tb, lowest_wins), 9) for tb in before)


def head_to_head(player: int, outcomes: Mapping[int, Sequence[int]], group: Collection[int]) -> float:
    """The head-to-head value of ``player`` among ``group`` (the players tied with them before it):
    their outcomes (+1, -1, 0 each meeting) against every opponent in the group."""
    return float(sum(sum(found) for other, found in outcomes.items() if other != player and other in group))


def shown_tiebreaks(
    player: int,
    tiebreaks: Sequence[Tiebreak],
    values: Mapping[Tiebreak, Mapping[int, float]],
    lowest_wins: bool,
) -> tuple[tuple[Tiebreak, float], ...]:
    """A player's tiebreak values as the standings show them (game points as scored)."""
    return tuple(
        (tb, -values[tb][player] if tb == "game_points" and lowest_wins else values[tb][player])
        for tb in tiebreaks
    )


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
    meetings: dict[int, list[Meeting]] = {p: [] for p in players}
    bye_games: dict[int, list[float]] = {}
    for rnd in rounds:
        for table in rnd.tables:
            for player, meeting in table_meetings(table, scheme):
                meetings.setdefault(player, []).append(meeting)
        average = round_average(rnd.tables)
        for player in rnd.byes:
            meetings.setdefault(player, [])
            bye_games.setdefault(player, []).append(average)
    figures = {p: own_figures(m, bye_games.get(p, ()), scheme, bye_rule) for p, m in meetings.items()}
    tournament_points = {p: f.points for p, f in figures.items()}
    for p, f in figures.items():
        opponent_figures(f, meetings[p], tournament_points)

    def against(group: Collection[int]) -> dict[int, dict[int, list[int]]]:
        out: dict[int, dict[int, list[int]]] = {}
        for p in group:
            mine = out.setdefault(p, {})
            for m in meetings[p]:
                for other, theirs in m.opponents:
                    mine.setdefault(other, []).append((theirs > m.place) - (theirs < m.place))
        return out

    ranks, values, _ = rank_figures(figures, tiebreaks=tiebreaks, lowest_wins=lowest_wins, against=against)
    rows = []
    for p in sorted(figures, key=lambda p: (ranks[p], p)):
        f = figures[p]
        rows.append(
            StandingsRow(
                rank=ranks[p],
                player=p,
                points=f.points,
                game_points=f.game_points,
                opponents_average=f.opponents_average,
                wins=f.wins,
                games=f.games,
                byes=f.byes,
                tiebreaks=shown_tiebreaks(p, tiebreaks, values, lowest_wins),
                sonneborn_berger=f.sonneborn_berger,
                buchholz_cut1=f.buchholz_cut1,
                head_to_head=values["head_to_head"][p] if "head_to_head" in values else None,
            )
        )
    return tuple(rows)
