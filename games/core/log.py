"""A game's public event log as a linked list: appending copies nothing, so states stay cheap."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class LogEntry:
    event: Mapping[str, Any]
    previous: LogEntry | None


def log_events(log: LogEntry | None, limit: int | None = None) -> list[dict[str, Any]]:
    """The events oldest first; with ``limit``, only the newest ``limit`` of them."""
    out: list[dict[str, Any]] = []
    while log is not None and (limit is None or len(out) < limit):
        out.append(dict(log.event))
        log = log.previous
    out.reverse()
    return out
