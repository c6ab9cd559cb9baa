"""The current state of a match, rebuilt from its move log.

States are cached per process by match id and version. A cached state that is behind
the database is brought forward by applying only the newer moves, so a web process
never keeps a stale state and never replays a long game from the start twice. The
database stays the only truth: another process's moves are read from the log.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from games import get_engine

from .models import Match, Move

_CACHE: OrderedDict[tuple[int, float], tuple[int, Any]] = OrderedDict()
_LOCK = threading.Lock()
_MAX = 512


def _key(match: Match) -> tuple[int, float]:
    # The creation time guards against a reused id (SQLite may reuse the id of a deleted row).
    return (match.pk, match.created.timestamp())


def _remember(match: Match, version: int, state: Any) -> None:
    remember_state_at(_key(match), version, state)


def remember_state_at(key: tuple[int, float], version: int, state: Any) -> None:
    """Keep ``state`` as the match's state after ``version`` moves (``key``: see ``_key``)."""
    with _LOCK:
        _CACHE[key] = (version, state)
        _CACHE.move_to_end(key)
        while len(_CACHE) > _MAX:
            _CACHE.popitem(last=False)


def match_state(match: Match, *, upto: int | None = None) -> Any:
    """The engine state after ``upto`` moves (default: all of them, i.e. ``match.version``)."""
    engine = get_engine(match.game)
    target = match.version if upto is None else upto
    with _LOCK:
        cached = _CACHE.get(_key(match))
    if cached is not None and cached[0] <= target:
        version, state = cached
    else:
        version, state = 0, engine.start(match.seats, match.seed, match.options)
    if version < target:
        moves = Move.objects.filter(match=match, number__gt=version, number__lte=target).order_by("number")
        for move in moves.values_list("seat", "action"):
            state = engine.apply(state, move[0], move[1])
            version += 1
    if upto is None:
        _remember(match, version, state)
    return state


def cached_state(key: tuple[int, float]) -> tuple[int, Any] | None:
    """The newest state this process keeps for the match (``key``: see ``_key``), with its version."""
    with _LOCK:
        return _CACHE.get(key)


def advance_state(key: tuple[int, float], version: int, game: str, seat: int, action: Any) -> bool:
    """Another process made move ``version`` (committed: it says so once it has): bring this
    process's cached state forward with it, if the cache holds the version before. True if it did.
    """
    with _LOCK:
        cached = _CACHE.get(key)
    if cached is None or cached[0] != version - 1:
        return False
    state = get_engine(game).apply(cached[1], seat, action)
    with _LOCK:
        if _CACHE.get(key) is not cached:
            return False  # moved on meanwhile (a move of this process's own)
        _CACHE[key] = (version, state)
    return True


def state_from_log(
    key: tuple[int, float],
    game: str,
    seats: int,
    seed: int,
    options: dict[str, Any],
    *,
    since: tuple[int, Any] | None = None,
) -> tuple[int, Any]:
    """The match's state after every move in its log, from ``since`` (a version and its state)
    or from the start; kept for the next time. One query."""
    engine = get_engine(game)
    version, state = since if since is not None else (0, engine.start(seats, seed, options))
    moves = Move.objects.filter(match_id=key[0], number__gt=version).order_by("number")
    for number, seat, action in moves.values_list("number", "seat", "action"):
        if number != version + 1:  # never: numbers are consecutive (unique, each the version + 1)
            raise RuntimeError(f"Move {version + 1} of match {key[0]} is missing from its log.")
        state = engine.apply(state, seat, action)
        version = number
    remember_state_at(key, version, state)
    return version, state


def remember_state(match: Match, state: Any) -> None:
    """Keep the state just computed for ``match.version`` (after a move)."""
    _remember(match, match.version, state)


def forget(match: Match) -> None:
    with _LOCK:
        _CACHE.pop(_key(match), None)
