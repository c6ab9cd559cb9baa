"""What a score sheet's form shows for a result that is already entered.

A correction starts from the result as it stands now, however it was entered (the sheet's form,
the API, the scorepad, an online match) and whatever corrected it since: each seat's score as
recorded, and its place only where the scores do not give it (a sheet of places alone); places
the scores give are left empty, to be worked out again from the corrected scores.
"""

from __future__ import annotations

from typing import Any

from .models import Result, ResultChange

REASON_MAX = ResultChange._meta.get_field("note").max_length or 300


def result_sheet_values(result: Result) -> dict[str, str]:
    """The generic sheet's fields (``score_<seat>``, ``place_<seat>``, ``stopped``) for ``result``."""
    lines = list(result.lines.order_by("position"))
    places_only = any(line.score is None for line in lines)
    values: dict[str, str] = {}
    for line in lines:
        values[f"score_{line.position}"] = "" if line.score is None else f"{line.score:g}"
        values[f"place_{line.position}"] = str(line.place) if places_only else ""
    if result.data.get("stopped"):
        values["stopped"] = "on"
    return values


def sheet_values(result: Result | None, typed: dict[str, Any] | None) -> dict[str, Any]:
    """What the sheet's form shows: what was just typed, else the result as it stands, else nothing."""
    if typed:
        return typed
    return result_sheet_values(result) if result is not None else {}
