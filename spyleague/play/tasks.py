from __future__ import annotations

from celery import shared_task

from ..core.jobs import SAFE_TWICE


@shared_task(name="spyleague.play.tasks.run_bots", time_limit=120, soft_time_limit=100, **SAFE_TWICE)
def run_bots(match_id: int) -> int:
    """Let the bots of a match act until a person must.

    Safe to run twice: a second run finds no bot to act."""
    from .bots import match_run_bots

    return match_run_bots(match_id=match_id)


@shared_task(name="spyleague.play.tasks.sweep_timeouts", time_limit=60, soft_time_limit=50)
def sweep_timeouts() -> int:
    from .services import match_timeouts_close

    return match_timeouts_close()


@shared_task(name="spyleague.play.tasks.sweep_bots", time_limit=60, soft_time_limit=50, acks_late=False)
def sweep_bots() -> int:
    """Celery beat: ask the bots of every match that waits on them, and report every ended match
    whose result was not (see ``sweeps``).

    Acknowledged at once: a sweep lost with its worker is simply done by the next one."""
    from .sweeps import bots_sweep, reports_sweep

    return bots_sweep() + reports_sweep()
