"""What each game allows on a score sheet, in words.

A generic sheet (every game) holds each seat's game score and place. ``sheet_problems``
checks it: whole numbers where the game scores in whole numbers, places consistent with
the scores in the game's direction, and the game's own limits where its package has a
score-sheet check (Mister Spy: what the deck can be worth; and so on). Problems name the
player and say what is wrong, so the scorer can fix the line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games import game_info
from games.core import places_from_scores


@dataclass(frozen=True)
class Line:
    name: str
    score: float | None
    place: int | None


GameCheck = Callable[[Sequence[Line]], list[str]]


def _mister_spy(lines: Sequence[Line]) -> list[str]:
    from games.mister_spy.scoresheet import check_sheet

    if any(line.score is None for line in lines):
        return []
    check = check_sheet(len(lines), [int(line.score or 0) for line in lines])
    return [
        (f"{lines[p.seat].name}: {p.message}" if p.seat is not None else p.message) for p in check.problems
    ]


GAME_CHECKS: dict[str, GameCheck] = {"mister-spy": _mister_spy}


def sheet_places(game: str, lines: Sequence[Line]) -> list[int]:
    """Places as entered, or worked out from the scores in the game's direction."""
    if all(line.place is not None for line in lines):
        return [int(line.place or 0) for line in lines]
    scores = [line.score if line.score is not None else 0.0 for line in lines]
    return list(places_from_scores(scores, lowest_wins=game_info(game).lowest_wins))


def sheet_problems(game: str, lines: Sequence[Line]) -> list[str]:
    info = game_info(game)
    problems: list[str] = []
    n = len(lines)
    if n not in info.seats:
        problems.append(
            f"{info.title} is played by {info.seats.start} to {info.seats.stop - 1} players, not {n}."
        )
    names = [line.name for line in lines]
    if len(set(names)) != len(names):
        problems.append("The same player is on the sheet twice.")
    has_places = [line.place is not None for line in lines]
    has_scores = [line.score is not None for line in lines]
    if not all(has_scores) and not all(has_places):
        problems.append("Give every player a score, or every player a place.")
        return problems
    for line in lines:
        if line.place is not None and not 1 <= line.place <= n:
            problems.append(f"{line.name}: a place must be between 1 and {n}.")
        if line.score is not None and line.score != int(line.score):
            problems.append(f"{line.name}: {info.title} scores are whole numbers, not {line.score:g}.")
    if all(has_places) and not problems:
        places = sorted(int(line.place or 0) for line in lines)
        # Standard competition ranking: a place p shared by k players leaves the next k-1 places empty.
        expected = list(places_from_scores([float(p) for p in places], lowest_wins=True))
        if sorted(expected) != places:
            problems.append(
                "The places do not fit together: tied players share a place and the next place is skipped "
                "(1, 1, 3, 4)."
            )
        elif all(has_scores):
            scores = [line.score if line.score is not None else 0.0 for line in lines]
            by_score = places_from_scores(scores, lowest_wins=info.lowest_wins)
            if list(by_score) != [line.place for line in lines]:
                better = "lowest" if info.lowest_wins else "highest"
                problems.append(
                    f"The places do not match the scores: in {info.title} the {better} score wins. "
                    "Leave the places empty to have them worked out."
                )
    check = GAME_CHECKS.get(game)
    if check is not None and not problems:
        problems.extend(check(lines))
    return problems
