from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(name="spyleague.core.tasks.load_demo_data", time_limit=120, soft_time_limit=100)
def load_demo_data(job_id: int) -> None:
    from .demo import demo_data_load
    from .jobs import JobReporter, run_job

    def work(reporter: JobReporter, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        result = demo_data_load(progress=reporter.progress)
        message = "Demo data loaded." if result["created"] else "The demo data was already there."
        return message, result

    run_job(job_id, work)
