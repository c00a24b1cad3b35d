"""The Celery app: every CELERY_* Django setting configures it (see config/settings.py)."""

import logging
import os

from celery import Celery
from celery.signals import celeryd_after_setup

import config.kombu_patch  # noqa: F401 (a worker must survive a Redis restart)
from config.idle_priority import lower_to_idle, only_reviews

logger = logging.getLogger(__name__)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("rummy500")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Reconnect to the broker for as long as it takes (Celery's default gives up after 100
# tries, about 50 minutes, and the worker then exits): under bin/run's supervisor, or any
# other, Redis comes back, and a worker that waits for it picks up where it stopped.
app.conf.broker_connection_retry = True
app.conf.broker_connection_max_retries = None
app.autodiscover_tasks()
# Game reviews are long and CPU-bound: their own queue, served by the `review` worker at
# concurrency 1 (config/Procfile), so bot moves and clocks on the default queue never wait.
app.conf.task_routes = {"games.tasks.review_game": {"queue": "review"}}


@celeryd_after_setup.connect
def _reviews_wait_for_idle_cores(sender: str, instance: object, **_: object) -> None:
    """The review worker (config/idle_priority.py) yields the processor to everything else."""
    queues = instance.app.amqp.queues.consume_from or {}
    if only_reviews(queues):
        logger.info("review worker scheduling: %s", lower_to_idle())
