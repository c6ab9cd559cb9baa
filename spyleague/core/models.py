"""Background jobs that a page can follow.

A ``Job`` row is created by the service that queues a Celery task; the task receives
the job's id, reports progress into the row, and marks it done or failed with a message
a person can read. Pages poll the row (htmx) to show a progress bar.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Job(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    kind = models.CharField(max_length=40)
    label = models.CharField(max_length=200)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="0 to 100")
    message = models.CharField(max_length=300, blank=True)
    params = models.JSONField(default=dict, blank=True)
    result = models.JSONField(default=dict, blank=True)
    key = models.CharField(
        max_length=120,
        blank=True,
        db_index=True,
        help_text="Jobs with the same key are one piece of work: queueing it again while it runs reuses it.",
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.label} ({self.get_status_display()}, {self.progress}%)"

    @property
    def is_active(self) -> bool:
        return self.status in {self.Status.QUEUED, self.Status.RUNNING}
