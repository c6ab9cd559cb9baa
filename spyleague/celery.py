"""The Celery app. Tasks live in each app's ``tasks.py`` and stay thin: they take ids,
call a service, and are safe to run twice."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spyleague.settings")

app = Celery("spyleague")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
