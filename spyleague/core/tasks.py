from __future__ import annotations

from typing import Any

from celery import shared_task


@shared_task(
    name="spyleague.core.tasks.load_demo_data",
    time_limit=120,
    soft_time_limit=100,
    # Not safe to run again after a run that stopped half way (the club it made says the demo is
    # there): acknowledged at once, and a run whose worker stops is marked failed (jobs_sweep).
    acks_late=False,
    reject_on_worker_lost=False,
)
def load_demo_data(job_id: int) -> None:
    from .demo import demo_data_load
    from .jobs import JobReporter, run_job

    def work(reporter: JobReporter, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        result = demo_data_load(progress=reporter.progress)
        message = "Demo data loaded." if result["created"] else "The demo data was already there."
        return message, result

    run_job(job_id, work)


@shared_task(name="spyleague.core.tasks.sweep_jobs", time_limit=60, soft_time_limit=50, acks_late=False)
def sweep_jobs() -> dict[str, int]:
    """Celery beat: run again, or mark failed, the jobs whose worker stopped (see ``jobs_sweep``).

    Acknowledged at once: a sweep lost with its worker is simply done by the next one."""
    from .jobs import jobs_sweep

    return jobs_sweep()


@shared_task(
    name="spyleague.core.tasks.sweep_unsent_jobs", time_limit=60, soft_time_limit=50, acks_late=False
)
def sweep_unsent_jobs() -> int:
    """Celery beat: send the queued jobs whose message the broker did not take (see
    ``unsent_jobs_sweep``). Acknowledged at once: the next sweep does the work of a lost one."""
    from .jobs import unsent_jobs_sweep

    return unsent_jobs_sweep()
