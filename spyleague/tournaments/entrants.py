"""Many entrants at once: registering a list of players, checking a list of entrants in.

What ``services.entrant_register`` and ``services.entrant_check_in`` do for one, done for a
list in a handful of queries whatever its length (a file of a thousand players is one request,
not a thousand), under the same rules:

- Only the club's organisers register or check in others (``PermissionDenied``).
- A finished event takes no entries and no check-ins; once a round is published only a Swiss
  takes late entries (a round robin's schedule and a knockout's draw are made for the players
  of round 1). A late entry joins at the next round, or at the draft's round when one is on the
  desk; the draft then follows the entries (``services.draft_follow``), once for the whole list,
  unless check-in has begun (then they play when checked in, as one at a time).
- A player registers in an event of the club they are a member or a guest of; a player already
  entered stays as they are; one who dropped out is not entered again.

All or nothing: when any item of the list cannot be done, nothing is, and ``ItemsRefused``
says which items and why, in words, by their place in the list (0 first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from ..clubs.models import Membership, Player
from ..core.locks import Conflict, atomic_retrying
from ..core.words import and_list
from . import guards, rounds, services
from .models import Entrant, Event, Round

# The most a list may hold (a file of players as well): an evening's club or a large open.
MAX_AT_ONCE = 2000


class ItemsRefused(ValidationError):
    """Some items of a list cannot be done, so none was: ``items`` maps each refused item's place
    in the list (0 first) to the reason, in words."""

    def __init__(self, summary: str, items: Mapping[int, str]) -> None:
        super().__init__(summary)
        self.items = dict(items)


@dataclass(frozen=True)
class Registered:
    """What ``entrants_register_many`` did: every player's entry, in the order given, and which of
    them this call made (the others were entered already and stay as they were)."""

    entrants: list[Entrant]
    created: list[Entrant]

    @property
    def checked_in(self) -> int:
        return sum(1 for e in self.created if e.checked_in)


def registration_closed(*, event: Event) -> str | None:
    """Why nobody can be entered in ``event`` now, in the words ``entrant_register`` uses, or None."""
    refusal = registration_refusal(event=event)
    return " ".join(refusal.messages) if refusal is not None else None


def registration_refusal(*, event: Event) -> ValidationError | None:
    """What ``entrant_register`` raises when nobody new can be entered in ``event`` now (a
    finished event: a ``Conflict``, as one at a time), or None."""
    if event.status == Event.Status.FINISHED:
        return Conflict("This event is over.")
    begun = _begun(event)
    return ValidationError(begun) if begun else None


def _begun(event: Event) -> str | None:
    """Why a round robin or a knockout takes nobody new once a round of theirs is published."""
    if event.format != Event.Format.SWISS and event.round_set.exclude(status=Round.Status.DRAFT).exists():
        made = "schedule was made" if event.format == Event.Format.ROUND_ROBIN else "draw was made"
        return (
            f"This {event.get_format_display().lower()} has begun: its {made} for the players of "
            "round 1, so nobody new can join it now."
        )
    return None


def _too_many(count: int, what: str) -> str:
    return f"{count:,} {what} were sent: at most {MAX_AT_ONCE:,} can be done at once; send the rest after."


def _refused(problems: Mapping[int, str], total: int, noun: str, doing: str) -> ItemsRefused:
    shown = [f"item {i}: {why}" for i, why in sorted(problems.items())[:5]]
    if len(problems) > len(shown):
        shown.append(f"and {len(problems) - len(shown)} more")
    count = f"{len(problems)} of the {total} {noun}" if total > 1 else f"The {noun.removesuffix('s')}"
    return ItemsRefused(
        f"{count} cannot be {doing}, so none was (the list counted from 0): {'; '.join(shown)}.", problems
    )


def _names(players: Sequence[Player]) -> str:
    names = [p.name for p in players]
    if len(names) <= 4:
        return and_list(names)
    return f"{', '.join(names[:3])} and {len(names) - 3} others"


@atomic_retrying
def entrants_register_many(
    *,
    user: Any,
    event: Event,
    player_ids: Sequence[int],
    ratings: Mapping[int, float] | None = None,
    check_in: bool = False,
) -> Registered:
    """Register the players ``player_ids`` in ``event`` (an organiser's act), all or none.

    ``ratings``: a seeding rating by player id, for those entered now (the others are seeded by
    their rating in the event's game, as one at a time). ``check_in``: check in the players
    entered now (those entered already stay as they are).
    """
    services.require_organiser(user=user, event=event)
    event = guards.locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise Conflict("This event is over.")
    if not player_ids:
        raise ValidationError("Give at least one player to register.")
    if len(player_ids) > MAX_AT_ONCE:
        raise ValidationError(_too_many(len(player_ids), "players"))
    found = Player.objects.in_bulk(list(set(player_ids)))
    members = set(
        Membership.objects.filter(club_id=event.club_id, player_id__in=list(found)).values_list(
            "player_id", flat=True
        )
    )
    existing = {e.player_id: e for e in Entrant.objects.filter(event=event, player_id__in=list(found))}
    own = getattr(user, "player", None)
    problems: dict[int, str] = {}
    first: dict[int, int] = {}
    for i, pk in enumerate(player_ids):
        player = found.get(pk)
        if pk in first:
            problems[i] = (
                f"{player.name if player else f'Player {pk}'} is item {first[pk]} of the list already."
            )
            continue
        first[pk] = i
        entered = existing.get(pk)
        if player is None:
            problems[i] = f"There is no player {pk}."
        elif (own is None or own.pk != pk) and player.guest_of_id != event.club_id and pk not in members:
            club = event.club.name
            problems[i] = f"{player.name} is not a member of {club}: they register themselves, or join first."
        elif entered is not None and entered.dropped_after is not None:
            problems[i] = f"{player.name} dropped out of this event."
    if problems:
        raise _refused(problems, len(player_ids), "players", "registered")
    players = [found[pk] for pk in player_ids]

    from ..ratings.models import Rating

    new = [p for p in players if p.pk not in existing]
    begun = _begun(event) if new else None  # those entered already stay as they are, as one at a time
    if begun:
        raise ValidationError(begun)
    given = ratings or {}
    known = dict(
        Rating.objects.filter(player_id__in=[p.pk for p in new if p.pk not in given], game=event.game)
        .values_list("player_id", "ordinal")
        .iterator()
    )
    pending = event.round_set.filter(status=Round.Status.DRAFT).exists()
    joined = guards.next_round_number(event) - (1 if pending else 0)
    checking_in = Entrant.objects.filter(event=event, checked_in=True, dropped_after__isnull=True).exists()
    try:
        with transaction.atomic():
            created = Entrant.objects.bulk_create(
                [
                    Entrant(
                        event=event,
                        player=p,
                        rating=given.get(p.pk, known.get(p.pk)),
                        joined_round=joined,
                        checked_in=check_in,
                    )
                    for p in new
                ]
            )
    except IntegrityError:  # one of them registered themself a moment ago, outside the event's lock
        raise ValidationError(
            "One of these players was registered a moment ago by someone else, so nobody was: send the "
            "list again."
        ) from None
    if created and pending and not checking_in:  # once check-in has begun, they play when checked in
        rounds.draft_follow(event, f"Paired again: {_names(new)} entered.")
    made = {e.player_id: e for e in created}
    return Registered(entrants=[made.get(p.pk) or existing[p.pk] for p in players], created=created)


@atomic_retrying
def entrants_check_in_many(*, user: Any, event: Event, entrant_ids: Sequence[int] | None = None) -> int:
    """Check in the entrants ``entrant_ids`` of ``event`` (an organiser's act), all or none; with
    no list, everyone registered who has not dropped out (``services.entrants_check_in_all``).
    Returns how many were checked in now (those checked in already stay so)."""
    if entrant_ids is None:
        return services.entrants_check_in_all(user=user, event=event)
    services.require_organiser(user=user, event=event)
    event = guards.locked_event(event)
    guards.not_over(event)
    if not entrant_ids:
        raise ValidationError("Give at least one entrant to check in, or leave the list out for everyone.")
    if len(entrant_ids) > MAX_AT_ONCE:
        raise ValidationError(_too_many(len(entrant_ids), "entrants"))
    found = {
        e.pk: e for e in Entrant.objects.filter(event=event, pk__in=entrant_ids).select_related("player")
    }
    problems: dict[int, str] = {}
    first: dict[int, int] = {}
    for i, pk in enumerate(entrant_ids):
        entrant = found.get(pk)
        if pk in first:
            problems[i] = f"Entrant {pk} is item {first[pk]} of the list already."
            continue
        first[pk] = i
        if entrant is None:
            problems[i] = f"There is no entrant {pk} in {event.name}."
        elif entrant.dropped_after is not None:
            problems[i] = f"{entrant.player.name} dropped out of this event: they cannot be checked in."
    if problems:
        raise _refused(problems, len(entrant_ids), "entrants", "checked in")
    return Entrant.objects.filter(pk__in=list(found), checked_in=False).update(checked_in=True)
