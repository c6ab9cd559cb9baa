"""An event's stored standings, kept equal to what ``standings_compute`` gives from its results.

Two ways to bring them up to date, both under the event's lock (``job_lock("standings:<id>")``),
so that two of them never write the same rows at once:

- ``standings_store``: the whole event computed in memory (``pairing.standings``), then only the
  rows that differ from the stored ones written. The full recompute, after a change of the
  event's settings or a new round's byes.
- ``standings_apply``: after the results of a few players changed (a table's result confirmed or
  corrected), only what those results touch is worked out again from the seats: those players'
  own figures, and the opponents' average of everyone who ever met one of them. Every other
  player's figures are read from the stored rows, which hold exactly what the full computation
  gives (it is the same arithmetic in the same order), then everyone is ranked in memory and the
  rows that changed are written: the figures of those few dozen players, and the rank of whoever
  moved. A 1,000-player event thus reads a few hundred seats instead of every seat of the event.

The property test in ``tests/web/tournaments/test_scale.py`` compares the two over random
sequences of confirmations, corrections and byes.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection

from games import game_info
from pairing.standings import (
    Figures,
    Meeting,
    SeatResult,
    StandingsRow,
    TableResult,
    Tiebreak,
    opponent_figures,
    own_figures,
    rank_figures,
    round_average,
    shown_tiebreaks,
    table_meetings,
    tiebreak_value,
)

from ..core.jobs import job_lock
from ..core.locks import atomic_retrying
from .models import Entrant, Event, Round, Seat, Standing, Table


@dataclass(slots=True)
class _Stored:
    pk: int | None
    # (rank, points, game_points, opponents_average, wins, games, byes, sonneborn_berger,
    # buchholz_cut1, tiebreaks); None: no row
    values: tuple[Any, ...] | None
    after_round: int | None


def _figures_of(values: tuple[Any, ...]) -> Figures:
    """A stored row's figures (its ``values`` as ``_stored`` reads them)."""
    _, points, game_points, average, wins, games, byes, sonneborn_berger, buchholz_cut1, _ = values
    return Figures(points, game_points, wins, games, byes, average, sonneborn_berger, buchholz_cut1)


def standings_lock(event: Event) -> None:
    job_lock(f"standings:{event.pk}")


def _stored(event: Event, *, tiebreaks: bool = True) -> dict[int, _Stored]:
    """Every entrant of the event with its stored row, if any (one query). Without ``tiebreaks``
    the rows' tiebreak values are not read (None): decoding them is most of the read."""
    out: dict[int, _Stored] = {}
    columns = [
        "pk",
        "standings__pk",
        "standings__rank",
        "standings__points",
        "standings__game_points",
        "standings__opponents_average",
        "standings__wins",
        "standings__games",
        "standings__byes",
        "standings__sonneborn_berger",
        "standings__buchholz_cut1",
        "standings__after_round",
    ]
    if tiebreaks:
        columns.append("standings__tiebreaks")
    for row in Entrant.objects.filter(event=event).order_by().values_list(*columns):
        entrant, pk, *values = row[:11]
        after, shown = row[11], row[12] if tiebreaks else None
        out[entrant] = _Stored(pk, (*values, shown) if pk is not None else None, after)
    return out


def _after_round(rounds: Iterable[tuple[int, int, str]]) -> int:
    return max((number for _, number, status in rounds if status == Round.Status.COMPLETE), default=0)


@atomic_retrying
def standings_store(*, event: Event, progress: Callable[[int, int, str], None] | None = None) -> int:
    """Compute the whole event's standings and write the rows that differ. Returns the row count."""
    from .services import _rounds_data, standings_compute

    report = progress or (lambda done, total, message: None)
    standings_lock(event)
    report(0, 3, "Reading results")
    data = _rounds_data(event)
    report(1, 3, "Ranking")
    rows = standings_compute(event, data)
    after = max((rnd.number for rnd, _, _ in data if rnd.status == Round.Status.COMPLETE), default=0)
    report(2, 3, "Saving the standings")
    _write(event, rows, after, _stored(event))
    return len(rows)


@atomic_retrying
def standings_apply(*, event: Event, entrants: Collection[int]) -> int:
    """Bring the stored standings up to date after the results of ``entrants`` changed (their
    table's result was confirmed or corrected). Returns the number of rows written.

    Falls back to ``standings_store`` when the stored rows cannot be trusted to hold the rest
    (an entrant who has results but no row yet: the standings were never stored; rows stored
    before a figure was kept), and for the knockout formats, ranked by the stage reached before
    the points.
    """
    from .services import DEFAULT_TIEBREAKS, KNOCKOUT_FORMATS, bye_scoring, points_scheme

    if event.format in KNOCKOUT_FORMATS:
        # Ranked by the stage each player reached first: the whole computation (a knockout
        # halves its field every round, so it stays small where it costs).
        return standings_store(event=event)
    standings_lock(event)
    stored = _stored(event, tiebreaks=False)
    rounds = list(
        Round.objects.filter(event=event)
        .exclude(status=Round.Status.DRAFT)
        .order_by()
        .values_list("pk", "number", "status")
    )
    number_of = {pk: number for pk, number, _ in rounds}
    missing = [e for e, row in stored.items() if row.values is None]
    if missing and Seat.objects.filter(entrant_id__in=missing, table__round_id__in=list(number_of)).exists():
        return standings_store(event=event)
    if any(row.values is not None and None in row.values[7:9] for row in stored.values()):
        return standings_store(event=event)
    changed = set(entrants) & stored.keys()

    # The seats of every table the changed players sat at; then, since those tables' rounds have
    # a new average game score, the players on a bye in them are changed too; then the tables of
    # every opponent (at those tables, whether or not their result counts yet).
    tables = _tables(changed, number_of)
    touched = {t.round for t in tables.values() if not t.is_bye}
    bye_mates = _bye_players(touched) - changed
    if bye_mates:
        changed |= bye_mates
        tables.update(_tables(bye_mates, number_of))
    opponents = {s[0] for t in tables.values() if not t.is_bye for s in t.seats} - changed
    tables.update(_tables(opponents, number_of))
    scheme, bye = points_scheme(event), bye_scoring(event)
    meetings: dict[int, list[Meeting]] = {}
    bye_rounds: dict[int, list[int]] = {}
    for table in tables.values():
        if table.is_bye:
            for entrant, *_ in table.seats:
                bye_rounds.setdefault(entrant, []).append(table.round)
        elif table.counts:
            for entrant, meeting in table_meetings(_result(table), scheme):
                meetings.setdefault(entrant, []).append(meeting)
    averages = _round_averages({r for e in changed for r in bye_rounds.get(e, ())})

    figures: dict[int, Figures] = {}
    for entrant, row in stored.items():
        if entrant not in changed:
            figures[entrant] = Figures() if row.values is None else _figures_of(row.values)
    for entrant in changed:
        byes = [averages[r] for r in bye_rounds.get(entrant, ())]
        figures[entrant] = own_figures(meetings.get(entrant, []), byes, scheme, bye)
    points = {p: f.points for p, f in figures.items()}
    for entrant in changed | opponents:
        opponent_figures(figures[entrant], meetings.get(entrant, []), points)

    def against(players: Collection[int]) -> dict[int, dict[int, list[int]]]:
        return _against(players, number_of)

    tiebreaks: tuple[Tiebreak, ...] = tuple(event.tiebreaks or DEFAULT_TIEBREAKS)  # type: ignore[arg-type]
    lowest_wins = game_info(event.game).lowest_wins
    ranks, values, rounded = rank_figures(
        figures, tiebreaks=tiebreaks, lowest_wins=lowest_wins, against=against
    )
    # Rows written whole: those whose figures were worked out again, and those whose head-to-head
    # value may have changed with them (players tied with one of them before that tiebreak, before
    # or after). Every other row keeps its figures and tiebreak values; at most its rank moves.
    rewrite = changed | opponents
    if "head_to_head" in tiebreaks:
        before = tiebreaks[: tiebreaks.index("head_to_head")]
        columns = [rounded[tb] for tb in before]
        keys = {tuple(column[e] for column in columns) for e in rewrite}
        for e in rewrite:  # and where they were before
            if stored[e].values is not None:
                was = _figures_of(stored[e].values)  # type: ignore[arg-type]
                keys.add(tuple(round(tiebreak_value(was, tb, lowest_wins), 9) for tb in before))
        rewrite = rewrite | {p for p in figures if tuple(column[p] for column in columns) in keys}
    after = _after_round(rounds)
    new: list[Standing] = []
    whole: list[tuple[Any, ...]] = []
    moved: list[tuple[Any, ...]] = []
    for player, f in figures.items():
        row = stored[player]
        if row.values is None or player in rewrite:
            shown = [list(pair) for pair in shown_tiebreaks(player, tiebreaks, values, lowest_wins)]
            line = (ranks[player], *_line(f), shown)
            if row.values is None:
                new.append(_standing(event, player, line, after))
            else:
                whole.append((row.pk, *line))
        elif ranks[player] != row.values[0]:
            moved.append((row.pk, ranks[player]))
    return _save(event, after, stored, new=new, whole=whole, moved=moved)


def _line(f: Figures | StandingsRow) -> tuple[Any, ...]:
    """The stored figures of a row, in the order of ``FIGURES`` after the rank."""
    return (
        f.points,
        f.game_points,
        f.opponents_average,
        f.wins,
        f.games,
        f.byes,
        f.sonneborn_berger,
        f.buchholz_cut1,
    )


@dataclass(slots=True)
class _Table:
    round: int
    number: int
    is_bye: bool
    counts: bool  # a confirmed result with every place: it is in the standings
    seats: list[tuple[int, int, int | None, float | None]]  # (entrant, position, place, score)


def _result(table: _Table) -> TableResult:
    return TableResult(
        tuple(SeatResult(e, int(place or 0), float(score or 0.0)) for e, _, place, score in table.seats)
    )


def _tables(players: Collection[int], round_ids: Collection[int]) -> dict[int, _Table]:
    """Every table of ``round_ids`` at which one of ``players`` sat, with all of its seats (one
    query: the seats of the tables of those players' seats)."""
    query = Seat.objects.filter(table__seats__entrant_id__in=list(players))
    return _collect(query, round_ids)


def _collect(query: Any, round_ids: Collection[int]) -> dict[int, _Table]:
    """The tables of ``round_ids`` whose seats ``query`` (of seats) lists, each with its seats in
    seat order."""
    out: dict[int, _Table] = {}
    seen: set[tuple[int, int]] = set()
    rows = query.order_by().values_list(
        "table_id",
        "table__round_id",
        "table__number",
        "table__is_bye",
        "table__status",
        "entrant_id",
        "position",
        "place",
        "score",
    )
    for table_id, round_id, number, is_bye, status, entrant, position, place, score in rows:
        if round_id not in round_ids or (table_id, position) in seen:
            continue  # a draft round's table; a seat listed twice (two of the players sat there)
        seen.add((table_id, position))
        table = out.get(table_id)
        if table is None:
            table = out[table_id] = _Table(round_id, number, is_bye, status == Table.Status.CONFIRMED, [])
        table.seats.append((entrant, position, place, score))
    for table in out.values():
        table.seats.sort(key=lambda s: s[1])
        table.counts = table.counts and not table.is_bye and all(s[2] is not None for s in table.seats)
    return out


def _bye_players(round_ids: Collection[int]) -> set[int]:
    """The players on a bye in any of ``round_ids``."""
    if not round_ids:
        return set()
    return set(
        Seat.objects.filter(table__round_id__in=list(round_ids), table__is_bye=True).values_list(
            "entrant_id", flat=True
        )
    )


def _round_averages(round_ids: Collection[int]) -> dict[int, float]:
    """Each round's average game score over its counted tables: what a bye in it brings."""
    if not round_ids:
        return {}
    query = Seat.objects.filter(table__round_id__in=list(round_ids), table__is_bye=False)
    by_round: dict[int, list[TableResult]] = {r: [] for r in round_ids}
    for table in _collect(query, set(round_ids)).values():
        if table.counts:
            by_round[table.round].append(_result(table))
    return {r: round_average(results) for r, results in by_round.items()}


def _against(players: Collection[int], number_of: dict[int, int]) -> dict[int, dict[int, list[int]]]:
    """For the head-to-head tiebreak: each of ``players``' outcomes against each opponent (+1
    placed better, -1 worse, 0 tied), in table order, over the rounds of ``number_of`` (round id:
    number)."""
    tables = sorted(_tables(players, number_of).values(), key=lambda t: (number_of[t.round], t.number))
    out: dict[int, dict[int, list[int]]] = {}
    for table in tables:
        if not table.counts:
            continue
        for who, _, place, _ in table.seats:
            mine = out.setdefault(who, {})
            for other, _, their, _ in table.seats:
                if other != who:
                    outcome = (int(their or 0) > int(place or 0)) - (int(their or 0) < int(place or 0))
                    mine.setdefault(other, []).append(outcome)
    return out


def _write(event: Event, rows: Sequence[StandingsRow], after: int, stored: dict[int, _Stored]) -> int:
    """Write the rows that differ from the stored ones (read with their tiebreak values)."""
    new: list[Standing] = []
    whole: list[tuple[Any, ...]] = []
    moved: list[tuple[Any, ...]] = []
    for r in rows:
        line = (r.rank, *_line(r), [[name, value] for name, value in r.tiebreaks])
        old = stored.get(r.player)
        if old is None or old.pk is None or old.values is None:
            new.append(_standing(event, r.player, line, after))
        elif line[1:] != old.values[1:]:
            whole.append((old.pk, *line))
        elif line[0] != old.values[0]:
            moved.append((old.pk, r.rank))
    listed = {r.player for r in rows}
    gone = [old.pk for e, old in stored.items() if e not in listed and old.pk is not None]
    return _save(event, after, stored, new=new, whole=whole, moved=moved, gone=gone)


def _save(
    event: Event,
    after: int,
    stored: dict[int, _Stored],
    *,
    new: Sequence[Standing],
    whole: Sequence[tuple[Any, ...]],
    moved: Sequence[tuple[Any, ...]],
    gone: Sequence[int] = (),
) -> int:
    """Insert the ``new`` rows, rewrite the ``whole`` ones (pk and figures), set the rank of the
    ``moved`` ones (pk and rank), delete the ``gone`` ones, and move every row to ``after``
    (the last complete round). Returns how many rows were written."""
    if gone:
        Standing.objects.filter(pk__in=gone).delete()
    if any(old.pk is not None and old.after_round != after for old in stored.values()):
        Standing.objects.filter(event=event).exclude(after_round=after).update(after_round=after)
    _update(whole, FIGURES)
    _update(moved, FIGURES[:1])
    Standing.objects.bulk_create(new, batch_size=2000)
    return len(new) + len(whole) + len(moved)


def _standing(
    event: Event, entrant: int, values: tuple[Any, ...], after: int, pk: int | None = None
) -> Standing:
    rank_, points, game_points, average, wins, games, byes, sonneborn_berger, buchholz_cut1, tiebreaks = (
        values
    )
    return Standing(
        pk=pk,
        event=event,
        entrant_id=entrant,
        rank=rank_,
        points=points,
        game_points=game_points,
        opponents_average=average,
        wins=wins,
        games=games,
        byes=byes,
        sonneborn_berger=sonneborn_berger,
        buchholz_cut1=buchholz_cut1,
        tiebreaks=tiebreaks,
        after_round=after,
    )


# The columns a standings row's figures are stored in, with their PostgreSQL types.
FIGURES = (
    ("rank", "integer"),
    ("points", "double precision"),
    ("game_points", "double precision"),
    ("opponents_average", "double precision"),
    ("wins", "integer"),
    ("games", "integer"),
    ("byes", "integer"),
    ("sonneborn_berger", "double precision"),
    ("buchholz_cut1", "double precision"),
    ("tiebreaks", "jsonb"),
)


def _update(rows: Sequence[tuple[Any, ...]], columns: Sequence[tuple[str, str]]) -> None:
    """Set ``columns`` of standings rows, each given as ``(pk, *values)``: one UPDATE from a list
    of values per 2,000 rows (where the database has UPDATE ... FROM), not a statement per row,
    nor the CASE per column and row that ``bulk_update`` builds."""
    if not rows:
        return
    names = [name for name, _ in columns]
    if connection.vendor not in ("postgresql", "sqlite") or (
        connection.vendor == "sqlite" and sqlite3.sqlite_version_info < (3, 33)
    ):
        objects = [Standing(pk=row[0], **dict(zip(names, row[1:], strict=True))) for row in rows]
        Standing.objects.bulk_update(objects, names, batch_size=200)
        return
    postgres = connection.vendor == "postgresql"
    table = connection.ops.quote_name(Standing._meta.db_table)
    casts = ["::bigint", *(f"::{kind}" for _, kind in columns)] if postgres else [""] * (len(columns) + 1)
    one = "(" + ", ".join(f"%s{cast}" for cast in casts) + ")"
    sets = ", ".join(
        f"{connection.ops.quote_name(name)} = v.column{i}" for i, name in enumerate(names, start=2)
    )
    limit = min(connection.features.max_query_params or 30000, 30000)  # parameters a statement
    per_statement = max(1, min(2000, limit // len(casts)))
    for start in range(0, len(rows), per_statement):
        part = rows[start : start + per_statement]
        values = ", ".join([one] * len(part))
        sql = f"UPDATE {table} SET {sets} FROM (VALUES {values}) AS v WHERE {table}.id = v.column1"
        params = [json.dumps(x) if isinstance(x, list) else x for row in part for x in row]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
