"""Celery runs tasks in a real worker with real countdowns, never eagerly."""

import time
import uuid

from django.conf import settings

from config.celery import app
from tests.config import celery_probe


def test_it_is_not_eager():
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    assert app.conf.task_always_eager is False


def test_it_acknowledges_late_and_requeues_tasks_of_a_lost_worker():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True


def test_a_worker_retries_the_broker_for_as_long_as_it_is_down():
    """Celery's default stops after 100 tries; bin/run's supervisor brings Redis back."""
    assert app.conf.broker_connection_retry is True
    assert app.conf.broker_connection_max_retries is None


def test_a_countdown_task_runs_in_the_worker_after_its_countdown(celery_worker):
    token = uuid.uuid4().hex
    sent = time.monotonic()
    celery_probe.record_run.apply_async((token,), countdown=1)
    ran_at = celery_probe.wait_for(token, 15)
    assert ran_at is not None, "the worker never ran the task"
    assert ran_at - sent >= 1.0, "it ran before its countdown: the task was not delayed"
