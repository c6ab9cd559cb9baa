"""Checking an action against the legal list, strictly as JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def same_json(a: object, b: object) -> bool:
    """JSON equality that does not confuse True with 1 (or 1 with 1.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def is_listed(action: Mapping[str, Any], legal: Iterable[Mapping[str, Any]]) -> bool:
    """Whether ``action`` is exactly one of the ``legal`` actions."""
    return any(action == candidate and same_json(action, candidate) for candidate in legal)
