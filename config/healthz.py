"""/healthz: can this process reach the database, the channel layer and the broker?

Load balancers and `bin/run` poll it. Each probe is bounded by a short timeout so a
hung dependency makes the check fail fast instead of hanging the caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app

logger = logging.getLogger(__name__)
PROBE_TIMEOUT_S = 3.0
RETRY_PAUSE_S = 0.05
ROUND_TRIPS = 3


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def check_channel_layer() -> None:
    """A message sent to a new channel and read back, tried again after a failure: after
    a Redis restart the first command on each of the process's pooled connections fails
    ("Connection closed by server") and the next connects afresh, as for sockets
    (games/layer_retry.py): the publishing connection and the subscriber each fail once, so
    a probe makes up to three round trips. Without them the first probe after Redis came
    back said 503 though Redis was up. A Redis that is really down fails every try (each
    refused at once; the whole probe is bounded by PROBE_TIMEOUT_S)."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    for attempt in range(1, ROUND_TRIPS + 1):
        try:
            await _round_trip(layer)
            return
        except Exception as error:
            if attempt == ROUND_TRIPS:
                raise
            logger.info("healthz: channel layer probe %d failed (%s); again", attempt, error)
            await asyncio.sleep(RETRY_PAUSE_S)


async def _round_trip(layer: Any) -> None:
    channel = await layer.new_channel("healthz.")
    token = uuid.uuid4().hex
    await layer.send(channel, {"type": "healthz.probe", "token": token})
    message = await layer.receive(channel)
    await _release(layer, channel)
    if message.get("token") != token:
        raise RuntimeError("the probe message came back changed")


async def _release(layer: object, channel: str) -> None:
    """Let go of the probe's channel. The Pub/Sub layer unsubscribes a channel when a receive
    on it is cancelled (that is how a consumer leaves); without this every probe would leave
    a Redis subscription behind in the web process."""
    pending = asyncio.ensure_future(layer.receive(channel))  # type: ignore[attr-defined]
    await asyncio.sleep(0)
    pending.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await pending


def check_broker() -> None:
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=PROBE_TIMEOUT_S)


async def _probe(name: str, check: Callable[[], Awaitable[None]]) -> dict[str, object]:
    started = time.perf_counter()
    try:
        await asyncio.wait_for(check(), PROBE_TIMEOUT_S)
    except Exception as error:  # a health check reports every failure, whatever its kind
        logger.warning("healthz: %s unreachable: %s", name, error)
        return {"ok": False, "error": f"{type(error).__name__}: {error}"[:200]}
    return {"ok": True, "ms": round((time.perf_counter() - started) * 1000, 1)}


@never_cache
@require_GET
async def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": await _probe("database", sync_to_async(check_database)),
        "channel_layer": await _probe("channel_layer", check_channel_layer),
        "broker": await _probe("broker", sync_to_async(check_broker, thread_sensitive=False)),
    }
    healthy = all(check["ok"] for check in checks.values())
    body = {"status": "ok" if healthy else "unavailable", "messaging": settings.MESSAGING_KIND}
    return JsonResponse({**body, "checks": checks}, status=200 if healthy else 503)
