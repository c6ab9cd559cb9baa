"""Write-side operations for events: registration, pairing, publishing, results, standings.

The public face of the app's writes: the views, the API and the other apps call these. The
algorithms live in the pure ``pairing`` package. Below this module: ``guards`` (who may act,
and the event's lock), ``scoring`` (the event read as the package's plain data, and ranked),
``draw`` (the next round planned from it), ``rounds`` (pairing, swapping, publishing and
discarding rounds) and ``standings`` (the stored standings); this module holds the events,
their entrants and their results, and names the rounds' services too. Pairing a round and
recomputing standings run as Celery jobs (see ``tasks.py``).

How the formats run (the pairing rulings themselves are in ``pairing.knockout``,
``pairing.round_robin`` and ``pairing.tables``; each is named in ``tests/web/tournaments``):

- Every format ends by itself when the result that decides it is confirmed: a Swiss or round
  robin's last round, the final table of heats, a bracket's final (or the round after which one
  player is left in it, others having dropped out). The organiser can also finish an event by
  hand: a draft round is discarded, and it is refused while a published round waits for results.
  A finished event pairs no more rounds.
- A round robin has as many rounds as everyone needs to meet everyone, worked out when round 1
  is paired: the event takes that number (its notes say so), it cannot change after that, and
  a round robin that would need more rounds than an event can have is refused in words.
- Only a Swiss takes late entries once a round has been published: a round robin's schedule
  and a knockout's draw are made for the players of round 1.
- Drafts follow drops and entries (``draft_follow``): the draft is paired again at once and
  the organiser's swaps by hand are made again. A check-in since the draft was paired does not
  re-pair it; publishing such a Swiss draft is refused until it is paired again.
- In a bracket, a player who drops out leaves their slot empty: the next opponent has a
  walkover, and the bracket keeps its shape. After groups, a player who dropped out does not go
  through: the next of their group does.
- A count that does not fill tables follows the event's choice (``Event.uneven``): byes, or
  tables one seat shorter or longer where the game allows; a round in which nobody plays
  (everyone left has a bye) is complete once published.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from games import game_info
from pairing.standings import (
    DEFAULT_POINTS,
)

from ..clubs.models import Club, Player, Role
from ..clubs.selectors import has_club_role
from ..core.locks import Conflict, atomic_retrying, lock_event
from ..core.prepared import Prepared
from .draw import Progress, event_decided, quiet
from .draw import plan_round as plan_round
from .draw import repeats_notes as repeats_notes
from .guards import locked_entrant, locked_event, next_round_number, not_over, own_or_organiser
from .guards import require_organiser as require_organiser
from .models import (
    Entrant,
    Event,
    League,
    Round,
    Seat,
    Table,
    table_size_problem,
)
from .rounds import draft_follow, finish_if_decided
from .rounds import pair_blocker as pair_blocker
from .rounds import pair_who as pair_who
from .rounds import round_discard as round_discard
from .rounds import round_pair as round_pair
from .rounds import round_pair_queue as round_pair_queue
from .rounds import round_publish as round_publish
from .rounds import round_swap as round_swap
from .scoring import DEFAULT_TIEBREAKS as DEFAULT_TIEBREAKS
from .scoring import KNOCKOUT_FORMATS as KNOCKOUT_FORMATS
from .scoring import bye_scoring as bye_scoring
from .scoring import points_scheme as points_scheme
from .scoring import standings_compute as standings_compute
from .standings import standings_apply as _standings_apply
from .standings import standings_lock, standings_store
from .standings import standings_recompute_queue as standings_recompute_queue


@transaction.atomic
def event_create(
    *,
    club: Club,
    user: Any,
    name: str,
    game: str,
    format: str = Event.Format.SWISS,
    rounds: int = 5,
    table_size: int = 4,
    kind: str = Event.Kind.TOURNAMENT,
    bye_rule: str = Event.ByeRule.WIN,
    starts: datetime | None = None,
    options: dict[str, Any] | None = None,
    advance: int = 2,
    groups: int = 0,
    uneven: str = Event.Uneven.BYES,
    league: League | None = None,
    points_by_place: list[float] | None = None,
    tiebreaks: list[str] | None = None,
) -> Event:
    """Open an event for registration; its settings are checked as the event stores them
    (``Event.settings_problems``), each refusal beside its field."""
    problem = table_size_problem(game=game, table_size=table_size)
    if problem:
        raise ValidationError({"table_size": problem})
    if format == Event.Format.GROUPS_KNOCKOUT and table_size != 2:
        raise ValidationError({"format": "Groups then knockout is played at tables of 2."})
    if format == Event.Format.KNOCKOUT and table_size > 2 and not 1 <= advance < table_size:
        raise ValidationError(
            {"advance": f"At tables of {table_size}, between 1 and {table_size - 1} go through."}
        )
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
        advance=advance,
        groups=groups,
        uneven=uneven,
        league=league if league is not None and league.club_id == club.pk else None,
        points_by_place=points_by_place or list(DEFAULT_POINTS[table_size]),
        tiebreaks=tiebreaks or DEFAULT_TIEBREAKS,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


# What an organiser may change, and until when: the game and the shape of its tables only before
# the first round is paired; what the standings are worked out from until the event is over.
CHANGEABLE_ANY_TIME = frozenset({"name", "starts", "kind", "league"})
CHANGEABLE_UNTIL_FINISHED = frozenset({"rounds", "points_by_place", "tiebreaks", "bye_rule"})
CHANGEABLE_BEFORE_PAIRING = frozenset(
    {"game", "format", "table_size", "options", "advance", "groups", "uneven"}
)
RANKING_SETTINGS = frozenset({"points_by_place", "tiebreaks", "bye_rule"})


@atomic_retrying
def event_update(*, user: Any, event: Event, **changes: Any) -> Event:
    """Change an event's settings, as far as the event's progress allows; every refusal in words.

    A change to how the standings are worked out (points by place, tiebreaks, the bye rule)
    re-ranks the stored standings at once, in this transaction: they show the new order as
    soon as the change is saved. A standings job is queued as well, so that one already running
    with the old settings does not leave its order behind.
    """

    require_organiser(user=user, event=event)
    standings_lock(event)  # before the event's lock: its standings are re-ranked here (core.locks)
    event = locked_event(event)
    changed = {field: value for field, value in changes.items() if getattr(event, field) != value}
    problems: dict[str, str] = {}
    paired = event.round_set.exists()
    for field in changed:
        if field == "club":
            problems[field] = "An event stays in the club that runs it."
        elif field == "league" and changed[field] is not None and changed[field].club_id != event.club_id:
            problems[field] = f"Choose a league of {event.club.name}."
        elif field not in CHANGEABLE_ANY_TIME and event.status == Event.Status.FINISHED:
            problems[field] = f"The event is over: its {field.replace('_', ' ')} can no longer change."
        elif field in CHANGEABLE_BEFORE_PAIRING and paired:
            problems[field] = f"The {field.replace('_', ' ')} cannot change once a round has been paired."
        elif field not in CHANGEABLE_ANY_TIME | CHANGEABLE_UNTIL_FINISHED | CHANGEABLE_BEFORE_PAIRING:
            problems[field] = "This cannot be changed."
    played = event.round_set.order_by("-number").values_list("number", flat=True).first() or 0
    if "rounds" in changed and changed["rounds"] < played:
        problems["rounds"] = f"{played} rounds have been paired already."
    elif "rounds" in changed and "rounds" not in problems and paired and event.format != Event.Format.SWISS:
        problems["rounds"] = (
            f"A round robin has as many rounds as its schedule needs ({event.rounds})."
            if event.format == Event.Format.ROUND_ROBIN
            else "A knockout has as many rounds as its draw needs."
        )
    if problems:
        raise ValidationError(problems)
    for field, value in changed.items():
        setattr(event, field, value)
    if "table_size" in changed and "points_by_place" not in changed:
        event.points_by_place = list(DEFAULT_POINTS.get(event.table_size, ()))
    event.save()
    if "rounds" in changed:
        finish_if_decided(event)  # a Swiss cut to the rounds already played is over
    if RANKING_SETTINGS & set(changed) and paired:
        standings_recompute(event=event)
        standings_recompute_queue(event=event, user=user)
    return event


@atomic_retrying
def event_delete(*, user: Any, event: Event) -> None:
    """Delete an event before its first round is paired; after that its results stay on record."""
    require_organiser(user=user, event=event)
    event = locked_event(event)
    if event.round_set.exists():
        raise ValidationError("An event that has begun keeps its rounds and results: finish it instead.")
    event.delete()


@transaction.atomic
def league_create(
    *,
    user: Any,
    club: Club,
    name: str,
    game: str = "",
    starts: Any = None,
    ends: Any = None,
    description: str = "",
) -> League:
    if not has_club_role(user=user, club=club, role=Role.ORGANISER):
        raise PermissionDenied("Only the club's organisers can start a league.")
    if not name.strip():
        raise ValidationError({"name": "A league needs a name."})
    if game:
        game_info(game)
    if starts and ends and ends < starts:
        raise ValidationError({"ends": "A season ends after it starts."})
    from ..clubs.services import description_check, league_room_check

    description = description_check(description, what="A league's")
    league_room_check(user=user, club=club)
    return League.objects.create(
        club=club, name=name.strip(), game=game, starts=starts, ends=ends, description=description
    )


# --- entrants ---------------------------------------------------------------------------------


@atomic_retrying
def entrant_register(*, user: Any, event: Event, player: Player | None = None) -> Entrant:
    """Register a player (an organiser may register anyone; a player registers themself).

    Once the event runs this is a late entry: the player joins at the next round, and when that
    round is a draft it is paired again with them in it (see ``draft_follow``). Only a Swiss
    takes late entries once a round has been published: a round robin's schedule and a
    knockout's draw are made for the players of round 1.
    """
    own = getattr(user, "player", None)
    if player is None or (own is not None and player.pk == own.pk):
        if own is None:
            raise PermissionDenied("Log in to register.")
        player = own
    elif not has_club_role(user=user, club=event.club, role=Role.ORGANISER):
        raise PermissionDenied("Only an organiser can register someone else.")
    elif not (
        player.guest_of_id == event.club_id or player.memberships.filter(club_id=event.club_id).exists()
    ):
        raise ValidationError(
            f"{player.name} is not a member of {event.club.name}: they register themselves, or join first."
        )
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise Conflict("This event is over.")
    existing = Entrant.objects.filter(event=event, player=player).first()
    if existing is not None:
        if existing.dropped_after is not None:
            raise ValidationError(f"{player.name} dropped out of this event.")
        return existing
    if event.format != Event.Format.SWISS and event.round_set.exclude(status=Round.Status.DRAFT).exists():
        made = "schedule was made" if event.format == Event.Format.ROUND_ROBIN else "draw was made"
        raise ValidationError(
            f"This {event.get_format_display().lower()} has begun: its {made} for the players of round 1, "
            f"so {player.name} cannot join it now."
        )
    from ..ratings.models import Rating

    rating = Rating.objects.filter(player=player, game=event.game).values_list("ordinal", flat=True).first()
    pending = event.round_set.filter(status=Round.Status.DRAFT).exists()
    entrant = Entrant.objects.create(
        event=event,
        player=player,
        rating=rating,
        joined_round=next_round_number(event) - (1 if pending else 0),
    )
    checking_in = Entrant.objects.filter(event=event, checked_in=True, dropped_after__isnull=True).exists()
    if pending and not checking_in:  # once check-in has begun, they play when checked in
        draft_follow(event, f"Paired again: {player.name} entered.")
    return entrant


@atomic_retrying
def entrant_check_in(*, user: Any, entrant: Entrant, present: bool = True) -> Entrant:
    own_or_organiser(user, entrant)
    event, entrant = locked_entrant(entrant)
    not_over(event)
    if present and entrant.dropped_after is not None:
        raise Conflict(f"{entrant.player.name} dropped out of this event: they cannot be checked in.")
    entrant.checked_in = present
    entrant.save(update_fields=["checked_in"])
    return entrant


DROPPED_OUT = "You dropped out of this event: ask the organiser if you want to play again."


def self_enter_open(*, user: Any, event: Event) -> bool:
    """Whether ``user``, not entered in ``event``, may enter and check in with one tap on the
    check-in page (a walk-in who scans the screen's code): while check-in is open."""
    own = getattr(user, "player", None) if getattr(user, "is_authenticated", False) else None
    return (
        own is not None
        and not Entrant.objects.filter(event=event, player=own).exists()
        and self_check_in_closed(event=event) is None
    )


@atomic_retrying
def entrant_self_enter(*, user: Any, event: Event) -> Entrant:
    """A player not entered yet enters the event and checks in at once: what the check-in page
    offers a walk-in (Swiss events take late entries; the others only before their first round,
    which is when their check-in is open). Refused in words when check-in is closed; nothing
    is entered then."""
    event = locked_event(event)
    closed = self_check_in_closed(event=event)
    if closed:
        raise Conflict(closed)
    entrant_register(user=user, event=event)
    entrant, _ = entrant_self_check_in(user=user, event=event)
    return entrant


def self_check_in_closed(*, event: Event) -> str | None:
    """Why players cannot check themselves in now (by the link or QR code on the screen), in
    words; None while they can.

    Checking in says "I am here for the next round", so it is open until that round is paired:
    while a draft is on the desk a check-in would not change it (publishing it is then refused),
    so the link waits until the draft is published or discarded. A round robin's schedule and a
    knockout's draw are made for the players of round 1, so once a round of theirs is out,
    checking in has nothing left to decide; a Swiss takes late arrivals before each round.
    """
    if event.status == Event.Status.FINISHED:
        return "This event is over: there is nothing left to check in for."
    draft = event.round_set.filter(status=Round.Status.DRAFT).values_list("number", flat=True).first()
    if draft is not None:
        return (
            f"Round {draft} has just been paired: check-in opens again once it is published. "
            "Tell the organiser at the desk that you are here."
        )
    if event.format == Event.Format.SWISS and event.round_set.count() >= event.rounds:
        return f"All {event.rounds} rounds have been paired: there is no round left to check in for."
    if event.format != Event.Format.SWISS and event.round_set.exists():
        return (
            f"This {event.get_format_display().lower()} has begun: its tables were set for the players "
            "of round 1, so there is nothing left to check in for."
        )
    return None


def self_check_in_entrant(*, user: Any, event: Event) -> Entrant:
    """The signed-in player's own entry in the event, or PermissionDenied saying why not."""
    own = getattr(user, "player", None) if user.is_authenticated else None
    entrant = None if own is None else Entrant.objects.filter(event=event, player=own).first()
    if entrant is None:
        raise PermissionDenied(
            f"You are not entered in {event.name}: register on the event page first, or ask the organiser."
        )
    return entrant


@atomic_retrying
def entrant_self_check_in(*, user: Any, event: Event) -> tuple[Entrant, bool]:
    """A player checks themself in by the event's check-in link (shown as a QR code on the
    screen). Only the player's own entry, only while check-in is open (``self_check_in_closed``),
    never after dropping out. Returns the entrant and whether this call checked them in (False:
    they were already checked in, and nothing changed)."""
    event = locked_event(event)
    entrant = self_check_in_entrant(user=user, event=event)
    if entrant.dropped_after is not None:
        raise Conflict(DROPPED_OUT)
    if entrant.checked_in:
        return entrant, False  # a second tap (or a reload) changes nothing
    closed = self_check_in_closed(event=event)
    if closed:
        raise Conflict(closed)
    entrant.checked_in = True
    entrant.save(update_fields=["checked_in"])
    return entrant, True


@atomic_retrying
def entrants_check_in_all(*, user: Any, event: Event) -> int:
    """The organiser checks in every registered player who has not dropped (everyone at the
    desk is here). Returns how many were checked in now."""
    require_organiser(user=user, event=event)
    event = locked_event(event)
    not_over(event)
    return Entrant.objects.filter(event=event, dropped_after=None, checked_in=False).update(checked_in=True)


@atomic_retrying
def entrant_drop(*, user: Any, entrant: Entrant) -> Entrant:
    """A player drops out after the rounds published so far (they finish a round being played).

    A draft round that seats them is paired again without them (see ``draft_follow``); in a
    knockout, their next opponent has a walkover, and a knockout left with one player in it is
    over.
    """
    own_or_organiser(user, entrant)
    event, entrant = locked_entrant(entrant)
    not_over(event)
    if entrant.dropped_after is None:
        completed = event.round_set.exclude(status=Round.Status.DRAFT).count()
        entrant.dropped_after = completed
        entrant.save(update_fields=["dropped_after"])
        if Seat.objects.filter(
            table__round__event=event, table__round__status=Round.Status.DRAFT, entrant=entrant
        ).exists():
            draft_follow(event, f"Paired again: {entrant.player.name} dropped out.")
        if event.format in (Event.Format.KNOCKOUT, Event.Format.GROUPS_KNOCKOUT):
            finish_if_decided(event)
    return entrant


# How many repeated pairs the summary line names before it says "and N more".


# --- results and standings -------------------------------------------------------------------


@atomic_retrying
def table_result_apply(*, result: Any) -> None:
    """Copy a confirmed result's places and scores onto its table's seats, then bring the round,
    the event and the standings up to date, in the caller's transaction (as it runs without a
    worker: ``scores.effects``)."""
    table = table_result_record(result=result)
    table_results_follow(event=table.round.event, tables=[table.pk])


@atomic_retrying
def table_result_record(*, result: Any) -> Table:
    """Copy a confirmed result's places, scores and points onto its table's seats and mark the
    table confirmed, under the table's lock (the result's: ``core.locks``). What follows from it
    for the round, the event and the standings is ``table_results_follow``'s."""
    table = table_locked(result.table_id)
    lines = {line.player_id: line for line in result.lines.all()}
    seats = list(table.seats.select_related("entrant"))
    places = [lines[s.entrant.player_id].place for s in seats if s.entrant.player_id in lines]
    if len(places) != len(seats):
        raise ValidationError("The result does not list the players seated at this table.")
    points = points_scheme(table.round.event).table_points(places)
    for seat, pts in zip(seats, points, strict=True):
        line = lines[seat.entrant.player_id]
        seat.place, seat.score, seat.points = line.place, line.score, pts
        seat.save(update_fields=["place", "score", "points"])
    table.status = Table.Status.CONFIRMED
    table.source = {"sheet": "sheet", "scorepad": "scorepad", "online": "online", "override": "override"}[
        result.source
    ]
    table.save(update_fields=["status", "source"])
    return table


@atomic_retrying
def table_results_follow(*, event: Event, tables: Collection[int], wait: bool = True) -> None:
    """What the confirmed results of ``tables`` (of ``event``, their seats recorded and
    committed, or recorded in this transaction) change: a round whose last table this was is
    complete, the event finished when such a round decides it, and the standings of the tables'
    players updated. Under the event's standings lock, then each round's row, then the event's
    (the order of ``core.locks``): a round's last confirmation sees every other table's, since
    those were committed before it, or waited for here. ``wait`` False: ``Busy`` at once, and
    nothing done, when another transaction holds the standings lock."""

    standings_lock(event, wait=wait)
    rounds = sorted(set(Table.objects.filter(pk__in=list(tables)).values_list("round_id", flat=True)))
    for round_id in rounds:
        rnd = Round.objects.select_for_update(no_key=True).get(pk=round_id)
        rnd.event = event
        if (
            not rnd.tables.exclude(status=Table.Status.CONFIRMED).exists()
            and rnd.status == Round.Status.PUBLISHED
        ):
            rnd.status = Round.Status.COMPLETE
            rnd.save(update_fields=["status"])
        # Every format ends by itself with the result that decides it (a final's tie, once
        # corrected, decides it too).
        if rnd.status == Round.Status.COMPLETE and event_decided(event, rnd):
            event = lock_event(event.pk)
            if event.status != Event.Status.FINISHED:
                event.status = Event.Status.FINISHED
                event.save(update_fields=["status"])
    entrants = Seat.objects.filter(table_id__in=list(tables)).values_list("entrant_id", flat=True)
    standings_apply(event=event, entrants=sorted(set(entrants)))


_TABLE_LOCKED = Prepared(
    lambda pk: (
        Table.objects.select_for_update(no_key=True, of=("self",))  # the table alone, not its round
        .select_related("round__event")
        .filter(pk=pk)[:1]
    )
)


def table_locked(table_id: int) -> Table:
    """A tournament table's row, locked (its result's lock: see ``core.locks``); its round and
    event come with it. Refused in words when the table's draft was discarded meanwhile.
    Every result entered and confirmed asks: compiled once (``core.prepared``)."""
    table = _TABLE_LOCKED.one(table_id)
    if table is None:
        raise Conflict("This table's round was discarded meanwhile.")
    return table


def standings_apply(*, event: Event, entrants: Sequence[int]) -> int:
    """Update the stored standings after the results of ``entrants`` changed, in the caller's
    transaction: only the rows that change are worked out and written (see ``standings.py``)."""

    return _standings_apply(event=event, entrants=entrants)


def standings_recompute(*, event: Event, progress: Progress = quiet) -> int:
    """Compute the whole event's standings and store them (only the rows that differ are
    written), under the event's lock: two recomputes at once take turns. Returns the row count."""

    return standings_store(event=event, progress=progress)


@atomic_retrying
def finish_event(*, user: Any, event: Event) -> Event:
    """The organiser ends the event by hand (every format also ends by itself with its last
    result). A draft round is discarded (nobody has seen it); a published round whose tables still
    wait for a result must have them first, or its games would be lost. Finishing twice changes
    nothing."""
    require_organiser(user=user, event=event)
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        return event
    waiting = (
        Table.objects.filter(round__event=event, round__status=Round.Status.PUBLISHED, is_bye=False)
        .exclude(status=Table.Status.CONFIRMED)
        .select_related("round")
        .order_by("round__number", "number")
    )
    first = waiting.first()
    if first is not None:
        count = waiting.count()
        raise ValidationError(
            f"Round {first.round.number} still has {count} table{'s' if count != 1 else ''} waiting for a "
            "result: enter and confirm them (a scorer or organiser can), then finish the event."
        )
    event.round_set.filter(status=Round.Status.DRAFT).delete()
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    return event
