"""Checks a tabletop Spycatcher score sheet against what the rules allow.

Pure: given the number of players, the permission cards each player held at the end, the winner
(if someone returned to the centre) and, if the sheet gives one, the finishing order as a place
per player, ``check_sheet`` lists every problem in plain words and gives the places as the engine
ranks them (ruling 21 of ``games.spycatcher``): the winner first, then the others by the number
of permission cards they hold, equal numbers sharing a place.

What the rules allow:

- The four kinds of permission card are court, government, press and publisher (one pack of 13
  location cards each). "You may only hold one of each of the permission cards", so a player
  lists each kind at most once, and holds four at most. (With at most six players holding one of
  a kind each, the 13 cards of a pack are never all held: the packs set no other limit.)
- The winner is "the first player to [collect one of each] and return to the centre", so the
  winner holds all four. Another player may hold four too (without having reached the centre yet).
- A game without a winner (stopped at the turn limit, or by the clock) is ranked by permission
  cards alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from games.core import places_from_scores

from .cards import SUITS

PLAYERS: Final = range(2, 7)
WINNER_SCORE: Final = 5


@dataclass(frozen=True, slots=True)
class SheetProblem:
    """One thing wrong with a sheet. ``seat`` is 0-based (``None``: the sheet as a whole)."""

    seat: int | None
    message: str


@dataclass(frozen=True, slots=True)
class SheetCheck:
    players: int
    permissions: tuple[tuple[str, ...], ...]  # per seat, in suit order
    winner: int | None
    problems: tuple[SheetProblem, ...]
    scores: tuple[int, ...]  # permission cards held; 5 for the winner
    places: tuple[int, ...]  # by seat; empty when the sheet is too broken to rank

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def messages(self) -> list[str]:
        return [problem.message for problem in self.problems]


def _who(seat: int) -> str:
    return f"Player {seat + 1}"


def _kinds(kinds: Sequence[str]) -> str:
    return " and ".join([", ".join(kinds[:-1]), kinds[-1]]) if len(kinds) > 1 else "".join(kinds) or "none"


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def check_sheet(
    players: int,
    permissions: Sequence[Sequence[str]],
    winner: int | None = None,
    places: Sequence[int] | None = None,
) -> SheetCheck:
    """Check a tabletop game's sheet. ``winner`` is 0-based; messages name players from 1."""
    problems: list[SheetProblem] = []
    if players not in PLAYERS:
        problems.append(SheetProblem(None, f"Spycatcher is played by 2 to 6 players, not {players}."))
    if len(permissions) != players:
        problems.append(
            SheetProblem(
                None,
                f"The sheet lists permission cards for {len(permissions)} players, but {players} played; "
                "give a list for each player (an empty one for none).",
            )
        )
    held: list[tuple[str, ...]] = []
    for seat, kinds in enumerate(permissions):
        if isinstance(kinds, str) or not all(isinstance(kind, str) for kind in kinds):
            problems.append(
                SheetProblem(seat, f"{_who(seat)}'s permission cards must be a list of kinds, not {kinds!r}.")
            )
            held.append(())
            continue
        unknown = [kind for kind in kinds if kind not in SUITS]
        for kind in unknown:
            problems.append(
                SheetProblem(
                    seat,
                    f"{_who(seat)} lists {kind!r}, which is not a permission card: the four kinds are "
                    f"{_kinds(list(SUITS))}.",
                )
            )
        counts = Counter(kind for kind in kinds if kind in SUITS)
        for kind, count in sorted(counts.items()):
            if count > 1:
                problems.append(
                    SheetProblem(
                        seat,
                        f"{_who(seat)} lists {count} {kind} cards, but a player may only hold one of each "
                        "permission card.",
                    )
                )
        held.append(tuple(kind for kind in SUITS if kind in counts))

    if winner is not None:
        if isinstance(winner, bool) or not isinstance(winner, int) or not 0 <= winner < len(held):
            problems.append(SheetProblem(None, f"The winner {winner!r} is not one of the players."))
            winner = None
        elif len(held[winner]) < len(SUITS):
            missing = [kind for kind in SUITS if kind not in held[winner]]
            problems.append(
                SheetProblem(
                    winner,
                    f"{_who(winner)} is named the winner but holds {_kinds(list(held[winner]))}; the winner "
                    f"returns to the centre holding all four permission cards (missing: {_kinds(missing)}).",
                )
            )

    scores = tuple(WINNER_SCORE if seat == winner else len(kinds) for seat, kinds in enumerate(held))
    ranked = places_from_scores(scores, lowest_wins=False) if len(held) == players else ()
    if places is not None and ranked:
        if len(places) != players:
            problems.append(
                SheetProblem(None, f"The finishing order gives {len(places)} places for {players} players.")
            )
        else:
            for seat, (given, right) in enumerate(zip(places, ranked, strict=True)):
                if given == right:
                    continue
                why = (
                    "the winner comes first"
                    if seat == winner
                    else f"with {len(held[seat])} permission card{'s' if len(held[seat]) != 1 else ''} "
                    "they finish there (the winner first, then the others by permission cards held; "
                    "equal numbers share a place)"
                )
                shown = _ordinal(given) if isinstance(given, int) and given > 0 else repr(given)
                problems.append(
                    SheetProblem(
                        seat,
                        f"{_who(seat)} is placed {shown} but should be {_ordinal(right)}: {why}.",
                    )
                )
    return SheetCheck(players, tuple(held), winner, tuple(problems), scores, ranked)
