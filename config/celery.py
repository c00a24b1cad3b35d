"""The Celery app: every CELERY_* Django setting configures it (see config/settings.py)."""

import os

from celery import Celery

import config.kombu_patch  # noqa: F401 (a worker must survive a Redis restart)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rummy500")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
