"""Two people at once: row locks in one order, a refusal that says what happened, and retries.

Every service that changes the state of an event, a round, a table or an entrant locks the row
first and checks the state it acts on inside the lock, so that of two organisers (or two tabs)
acting at the same moment the second sees what the first did and is told (``Conflict``: a 409
with what happened), instead of acting on what it read before.

The order. Two kinds of transaction take row locks, each in its own order, so that no two of
them wait for each other:

- A change of an event's state (pairing, publishing, discarding or swapping a draft, entries,
  check-ins, drops, settings, finishing): the club (a member's role), the event's standings
  lock where it re-ranks them (a change of settings), the event's row (``lock_event``), then
  its draft round, tables and entrants.
- A result (entered, confirmed, corrected; a scorepad's; an online match's): the table's row
  (alone: a lock beside ``select_related`` names its own row with ``of``, or it would lock the
  round and the event too), then the result's or the pad's. Where a worker runs, that is all a
  confirmation locks: what follows from it (``scores.effects``) is applied after it commits.
- The effects of results (in the confirmation itself without a worker, else in the worker, or
  in the request of a round's last table): each event's standings lock (events in id order),
  under which a round is marked complete (its row) and the event finished (its row) when a
  result decides it, and the standings updated; then each game's ratings (its advisory lock).

They meet only at the standings lock and the event's row: the first kind takes the standings
lock before the event's, as the effects do; the first kind locks only draft rounds and their
tables, the others only published ones. So confirmations of different tables run side by side
without waiting on each other, and an organiser's change waits for (or is waited for by) the
effects at the standings lock.

Row locks are ``FOR NO KEY UPDATE`` (Django's ``select_for_update(no_key=True)``): they exclude
each other, but not the ``FOR KEY SHARE`` lock PostgreSQL takes on a row when a row that refers
to it is inserted. A confirmation inserting standings rows (which refer to the event) while an
organiser's transaction holds the event ``FOR UPDATE`` and waits for the standings lock would
otherwise be a deadlock.

Retries. Where a deadlock or a serialization failure still happens (PostgreSQL aborts one of the
two transactions), ``atomic_retrying`` runs the whole transaction again, a few times with a short random
pause, instead of failing the request or the job. Only an outermost transaction is run again: a
call inside someone else's transaction leaves the retry to the outermost caller. On SQLite every
transaction takes the database's write lock first (``BEGIN IMMEDIATE``), so none of this can
happen there; the locks are harmless.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction

if TYPE_CHECKING:
    from ..tournaments.models import Event

log = logging.getLogger(__name__)

# PostgreSQL's codes for the two failures a retry mends: deadlock_detected, serialization_failure.
RETRYABLE = frozenset({"40P01", "40001"})
ATTEMPTS = 5


class Busy(Exception):
    """Another transaction holds a lock this one asked for without waiting: nothing was done
    (the transaction is rolled back), to be tried again in a moment."""


class Conflict(ValidationError):
    """The state changed since the person looked (someone else acted first): refused with what
    happened, and nothing changed. Pages and the API answer it with 409."""


def retryable(exc: BaseException) -> bool:
    """Whether ``exc`` is a deadlock or a serialization failure (worth running again)."""
    seen: BaseException | None = exc
    while seen is not None:
        if getattr(seen, "sqlstate", None) in RETRYABLE or getattr(seen, "pgcode", None) in RETRYABLE:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def atomic_retrying[F: Callable[..., Any]](fn: F) -> F:
    """A service's transaction, where ``@transaction.atomic`` would go: run as the outermost
    transaction, it runs again (up to ``ATTEMPTS`` times) when the database aborted it for a
    deadlock or a serialization failure; inside someone else's transaction it is a savepoint,
    as ``atomic`` is, and the outermost caller's retry runs it again."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if connection.in_atomic_block:
            with transaction.atomic():
                return fn(*args, **kwargs)
        for attempt in range(1, ATTEMPTS + 1):
            try:
                with transaction.atomic():
                    return fn(*args, **kwargs)
            except DatabaseError as exc:
                if attempt == ATTEMPTS or not retryable(exc):
                    raise
                log.warning("%s lost a race in the database (%s); running it again", fn.__qualname__, exc)
                time.sleep(random.uniform(0.01, 0.05) * attempt)
        raise AssertionError("unreachable")  # pragma: no cover

    return wrapper  # type: ignore[return-value]


def lock_event(event_id: int) -> Event:
    """The event's row, locked (see the order in the module docstring).

    Whoever takes it is about to change the event, so its version moves on (now and at commit):
    the pages kept rendered at the version before are not shown again (``core.cache``)."""
    from ..tournaments.models import Event
    from .cache import event_changed

    event = Event.objects.select_for_update(no_key=True, of=("self",)).select_related("club").get(pk=event_id)
    event_changed(event.pk)
    return event
