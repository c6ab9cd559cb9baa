"""An event's stored standings, kept equal to what ``standings_compute`` gives from its results.

A row holds a player's figures and the value of every tiebreak (head to head too). Their place
is not stored: ``standings_ranked`` works it out as the rows are read, in SQL, from those
values (a knockout's place, by the stage reached first, is stored: its rows are always worked
out whole). So a confirmation writes only the rows whose figures change, not the hundreds whose
place moves by one when a table's winner climbs past them.

Two ways to bring the rows up to date, both under the event's lock (``job_lock("standings:<id>")``),
so that two of them never write the same rows at once:

- ``standings_store``: the whole event computed in memory (``pairing.standings``), then only the
  rows that differ from the stored ones written. The full recompute, after a change of the
  event's settings or a new round's byes.
- ``standings_apply``: after the results of a few players changed (a table's result confirmed or
  corrected), only what those results touch is worked out again from the seats, with the same
  pieces of ``pairing.standings`` (so the floats are the same to the last bit): those players'
  own figures (and those of the round's byes, whose game score is the round's average), the
  opponents' figures of everyone who ever met one of them, and the head-to-head value of
  whoever changed group before it and of those of their opponents in their old or new group.
  Every other player's figures are read from the stored rows.

The property test in ``tests/web/tournaments/test_scale.py`` compares the two over random
sequences of confirmations, corrections and byes.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, F, FloatField, Func, IntegerField, Q, QuerySet, Value, Window
from django.db.models.functions import Cast, Coalesce, Rank

from games import game_info
from pairing.standings import (
    Figures,
    Meeting,
    SeatResult,
    StandingsRow,
    TableResult,
    Tiebreak,
    head_to_head,
    opponent_figures,
    own_figures,
    prefix_key,
    round_average,
    shown_tiebreaks,
    table_meetings,
    tiebreak_value,
)

from ..core.jobs import job_lock, job_queue
from ..core.locks import Busy, atomic_retrying
from ..core.models import Job
from .models import Entrant, Event, Round, Seat, Standing, Table
from .scoring import (
    DEFAULT_TIEBREAKS,
    KNOCKOUT_FORMATS,
    bye_scoring,
    points_scheme,
    rounds_data,
    standings_compute,
)
from .tasks import recompute_standings_task


@dataclass(slots=True)
class _Stored:
    pk: int | None
    # (rank, points, game_points, opponents_average, wins, games, byes, sonneborn_berger,
    # buchholz_cut1, head_to_head, tiebreaks); None: no row
    values: tuple[Any, ...] | None
    after_round: int | None


def _figures_of(values: tuple[Any, ...]) -> Figures:
    """A stored row's figures (its ``values`` as ``_stored`` reads them)."""
    _, points, game_points, average, wins, games, byes, sonneborn_berger, buchholz_cut1, _, _ = values
    return Figures(points, game_points, wins, games, byes, average, sonneborn_berger, buchholz_cut1)


def standings_lock(event: Event, *, wait: bool = True) -> None:
    """The event's standings lock, held until the transaction ends. ``wait`` False: ``Busy`` at
    once when another transaction holds it (the effects of results in a worker: another run is
    applying the same event's, and picks up these after its batch, or this run again later)."""
    if not job_lock(f"standings:{event.pk}", wait=wait):
        raise Busy(f"The standings of event {event.pk} are being updated by another run.")


def _stored(
    event: Event, *, tiebreaks: bool = True, entrants: Collection[int] | None = None
) -> dict[int, _Stored]:
    """Every entrant of the event (or those of ``entrants``) with its stored row, if any (one
    query). Without ``tiebreaks`` the rows' tiebreak values are not read (None): decoding them is
    most of the read."""
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
        "standings__head_to_head",
        "standings__after_round",
    ]
    if tiebreaks:
        columns.append("standings__tiebreaks")
    query = Entrant.objects.filter(event=event)
    if entrants is not None:
        query = query.filter(pk__in=list(entrants))
    for row in query.order_by().values_list(*columns):
        entrant, pk, *values = row[:12]
        after, shown = row[12], row[13] if tiebreaks else None
        out[entrant] = _Stored(pk, (*values, shown) if pk is not None else None, after)
    return out


def _points(event: Event, entrants: Collection[int]) -> dict[int, float]:
    """The stored points of ``entrants`` (0 for one without a row), in one query of one array
    parameter on PostgreSQL (a list of some hundreds of parameters costs psycopg more to send
    than the rows cost to read)."""
    out = dict.fromkeys(entrants, 0.0)
    if not entrants:
        return out
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(Standing._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT entrant_id, points FROM {table} WHERE event_id = %s AND entrant_id = ANY(%s)",
                [event.pk, list(entrants)],
            )
            out.update(cursor.fetchall())
        return out
    rows = Standing.objects.filter(event=event, entrant_id__in=list(entrants))
    out.update(rows.values_list("entrant", "points"))
    return out


def _after_round(rounds: Iterable[tuple[int, int, str]]) -> int:
    return max((number for _, number, status in rounds if status == Round.Status.COMPLETE), default=0)


@atomic_retrying
def standings_store(*, event: Event, progress: Callable[[int, int, str], None] | None = None) -> int:
    """Compute the whole event's standings and write the rows that differ. Returns the row count."""

    report = progress or (lambda done, total, message: None)
    standings_lock(event)
    report(0, 3, "Reading results")
    data = rounds_data(event)
    report(1, 3, "Ranking")
    rows = standings_compute(event, data)
    if event.format not in KNOCKOUT_FORMATS:
        rows = tuple(dataclasses.replace(r, rank=0) for r in rows)  # placed as read
    after = max((rnd.number for rnd, _, _ in data if rnd.status == Round.Status.COMPLETE), default=0)
    report(2, 3, "Saving the standings")
    _write(event, rows, after, _stored(event))
    return len(rows)


@atomic_retrying
def standings_apply(*, event: Event, entrants: Collection[int]) -> int:
    """Bring the stored standings up to date after the results of ``entrants`` changed (their
    table's result was confirmed or corrected). Returns the number of rows written.

    What it works out again is what those results touch: the figures of those players (and of
    the players on a bye in their tables' rounds, whose game score is the round's average), the
    opponents' figures of everyone who met one of them, and the head-to-head value of whoever
    changed group before that tiebreak and of those they met in their old or new group. So a
    confirmation costs about the same at 1,000 players as at 24: the rows it works out and
    writes are those few dozen players' (the places are read, not stored: ``standings_ranked``).

    Falls back to ``standings_store`` when the stored rows cannot be trusted to hold the rest
    (an entrant who has results but no row yet: the standings were never stored; rows stored
    before a figure was kept), and for the knockout formats, ranked by the stage reached before
    the points.
    """

    if event.format in KNOCKOUT_FORMATS:
        # Ranked by the stage each player reached first: the whole computation (a knockout
        # halves its field every round, so it stays small where it costs).
        return standings_store(event=event)
    standings_lock(event)
    tiebreaks: tuple[Tiebreak, ...] = tuple(event.tiebreaks or DEFAULT_TIEBREAKS)  # type: ignore[arg-type]
    with_h2h = "head_to_head" in tiebreaks
    rounds = list(
        Round.objects.filter(event=event)
        .exclude(status=Round.Status.DRAFT)
        .order_by()
        .values_list("pk", "number", "status")
    )
    number_of = {pk: number for pk, number, _ in rounds}
    rowless = list(Entrant.objects.filter(event=event, standings__isnull=True).values_list("pk", flat=True))
    if rowless and Seat.objects.filter(entrant_id__in=rowless, table__round_id__in=list(number_of)).exists():
        return standings_store(event=event)  # results, but no row: the standings were never stored
    unkept = Q(sonneborn_berger__isnull=True) | Q(buchholz_cut1__isnull=True)
    if Standing.objects.filter(
        unkept | Q(head_to_head__isnull=True) if with_h2h else unkept, event=event
    ).exists():
        return standings_store(event=event)  # rows stored before a figure was kept
    changed = set(entrants) & set(
        Entrant.objects.filter(event=event, pk__in=list(entrants)).values_list("pk", flat=True)
    )

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
    meetings, bye_rounds = _meetings(tables, scheme)
    averages = _round_averages({r for e in changed for r in bye_rounds.get(e, ())})
    # The stored rows of those whose figures are worked out again, and more as the head to head
    # below asks; of the others at those tables (the opponents' opponents, some hundreds in a
    # big event's later rounds) only their points, which is all their opponents' figures need.
    # (With head to head they are read whole all the same, since its groups need their figures.)
    ring = {s[0] for t in tables.values() for s in t.seats} - changed - opponents
    stored = _stored(
        event, tiebreaks=False, entrants=changed | opponents | set(rowless) | (ring if with_h2h else set())
    )
    ring -= stored.keys()
    figures: dict[int, Figures] = {}

    def read(players: Collection[int]) -> None:
        wanted = [p for p in players if p not in stored]
        if wanted:
            stored.update(_stored(event, tiebreaks=False, entrants=wanted))
        for p in players:
            row = stored.get(p)
            if p not in figures and row is not None:
                figures[p] = Figures() if row.values is None else _figures_of(row.values)

    for entrant in changed:
        byes = [averages[r] for r in bye_rounds.get(entrant, ())]
        figures[entrant] = own_figures(meetings.get(entrant, []), byes, scheme, bye)
    read(list(stored))
    points = _points(event, ring)
    points.update((p, f.points) for p, f in figures.items())
    rewrite = changed | opponents
    for entrant in rewrite:
        opponent_figures(figures[entrant], meetings.get(entrant, []), points)

    lowest_wins = game_info(event.game).lowest_wins
    h2h: dict[int, float | None] = {}
    if with_h2h:
        # Head to head counts within the group tied before it: it changes for whoever changed
        # group, and for everyone who met one of them (they joined or left that one's group).
        keys: dict[int, tuple[float, ...]] = {}

        def key(p: int) -> tuple[float, ...]:
            found = keys.get(p)
            if found is None:
                read([p])
                found = keys[p] = prefix_key(figures[p], tiebreaks, lowest_wins)
            return found

        was = {
            p: None
            if stored[p].values is None
            else prefix_key(_figures_of(stored[p].values), tiebreaks, lowest_wins)  # type: ignore[arg-type]
            for p in rewrite
        }
        # Of those who met a player who changed group, only the ones in that player's old or new
        # group count them in their head to head.
        met_moved: set[int] = set()
        for p in rewrite:
            groups = (key(p), was[p])
            if groups[0] == groups[1]:
                continue
            for m in meetings.get(p, []):
                for o, _ in m.opponents:
                    if o not in rewrite and o not in met_moved and key(o) in groups:
                        met_moved.add(o)
        if met_moved:
            more, _ = _meetings(_tables(met_moved, number_of), scheme)
            for p in met_moved:
                meetings[p] = more.get(p, [])
            read({o for p in met_moved for m in meetings[p] for o, _ in m.opponents})
        rewrite |= met_moved
        for p in rewrite | set(rowless):
            outcomes: dict[int, list[int]] = {}
            for m in meetings.get(p, []):
                for other, theirs in m.opponents:
                    outcomes.setdefault(other, []).append((theirs > m.place) - (theirs < m.place))
            group = key(p)
            h2h[p] = head_to_head(p, outcomes, {o for o in outcomes if key(o) == group})
    after = _after_round(rounds)
    new: list[Standing] = []
    whole: list[tuple[Any, ...]] = []
    for player in rewrite | set(rowless):
        f = figures[player]
        row = stored[player]
        mine = h2h.get(player) if with_h2h else None
        values: dict[Tiebreak, dict[int, float]] = {
            tb: {player: tiebreak_value(f, tb, lowest_wins)} for tb in tiebreaks if tb != "head_to_head"
        }
        if with_h2h:
            values["head_to_head"] = {player: float(mine or 0.0)}
        shown = [list(pair) for pair in shown_tiebreaks(player, tiebreaks, values, lowest_wins)]
        rank = row.values[0] if row.values is not None else 0
        line = (rank, *_line(f), mine, shown)
        if row.values is None:
            new.append(_standing(event, player, line, after))
        else:
            whole.append((row.pk, *line))
    return _save(event, after, stored, new=new, whole=whole, moved=[])


def _meetings(
    tables: dict[int, _Table], scheme: Any
) -> tuple[dict[int, list[Meeting]], dict[int, list[int]]]:
    """Each player's counted tables as meetings, and the rounds of their byes, from ``tables``."""
    meetings: dict[int, list[Meeting]] = {}
    bye_rounds: dict[int, list[int]] = {}
    for table in tables.values():
        if table.is_bye:
            for entrant, *_ in table.seats:
                bye_rounds.setdefault(entrant, []).append(table.round)
        elif table.counts:
            for entrant, meeting in table_meetings(_result(table), scheme):
                meetings.setdefault(entrant, []).append(meeting)
    return meetings, bye_rounds


# Each tiebreak's column.
_COLUMN = {
    "tournament_points": "points",
    "game_points": "game_points",
    "opponents_average": "opponents_average",
    "wins": "wins",
    "head_to_head": "head_to_head",
    "buchholz_cut1": "buchholz_cut1",
    "sonneborn_berger": "sonneborn_berger",
}


class _Whole(Func):
    """A floating-point value rounded to a whole number, as a floating-point value: ``ROUND(x)``
    of the one argument. (Django's ``Round`` casts the value to ``numeric`` on PostgreSQL, which
    made ranking the standings of a big event some ten times dearer; the values, in billionths,
    are whole numbers far below 2**53, exact as doubles.)"""

    function = "ROUND"
    arity = 1
    output_field = FloatField()


def _sort_keys(event: Event) -> list[tuple[str, Any, bool]]:
    """The standings' sort keys, best first: (name, the value in billionths rounded, whether
    higher is better), one per tiebreak (game points the lowest first where the lowest wins)."""

    lowest_wins = game_info(event.game).lowest_wins
    keys = []
    for tb in event.tiebreaks or DEFAULT_TIEBREAKS:
        billionths = _Whole(Cast(Coalesce(F(_COLUMN[tb]), 0.0), FloatField()) * Value(1e9))
        keys.append((f"key_{tb}", billionths, not (tb == "game_points" and lowest_wins)))
    return keys


def standings_ranked(event: Event) -> QuerySet[Any]:
    """The event's stored rows, each with its ``place``: worked out as they are read, in SQL,
    from the tiebreak values (RANK() over them: players level on every tiebreak share a place,
    the values compared to 9 decimals, in billionths, as ``pairing.standings`` compares them),
    so that a confirmation writes only the rows whose figures change. A knockout's place is its
    stored rank (by the stage reached first, worked out whole). Unordered: order by ``place``.
    (Filter these rows on a column and the window sees only what is left: for one row's place
    and what comes before it, ``standings_ahead``.)"""

    rows = Standing.objects.filter(event=event)
    if event.format in KNOCKOUT_FORMATS:
        return rows.annotate(place=F("rank"))
    order = [key.desc() if higher else key.asc() for _, key, higher in _sort_keys(event)]
    if not order:
        return rows.annotate(place=Value(1, output_field=IntegerField()))
    return rows.annotate(place=Window(Rank(), order_by=order))


@dataclass(frozen=True)
class Ahead:
    """One entrant's stored row (``columns`` asked of ``standings_ahead``), its place, how many
    rows come before it in the standings' order, and how many rows there are."""

    row: tuple[Any, ...]
    place: int
    ahead: int
    count: int


def standings_ahead(event: Event, entrant: int, columns: Sequence[str] = ()) -> Ahead | None:
    """The entrant's row (its ``columns``), place, and how many rows come before theirs in the
    standings' order (place, then name, then entry), and how many rows there are: counted in
    SQL, two queries whatever the number of players. None while the entrant has no row."""

    rows = Standing.objects.filter(event=event)
    if event.format in KNOCKOUT_FORMATS:
        keys: list[tuple[str, Any, bool]] = [("key_rank", F("rank"), False)]
    else:
        keys = _sort_keys(event)
    keyed = rows.annotate(**{name: value for name, value, _ in keys}, name=F("entrant__player__name"))
    names = [name for name, _, _ in keys]
    found = keyed.filter(entrant_id=entrant).values_list(*names, "name", *columns).first()
    if found is None:
        return None
    mine = dict(zip([*names, "name"], found, strict=False))
    better = Q(pk__in=[])
    level = Q()
    for name, _, higher in keys:
        better |= level & Q(**{f"{name}__{'gt' if higher else 'lt'}": mine[name]})
        level &= Q(**{name: mine[name]})
    before_in_place = level & (Q(name__lt=mine["name"]) | Q(name=mine["name"], entrant_id__lt=entrant))
    counted = keyed.aggregate(
        better=Count("pk", filter=better), before=Count("pk", filter=before_in_place), count=Count("pk")
    )
    place = 1 + counted["better"]
    return Ahead(tuple(found[len(names) + 1 :]), place, place - 1 + counted["before"], counted["count"])


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
    # The tables by a subquery, not a join: a join lists a seat once for each of the players
    # at its table.
    tables = Seat.objects.filter(entrant_id__in=list(players), table__round_id__in=list(round_ids))
    query = Seat.objects.filter(table_id__in=tables.values("table_id"))
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
        line = (r.rank, *_line(r), r.head_to_head, [[name, value] for name, value in r.tiebreaks])
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
    from ..core.cache import standings_changed

    if gone:
        Standing.objects.filter(pk__in=gone).delete()
    rounds = Standing.objects.filter(event=event).exclude(after_round=after).update(after_round=after)
    _update(whole, FIGURES)
    _update(moved, FIGURES[:1])
    Standing.objects.bulk_create(new, batch_size=2000)
    if new or whole or moved or gone or rounds:
        standings_changed(event.pk)  # the rows are written in bulk: no signal says so
    return len(new) + len(whole) + len(moved)


def _standing(
    event: Event, entrant: int, values: tuple[Any, ...], after: int, pk: int | None = None
) -> Standing:
    (
        rank_,
        points,
        game_points,
        average,
        wins,
        games,
        byes,
        sonneborn_berger,
        buchholz_cut1,
        h2h,
        tiebreaks,
    ) = values
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
        head_to_head=h2h,
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
    ("head_to_head", "double precision"),
    ("tiebreaks", "jsonb"),
)


def _update(rows: Sequence[tuple[Any, ...]], columns: Sequence[tuple[str, str]]) -> None:
    """Set ``columns`` of standings rows, each given as ``(pk, *values)``: one UPDATE from arrays
    (PostgreSQL) or from a list of values per 2,000 rows (SQLite), not a statement per row, nor
    the CASE per column and row that ``bulk_update`` builds."""
    if not rows:
        return
    names = [name for name, _ in columns]
    if connection.vendor not in ("postgresql", "sqlite") or (
        connection.vendor == "sqlite" and sqlite3.sqlite_version_info < (3, 33)
    ):
        objects = [Standing(pk=row[0], **dict(zip(names, row[1:], strict=True))) for row in rows]
        Standing.objects.bulk_update(objects, names, batch_size=200)
        return
    table = connection.ops.quote_name(Standing._meta.db_table)
    if connection.vendor == "postgresql":
        # One array a column, unnested: a statement of as many parameters as columns however many
        # rows. (A VALUES list of a parameter a value is a statement psycopg splits again at each
        # call: past a few kilobytes it keeps no parsed copy, and splitting one of some hundreds
        # of parameters cost more than the update itself.)
        arrays = ", ".join(
            f"%s::{'text' if kind == 'jsonb' else kind}[]" for kind in ("bigint", *(k for _, k in columns))
        )
        sets = ", ".join(
            f"{connection.ops.quote_name(name)} = v.column{i}{'::jsonb' if kind == 'jsonb' else ''}"
            for i, (name, kind) in enumerate(columns, start=2)
        )
        aliases = ", ".join(f"column{i}" for i in range(1, len(columns) + 2))
        sql = f"UPDATE {table} SET {sets} FROM unnest({arrays}) AS v({aliases}) WHERE {table}.id = v.column1"
        params = [
            [json.dumps(x) if isinstance(x, list) else x for x in column]
            for column in zip(*rows, strict=True)
        ]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
        return
    one = "(" + ", ".join(["%s"] * (len(columns) + 1)) + ")"
    sets = ", ".join(
        f"{connection.ops.quote_name(name)} = v.column{i}" for i, name in enumerate(names, start=2)
    )
    limit = min(connection.features.max_query_params or 30000, 30000)  # parameters a statement
    per_statement = max(1, min(2000, limit // (len(columns) + 1)))
    for start in range(0, len(rows), per_statement):
        part = rows[start : start + per_statement]
        values = ", ".join([one] * len(part))
        sql = f"UPDATE {table} SET {sets} FROM (VALUES {values}) AS v WHERE {table}.id = v.column1"
        flat = [json.dumps(x) if isinstance(x, list) else x for row in part for x in row]
        with connection.cursor() as cursor:
            cursor.execute(sql, flat)


def standings_recompute_queue(*, event: Event, user: Any = None) -> Job:
    """Queue a full recompute of the standings; one job however many ask before it starts."""
    return job_queue(
        kind="standings",
        label=f"Recompute the standings of {event.name}",
        task=recompute_standings_task,
        params={"event": event.pk},
        key=f"standings:{event.pk}",
        user=user,
    )
