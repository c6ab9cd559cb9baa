"""Rounds, standings entries and what the past rounds of an event tell the pairing code.

A :class:`Round` is what the organiser publishes: tables (each a tuple of player ids in seat order,
seat 0 first: that player deals or starts) and the players who sit out with a bye. Rounds are
numbered from 1 in the order they are given. :class:`EventHistory` reads a list of rounds once and
answers the questions pairing asks: who met whom and in which rounds, who had byes, how often each
player sat in each seat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Protocol

__all__ = ["EventHistory", "PlayerStanding", "Ranked", "RepeatedPair", "Round", "RoundPlan"]


class Ranked(Protocol):
    """Anything with a player id and tournament points: :class:`PlayerStanding`, a standings row."""

    @property
    def player(self) -> int: ...

    @property
    def points(self) -> float: ...


@dataclass(frozen=True, slots=True)
class Round:
    """One round: tables of player ids in seat order (seat 0 first), and the players on a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for player in (p for table in self.tables for p in table):
            if player in seen:
                raise ValueError(f"player {player} is seated twice in one round")
            seen.add(player)
        for player in self.byes:
            if player in seen:
                raise ValueError(f"player {player} is both seated and on a bye")
            seen.add(player)

    @property
    def players(self) -> tuple[int, ...]:
        """Every player in the round: seated ones in table order, then the byes."""
        return tuple(p for table in self.tables for p in table) + self.byes

    def table_of(self, player: int) -> int:
        """Index of the table where ``player`` sits; -1 if the player has a bye or is absent."""
        for index, table in enumerate(self.tables):
            if player in table:
                return index
        return -1


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """A present player in standings order, with the tournament points that pairing brackets by.

    Pairing functions take a sequence of these, best first. A :class:`pairing.standings.StandingsRow`
    has the same two attributes, so standings rows can be passed straight in.
    """

    player: int
    points: float = 0.0


@dataclass(frozen=True, slots=True)
class RepeatedPair:
    """Two players seated together again: ``rounds`` lists the earlier rounds (1-based) they met."""

    players: tuple[int, int]
    table: int
    rounds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundPlan:
    """A proposed round with the figures that justify it.

    ``repeat_lower_bound`` is a proven minimum for the number of repeated pairs given the byes
    chosen (for 2-player Swiss it is the exact minimum; at tables, for rounds of up to 64 players
    it is the exact minimum whenever the exact search settled it within its budget);
    ``repeats_minimal`` is true when the plan reaches it. ``spread`` is the sum over tables of
    squared point differences of every pair at the table (0 when everyone at each table is on the
    same points).
    """

    round: Round
    repeated_pairs: tuple[RepeatedPair, ...]
    repeat_lower_bound: int
    spread: float
    notes: tuple[str, ...] = field(default=())

    @property
    def repeats(self) -> int:
        return len(self.repeated_pairs)

    @property
    def repeats_minimal(self) -> bool:
        return len(self.repeated_pairs) <= self.repeat_lower_bound


class EventHistory:
    """Facts from past rounds: meetings, byes and seat positions.

    >>> h = EventHistory([Round(((1, 2), (3, 4))), Round(((1, 3),), byes=(2, 4))])
    >>> h.met_in(1, 3), h.byes_of(2), h.seat_counts(1)
    ((2,), (2,), (2,))
    """

    def __init__(self, rounds: Iterable[Round] = ()) -> None:
        self.rounds: tuple[Round, ...] = tuple(rounds)
        self._met: dict[int, dict[int, list[int]]] = {}
        self._byes: dict[int, list[int]] = {}
        self._seats: dict[int, list[int]] = {}
        self._last_seat: dict[int, int] = {}
        for number, rnd in enumerate(self.rounds, start=1):
            for table in rnd.tables:
                for seat, player in enumerate(table):
                    counts = self._seats.setdefault(player, [])
                    while len(counts) <= seat:
                        counts.append(0)
                    counts[seat] += 1
                    self._last_seat[player] = seat
                for a, b in combinations(table, 2):
                    self._met.setdefault(a, {}).setdefault(b, []).append(number)
                    self._met.setdefault(b, {}).setdefault(a, []).append(number)
            for player in rnd.byes:
                self._byes.setdefault(player, []).append(number)

    @property
    def round_count(self) -> int:
        return len(self.rounds)

    def met_in(self, a: int, b: int) -> tuple[int, ...]:
        """Rounds (1-based) in which ``a`` and ``b`` sat at the same table."""
        return tuple(self._met.get(a, {}).get(b, ()))

    def times_met(self, a: int, b: int) -> int:
        return len(self._met.get(a, {}).get(b, ()))

    def opponents(self, player: int) -> dict[int, int]:
        """Everyone ``player`` has sat with, and how many times."""
        return {other: len(rounds) for other, rounds in self._met.get(player, {}).items()}

    def byes_of(self, player: int) -> tuple[int, ...]:
        """Rounds in which ``player`` had a bye."""
        return tuple(self._byes.get(player, ()))

    def seat_counts(self, player: int) -> tuple[int, ...]:
        """How often ``player`` sat in seat 0, 1, 2, ... (trailing seats never used are left off)."""
        return tuple(self._seats.get(player, ()))

    def last_seat(self, player: int) -> int | None:
        return self._last_seat.get(player)

    def odd_tables(self, player: int, preferred: int) -> int:
        """How many times ``player`` sat at a table of another size than ``preferred``."""
        return sum(1 for rnd in self.rounds for t in rnd.tables if len(t) != preferred and player in t)

    def repeated_pairs(self, rnd: Round) -> tuple[RepeatedPair, ...]:
        """Pairs in ``rnd`` that have sat together before, table by table."""
        found: list[RepeatedPair] = []
        for index, table in enumerate(rnd.tables):
            for a, b in combinations(table, 2):
                rounds = self.met_in(a, b)
                if rounds:
                    found.append(RepeatedPair((a, b), index, rounds))
        return tuple(found)


def standings_points(standings: Sequence[Ranked]) -> dict[int, float]:
    """Map each player to points, checking that nobody is listed twice."""
    points: dict[int, float] = {}
    for entry in standings:
        if entry.player in points:
            raise ValueError(f"player {entry.player} is listed twice in the standings")
        points[entry.player] = float(entry.points)
    return points
