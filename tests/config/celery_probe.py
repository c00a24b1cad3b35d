"""A task for the Celery tests: records when each token arrived, in this process.

Tokens keep runs apart: a message left in a shared Redis by an earlier or parallel run
cannot be mistaken for this test's message.
"""

import threading
import time

from celery import shared_task

arrivals: dict[str, float] = {}
arrived = threading.Condition()


@shared_task(name="tests.config.record_run")
def record_run(token: str) -> None:
    with arrived:
        arrivals[token] = time.monotonic()
        arrived.notify_all()


def wait_for(token: str, seconds: float) -> float | None:
    """When the task with this token ran, or None if it did not within `seconds`."""
    with arrived:
        arrived.wait_for(lambda: token in arrivals, timeout=seconds)
        return arrivals.get(token)
