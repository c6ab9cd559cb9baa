"""Who may act on an event, and the event's lock: the bottom of the app's write path.

Every change of an event's state (or of its rounds, tables and entrants) takes the event's lock
first (``locked_event``) and reads the state it acts on after it (``core.locks``); who may make
it is checked here (``require_organiser``, ``own_or_organiser``). The rounds (``rounds``), the
entrants and the rest of the services build on these.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from ..clubs.models import Role
from ..clubs.selectors import has_club_role
from ..core.locks import Conflict, lock_event
from .draw import plan_round as plan_round
from .draw import repeats_notes as repeats_notes
from .models import (
    Entrant,
    Event,
)
from .scoring import DEFAULT_TIEBREAKS as DEFAULT_TIEBREAKS
from .scoring import KNOCKOUT_FORMATS as KNOCKOUT_FORMATS
from .scoring import bye_scoring as bye_scoring
from .scoring import points_scheme as points_scheme
from .scoring import standings_compute as standings_compute


def require_organiser(*, user: Any, event: Event) -> None:
    if not has_club_role(user=user, club=event.club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can do that.")


def next_round_number(event: Event) -> int:
    last = event.round_set.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def not_over(event: Event) -> None:
    if event.status == Event.Status.FINISHED:
        raise Conflict("This event is over: its entrants stay as they were.")


def locked_event(event: Event) -> Event:
    """The event's row, locked: every change of an event's state (or of its rounds, tables and
    entrants) takes this lock first and reads the state it acts on after it (``core.locks``).
    Refused in words when the event was deleted meanwhile."""
    try:
        return lock_event(event.pk)
    except Event.DoesNotExist:
        raise Conflict(f"{event.name} was deleted meanwhile.") from None


def locked_entrant(entrant: Entrant) -> tuple[Event, Entrant]:
    """The entrant's event locked, then the entrant as it is now (its own row locked too)."""
    event = locked_event(entrant.event)
    current = (
        Entrant.objects.select_for_update(no_key=True, of=("self",))
        .select_related("player")
        .filter(pk=entrant.pk)
        .first()
    )
    if current is None:
        raise Conflict(f"{entrant.player.name} is no longer entered in {event.name}.")
    current.event = event
    return event, current


def own_or_organiser(user: Any, entrant: Entrant) -> None:
    own = getattr(user, "player", None)
    if not (
        (own is not None and own.pk == entrant.player_id)
        or has_club_role(user=user, club=entrant.event.club, role=Role.ORGANISER)
    ):
        raise PermissionDenied("Only the player or an organiser can do that.")
