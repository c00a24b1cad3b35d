"""The review worker yields the processor (config/idle_priority.py), and only that worker."""

from __future__ import annotations

import multiprocessing
import os
import sys
from types import SimpleNamespace

import pytest

from config import celery as celery_app
from config.idle_priority import lower_to_idle, only_reviews


def test_only_a_worker_of_the_review_queue_alone_counts_as_the_review_worker():
    assert only_reviews({"review"})
    assert not only_reviews({"celery"})
    assert not only_reviews({"celery", "review"})
    assert not only_reviews(set())


def _policy_after(queues: set[str], out: multiprocessing.Queue) -> None:
    worker = SimpleNamespace(app=SimpleNamespace(amqp=SimpleNamespace(
        queues=SimpleNamespace(consume_from={q: None for q in queues})
    )))  # fmt: skip
    celery_app._reviews_wait_for_idle_cores("worker@host", worker)
    out.put(os.sched_getscheduler(0))


def _policy_in_child(queues: set[str]) -> int:
    """Run the worker-setup hook in a child process (the test process keeps its class)."""
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    child = context.Process(target=_policy_after, args=(queues, out))
    child.start()
    policy = out.get(timeout=30)
    child.join(30)
    return policy


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SCHED_IDLE is Linux's")
def test_the_review_worker_runs_in_the_idle_class_and_the_bot_worker_does_not():
    assert _policy_in_child({"review"}) == os.SCHED_IDLE
    assert _policy_in_child({"celery"}) == os.SCHED_OTHER


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SCHED_IDLE is Linux's")
def test_lowering_says_what_it_did():
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    child = context.Process(target=lambda: out.put(lower_to_idle()))
    child.start()
    assert out.get(timeout=30) == "SCHED_IDLE"
    child.join(30)
