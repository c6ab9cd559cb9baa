"""Splitting a number of players into tables of the sizes the organiser allows.

When the count does not divide by the preferred size, an event chooses what to do
(:data:`UNEVEN`): ``"byes"`` (only tables of the preferred size; the fewest players sit out),
``"shorter"`` (tables of one seat fewer are allowed too) or ``"longer"`` (tables of one seat
more). :func:`uneven_sizes` gives the sizes each choice allows, within the game's seat range.
With shorter or longer tables the fewest tables leave the preferred size (23 players at tables
of 4: 5 of 4 and 1 of 3, or 3 of 5 and 2 of 4), and byes are given only when no split exists
(5 players at tables of 4 or 3: 4 and a bye).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "MAX_TABLE",
    "MIN_TABLE",
    "UNEVEN",
    "TablePlan",
    "TableSizeError",
    "describe_sizes",
    "plan_tables",
    "split_tables",
    "uneven_sizes",
]

MIN_TABLE = 2
# The largest table pairing seats. Most games are played by at most 6, and pass their range of
# players (``seats``); Spy vs Spy is for "unlimited amount of players" and is listed for 1 to 99
# (see its package's ruling "players"), so a Spy vs Spy tournament may race at tables of 12.
MAX_TABLE = 99
# The tables assumed when no game's range is given.
DEFAULT_SEATS = range(MIN_TABLE, 7)
UNEVEN = ("byes", "shorter", "longer")


class TableSizeError(ValueError):
    """The players cannot be split into the allowed table sizes (the message says why)."""


@dataclass(frozen=True, slots=True)
class TablePlan:
    """Table sizes (largest first) and how many players must sit out with a bye."""

    sizes: tuple[int, ...]
    byes: int = 0

    @property
    def seated(self) -> int:
        return sum(self.sizes)


def _allowed_sizes(preferred: int, allowed: Iterable[int] | None) -> tuple[int, ...]:
    sizes = tuple(sorted(set(allowed))) if allowed is not None else (preferred,)
    if not sizes:
        raise TableSizeError("no table size is allowed")
    for size in (*sizes, preferred):
        if not MIN_TABLE <= size <= MAX_TABLE:
            raise TableSizeError(f"table size {size} is outside {MIN_TABLE}..{MAX_TABLE}")
    if preferred not in sizes:
        raise TableSizeError(f"the preferred table size {preferred} is not among the allowed sizes {sizes}")
    return sizes


def _describe(sizes: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in sizes)


def split_tables(player_count: int, preferred: int, allowed: Iterable[int] | None = None) -> tuple[int, ...]:
    """Split ``player_count`` players into tables, largest first.

    Every table has one of the ``allowed`` sizes (default: only ``preferred``). Among the possible
    splits, the one chosen has the fewest tables not of the preferred size, then the smallest total
    distance from the preferred size, then the fewest tables. So 10 players at preferred 4 with
    3s allowed sit 4+3+3, and 14 sit 4+4+3+3.

    >>> split_tables(10, 4, (3, 4))
    (4, 3, 3)
    >>> split_tables(12, 4)
    (4, 4, 4)

    Raises :class:`TableSizeError` with a sentence a person can read when no split exists.
    """
    sizes = _allowed_sizes(preferred, allowed)
    if player_count < 0:
        raise TableSizeError("the number of players cannot be negative")
    if player_count == 0:
        return ()
    best = _best_splits(player_count, preferred, sizes)
    split = best[player_count]
    if split is None:
        if player_count < sizes[0]:
            raise TableSizeError(
                f"{player_count} player{'s' if player_count != 1 else ''} cannot fill a table: "
                f"the smallest allowed table has {sizes[0]} seats"
            )
        raise TableSizeError(
            f"{player_count} players cannot be split into tables of {_describe(sizes)}: "
            f"allow another table size or byes"
        )
    return split


def _best_splits(player_count: int, preferred: int, sizes: tuple[int, ...]) -> list[tuple[int, ...] | None]:
    # best[m] is the best split of m players; the key is (odd tables, total deviation, tables).
    best: list[tuple[int, ...] | None] = [None] * (player_count + 1)
    keys: list[tuple[int, int, int] | None] = [None] * (player_count + 1)
    best[0] = ()
    keys[0] = (0, 0, 0)
    for m in range(1, player_count + 1):
        for size in sizes:
            if size > m:
                continue
            prev = keys[m - size]
            prev_split = best[m - size]
            if prev is None or prev_split is None:
                continue
            key = (prev[0] + (size != preferred), prev[1] + abs(size - preferred), prev[2] + 1)
            current = keys[m]
            if current is None or key < current:
                keys[m] = key
                best[m] = tuple(sorted((*prev_split, size), reverse=True))
    return best


def plan_tables(
    player_count: int, preferred: int, allowed: Iterable[int] | None = None, *, max_byes: int | None = 0
) -> TablePlan:
    """Split players into tables, giving byes to as few players as possible when needed.

    ``max_byes=None`` allows as many byes as it takes; ``max_byes=0`` (the default) raises
    :class:`TableSizeError` instead of giving any bye.

    >>> plan_tables(9, 2, max_byes=1)
    TablePlan(sizes=(2, 2, 2, 2), byes=1)
    >>> plan_tables(10, 4, max_byes=None)
    TablePlan(sizes=(4, 4), byes=2)
    """
    sizes = _allowed_sizes(preferred, allowed)
    if player_count < 0:
        raise TableSizeError("the number of players cannot be negative")
    limit = player_count if max_byes is None else min(max_byes, player_count)
    best = _best_splits(player_count, preferred, sizes)
    for byes in range(limit + 1):
        seated = player_count - byes
        split = best[seated]
        if split is not None and (seated > 0 or player_count == 0):
            return TablePlan(split, byes)
    if limit == 0 or player_count < sizes[0]:
        split_tables(player_count, preferred, sizes)  # raises with the precise reason
    raise TableSizeError(
        f"{player_count} players cannot be split into tables of {_describe(sizes)} "
        f"with at most {limit} bye{'s' if limit != 1 else ''}"
    )


def uneven_sizes(preferred: int, uneven: str = "byes", seats: range | None = None) -> tuple[int, ...]:
    """The table sizes allowed when the players do not divide by ``preferred``.

    ``seats`` is the game's range of players (default: 2 to 6). Raises :class:`TableSizeError`
    when the choice needs a size the game (or a table) cannot have.

    >>> uneven_sizes(4, "shorter"), uneven_sizes(4, "longer"), uneven_sizes(4)
    ((3, 4), (4, 5), (4,))
    >>> uneven_sizes(5, "longer", range(2, 6))  # Spies! is played by 2 to 5
    Traceback (most recent call last):
    ...
    pairing.tables.TableSizeError: tables of 6 are too large for this game: it needs 2 to 5 players
    """
    seats = DEFAULT_SEATS if seats is None else seats
    low = max(MIN_TABLE, seats.start)
    high = min(MAX_TABLE, seats.stop - 1)
    if uneven not in UNEVEN:
        raise TableSizeError(f"choose one of {', '.join(UNEVEN)} for an uneven count")
    if not low <= preferred <= high:
        raise TableSizeError(f"tables of {preferred} do not suit this game: it needs {low} to {high} players")
    if uneven == "byes":
        return (preferred,)
    other = preferred - 1 if uneven == "shorter" else preferred + 1
    if not low <= other <= high:
        small = "small" if other < preferred else "large"
        raise TableSizeError(
            f"tables of {other} are too {small} for this game: it needs {low} to {high} players"
        )
    return tuple(sorted((preferred, other)))


def describe_sizes(sizes: Iterable[int], byes: int = 0) -> str:
    """Table sizes in words, largest first.

    >>> describe_sizes((5, 5, 5, 4, 4))
    '3 tables of 5 and 2 of 4'
    >>> describe_sizes((4, 4), byes=1)
    '2 tables of 4 and 1 bye'
    """
    counts: dict[int, int] = {}
    for size in sorted(sizes, reverse=True):
        counts[size] = counts.get(size, 0) + 1
    parts = [
        f"{count} table{'s' if count != 1 else ''} of {size}" if i == 0 else f"{count} of {size}"
        for i, (size, count) in enumerate(counts.items())
    ]
    if byes:
        parts.append(f"{byes} bye{'s' if byes != 1 else ''}")
    if not parts:
        return "no tables"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
