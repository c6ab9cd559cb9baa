"""The rounds of an event: pairing the next one as a draft, following drops and entries, swaps
by hand, publishing and discarding, and an event finishing by itself.

What a round should be is ``draw``'s (``plan_round``); this saves it as a draft and its tables,
under the event's lock (``guards.locked_event``), and is the only writer of rounds. Pairing a
big event runs as a Celery job (``round_pair_queue``, ``tasks.pair_round_task``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games import game_info
from pairing import explain
from pairing.history import EventHistory

from ..core.jobs import job_queue
from ..core.locks import Conflict, atomic_retrying
from ..core.models import Job
from .draw import Progress, entrant_names, event_decided, present_entrants, quiet, round_as_plain
from .draw import plan_round as plan_round
from .draw import repeats_notes as repeats_notes
from .guards import locked_event, require_organiser
from .models import (
    Entrant,
    Event,
    Round,
    Seat,
    Table,
    table_range,
)
from .scoring import DEFAULT_TIEBREAKS as DEFAULT_TIEBREAKS
from .scoring import KNOCKOUT_FORMATS as KNOCKOUT_FORMATS
from .scoring import bye_scoring as bye_scoring
from .scoring import points_scheme as points_scheme
from .scoring import rounds_data
from .scoring import standings_compute as standings_compute
from .standings import standings_recompute_queue


def finish_if_decided(event: Event) -> None:
    """Finish the event, which the caller has locked (``guards.locked_event``), when its last
    round is complete and decides it (after a drop, say)."""
    last = event.round_set.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    if (
        last is not None
        and last.status == Round.Status.COMPLETE
        and not event.round_set.filter(status=Round.Status.DRAFT).exists()
        and event_decided(event, last)
    ):
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status"])


@atomic_retrying
def round_pair(*, event: Event, progress: Progress = quiet) -> Round:
    """Create the next round as a draft. Idempotent: a draft that already exists is returned."""
    event = locked_event(event)
    draft = event.round_set.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        return draft
    blocker = pair_blocker(event=event)
    if blocker:
        raise ValidationError(blocker)
    last = event.round_set.order_by("-number").first()
    return _draft_create(event, (last.number if last else 0) + 1, progress)


def pair_blocker(*, event: Event) -> str | None:
    """Why the next round cannot be paired now, in words (None: it can). The page says it before
    the organiser presses the button, and the pairing job refuses with the same words."""
    if event.status == Event.Status.FINISHED:
        return "This event is over: it has no more rounds to pair."
    last = event.round_set.order_by("-number").first()
    if last is not None and last.status == Round.Status.DRAFT:
        return f"Round {last.number} is a draft: publish it or discard it first."
    if last is not None:
        waiting = last.tables.filter(is_bye=False).exclude(status=Table.Status.CONFIRMED).count()
        if waiting:
            return (
                f"Round {last.number} still has {waiting} table{'s' if waiting != 1 else ''} without a "
                "confirmed result."
            )
    number = (last.number if last else 0) + 1
    if number > event.rounds and (
        event.format == Event.Format.SWISS or (event.format == Event.Format.ROUND_ROBIN and number > 1)
    ):
        return f"All {event.rounds} rounds have been played."
    present = len(present_entrants(event, number))
    if present < 2:
        return (
            "Register at least two players first."
            if present == 0
            else "Only one player would play: register or check in at least two."
        )
    return _too_few_for_a_table(event, number, present)


def _too_few_for_a_table(event: Event, number: int, present: int) -> str | None:
    """Why ``present`` players cannot fill even one table of the event's first round (or any
    Swiss round), in words; None when they can. Later rounds of the other formats seat those
    their format carries on, not whoever is present."""
    swiss_round = event.format == Event.Format.SWISS
    if not (swiss_round or number == 1):
        return None
    info = game_info(event.game)
    if event.format == Event.Format.KNOCKOUT and event.table_size > 2:
        smallest = table_range(info)[0]  # heats seat the players at tables as even as they can
    elif event.format in (Event.Format.SWISS, Event.Format.ROUND_ROBIN):
        smallest = min(event.table_sizes)
    else:
        return None
    if present >= smallest:
        return None
    who = f"{present} player{'s' if present != 1 else ''} would be paired"
    shorter = (
        event.format != Event.Format.KNOCKOUT
        and event.uneven != "shorter"
        and event.table_size - 1 >= table_range(info)[0]
    )
    return (
        f"{who}, and a {info.title} table here seats at least {smallest}: register or check in "
        f"more players{', or allow shorter tables in the Settings' if shorter else ''}."
    )


def pair_who(*, event: Event) -> str:
    """Who the next round will seat, as the organiser should know before pairing it."""
    entrants = [e for e in Entrant.objects.filter(event=event) if e.dropped_after is None]
    here = sum(1 for e in entrants if e.checked_in)
    if not entrants:
        return "Nobody is registered yet."
    if here == 0:
        everyone = f"{len(entrants)} registered player{'s' if len(entrants) != 1 else ''}"
        return f"Nobody has checked in: all {everyone} will be paired. Check in those here to pair only them."
    return f"{here} of {len(entrants)} checked in: only they will be paired."


def _draft_create(event: Event, number: int, progress: Progress = quiet) -> Round:
    planned = plan_round(event, number, progress)
    progress(3, 4, "Saving the tables")
    notes = list(planned.notes)
    plan = planned.plan
    if plan is not None:
        names = entrant_names(event)
        data = rounds_data(event)
        whys = explain.explain_repeats(plan.round, EventHistory([p for _, p, _ in data]), (), names)
        notes += repeats_notes(plan, whys, names)
    rnd = Round.objects.create(
        event=event, number=number, stage=planned.stage, status=Round.Status.DRAFT, notes=notes
    )
    _save_tables(rnd, planned.tables, planned.byes)
    fields = []
    if planned.rounds is not None and planned.rounds != event.rounds:
        event.rounds = planned.rounds
        fields.append("rounds")
    if fields:
        event.save(update_fields=fields)
    return rnd


SWAP_NOTE = re.compile(r"^Swapped (?P<names>.+) by hand\.$")


def _hand_swaps(rnd: Round, names: dict[int, str]) -> list[tuple[int, int]]:
    """The swaps the organiser made by hand on a draft, in order, read from its notes (``round_swap``
    writes "Swapped A and B by hand."); a note whose names are not the event's players' (or are
    shared by two of them) is left out."""
    by_name: dict[str, list[int]] = {}
    for pk, name in names.items():
        by_name.setdefault(name, []).append(pk)
    swaps = []
    for note in rnd.notes if isinstance(rnd.notes, list) else []:
        match = SWAP_NOTE.match(str(note))
        if match is None:
            continue
        both = match["names"]
        for cut in (m.start() for m in re.finditer(" and ", both)):
            a, b = by_name.get(both[:cut], []), by_name.get(both[cut + 5 :], [])
            if len(a) == 1 and len(b) == 1:
                swaps.append((a[0], b[0]))
                break
    return swaps


def draft_follow(event: Event, why: str) -> None:
    """Pair the draft round again for the players now present, after a drop or a late entry.

    Drafts follow drops and entries: a draft is the organiser's working copy of the next round,
    and players drop out and arrive at the desk while it is being checked. Nobody expects to
    discard and pair again by hand, nor a player to be told they cannot drop out because a draft
    exists; and a stale draft, once published, would seat a player who left and leave out one who
    came. So the draft is paired again at once (the same seed: what did not change pairs as
    before), and each swap the organiser made by hand is made again where both players are still
    in the round, with its warnings (a swap with a player who left is not, and the notes say so).
    When the round can no longer be paired at all (too few players), the draft is discarded and
    pairing the round says why.
    """
    draft = event.round_set.filter(status=Round.Status.DRAFT).first()
    if draft is None:
        return
    names = entrant_names(event)
    swaps = _hand_swaps(draft, names)
    number = draft.number
    draft.delete()
    try:
        with transaction.atomic():
            rnd = _draft_create(event, number)
    except ValidationError:
        return
    notes = [why, *rnd.notes]
    for a, b in swaps:
        plain = round_as_plain(rnd)
        missing = [names[p] for p in (a, b) if p not in plain.players]
        if missing or a == b:
            gone = " and ".join(missing)
            notes.append(f"Not swapped again: {names[a]} and {names[b]} ({gone} no longer in the round).")
            continue
        earlier = [d for d in rounds_data(event) if d[0].number < number]
        checked = explain.check_swap(plain, a, b, EventHistory([p for _, p, _ in earlier]), (), names)
        Table.objects.filter(round=rnd).delete()
        _save_tables(rnd, checked.round.tables, checked.round.byes)
        notes += [f"Swapped {names[a]} and {names[b]} by hand.", *(w.message for w in checked.warnings)]
    rnd.notes = notes
    rnd.save(update_fields=["notes"])


def _save_tables(rnd: Round, tables: Sequence[Sequence[int]], byes: Sequence[int]) -> None:
    """Tables in order (a table of one is a bye in its place, as knockouts need), then the byes."""
    seats = []
    entries = [*tables, *((b,) for b in byes)]
    for number, table in enumerate(entries, start=1):
        bye = len(table) == 1
        row = Table.objects.create(
            round=rnd,
            number=number,
            is_bye=bye,
            status=Table.Status.CONFIRMED if bye else Table.Status.WAITING,
            source=Table.Source.BYE if bye else Table.Source.NONE,
        )
        seats += [Seat(table=row, entrant_id=e, position=i) for i, e in enumerate(table)]
    Seat.objects.bulk_create(seats)


@atomic_retrying
def round_swap(*, user: Any, rnd: Round, a: Entrant, b: Entrant) -> list[str]:
    """Swap two players in a draft round; returns the warnings (a repeat it creates, and so on)."""
    require_organiser(user=user, event=rnd.event)
    rnd = locked_round(rnd)
    if rnd.status != Round.Status.DRAFT:
        raise Conflict(f"Round {rnd.number} was published meanwhile: only a draft can be changed.")
    plain = round_as_plain(rnd)
    if a.pk not in plain.players or b.pk not in plain.players:
        raise ValidationError("Both players must be in this round.")
    if a.pk == b.pk:
        raise ValidationError("Choose two different players to swap.")
    data = [d for d in rounds_data(rnd.event) if d[0].number < rnd.number]
    names = dict(Entrant.objects.filter(event=rnd.event).values_list("pk", "player__name"))
    checked = explain.check_swap(plain, a.pk, b.pk, EventHistory([p for _, p, _ in data]), (), names)
    Table.objects.filter(round=rnd).delete()
    _save_tables(rnd, checked.round.tables, checked.round.byes)
    warnings = [w.message for w in checked.warnings]
    rnd.notes = [*rnd.notes, f"Swapped {names[a.pk]} and {names[b.pk]} by hand.", *warnings]
    rnd.save(update_fields=["notes"])
    return warnings


def locked_round(rnd: Round) -> Round:
    """The round's event locked, then the round as it is now (its row locked too); refused in
    words when the draft was discarded meanwhile."""
    event = locked_event(rnd.event)
    current = Round.objects.select_for_update(no_key=True).filter(pk=rnd.pk).first()
    if current is None:
        raise Conflict(f"The draft of round {rnd.number} was discarded meanwhile: nothing was changed.")
    current.event = event
    return current


@atomic_retrying
def round_publish(*, user: Any, rnd: Round) -> Round:
    """Publish a draft (publishing twice changes nothing). A round in which nobody plays (every
    player left has a bye) is complete as soon as it is published."""
    require_organiser(user=user, event=rnd.event)
    rnd = locked_round(rnd)
    if rnd.status == Round.Status.DRAFT and rnd.event.format == Event.Format.SWISS:
        # Drops and entries re-pair the draft at once; a check-in made since it was paired does
        # not (the draft would change under the organiser's eyes at the desk): say so instead.
        seated = {s.entrant_id for t in rnd.tables.prefetch_related("seats") for s in t.seats.all()}
        here = {e.pk: e.player.name for e in present_entrants(rnd.event, rnd.number)}
        changed = sorted(name for pk, name in here.items() if pk not in seated)
        changed += sorted(
            Entrant.objects.filter(pk__in=seated - set(here)).values_list("player__name", flat=True)
        )
        if changed:
            raise ValidationError(
                f"Round {rnd.number} was paired before {', '.join(changed)} checked in or out: discard "
                "the draft and pair the round again."
            )
    if rnd.status == Round.Status.DRAFT:
        rnd.status = Round.Status.PUBLISHED
        rnd.published = timezone.now()
        if not rnd.tables.filter(is_bye=False).exists():
            rnd.status = Round.Status.COMPLETE
        rnd.save(update_fields=["status", "published"])
        event = rnd.event
        if event.status == Event.Status.REGISTRATION:  # it runs once its first round is out
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        if rnd.status == Round.Status.COMPLETE and event_decided(event, rnd):
            event.status = Event.Status.FINISHED
            event.save(update_fields=["status"])
        standings_recompute_queue(event=rnd.event)
    return rnd


@atomic_retrying
def round_discard(*, user: Any, rnd: Round) -> None:
    require_organiser(user=user, event=rnd.event)
    rnd = locked_round(rnd)
    if rnd.status != Round.Status.DRAFT:
        raise Conflict(f"Round {rnd.number} is published: a published round cannot be discarded.")
    rnd.delete()


def round_pair_queue(*, event: Event, user: Any) -> Job:
    from .tasks import pair_round_task

    require_organiser(user=user, event=event)
    # Refused up front, in words, rather than a job that fails (pairing while a draft exists
    # gives the draft back, as the job does).
    blocker = pair_blocker(event=event)
    if blocker and not event.round_set.filter(status=Round.Status.DRAFT).exists():
        raise ValidationError(blocker)
    return job_queue(
        kind="pairing",
        label=f"Pair the next round of {event.name}",
        task=pair_round_task,
        params={"event": event.pk},
        key=f"pair:{event.pk}",
        user=user,
    )
