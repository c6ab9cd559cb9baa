from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(name="spyleague.ratings.tasks.recompute_ratings_task", time_limit=600, soft_time_limit=540)
def recompute_ratings_task(job_id: int) -> None:
    from ..core.jobs import JobReporter, run_job
    from .services import ratings_recompute

    def work(reporter: JobReporter, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        summary = ratings_recompute(game=params["game"], progress=reporter.progress)
        return f"Rated {summary['players']} players from {summary['results']} results.", summary

    run_job(job_id, work)
