from __future__ import annotations

from typing import Any

from celery import shared_task

from ..core.jobs import SAFE_TWICE


@shared_task(
    name="spyleague.ratings.tasks.recompute_ratings_task", time_limit=600, soft_time_limit=540, **SAFE_TWICE
)
def recompute_ratings_task(job_id: int) -> None:
    """Replay a game's confirmed results. Safe to run twice, or beside another run: the run that
    read the results last writes last (see ``ratings.services``)."""
    from ..core.jobs import JobReporter, run_job
    from .services import ratings_recompute

    def work(reporter: JobReporter, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        summary = ratings_recompute(game=params["game"], progress=reporter.progress)
        if not summary["written"]:
            return "A later recompute, which saw more results, has saved the ratings.", summary
        return f"Rated {summary['players']} players from {summary['results']} results.", summary

    run_job(job_id, work)
