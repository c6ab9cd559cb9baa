from __future__ import annotations

from typing import Any

from celery import shared_task

from ..core.jobs import SAFE_TWICE

BUSY_RETRY_SECONDS = 0.5
BUSY_RETRIES = 40


@shared_task(
    name="spyleague.scores.tasks.apply_effects_task",
    time_limit=300,
    bind=True,
    max_retries=BUSY_RETRIES,
    **SAFE_TWICE,
)
def apply_effects_task(self: Any) -> int:
    """Apply the pending results' effects (``scores.effects``): safe to run twice, or beside
    another run, which takes other results.

    Another run applying the same event's results holds its standings until it commits: this
    run does not wait for it (a worker process waiting on another's batch is one that runs no
    bot meanwhile) but gives its results back at once (its transaction rolls back) and tries
    again a moment later; the other run takes them after its batch if it can. The same when a
    lock waited past the database's lock timeout (``DATABASE_LOCK_TIMEOUT``). Past its retries
    the results are still pending, and the sweep applies them."""
    from django.db import DatabaseError

    from ..core.database import Trouble, trouble
    from ..core.locks import Busy
    from .effects import effects_apply_all

    try:
        return effects_apply_all(wait=False)
    except Busy as exc:
        raise self.retry(countdown=BUSY_RETRY_SECONDS) from exc
    except DatabaseError as exc:
        if trouble(exc) is not Trouble.BUSY:
            raise
        raise self.retry(countdown=BUSY_RETRY_SECONDS) from exc


@shared_task(name="spyleague.scores.tasks.sweep_effects", ignore_result=True)
def sweep_effects() -> int:
    """Beat: apply the results whose task was lost."""
    from .effects import effects_sweep

    return effects_sweep()
