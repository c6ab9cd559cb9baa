"""What every score-sheet check speaks in: a problem in words, a checked sheet, and what a game's
sheet holds beyond a score and a place per seat (its "extras").

The bottom of the sheets' checks: ``checks`` (every game's) and ``game_sheets`` (the games with
extras) both build on these, and neither imports the other's internals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a sheet, in words.

    ``row``: the line of the game's own sheet the scorer fixes it on (a seat's position as text,
    a power's code; None for the sheet as a whole).
    """

    message: str
    row: str | None = None


@dataclass(frozen=True)
class Checked:
    """A checked sheet: its problems, or else the places and scores to record, by seat."""

    problems: list[Problem]
    places: list[int] = field(default_factory=list)
    scores: list[float | None] = field(default_factory=list)


class SheetExtras(Protocol):
    """What a game's sheet holds beyond a score and a place per seat.

    A sheet (``Result.data["sheet"]``) is plain JSON, the same from the table sheet's form and
    from the API; ``check`` refuses anything else in words.
    """

    template: str  # the form's fields, included in the table sheet

    def read_form(self, form: Mapping[str, str], seats: int) -> dict[str, Any]:
        """The sheet as typed into the form (bad entries kept as typed, for ``check`` to name)."""
        ...

    def form_values(self, sheet: Any, seats: int) -> dict[str, str]:
        """The form's fields for a stored sheet, so a correction starts from it."""
        ...

    def form(
        self, names: Sequence[str], values: Mapping[str, str], problems: Sequence[Problem]
    ) -> dict[str, Any]:
        """What the form's template shows: its rows, with their values and problems."""
        ...

    def check(self, names: Sequence[str], sheet: Any) -> Checked:
        """The problems, or the places and scores by seat (``names`` in seat order)."""
        ...

    def summary(self, names: Sequence[str], sheet: Any) -> list[str]:
        """The sheet in a few readable lines, for the confirmation and the history."""
        ...
