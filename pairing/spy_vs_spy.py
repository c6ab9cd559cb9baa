"""Places at a Spy vs Spy tournament table, from the race-by-race points piles.

The rule text (shared/rules/spy-vs-spy.md) says: the goal is to bring your points pile to 0 or
below ("reaching 0 or a negative number means you win the game"); points are only added up
"till everyone finishes the race"; and under Tie Breakers: "if you reach 0 and the person beside
you reaches -1 the same time you did then the person with -1 wins. If you both have the same -1 or
0 etc. then you both have to have a new race".

:func:`spy_vs_spy_places` applies that (see the Rulings in the package docstring):

* A table races until, after some race, at least one points pile is 0 or below; that race ends
  the game. Everyone who got there did so "at the same time", since piles are only counted
  after the race.
* The winner is the player with the lowest pile. If several share the lowest pile, the result is
  "replay needed between ..." and those players alone race on from their current piles, with the
  same rules, until one of them wins. The organiser records those races and asks again.
* The rule text does not place anyone but the winner. Places below first go by points pile
  (lower is better), then by finishing order in the race that ended the game (earlier is better;
  the first finisher also removed five points in that race). No replay is asked for those.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Race", "SpyVsSpyPlaces", "spy_vs_spy_places"]


@dataclass(frozen=True, slots=True)
class Race:
    """One race: each racer's points pile after it, and the finishing order (first finisher first)."""

    piles: Mapping[int, int]
    finishing_order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SpyVsSpyPlaces:
    """``status`` is ``"decided"`` (``places`` complete), ``"race_again"`` (nobody at 0 yet) or
    ``"replay"`` (``replay_between`` must race on; ``places`` holds everyone else's place)."""

    status: Literal["decided", "race_again", "replay"]
    places: Mapping[int, int] = field(default_factory=dict)
    replay_between: tuple[int, ...] = ()
    message: str = ""


def _check_race(number: int, race: Race, racers: set[int]) -> None:
    if set(race.piles) != racers:
        raise ValueError(f"race {number}: piles must be given for exactly players {sorted(racers)}")
    if sorted(race.finishing_order) != sorted(racers):
        raise ValueError(
            f"race {number}: the finishing order must list each of players {sorted(racers)} once"
        )


def spy_vs_spy_places(players: Sequence[int], races: Sequence[Race]) -> SpyVsSpyPlaces:
    """Decide a table's places from its races (replay races, if any, follow the game's races)."""
    if len(set(players)) != len(players) or len(players) < 2:
        raise ValueError("a table needs at least 2 different players")
    racers = set(players)
    places: dict[int, int] = {}
    next_place = 1
    index = 0
    replaying = False
    while True:
        # Find the race that ends this game (or replay) among ``racers``.
        end = -1
        for k in range(index, len(races)):
            _check_race(k + 1, races[k], racers)
            if min(races[k].piles.values()) <= 0:
                end = k
                break
        if end == -1:
            who = "the replay" if replaying else "the table"
            return SpyVsSpyPlaces(
                "race_again",
                places,
                tuple(sorted(racers)) if replaying else (),
                f"no points pile in {who} has reached 0 yet: race again",
            )
        race = races[end]
        finish = {p: i for i, p in enumerate(race.finishing_order)}
        lowest = min(race.piles.values())
        tied = sorted((p for p in racers if race.piles[p] == lowest), key=finish.__getitem__)
        others = sorted(
            (p for p in racers if race.piles[p] != lowest), key=lambda p: (race.piles[p], finish[p])
        )
        for offset, p in enumerate(others):
            places[p] = next_place + len(tied) + offset
        if len(tied) == 1:
            places[tied[0]] = next_place
            if end + 1 < len(races):
                raise ValueError(f"race {end + 2} was recorded after the table was decided in race {end + 1}")
            return SpyVsSpyPlaces("decided", places, (), f"player {tied[0]} wins with {lowest}")
        index = end + 1
        racers = set(tied)
        replaying = True
        if index >= len(races):
            names = ", ".join(str(p) for p in tied)
            return SpyVsSpyPlaces(
                "replay",
                places,
                tuple(tied),
                f"replay needed between {names}: tied on {lowest} (rule text: both race again)",
            )
        # The races that follow are the replay, raced by the tied players only; the places they
        # decide start at ``next_place``.
