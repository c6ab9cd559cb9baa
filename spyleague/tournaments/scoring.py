"""An event read as the pure ``pairing`` package's plain data, and scored by it.

``rounds_data`` reads every published round with its results (two queries whatever the size);
``standings_compute`` ranks them with the event's points, byes and tiebreaks. Below the writes:
the stored standings (``standings``) and the services (pairing, results) both build on this.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from games import game_info
from pairing.history import Round as PRound
from pairing.standings import (
    ByeScoring,
    PointsScheme,
    RoundResult,
    SeatResult,
    StandingsRow,
    TableResult,
    balanced_scheme,
    compute_standings,
)

from .models import Entrant, Event, Round, Seat, Table

DEFAULT_TIEBREAKS = ["tournament_points", "game_points", "opponents_average", "wins", "head_to_head"]


RoundsData = list[tuple[Round, PRound, RoundResult | None]]


def rounds_data(event: Event) -> list[tuple[Round, PRound, RoundResult | None]]:
    """Every published round as a pairing ``Round`` and, for the results in, a ``RoundResult``.

    Two queries whatever the event's size.
    """
    rounds = list(event.round_set.exclude(status=Round.Status.DRAFT).order_by("number"))
    seats_by_table: dict[int, list[tuple[int, int, int | None, float | None]]] = {}
    tables_by_round: dict[int, list[tuple[int, bool, str]]] = {}
    for table_id, round_id, is_bye, status in (
        Table.objects.filter(round__in=rounds)
        .order_by("round_id", "number")
        .values_list("pk", "round_id", "is_bye", "status")
    ):
        tables_by_round.setdefault(round_id, []).append((table_id, is_bye, status))
    for table_id, entrant_id, position, place, score in (
        Seat.objects.filter(table__round__in=rounds)
        .order_by("table_id", "position")
        .values_list("table_id", "entrant_id", "position", "place", "score")
    ):
        seats_by_table.setdefault(table_id, []).append((entrant_id, position, place, score))
    out: list[tuple[Round, PRound, RoundResult | None]] = []
    for rnd in rounds:
        tables: list[tuple[int, ...]] = []
        byes: list[int] = []
        results: list[TableResult] = []
        for table_id, is_bye, status in tables_by_round.get(rnd.pk, []):
            seats = seats_by_table.get(table_id, [])
            if is_bye:
                byes.extend(s[0] for s in seats)
                continue
            tables.append(tuple(s[0] for s in seats))
            if status == Table.Status.CONFIRMED and all(s[2] is not None for s in seats):
                results.append(
                    TableResult(tuple(SeatResult(s[0], int(s[2] or 0), float(s[3] or 0.0)) for s in seats))
                )
        out.append((rnd, PRound(tuple(tables), tuple(byes)), RoundResult(tuple(results), tuple(byes))))
    return out


def points_scheme(event: Event) -> PointsScheme:
    """The event's points by place at its own tables, and at tables one seat shorter or longer
    the points that pay a seat the same on average (``pairing.standings.balanced_scheme``)."""
    points = event.points_by_place if len(event.points_by_place or ()) == event.table_size else None
    return balanced_scheme(event.table_size, points)


def bye_scoring(event: Event) -> ByeScoring:
    rule = {"win": "win", "draw": "draw", "average": "average", "zero": "fixed"}[event.bye_rule]
    return ByeScoring(rule=rule, table_size=event.table_size)  # type: ignore[arg-type]


def standings_compute(
    event: Event, data: list[tuple[Round, PRound, RoundResult | None]] | None = None
) -> tuple[StandingsRow, ...]:
    data = rounds_data(event) if data is None else data
    entrants = list(Entrant.objects.filter(event=event).values_list("pk", flat=True))
    rows = compute_standings(
        [r for _, _, r in data if r is not None],
        tiebreaks=tuple(event.tiebreaks or DEFAULT_TIEBREAKS),  # type: ignore[arg-type]
        points=points_scheme(event),
        bye=bye_scoring(event),
        lowest_wins=game_info(event.game).lowest_wins,
        players=entrants,
    )
    if event.format in KNOCKOUT_FORMATS:
        rows = _by_stage_reached(rows, data)
    return rows


KNOCKOUT_FORMATS = (Event.Format.KNOCKOUT, Event.Format.GROUPS_KNOCKOUT)


def _by_stage_reached(
    rows: Sequence[StandingsRow], data: Sequence[tuple[Round, PRound, RoundResult | None]]
) -> tuple[StandingsRow, ...]:
    """A knockout's standings: whoever went furthest first, then by their place at the last
    table they played there (the final's winner is first, its runner-up second ...), then as
    the points and tiebreaks have them. Group rounds all count as one stage before the bracket,
    where points decide. Ruling: a bye in a knockout round counts as reaching it, placed after
    those who played there."""
    reached: dict[int, tuple[int, int]] = {}  # player: (round number, -place); higher is better
    for rnd, _, result in data:
        if rnd.stage == "group" or result is None:
            continue
        for table in result.tables:
            for seat in table.seats:
                reached[seat.player] = (rnd.number, -seat.place)
        for player in result.byes:
            reached[player] = (rnd.number, -(10**6))
    key = {r.player: (reached.get(r.player, (0, 0)), -r.rank) for r in rows}
    ordered = sorted(rows, key=lambda r: key[r.player], reverse=True)
    out: list[StandingsRow] = []
    for index, row in enumerate(ordered):
        same = index and key[row.player] == key[ordered[index - 1].player]
        out.append(dataclasses.replace(row, rank=out[-1].rank if same else index + 1))
    return tuple(out)
