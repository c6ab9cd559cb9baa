from __future__ import annotations

from typing import Any

from celery import shared_task

from ..core.jobs import SAFE_TWICE


@shared_task(
    name="spyleague.tournaments.tasks.pair_round_task", time_limit=300, soft_time_limit=270, **SAFE_TWICE
)
def pair_round_task(job_id: int) -> None:
    """Pair the next round as a draft. Safe to run twice: the draft that exists is kept."""
    from ..core.jobs import JobReporter, run_job
    from .models import Event
    from .services import round_pair

    def work(reporter: JobReporter, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        event = Event.objects.get(pk=params["event"])
        rnd = round_pair(event=event, progress=reporter.progress)
        tables = rnd.tables.filter(is_bye=False).count()
        byes = rnd.tables.filter(is_bye=True).count()
        bye_text = f", {byes} bye{'s' if byes != 1 else ''}" if byes else ""
        return (
            f"Round {rnd.number} is ready to check: {tables} table{'s' if tables != 1 else ''}{bye_text}. "
            "Publish it when it looks right.",
            {"round": rnd.pk, "number": rnd.number},
        )

    run_job(job_id, work)


@shared_task(
    name="spyleague.tournaments.tasks.recompute_standings_task",
    time_limit=300,
    soft_time_limit=270,
    **SAFE_TWICE,
)
def recompute_standings_task(job_id: int) -> None:
    """Recompute an event's standings from its results. Idempotent: the rows are replaced."""
    from ..core.jobs import JobReporter, run_job
    from .models import Event
    from .services import standings_recompute

    def work(reporter: JobReporter, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        count = standings_recompute(event=Event.objects.get(pk=params["event"]), progress=reporter.progress)
        return f"Standings updated for {count} players.", {"players": count}

    run_job(job_id, work)
