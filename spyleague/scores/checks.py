"""What each game allows on a score sheet, in words.

A generic sheet (every game) holds each seat's game score and place. ``sheet_problems``
checks it: whole numbers where the game scores in whole numbers, places consistent with
the scores in the game's direction, and the game's own limits where its package has a
score-sheet check (Mister Spy: what the deck can be worth; and so on). Problems name the
player and say what is wrong, so the scorer can fix the line.

Some games are scored from more than a number per seat: the permission cards each Spycatcher
player held, each Spies! power's victory points and money. Such a game has "sheet extras"
(``sheet_extras``, keyed by slug like ``GAME_CHECKS``): the extra fields of the form, their
check in the game's own words, and the places and scores worked out from them. ``sheet_check``
is the one entry point for every game, with or without extras.

A sheet is checked against how the table played (``Conditions``): the variants of its event (or
of its scorepad) and whether it was stopped on time. Black Spy's totals must be ones that whole
deals under those variants give (``games.black_spy.final_totals``), someone having reached the end
value unless the table was stopped on time; when the variants are not known the totals are not
checked against them, so a real result is never refused for want of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import game_info
from games.core import places_from_scores

from ..core.words import ordinal
from .game_sheets import SHEET_EXTRAS
from .sheet_parts import Checked as Checked
from .sheet_parts import Problem as Problem
from .sheet_parts import SheetExtras as SheetExtras


@dataclass(frozen=True)
class Line:
    name: str
    score: float | None
    place: int | None


@dataclass(frozen=True)
class Conditions:
    """How the table played, beyond its sheet.

    ``options``: the game's variants and settings (the engine's option names), or None when they are
    not known, and then the checks that depend on them are left out. ``stopped``: the table was
    stopped on time, before the game ended by its rules (only Black Spy sheets say so).
    """

    options: Mapping[str, Any] | None = None
    stopped: bool = False


# The games whose sheet may say the table was stopped on time.
STOPPED_ON_TIME = frozenset({"black-spy"})

GameCheck = Callable[[Sequence[Line], Conditions], list[str]]


def sheet_extras(game: str) -> SheetExtras | None:
    """The game's sheet extras, or None when a score and a place per seat say it all."""
    return SHEET_EXTRAS.get(game)


def _mister_spy(lines: Sequence[Line], conditions: Conditions) -> list[str]:
    from games.mister_spy.scoresheet import check_sheet

    if any(line.score is None for line in lines):
        return []
    check = check_sheet(len(lines), [int(line.score or 0) for line in lines])
    return [
        (f"{lines[p.seat].name}: {p.message}" if p.seat is not None else p.message) for p in check.problems
    ]


def _black_spy(lines: Sequence[Line], conditions: Conditions) -> list[str]:
    """Totals that whole deals under the table's variants give, the game ending there."""
    from games.black_spy.final_totals import check_totals
    from games.black_spy.scorepad import ScoreRules
    from games.core import InvalidOptions

    if conditions.options is None or any(line.score is None for line in lines):
        return []  # variants unknown, or places only: nothing to check the totals against
    try:
        rules = ScoreRules.from_options(len(lines), conditions.options)
    except InvalidOptions:
        return []  # the event's own settings are wrong: a result is not refused for them
    totals = [int(line.score or 0) for line in lines]
    names = [line.name for line in lines]
    return list(check_totals(totals, rules, stopped=conditions.stopped, names=names).problems)


GAME_CHECKS: dict[str, GameCheck] = {"mister-spy": _mister_spy, "black-spy": _black_spy}


def sheet_places(game: str, lines: Sequence[Line]) -> list[int]:
    """Places as entered, or worked out from the scores in the game's direction."""
    if all(line.place is not None for line in lines):
        return [int(line.place or 0) for line in lines]
    scores = [line.score if line.score is not None else 0.0 for line in lines]
    return list(places_from_scores(scores, lowest_wins=game_info(game).lowest_wins))


def _table_problems(game: str, lines: Sequence[Line]) -> list[str]:
    info = game_info(game)
    problems: list[str] = []
    n = len(lines)
    if n not in info.seats:
        problems.append(f"{info.title} is played by {info.players}, not {n}.")
    names = [line.name for line in lines]
    if len(set(names)) != len(names):
        problems.append("The same player is on the sheet twice.")
    return problems


def _stopped_problems(game: str, conditions: Conditions) -> list[str]:
    if conditions.stopped and game not in STOPPED_ON_TIME:
        return [
            f"Only a Black Spy table is marked as stopped on time; a {game_info(game).title} sheet says "
            "how the game ended in its own scores: leave out 'stopped'."
        ]
    return []


def sheet_check(
    game: str, lines: Sequence[Line], sheet: Any = None, *, conditions: Conditions | None = None
) -> Checked:
    """Check a sheet for any game: the problems, or the places and scores to record by seat.

    For a game with sheet extras the places and scores come from ``sheet``; a line may still give
    them (the API allows it), and then they must agree with what the sheet works out.
    ``conditions``: how the table played (its variants, stopped on time); unknown when left out.
    """
    conditions = conditions or Conditions()
    extras = sheet_extras(game)
    stopped = _stopped_problems(game, conditions)
    if stopped:
        return Checked([Problem(m) for m in stopped])
    if extras is None:
        messages = sheet_problems(game, lines, conditions)
        if sheet is not None:
            messages.append(
                f"A {game_info(game).title} sheet holds a score and a place for each player and nothing "
                "more: leave out the sheet."
            )
        if messages:
            return Checked([Problem(m) for m in messages])
        return Checked([], sheet_places(game, lines), [line.score for line in lines])
    table = _table_problems(game, lines)
    if table:
        return Checked([Problem(m) for m in table])
    checked = extras.check([line.name for line in lines], sheet)
    if checked.problems:
        return checked
    problems = []
    for seat, (line, place, score) in enumerate(zip(lines, checked.places, checked.scores, strict=True)):
        if line.place is not None and line.place != place:
            problems.append(
                Problem(
                    f"{line.name}: the place {line.place} does not match the sheet, which puts them "
                    f"{ordinal(place)}.",
                    str(seat),
                )
            )
        if line.score is not None and score is not None and line.score != score:
            problems.append(
                Problem(
                    f"{line.name}: the score {line.score:g} does not match the sheet, which gives {score:g}.",
                    str(seat),
                )
            )
    return Checked(problems) if problems else checked


def sheet_problems(game: str, lines: Sequence[Line], conditions: Conditions | None = None) -> list[str]:
    info = game_info(game)
    problems = _table_problems(game, lines)
    n = len(lines)
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
        problems.extend(check(lines, conditions or Conditions()))
    return problems
