from __future__ import annotations

from typing import Any

from .jobs import job_queue
from .models import Job


def demo_data_queue(*, user: Any = None) -> Job:
    from .tasks import load_demo_data

    return job_queue(
        kind="demo-data", label="Load the demo data", task=load_demo_data, key="demo-data", user=user
    )
