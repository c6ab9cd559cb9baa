"""Read-side queries for events. Each page's query count does not grow with the number of players."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, QuerySet

from ..core.models import Job
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


def standings_get(*, event: Event) -> list[StandingLine]:
    """The stored standings (one query); computed on the spot if the job has not run yet."""
    rows = list(
        Standing.objects.filter(event=event)
        .order_by("rank", "entrant__player__name")
        .values_list(
            "rank",
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
        )
    )
    if not rows and Entrant.objects.filter(event=event).exists():
        from .services import standings_compute

        names = dict(Entrant.objects.filter(event=event).values_list("pk", "player__name"))
        players = dict(Entrant.objects.filter(event=event).values_list("pk", "player_id"))
        dropped = dict(Entrant.objects.filter(event=event).values_list("pk", "dropped_after"))
        return [
            StandingLine(
                r.rank,
                names[r.player],
                players[r.player],
                r.player,
                r.points,
                r.game_points,
                r.opponents_average,
                r.wins,
                r.games,
                r.byes,
                dropped[r.player] is not None,
            )
            for r in standings_compute(event)
        ]
    return [StandingLine(*row[:10], row[10] is not None) for row in rows]


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


def league_table(*, league: Any) -> list[LeagueLine]:
    """A season's table: tournament points summed over its events (one query)."""
    from django.db.models import Count, Q, Sum

    rows = (
        Seat.objects.filter(table__round__event__league=league, place__isnull=False)
        .values("entrant__player_id", "entrant__player__name")
        .annotate(
            total=Sum("points"),
            games=Count("pk"),
            wins=Count("pk", filter=Q(place=1)),
            events=Count("table__round__event", distinct=True),
        )
        .order_by("-total", "-wins", "entrant__player__name")
    )
    out: list[LeagueLine] = []
    previous: tuple[float, int] | None = None
    for index, row in enumerate(rows, start=1):
        key = (row["total"] or 0.0, row["wins"])
        rank = out[-1].rank if out and key == previous else index
        out.append(
            LeagueLine(
                rank,
                row["entrant__player__name"],
                row["entrant__player_id"],
                row["total"] or 0.0,
                row["events"],
                row["games"],
                row["wins"],
            )
        )
        previous = key
    return out
