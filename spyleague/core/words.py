"""Small helpers for sentences people read."""

from __future__ import annotations

from collections.abc import Sequence


def and_list(parts: Sequence[str]) -> str:
    """ "Ann", "Ann and Ben", "Ann, Ben and Cy"."""
    return " and ".join([", ".join(parts[:-1]), parts[-1]]) if len(parts) > 1 else "".join(parts)
