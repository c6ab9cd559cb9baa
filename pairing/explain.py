"""Why a pair meets again, and what a manual swap would do.

:func:`explain_repeats` takes any round (proposed by the pairing code or edited by hand) and, for
each pair who have met before, says in which rounds, whether the round is at its proven minimum of
repeats, and what the best single swap separating them would cost instead: more repeats, or a wider
points spread at the tables involved.

:func:`check_swap` applies an organiser's swap of two players (seated or on a bye; the two take
each other's seat) and returns the new round with warnings such as "swapping Ann and Bob makes
Ann meet Cat again (round 2)".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from .history import EventHistory, Ranked, RepeatedPair, Round, standings_points
from .seating import proven_minimum, repeat_lower_bound
from .swiss import minimum_repeats

__all__ = [
    "Alternative",
    "RepeatExplanation",
    "SwapCheck",
    "SwapWarning",
    "check_swap",
    "explain_repeats",
    "round_lower_bound",
]


@dataclass(frozen=True, slots=True)
class Alternative:
    """The best single swap that separates a repeated pair, and what it would cost."""

    moved: int
    partner: int
    partner_table: int
    repeats_change: int
    spread_change: float
    new_repeats: tuple[RepeatedPair, ...]


@dataclass(frozen=True, slots=True)
class RepeatExplanation:
    players: tuple[int, int]
    table: int
    rounds: tuple[int, ...]
    forced: bool
    alternative: Alternative | None
    text: str


@dataclass(frozen=True, slots=True)
class SwapWarning:
    kind: Literal["repeat", "bye", "standing", "info"]
    players: tuple[int, ...]
    rounds: tuple[int, ...]
    message: str


@dataclass(frozen=True, slots=True)
class SwapCheck:
    round: Round
    warnings: tuple[SwapWarning, ...]


def _history(history: Sequence[Round] | EventHistory) -> EventHistory:
    return history if isinstance(history, EventHistory) else EventHistory(history)


def _namer(names: Mapping[int, str] | None) -> Mapping[int, str]:
    class _Names(dict[int, str]):
        def __missing__(self, key: int) -> str:
            return f"player {key}"

    return _Names(names or {})


def _rounds_text(rounds: Sequence[int]) -> str:
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    return "rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]}"


def round_lower_bound(rnd: Round, history: Sequence[Round] | EventHistory) -> int:
    """A proven minimum of repeated pairs for the players and table sizes of ``rnd``.

    Two-player rounds use the exact minimum (:func:`pairing.swiss.minimum_repeats`, over the
    seated players); other rounds the bound of :func:`pairing.seating.repeat_lower_bound`, and,
    when ``rnd`` has more repeats than that and at most 64 players, the true minimum found by the
    exact search (:func:`pairing.seating.proven_minimum`) if it settles within its budget.
    """
    return _round_minimum(rnd, _history(history))[0]


def _round_minimum(rnd: Round, hist: EventHistory) -> tuple[int, bool]:
    """(proven minimum, whether it is the exact minimum rather than only a bound)."""
    seated = [p for table in rnd.tables for p in table]
    if rnd.tables and all(len(t) == 2 for t in rnd.tables):
        return minimum_repeats(seated, hist), True
    bound = repeat_lower_bound(seated, [len(t) for t in rnd.tables], hist)
    if len(hist.repeated_pairs(rnd)) > bound:
        exact = proven_minimum(rnd.tables, hist)
        if exact is not None:
            return exact, True
    return bound, False


def _swap_in_round(rnd: Round, a: int, b: int) -> Round:
    def swap(p: int) -> int:
        return b if p == a else a if p == b else p

    tables = tuple(tuple(swap(p) for p in table) for table in rnd.tables)
    return Round(tables, tuple(swap(p) for p in rnd.byes))


def _table_spread(table: Sequence[int], points: Mapping[int, float]) -> float:
    return sum((points.get(x, 0.0) - points.get(y, 0.0)) ** 2 for x, y in combinations(table, 2))


def explain_repeats(
    rnd: Round,
    history: Sequence[Round] | EventHistory,
    standings: Sequence[Ranked] = (),
    names: Mapping[int, str] | None = None,
) -> tuple[RepeatExplanation, ...]:
    """Explain every repeated pair of ``rnd``; ``standings`` (optional) gives points for spreads."""
    hist = _history(history)
    points = standings_points(standings)
    name = _namer(names)
    repeated = hist.repeated_pairs(rnd)
    if not repeated:
        return ()
    bound, exact = _round_minimum(rnd, hist)
    forced = len(repeated) <= bound
    total = len(repeated)
    out: list[RepeatExplanation] = []
    for pair in repeated:
        a, b = pair.players
        alternative = None if forced else _best_alternative(rnd, pair, hist, points)
        text = f"{name[a]} and {name[b]} meet again (they met in {_rounds_text(pair.rounds)})."
        if forced:
            text += (
                f" This round has {total} repeated pair{'s' if total != 1 else ''}, the proven minimum"
                " for these players and table sizes, so some pairs had to meet again."
            )
        elif alternative is None:
            text += " There is no other table to swap with."
        else:
            text += " " + _alternative_text(alternative, name)
            if exact and alternative.repeats_change >= 0:
                text += (
                    f" The fewest possible for these players and table sizes is {bound} repeated"
                    f" pair{'s' if bound != 1 else ''}: re-seating several tables (no single swap)"
                    " gets there."
                )
        out.append(RepeatExplanation(pair.players, pair.table, pair.rounds, forced, alternative, text))
    return tuple(out)


def _table_repeats(table: Sequence[int], index: int, hist: EventHistory) -> list[RepeatedPair]:
    return [
        RepeatedPair((x, y), index, hist.met_in(x, y))
        for x, y in combinations(table, 2)
        if hist.times_met(x, y)
    ]


def _best_alternative(
    rnd: Round, pair: RepeatedPair, hist: EventHistory, points: Mapping[int, float]
) -> Alternative | None:
    best: tuple[tuple[int, float], Alternative] | None = None
    home = rnd.tables[pair.table]
    for moved in pair.players:
        for u, other in enumerate(rnd.tables):
            if u == pair.table:
                continue
            before = len(_table_repeats(home, pair.table, hist)) + len(_table_repeats(other, u, hist))
            spread_before = _table_spread(home, points) + _table_spread(other, points)
            for partner in other:
                new_home = tuple(partner if p == moved else p for p in home)
                new_other = tuple(moved if p == partner else p for p in other)
                after = _table_repeats(new_home, pair.table, hist) + _table_repeats(new_other, u, hist)
                spread_after = _table_spread(new_home, points) + _table_spread(new_other, points)
                new = tuple(r for r in after if moved in r.players or partner in r.players)
                alt = Alternative(moved, partner, u, len(after) - before, spread_after - spread_before, new)
                key = (alt.repeats_change, alt.spread_change)
                if best is None or key < best[0]:
                    best = (key, alt)
    return best[1] if best else None


def _alternative_text(alt: Alternative, name: Mapping[int, str]) -> str:
    swap = f"swapping {name[alt.moved]} with {name[alt.partner]} (table {alt.partner_table + 1})"
    created = "; ".join(
        f"{name[r.players[0]]} and {name[r.players[1]]} met in {_rounds_text(r.rounds)}"
        for r in alt.new_repeats
    )
    if alt.repeats_change > 0:
        return (
            f"Every swap that separates them repeats more pairs: the best, {swap}, "
            f"makes {alt.repeats_change} more repeat{'s' if alt.repeats_change != 1 else ''} ({created})."
        )
    if alt.repeats_change == 0:
        return (
            "Separating them only moves the repeat elsewhere: "
            f"the best swap, {swap}, creates another ({created})."
        )
    if alt.spread_change > 0:
        return (
            f"The swap {swap} would avoid it, but seats players further from their standing "
            f"(squared points spread of the two tables +{alt.spread_change:g}); "
            "the seating weighs repeats far above spread, so this round is not the pairing program's choice."
        )
    return f"This round can be improved: {swap} avoids this repeat without widening the points spread."


def check_swap(
    rnd: Round,
    a: int,
    b: int,
    history: Sequence[Round] | EventHistory,
    standings: Sequence[Ranked] = (),
    names: Mapping[int, str] | None = None,
) -> SwapCheck:
    """Swap players ``a`` and ``b`` in ``rnd`` (each takes the other's seat or bye) and warn."""
    hist = _history(history)
    everyone = set(rnd.players)
    for p in (a, b):
        if p not in everyone:
            raise ValueError(f"player {p} is not in this round")
    if a == b:
        raise ValueError("a player cannot be swapped with themselves")
    name = _namer(names)
    points = standings_points(standings)
    new = _swap_in_round(rnd, a, b)
    warnings: list[SwapWarning] = []
    table_a, table_b = rnd.table_of(a), rnd.table_of(b)
    if table_a == table_b and table_a != -1:
        msg = f"{name[a]} and {name[b]} swap seats at table {table_a + 1}"
        warnings.append(SwapWarning("info", (a, b), (), msg))
        return SwapCheck(new, tuple(warnings))
    for mover, other in ((a, b), (b, a)):
        old_table = rnd.table_of(mover)
        new_table = new.table_of(mover)
        if new_table == -1:
            earlier = hist.byes_of(mover)
            if earlier:
                warnings.append(
                    SwapWarning(
                        "bye",
                        (mover,),
                        earlier,
                        f"swapping {name[a]} and {name[b]} gives {name[mover]} a second bye "
                        f"(already had one in {_rounds_text(earlier)})",
                    )
                )
            continue
        for z in new.tables[new_table]:
            if z == mover:
                continue
            met = hist.met_in(mover, z)
            if met:
                warnings.append(
                    SwapWarning(
                        "repeat",
                        (mover, z),
                        met,
                        f"swapping {name[a]} and {name[b]} makes {name[mover]} meet {name[z]} again "
                        f"({_rounds_text(met)})",
                    )
                )
        if old_table != -1:
            for z in rnd.tables[old_table]:
                if z not in (mover, other) and hist.met_in(mover, z):
                    warnings.append(
                        SwapWarning(
                            "info",
                            (mover, z),
                            hist.met_in(mover, z),
                            f"{name[mover]} no longer meets {name[z]} again",
                        )
                    )
        if points and mover in points:
            mates = [points[z] for z in new.tables[new_table] if z != mover and z in points]
            if mates and not min(mates) <= points[mover] <= max(mates):
                low, high = min(mates), max(mates)
                span = f"{low:g}" if low == high else f"{low:g} to {high:g}"
                warnings.append(
                    SwapWarning(
                        "standing",
                        (mover,),
                        (),
                        f"{name[mover]} ({points[mover]:g} pts) would sit with players on {span} pts",
                    )
                )
    return SwapCheck(new, tuple(warnings))
