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


@shared_task(name="tests.config.broadcast")
def broadcast(group: str, token: str) -> None:
    """What a bot move does after commit: tell the table's sockets something changed."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    async_to_sync(get_channel_layer().group_send)(group, {"type": "probe", "token": token})


@shared_task(name="tests.config.slow_run")
def slow_run(marker: str, seconds: float) -> None:
    """A task still running when its worker is told to stop: it marks its start and end."""
    from pathlib import Path

    Path(f"{marker}.started").touch()
    time.sleep(seconds)
    Path(f"{marker}.finished").touch()
