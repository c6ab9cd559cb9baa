"""Checks a tabletop Mister Spy score sheet against what the deck and the rules allow.

Pure: given the number of players and each player's final points (and, if known, how the
game ended), ``check_sheet`` lists every problem in plain words and gives the places
(highest score wins; equal scores share a place, as in the engine's ruling 13).

What the deck allows:

- Points come only from the 21 Spies (printed 2 to 8, 83 in all), each doubled once per
  successful taunt. A Spy can carry at most 9 taunts (one per letter: two matching taunts on
  one Spy do not work), and the deck has 18 taunt cards in all.
- So a score is never negative, never 1 (the smallest Spy is worth 2), and every score needs
  some least number of taunts; the players' least numbers together cannot pass 18.
- The game ends the moment someone reaches 33, so at most one player has 33 or more, and
  that player had at most 32 before the final Spy (at most 8 doubled 9 times: 4096).

The taunt count is a necessary condition, worked out player by player: a sheet that passes
could in rare cases still need the same Spy twice between two players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from games.core import places_from_scores

from .cards import HAND_SIZES, SPY_COUNTS, TAUNT_COPIES, TAUNT_LETTERS, WINNING_POINTS

END_33: Final = "33 points"
END_DECK: Final = "deck empty"

TAUNT_CARDS: Final = len(TAUNT_LETTERS) * TAUNT_COPIES  # 18
MAX_TAUNTS_PER_SPY: Final = len(TAUNT_LETTERS)  # 9
BIGGEST_SPY: Final = max(SPY_COUNTS)
BIGGEST_KILL: Final = BIGGEST_SPY << MAX_TAUNTS_PER_SPY  # 4096
MOST_BEFORE_WINNING: Final = WINNING_POINTS - 1
MOST_POINTS: Final = MOST_BEFORE_WINNING + BIGGEST_KILL  # 4128


@dataclass(frozen=True, slots=True)
class SheetProblem:
    """One thing wrong with a sheet. ``seat`` is 0-based (``None``: the sheet as a whole)."""

    seat: int | None
    message: str


@dataclass(frozen=True, slots=True)
class SheetCheck:
    players: int
    points: tuple[int, ...]
    problems: tuple[SheetProblem, ...]
    places: tuple[int, ...]  # by seat; empty when the sheet is too broken to rank
    winner_at_33: int | None  # the seat that ended the game by reaching 33, if any

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def messages(self) -> list[str]:
        return [problem.message for problem in self.problems]


INFINITY: Final = 10**9
SPY_VALUES_TOTAL: Final = sum(value * count for value, count in SPY_COUNTS.items())  # 83


@lru_cache(maxsize=1)
def _frontier_table() -> tuple[tuple[int, ...], ...]:
    """``table[s][t]``: the least printed Spy value that scores exactly ``s`` (0..32) with at
    most ``t`` successful taunts, using each Spy of the deck at most once (INFINITY: never)."""
    table = [[INFINITY] * (TAUNT_CARDS + 1) for _ in range(MOST_BEFORE_WINNING + 1)]
    table[0] = [0] * (TAUNT_CARDS + 1)
    for value, count in SPY_COUNTS.items():
        for _ in range(count):  # each Spy is scored once at most, with k taunts on it
            after = [row[:] for row in table]
            for k in range(MAX_TAUNTS_PER_SPY + 1):
                worth = value << k
                if worth > MOST_BEFORE_WINNING:
                    break
                for score in range(worth, MOST_BEFORE_WINNING + 1):
                    before = table[score - worth]
                    row = after[score]
                    for taunts in range(k, TAUNT_CARDS + 1):
                        printed = before[taunts - k] + value
                        if printed < row[taunts]:
                            row[taunts] = printed
            table = after
    return tuple(tuple(row) for row in table)


@lru_cache(maxsize=1024)
def frontier(points: int) -> tuple[int, ...]:
    """For ``t`` = 0..18, the least printed Spy value one player needs to score exactly
    ``points`` with at most ``t`` successful taunts (INFINITY when impossible).

    Above 32 the score is a score of 32 or less plus one last Spy (the game ends at 33).
    """
    table = _frontier_table()
    if 0 <= points <= MOST_BEFORE_WINNING:
        return table[points]
    best = [INFINITY] * (TAUNT_CARDS + 1)
    if points < 0 or points > MOST_POINTS:
        return tuple(best)
    for value in SPY_COUNTS:
        for k in range(MAX_TAUNTS_PER_SPY + 1):
            before = points - (value << k)
            if not 0 <= before <= MOST_BEFORE_WINNING:
                continue
            for taunts in range(k, TAUNT_CARDS + 1):
                printed = table[before][taunts - k] + value
                if printed < best[taunts]:
                    best[taunts] = printed
    return tuple(best)


def least_taunts(points: int) -> int | None:
    """The fewest successful taunts with which one player can score exactly ``points``
    (``None``: no Spies from the deck can make that score)."""
    return next((t for t, printed in enumerate(frontier(points)) if printed < INFINITY), None)


def least_spies_value(scores: Sequence[int]) -> int:
    """The least printed Spy value that all ``scores`` need together, sharing the 18 taunts
    as well as possible (INFINITY when even one score is impossible)."""
    joint = [0] * (TAUNT_CARDS + 1)  # joint[t]: least printed value with at most t taunts in all
    for score in scores:
        own = frontier(score)
        joint = [
            min(joint[t - k] + own[k] for k in range(t + 1)) if t else joint[0] + own[0]
            for t in range(TAUNT_CARDS + 1)
        ]
    return min(joint[TAUNT_CARDS], INFINITY)


def _who(seat: int) -> str:
    return f"Player {seat + 1}"


def check_sheet(players: int, points: Sequence[int], end: str | None = None) -> SheetCheck:
    """Check final points of a tabletop game; ``end`` is ``"33 points"``, ``"deck empty"`` or None.

    Messages name players from 1 (seat 0 is "Player 1").
    """
    problems: list[SheetProblem] = []
    scores = tuple(points)
    if players not in HAND_SIZES:
        problems.append(SheetProblem(None, f"Mister Spy is played by 2 to 6 players, not {players}."))
    if len(scores) != players:
        problems.append(
            SheetProblem(
                None, f"The sheet has {len(scores)} scores for {players} players; give one score each."
            )
        )
    whole = True
    for seat, score in enumerate(scores):
        if isinstance(score, bool) or not isinstance(score, int):
            problems.append(
                SheetProblem(seat, f"{_who(seat)}'s score {score!r} is not a whole number of points.")
            )
            whole = False
        elif score < 0:
            problems.append(
                SheetProblem(seat, f"{_who(seat)} has {score} points, but points cannot be negative.")
            )
        elif score == 1:
            problems.append(
                SheetProblem(
                    seat, f"{_who(seat)} has 1 point, which is impossible: the smallest Spy is worth 2."
                )
            )
        elif score > MOST_POINTS:
            problems.append(
                SheetProblem(
                    seat,
                    f"{_who(seat)} has {score} points, more than anyone can reach: at most 32 before the "
                    f"winning Spy, and no Spy is worth more than {BIGGEST_KILL} (an 8 taunted with all 9 "
                    f"letters), so {MOST_POINTS} at most.",
                )
            )
    if not whole:
        return SheetCheck(players, (), tuple(problems), (), None)

    at_33 = [seat for seat, score in enumerate(scores) if score >= WINNING_POINTS]
    winner = at_33[0] if len(at_33) == 1 else None
    if len(at_33) > 1:
        names = ", ".join(_who(seat) for seat in at_33[:-1]) + f" and {_who(at_33[-1])}"
        problems.append(
            SheetProblem(
                None,
                f"{names} have 33 or more, but the game ends the moment the first player reaches 33, "
                "so only one player can.",
            )
        )
    if end == END_DECK and at_33:
        problems.append(
            SheetProblem(
                at_33[0],
                f"{_who(at_33[0])} has {scores[at_33[0]]} points, so the game ended at 33 points, "
                "not when the deck ran out.",
            )
        )
    elif end == END_33 and not at_33:
        problems.append(
            SheetProblem(None, "The sheet says someone reached 33, but nobody has 33 points or more.")
        )
    elif end not in (None, END_33, END_DECK):
        problems.append(SheetProblem(None, f"Unknown end {end!r}: use {END_33!r} or {END_DECK!r}."))

    possible = []
    for seat, score in enumerate(scores):
        if score != 0 and not 2 <= score <= MOST_POINTS:
            continue  # already explained
        if least_taunts(score) is None:
            problems.append(
                SheetProblem(
                    seat,
                    f"{_who(seat)}'s {score} points cannot be made from the deck: no set of its Spies, "
                    f"doubled by at most {TAUNT_CARDS} taunts (at most {MAX_TAUNTS_PER_SPY} on one Spy), "
                    "adds up to exactly that with at most 32 points before the last Spy.",
                )
            )
            continue
        possible.append(score)
    needed = sum(least_taunts(score) or 0 for score in possible)
    if needed > TAUNT_CARDS:
        problems.append(
            SheetProblem(
                None,
                f"These scores need at least {needed} successful taunts between them, but the deck has "
                f"only {TAUNT_CARDS} taunt cards.",
            )
        )
    else:
        printed = least_spies_value(possible)
        if printed > SPY_VALUES_TOTAL:
            problems.append(
                SheetProblem(
                    None,
                    f"These scores need more Spies than the deck holds: even sharing the {TAUNT_CARDS} "
                    f"taunts as well as possible they need Spies printed with at least {printed} points "
                    f"in all, and the deck's 21 Spies are printed with {SPY_VALUES_TOTAL}.",
                )
            )

    places = places_from_scores(scores, lowest_wins=False) if len(scores) == players else ()
    return SheetCheck(players, scores, tuple(problems), places, winner)
