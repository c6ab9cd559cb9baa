from __future__ import annotations

from typing import Any

from celery import shared_task

from ..core.jobs import SAFE_TWICE

BUSY_RETRY_SECONDS = 1.0
BUSY_RETRIES = 20


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

    Another run applying the same event's results holds its standings until it commits; past
    the database's lock timeout (``DATABASE_LOCK_TIMEOUT``) this run gives its results back
    (its transaction rolls back) and tries again a moment later, rather than fail: seen under
    the load benchmark's soak, two runs at once, the second waiting on the first's batch."""
    from django.db import DatabaseError

    from ..core.database import Trouble, trouble
    from .effects import effects_apply_all

    try:
        return effects_apply_all()
    except DatabaseError as exc:
        if trouble(exc) is not Trouble.BUSY:
            raise
        raise self.retry(countdown=BUSY_RETRY_SECONDS) from exc


@shared_task(name="spyleague.scores.tasks.sweep_effects", ignore_result=True)
def sweep_effects() -> int:
    """Beat: apply the results whose task was lost."""
    from .effects import effects_sweep

    return effects_sweep()
