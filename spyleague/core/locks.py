"""Two people at once: row locks in one order, a refusal that says what happened, and retries.

Every service that changes the state of an event, a round, a table or an entrant locks the row
first and checks the state it acts on inside the lock, so that of two organisers (or two tabs)
acting at the same moment the second sees what the first did and is told (``Conflict``: a 409
with what happened), instead of acting on what it read before.

The order. A transaction takes its locks in this order, never the other way round, so two of
them never wait for each other:

1. the event (``lock_event``);
2. its rounds, then their tables, then entrants (by id, where it takes several);
3. results and score sheets;
4. the advisory locks: the event's standings, then the game's ratings, then the job queue's.

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
    """The event's row, locked (first of the locks: see the module docstring)."""
    from ..tournaments.models import Event

    return Event.objects.select_for_update(no_key=True).select_related("club").get(pk=event_id)
