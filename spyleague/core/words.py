"""Small helpers for sentences people read."""

from __future__ import annotations

from collections.abc import Sequence


def and_list(parts: Sequence[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    return " and ".join([", ".join(parts[:-1]), parts[-1]]) if len(parts) > 1 else "".join(parts)


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"
