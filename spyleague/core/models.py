"""Background jobs that a page can follow.

A ``Job`` row is created by the service that queues a Celery task; the task receives
the job's id, reports progress into the row, and marks it done or failed with a message
a person can read. Pages poll the row (htmx) to show a progress bar.

While a run works, its worker touches ``heartbeat`` every few seconds; a running job whose
heartbeat stopped lost its worker, and the job sweep (``jobs.jobs_sweep``) runs it again or
marks it failed, saying so. A queued job whose ``heartbeat`` is empty was never sent (the broker
was away): ``jobs.unsent_jobs_sweep`` sends it once the broker is back.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


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
    task = models.CharField(
        max_length=200, blank=True, help_text="The Celery task that runs it: the job sweep sends it again."
    )
    attempts = models.PositiveSmallIntegerField(default=0, help_text="How many runs of it have started.")
    heartbeat = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the worker running it last said it was at work (queued: when it was last sent).",
    )

    class Meta:
        ordering = ["-created"]
        indexes = [models.Index(fields=["status", "heartbeat"], name="job_status_heartbeat")]

    def __str__(self) -> str:
        return f"{self.label} ({self.get_status_display()}, {self.progress}%)"

    @property
    def is_active(self) -> bool:
        return self.status in {self.Status.QUEUED, self.Status.RUNNING}

    # What its page says when a worker stopped under it (see jobs.jobs_sweep).
    RESTARTED = "Restarted after its worker stopped."
    WORKER_LOST = "Failed: its worker stopped before it finished."
    UNSENT = "The job queue could not be reached: it is sent as soon as it answers again."

    @property
    def note(self) -> str:
        """Said beside its status: that it was restarted, if it was; that its worker has been
        silent (or no worker has taken it) for a while, and what happens then."""
        notes = [self.RESTARTED] if self.restarted else []
        if self.status == self.Status.QUEUED and self.heartbeat is None:
            notes.append(self.UNSENT)  # its message did not reach the broker (see jobs.unsent_jobs_sweep)
        if self.silence:
            seconds = round(self.silence)
            lost = round(settings.JOB_LOST_SECONDS)
            if self.status == self.Status.RUNNING:
                notes.append(
                    f"No word from its worker for {seconds} s: if it stays silent for {lost} s, the job "
                    "is run again (or fails, saying so)."
                )
            else:
                notes.append(f"No worker has taken it for {seconds} s: it is sent again after {lost} s.")
        return " ".join(notes)

    @property
    def silence(self) -> float:
        """Seconds since an active job was last heard of, once that is longer than three heartbeats
        (a running job's worker touches ``heartbeat`` every ``JOB_HEARTBEAT_SECONDS``; a queued
        job's is when it was sent); 0 otherwise."""
        if not self.is_active or self.heartbeat is None:
            return 0.0
        quiet = (timezone.now() - self.heartbeat).total_seconds()
        return quiet if quiet > 3 * settings.JOB_HEARTBEAT_SECONDS else 0.0

    @property
    def restarted(self) -> bool:
        """An earlier run's worker stopped and it was queued again (only the job sweep does that):
        more runs started than the one it is running or ran last (none while it is queued)."""
        return self.attempts > (0 if self.status == self.Status.QUEUED else 1)
