"""Write-side operations for events."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from games import game_info

from ..clubs.models import Club
from .models import Event

DEFAULT_POINTS = {2: [3, 0], 3: [3, 1, 0], 4: [4, 2, 1, 0], 5: [5, 3, 2, 1, 0], 6: [6, 4, 3, 2, 1, 0]}
DEFAULT_TIEBREAKS = ["points", "game_points", "opponents", "wins", "head_to_head"]


@transaction.atomic
def event_create(
    *,
    club: Club,
    user: Any,
    name: str,
    game: str,
    format: str,
    rounds: int,
    table_size: int,
    kind: str = Event.Kind.TOURNAMENT,
    bye_rule: str = Event.ByeRule.WIN,
    starts: datetime | None = None,
    options: dict[str, Any] | None = None,
) -> Event:
    game_info(game)  # raises for an unknown game
    return Event.objects.create(
        club=club,
        name=name.strip(),
        game=game,
        kind=kind,
        format=format,
        rounds=rounds,
        table_size=table_size,
        bye_rule=bye_rule,
        starts=starts,
        options=options or {},
        points_by_place=DEFAULT_POINTS[table_size],
        tiebreaks=DEFAULT_TIEBREAKS,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


def table_size_problem(*, game: str, table_size: int) -> str | None:
    """Why a game cannot be played at tables of that size, or None."""
    info = game_info(game)
    if table_size in info.seats:
        return None
    return f"{info.title} is played by {info.seats.start} to {info.seats.stop - 1} players."
