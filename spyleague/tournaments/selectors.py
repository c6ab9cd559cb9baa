"""Read-side queries for events. Each page's query count does not grow with the number of players."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import (
    Count,
    Exists,
    F,
    FloatField,
    IntegerField,
    Min,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    Window,
)
from django.db.models.functions import Rank
from django.db.models.functions import Round as Round_

from ..core.models import Job
from ..core.prepared import Prepared
from .models import Entrant, Event, Round, Seat, Standing, Table


@dataclass
class StandingLine:
    rank: int
    name: str
    player_id: int
    entrant_id: int
    points: float
    game_points: float
    opponents_average: float
    wins: int
    games: int
    byes: int
    dropped: bool
    sonneborn_berger: float | None = None
    buchholz_cut1: float | None = None


STANDING_COLUMNS = (
    "place",
    "entrant__player__name",
    "entrant__player_id",
    "entrant_id",
    "points",
    "game_points",
    "opponents_average",
    "wins",
    "games",
    "byes",
    "entrant__dropped_after",
    "sonneborn_berger",
    "buchholz_cut1",
)


def _line(row: Sequence[Any]) -> StandingLine:
    rank, name, player, entrant, points, game_points, average, wins, games, byes, dropped, sb, bh = row
    return StandingLine(
        rank,
        name,
        player,
        entrant,
        points,
        game_points,
        average,
        wins,
        games,
        byes,
        dropped is not None,
        sb,
        bh,
    )


def _stored_standings(event: Event) -> QuerySet[Standing]:
    """The stored rows in standings order (ties by name, then by entry)."""
    from .standings import standings_ranked

    return standings_ranked(event).order_by("place", "entrant__player__name", "entrant_id")


def _computed_standings(event: Event) -> list[StandingLine]:
    """The standings worked out on the spot (before they were ever stored)."""
    from .services import standings_compute

    entrants = {
        pk: (name, player, dropped)
        for pk, name, player, dropped in Entrant.objects.filter(event=event).values_list(
            "pk", "player__name", "player_id", "dropped_after"
        )
    }
    lines = [
        StandingLine(
            r.rank,
            entrants[r.player][0],
            entrants[r.player][1],
            r.player,
            r.points,
            r.game_points,
            r.opponents_average,
            r.wins,
            r.games,
            r.byes,
            entrants[r.player][2] is not None,
            r.sonneborn_berger,
            r.buchholz_cut1,
        )
        for r in standings_compute(event)
    ]
    return sorted(lines, key=lambda line: (line.rank, line.name, line.entrant_id))


def _nothing_scored(event: Event) -> bool:
    """No result confirmed and no bye in a round that counts: everyone is level on nothing."""
    return (
        not Table.objects.filter(Q(status=Table.Status.CONFIRMED) | Q(is_bye=True), round__event=event)
        .exclude(round__status=Round.Status.DRAFT)
        .exists()
    )


def _level_standings(event: Event) -> QuerySet[Entrant, tuple[Any, ...]]:
    """The standings before anything is scored, as stored rows would say them: every entrant
    first equal on nothing, by name. A query, so that a page of it is a LIMIT."""
    zero, nothing = Value(0.0, output_field=FloatField()), Value(0, output_field=IntegerField())
    return (
        Entrant.objects.filter(event=event)
        .order_by("player__name", "pk")
        .values_list(
            Value(1, output_field=IntegerField()),
            "player__name",
            "player_id",
            "pk",
            zero,
            zero,
            zero,
            nothing,
            nothing,
            nothing,
            "dropped_after",
            zero,
            zero,
        )
    )


def standings_rows(*, event: Event) -> QuerySet[Any, tuple[Any, ...]] | list[StandingLine]:
    """The standings in their order, to be paged: a query of the stored rows (or, before anything
    is scored, of the entrants), so that a page reads only its rows. While results are in and
    the standings have not been stored yet (a moment after the first confirmation), the list
    worked out on the spot."""
    rows = _stored_standings(event).values_list(*STANDING_COLUMNS)
    if rows.exists() or not Entrant.objects.filter(event=event).exists():
        return rows
    if _nothing_scored(event):
        return _level_standings(event)
    return _computed_standings(event)


def standing_line(row: Sequence[Any] | StandingLine) -> StandingLine:
    """A row of ``standings_rows`` as a line."""
    return row if isinstance(row, StandingLine) else _line(row)


def standings_get(*, event: Event) -> list[StandingLine]:
    """The whole stored standings (one query); computed on the spot if they were never stored."""
    rows = list(_stored_standings(event).values_list(*STANDING_COLUMNS))
    if not rows and Entrant.objects.filter(event=event).exists():
        return _computed_standings(event)
    return [_line(row) for row in rows]


@dataclass
class StandingsPage:
    """One page of the standings, and the viewer's own line wherever it is."""

    page: Page[Any]
    lines: list[StandingLine]
    mine: StandingLine | None = None
    my_page: int | None = None


STANDINGS_PER_PAGE = 50


def standings_page(
    *, event: Event, page: Any = 1, entrant: int | None = None, per_page: int = STANDINGS_PER_PAGE
) -> StandingsPage:
    """A page of the stored standings (``page`` as the address gives it: out of range or not a
    number, the nearest page), and ``entrant``'s own line and the page it is on. A few queries
    whatever the number of players: a count, the page, the entrant's line and its place."""
    rows = _stored_standings(event)
    if not rows.exists() and Entrant.objects.filter(event=event).exists():
        if _nothing_scored(event):
            return _level_page(event=event, page=page, entrant=entrant, per_page=per_page)
        everyone = _computed_standings(event)
        computed = Paginator(everyone, per_page).get_page(page)
        at = next((i for i, line in enumerate(everyone) if line.entrant_id == entrant), None)
        if at is None:
            return StandingsPage(computed, list(computed.object_list))
        return StandingsPage(computed, list(computed.object_list), everyone[at], at // per_page + 1)
    shown = Paginator(rows.values_list(*STANDING_COLUMNS), per_page).get_page(page)
    out = StandingsPage(shown, [_line(row) for row in shown.object_list])
    if entrant is not None:
        mine = my_standing(event=event, entrant=entrant)
        if mine is not None:
            out.mine, ahead, _count = mine
            out.my_page = ahead // per_page + 1
    return out


# A page of the standings' rows by id: every page of them and every player's own line asks
# (compiled once for each length of page, ``core.prepared``).
_LINES_OF = Prepared(
    lambda event, ids: Standing.objects.filter(event_id=event, entrant_id__in=ids).values_list(
        *STANDING_COLUMNS[1:]
    )
)


@dataclass(frozen=True)
class StandingsOrder:
    """The stored standings' order: each entrant's id and place, first to last (``standings_order``).

    Small (two integers a row) and the same for every reader until the standings, a name or the
    event change, so it is worked out once per version and kept (``event_parts``): a page of
    the standings then reads its rows by id, and a player's line is found without counting."""

    entrants: tuple[int, ...]
    places: tuple[int, ...]

    @cached_property
    def _at(self) -> dict[int, int]:
        return {entrant: i for i, entrant in enumerate(self.entrants)}

    def __len__(self) -> int:
        return len(self.entrants)

    def position(self, entrant: int) -> int | None:
        """How many rows come before the entrant's (None when they have no row)."""
        return self._at.get(entrant)

    def page(self, *, event: Event, page: Any, per_page: int = STANDINGS_PER_PAGE) -> StandingsPage:
        """A page of the standings (``page`` as the address gives it): its rows read by id."""
        shown = Paginator(range(len(self.entrants)), per_page).get_page(page)
        ids = [self.entrants[i] for i in shown.object_list]
        return StandingsPage(shown, self.lines(event=event, entrants=ids))

    def lines(self, *, event: Event, entrants: Sequence[int]) -> list[StandingLine]:
        """The lines of ``entrants`` (of this order), in the order given: one query."""
        rows = {row[2]: row for row in _LINES_OF.list(event.pk, list(entrants))}
        return [
            _line((self.places[at], *rows[entrant]))
            for entrant in entrants
            if entrant in rows and (at := self._at.get(entrant)) is not None
        ]


def standings_order(*, event: Event) -> StandingsOrder | None:
    """The stored standings' order (one query), or None while none are stored."""
    rows: list[tuple[int, int]] = list(_stored_standings(event).values_list("entrant_id", "place"))  # type: ignore[misc]  # (an annotation)
    if not rows:
        return None
    entrants, places = zip(*rows, strict=True)
    return StandingsOrder(tuple(entrants), tuple(places))


def my_standing(*, event: Event, entrant: int) -> tuple[StandingLine, int, int] | None:
    """The entrant's stored line, with its place, how many lines come before it and how many
    lines there are (None while they have no row): two queries. A filter on one row would leave
    the place's window only that row to rank: the place is counted (``standings.standings_ahead``)."""
    from .standings import standings_ahead

    found = standings_ahead(event, entrant, STANDING_COLUMNS[1:])
    if found is None:
        return None
    return _line((found.place, *found.row)), found.ahead, found.count


def _level_page(*, event: Event, page: Any, entrant: int | None, per_page: int) -> StandingsPage:
    """A page of the level standings (nothing scored yet), and the entrant's line and page."""
    level = _level_standings(event)
    shown = Paginator(level, per_page).get_page(page)
    out = StandingsPage(shown, [_line(row) for row in shown.object_list])
    if entrant is not None:
        row = level.filter(pk=entrant).first()
        if row is not None:
            out.mine = _line(row)
            name = row[1]
            ahead = level.filter(Q(player__name__lt=name) | Q(player__name=name, pk__lt=entrant)).count()
            out.my_page = ahead // per_page + 1
    return out


def my_table_id(*, event: Event, entrant: int | OuterRef) -> Subquery:
    """The entrant's table in the event's latest published round (None: they sit at none), as
    a subquery (of an entrant's row, ``entrant`` an ``OuterRef``)."""
    latest = (
        Seat.objects.filter(entrant_id=entrant, table__round__event=event)
        .exclude(table__round__status=Round.Status.DRAFT)
        .order_by("-table__round__number")
        .values("table_id")[:1]
    )
    return Subquery(latest)


def table_seats(*, table: int) -> list[tuple[Any, ...]]:
    """The seats of a table, in order, as (table id, number, is a bye, status, round number,
    entrant id, player name, place, score): one query, no model built."""
    columns = ("table_id", "table__number", "table__is_bye", "table__status", "table__round__number",
               "entrant_id", "entrant__player__name", "place", "score")  # fmt: skip
    return list(Seat.objects.filter(table_id=table).order_by("position").values_list(*columns))


def rounds_counted(*, event: Event) -> list[Round]:
    """The event's rounds in order, each with ``table_count`` (one query, no tables read)."""
    return list(event.round_set.annotate(table_count=Count("tables")).order_by("number"))


def round_tables(*, rnd: Round) -> QuerySet[Table]:
    """A round's tables in order, each with its seats and players (for a page of them)."""
    seats = Seat.objects.select_related("entrant__player").order_by("position")
    return (
        Table.objects.filter(round=rnd).order_by("number").prefetch_related(Prefetch("seats", queryset=seats))
    )


def rounds_listed(*, event: Event) -> QuerySet[Round]:
    """The event's rounds in order, each with ``table_count``, their tables not read (the API
    pages a round's tables at ``round_tables``)."""
    return event.round_set.annotate(table_count=Count("tables")).order_by("number")


def rounds_get(*, event: Event) -> QuerySet[Round]:
    seats = Seat.objects.select_related("entrant__player").order_by("position")
    tables = Table.objects.order_by("number").prefetch_related(Prefetch("seats", queryset=seats))
    return event.round_set.prefetch_related(Prefetch("tables", queryset=tables)).order_by("number")


def entrants_get(*, event: Event) -> QuerySet[Entrant]:
    return event.entrants.select_related("player").order_by("player__name")


def event_jobs(*, event: Event) -> list[Job]:
    keys = [f"pair:{event.pk}", f"standings:{event.pk}"]
    return list(Job.objects.filter(key__in=keys).order_by("-created")[:3])


def table_for(*, event: Event, table_id: int) -> Table | None:
    """The event's table with its seats and players, or None when the event has no such table."""
    return (
        Table.objects.select_related("round__event")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entrant__player").order_by("position"))
        )
        .filter(pk=table_id, round__event=event)
        .first()
    )


def current_round(rounds: Any) -> Round | None:
    live = [r for r in rounds if r.status != Round.Status.COMPLETE]
    return live[0] if live else None


@dataclass
class LeagueLine:
    rank: int
    name: str
    player_id: int
    points: float
    events: int
    games: int
    wins: int
    byes: int = 0


def league_table(*, league: Any) -> list[LeagueLine]:
    """A season's table by the league's written rule (``League.RULE``): the sum of its events'
    standings, so a league's points are exactly its events' points, byes counted as each event
    scored them, and its wins are the events' outright first places at a table (a shared first
    place is not a win, as in the standings).

    Read from the stored standings (one query); an event whose standings have not been stored yet
    is computed on the spot.
    """
    totals: dict[int, list[Any]] = {}  # player -> [name, points, events, games, wins, byes]

    def add(player: int, name: str, points: float, games: int, wins: int, byes: int) -> None:
        if not games and not byes:
            return  # entered, never played: not in the season's table
        line = totals.setdefault(player, [name, 0.0, 0, 0, 0, 0])
        line[1] += points
        line[2] += 1
        line[3] += games
        line[4] += wins
        line[5] += byes

    stored: set[int] = set()
    for event_id, player, name, points, games, wins, byes in Standing.objects.filter(
        event__league=league
    ).values_list(
        "event_id", "entrant__player_id", "entrant__player__name", "points", "games", "wins", "byes"
    ):
        stored.add(event_id)
        add(player, name, points, games, wins, byes)
    from .services import standings_compute

    played = [Round.Status.PUBLISHED, Round.Status.COMPLETE]
    missing = Event.objects.filter(league=league, round_set__status__in=played).exclude(pk__in=stored)
    for event in missing.distinct():
        players = dict(Entrant.objects.filter(event=event).values_list("pk", "player_id"))
        names = dict(Entrant.objects.filter(event=event).values_list("pk", "player__name"))
        for r in standings_compute(event):
            add(players[r.player], names[r.player], r.points, r.games, r.wins, r.byes)
    ordered = sorted(totals.items(), key=lambda kv: (-kv[1][1], -kv[1][4], kv[1][0], kv[0]))
    out: list[LeagueLine] = []
    previous: tuple[float, int] | None = None
    for index, (player, (name, points, events, games, wins, byes)) in enumerate(ordered, start=1):
        key = (round(points, 9), wins)
        rank = out[-1].rank if out and key == previous else index
        out.append(LeagueLine(rank, name, player, points, events, games, wins, byes))
        previous = key
    return out


def league_line(row: dict[str, Any] | LeagueLine) -> LeagueLine:
    """A row of ``league_table_rows`` as a line."""
    if isinstance(row, LeagueLine):
        return row
    return LeagueLine(
        row["rank"],
        row["name"],
        row["player"],
        row["total"],
        row["events"],
        row["played"],
        row["outright"],
        row["given"],
    )


def league_table_rows(*, league: Any) -> QuerySet[Any] | list[LeagueLine]:
    """The season's table (``league_table``) as a query to be paged: the sums of its events'
    stored standings by player, ranked by the database (a window function), so that a page
    reads only its rows. While an event of the season has results but no stored standings yet
    (a moment after its first confirmation), the table worked out whole by ``league_table``."""
    played = [Round.Status.PUBLISHED, Round.Status.COMPLETE]
    scored = Table.objects.filter(round__event=OuterRef("pk"), round__status__in=played).filter(
        Q(status=Table.Status.CONFIRMED) | Q(is_bye=True)
    )
    waiting = (
        Event.objects.filter(league=league)
        .exclude(Exists(Standing.objects.filter(event=OuterRef("pk"))))
        .filter(Exists(scored))
    )
    if waiting.exists():
        return league_table(league=league)
    ranked_by = (Round_(F("total"), 9).desc(), F("outright").desc())
    return (
        Standing.objects.filter(event__league=league)
        .filter(Q(games__gt=0) | Q(byes__gt=0))  # entered, never played: not in the season's table
        .values(player=F("entrant__player_id"))
        .annotate(
            name=Min("entrant__player__name"),
            total=Sum("points"),
            events=Count("event_id"),
            played=Sum("games"),
            outright=Sum("wins"),
            given=Sum("byes"),
        )
        .annotate(rank=Window(Rank(), order_by=ranked_by))
        .order_by(*ranked_by, "name", "player")
    )


@dataclass
class DraftNotes:
    """A draft's notes as the organiser reads them: the lines to read (why the round is as it
    is, the summary of repeated pairs, the swaps made by hand), and the long explanations of each
    repeated pair, folded away under the summary."""

    lines: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)


# An explanation of one repeated pair, as ``pairing.explain.explain_repeats`` writes it.
REPEAT_DETAIL = re.compile(r"^.+ and .+ meet again \(they met in rounds? [0-9, and]+\)\.")


def draft_notes(*, notes: Any) -> DraftNotes:
    out = DraftNotes()
    for note in notes if isinstance(notes, list) else []:
        text = str(note)
        (out.details if REPEAT_DETAIL.match(text) else out.lines).append(text)
    return out


def names_at_tables(*, rnd: Round) -> QuerySet[Seat, tuple[str, int, bool]]:
    """Everyone seated in the round by name, as (name, table number, is a bye): "find your
    name" on the screen, a page at a time."""
    return (
        Seat.objects.filter(table__round=rnd)
        .order_by("entrant__player__name", "table__number")
        .values_list("entrant__player__name", "table__number", "table__is_bye")
    )


def check_in_count(*, event: Event) -> tuple[int, int]:
    """(checked in, entered and not dropped out)."""
    counts = Entrant.objects.filter(event=event, dropped_after__isnull=True).aggregate(
        here=Count("pk", filter=Q(checked_in=True)), everyone=Count("pk")
    )
    return counts["here"], counts["everyone"]
