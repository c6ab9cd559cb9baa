from __future__ import annotations

from celery import shared_task

from ..core.jobs import SAFE_TWICE


@shared_task(name="spyleague.scores.tasks.apply_effects_task", time_limit=300, **SAFE_TWICE)
def apply_effects_task() -> int:
    """Apply the pending results' effects (``scores.effects``): safe to run twice, or beside
    another run, which takes other results."""
    from .effects import effects_apply_all

    return effects_apply_all()


@shared_task(name="spyleague.scores.tasks.sweep_effects", ignore_result=True)
def sweep_effects() -> int:
    """Beat: apply the results whose task was lost."""
    from .effects import effects_sweep

    return effects_sweep()
