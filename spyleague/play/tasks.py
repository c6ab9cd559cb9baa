from __future__ import annotations

from celery import shared_task


@shared_task(name="spyleague.play.tasks.run_bots", time_limit=120, soft_time_limit=100)
def run_bots(match_id: int) -> int:
    """Let the bots of a match act until a person must.

    Safe to run twice: a second run finds no bot to act."""
    from .services import match_run_bots

    return match_run_bots(match_id=match_id)


@shared_task(name="spyleague.play.tasks.sweep_timeouts", time_limit=60, soft_time_limit=50)
def sweep_timeouts() -> int:
    from .services import match_timeouts_close

    return match_timeouts_close()
