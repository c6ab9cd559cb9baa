"""Read-side queries for events."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, FloatField, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce

from .models import Entrant, Event, Round


@dataclass
class StandingRow:
    rank: int
    entrant: Entrant
    points: float
    game_points: float
    wins: int
    played: int


def event_rounds(*, event: Event) -> QuerySet[Round]:
    return event.round_set.prefetch_related("tables__seats__entrant__player").order_by("number")


def standings_get(*, event: Event) -> list[StandingRow]:
    """Standings by tournament points, then game points (in the game's direction), then wins.

    One query whatever the number of entrants.
    """
    rows = (
        Entrant.objects.filter(event=event)
        .select_related("player")
        .annotate(
            t_points=Coalesce(Sum("seats__points"), Value(0.0), output_field=FloatField()),
            g_points=Coalesce(Sum("seats__score"), Value(0.0), output_field=FloatField()),
            n_wins=Count("seats", filter=Q(seats__place=1)),
            n_played=Count("seats", filter=Q(seats__place__isnull=False)),
        )
    )
    from games import game_info

    sign = 1 if game_info(event.game).lowest_wins else -1
    ordered = sorted(rows, key=lambda e: (-e.t_points, sign * e.g_points, -e.n_wins, e.player.name))
    out: list[StandingRow] = []
    previous: tuple[float, float, int] | None = None
    for index, e in enumerate(ordered, start=1):
        key = (e.t_points, e.g_points, e.n_wins)
        rank = out[-1].rank if previous == key and out else index
        out.append(StandingRow(rank, e, e.t_points, e.g_points, e.n_wins, e.n_played))
        previous = key
    return out
