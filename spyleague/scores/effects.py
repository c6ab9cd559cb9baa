"""What a confirmed result changes besides itself: its table's round and event, the event's
standings, and the game's ratings.

Without a worker (no broker: local use and the tests), or when the confirmation runs inside a
caller's transaction, the effects are applied in that transaction, as they always were. With
one, a confirmation records its table's seats under the table's lock and leaves a
``PendingEffects`` row; the effects are applied after it commits, by a worker
(``apply_effects_task``) or, for the last table of a round, in the request itself (so that a
round is complete, and its standings up to date, as soon as its last result is in) unless a
worker is applying the event's results at that moment. A worker's run never waits for another
run's batch of the same event: it gives its results back and tries again a moment later. So
confirmations of different tables, which before took the event's standings lock and the game's
ratings lock until they committed, run side by side without waiting on each other; the standings
and ratings follow a moment later (``EFFECTS_GATHER_SECONDS``, a second by default: the
confirmations of that window share one run), several results in one pass when many come in.

Applying takes the pending rows with ``FOR UPDATE SKIP LOCKED`` and deletes them in the same
transaction as the effects, so each is applied once, and two workers take different ones. The
locks, in the order of ``core.locks``: each event's standings (events in id order), its rounds
and itself, then each game's ratings (games in name order). A pending row whose task was lost
(a web process that ended right after its commit, a broker away) is applied by the sweep
(``sweep_effects``, run by beat), once it is ``SWEEP_AFTER_SECONDS`` old.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from ..core import cache
from ..core.locks import Busy, atomic_retrying
from ..core.queue import send_task_safely
from .models import PendingEffects, Result

log = logging.getLogger(__name__)

BATCH = 200  # results applied in one transaction at most
SWEEP_AFTER_SECONDS = 10.0  # a pending row this old lost its task: the sweep applies it
QUEUED = "effects-run-queued"  # one run queued for the confirmations of a window


def deferred() -> bool:
    """Whether effects are applied after the confirmation rather than in it: where a worker runs,
    and only for a confirmation that is its own transaction. Inside a caller's transaction (the
    demo data, several results of one import) they are applied in it, as before: the caller may
    read them before it commits (the demo checks that its event finished)."""
    return not settings.CELERY_TASK_ALWAYS_EAGER and len(connection.atomic_blocks) <= 1


def effects_due(result: Result) -> None:
    """A result was confirmed (or a confirmed one corrected) in the caller's transaction: apply
    what it changes now, or record its table and leave the rest to follow after the commit."""
    from ..ratings.services import ratings_result_apply

    if not deferred():
        if result.table_id:
            from ..tournaments.services import table_result_apply

            table_result_apply(result=result)
        ratings_result_apply(result=result)
        return
    if result.table_id:
        from ..tournaments.services import table_result_record

        table_result_record(result=result)
    PendingEffects.objects.create(result=result)
    transaction.on_commit(partial(_after_commit, result.table_id), robust=True)


def _after_commit(table_id: int | None) -> None:
    """Once the confirmation is committed: the last table of its round applies a batch of the
    pending effects here and now (the round completes in this request), unless a worker holds
    the event's standings or the game's ratings at that moment (then the worker completes the
    round a moment later, and the request does not wait behind its batch); the rest, and any
    other table's, go to a worker, or are applied here when the broker does not take the task."""
    from ..tournaments.models import Table
    from .tasks import apply_effects_task

    last = bool(table_id) and not (
        Table.objects.filter(round__tables=table_id).exclude(status=Table.Status.CONFIRMED).exists()
    )
    if last:
        try:
            # One batch (the round's pending results, up to BATCH): the round completes now.
            # What comes in meanwhile (the next round's results, matches' ratings) is the
            # worker's: a request that applied everything pending could go on for as long as
            # results keep coming.
            effects_apply(wait=False)
            if not PendingEffects.objects.exists():
                return
        except Busy:
            # A worker is applying the event's results (the round's others) or the game's
            # ratings: it completes the round after its batch, or the task does; this request
            # does not wait its turn behind that batch.
            log.info("The round's last result: its effects follow in the worker")
    if _queue_run(apply_effects_task):
        return
    effects_apply_all()


def _queue_run(task: Any) -> bool:
    """Queue a worker's run for the pending results, one run per ``EFFECTS_GATHER_SECONDS``:
    the first confirmation of a window queues a run due at its end, and the others of the
    window leave their rows to it. A run costs the event's standings once however many results
    it takes (their players' lines, the rounds, the pages' versions it moves, the pages rendered
    again at the new version), so at a few confirmations a second one run for all of them is a
    fraction of a run each. False when the broker did not take the task (the caller applies the
    effects itself). Without the cache (Redis away) each confirmation queues a run of its own at
    once, as before; a run lost with its worker is made good by the sweep."""
    gather = settings.EFFECTS_GATHER_SECONDS
    if gather <= 0:
        return send_task_safely(task)
    if not cache.first_in(QUEUED, gather):
        return True  # the window's run is queued: it takes this one's rows too
    if send_task_safely(task, countdown=gather):
        return True
    cache.forget_first(QUEUED)  # the next confirmation tries the broker again
    return False


def effects_apply_all(*, wait: bool = True) -> int:
    """Apply every pending result's effects, a batch at a time; returns how many. ``wait``
    False: ``core.locks.Busy`` (that batch given back) when another run holds an event's
    standings or a game's ratings: that run takes the given-back rows after its own batch, or a
    retry does."""
    done = 0
    while count := effects_apply(wait=wait):
        done += count
    return done


@atomic_retrying
def effects_apply(*, older_than: float | None = None, batch: int = BATCH, wait: bool = True) -> int:
    """Take up to ``batch`` pending results (those no other transaction holds; only those
    pending for ``older_than`` seconds when given) and apply their effects; returns how many.
    ``wait`` False: ``core.locks.Busy``, and nothing applied, when another transaction holds
    the standings of one of their events or the ratings of one of their games."""
    from ..ratings.services import ratings_result_apply
    from ..tournaments.models import Table
    from ..tournaments.services import table_results_follow

    pending = PendingEffects.objects.order_by("pk")
    if older_than is not None:
        pending = pending.filter(created__lt=timezone.now() - timedelta(seconds=older_than))
    taken = list(
        pending.select_for_update(
            skip_locked=connection.features.has_select_for_update_skip_locked
        ).values_list("pk", "result_id")[:batch]
    )
    if not taken:
        return 0
    PendingEffects.objects.filter(pk__in=[pk for pk, _ in taken]).delete()
    results = list(Result.objects.filter(pk__in={r for _, r in taken}).order_by("played", "pk"))
    tables: dict[int, list[int]] = {}
    for event_id, table_id in Table.objects.filter(
        pk__in=[r.table_id for r in results if r.table_id]
    ).values_list("round__event_id", "pk"):
        tables.setdefault(event_id, []).append(table_id)
    if tables:
        from ..tournaments.models import Event

        events = Event.objects.in_bulk(list(tables))
        for event_id in sorted(tables):
            table_results_follow(event=events[event_id], tables=tables[event_id], wait=wait)
    for result in sorted(results, key=lambda r: (r.game, r.played, r.pk)):
        ratings_result_apply(result=result, wait=wait)
    return len(taken)


def effects_sweep() -> int:
    """Apply the pending results whose task was lost (see the module's docstring)."""
    done = 0
    while count := effects_apply(older_than=SWEEP_AFTER_SECONDS):
        done += count
    if done:
        log.warning("Applied the effects of %s result(s) whose task was lost", done)
    return done
