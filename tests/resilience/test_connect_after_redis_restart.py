"""The first socket to connect after a Redis restart gets its page, not HTTP 500.

A web process keeps its Redis connections; after a restart the first command on each
fails, and that command was a new socket's group_add (games/layer_retry.py retries it).
The process here is this test's: its channel layer talks to a Redis of the test's own
(restarted on its port, never the shared one), on the default Pub/Sub layer. (On the list
layer a socket's own receive loop also meets a dead pooled connection once and closes the
socket, and the page reconnects: docs/reliability.md, known limits.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.backends import PUBSUB_LAYER, select_backends
from games.routing import websocket_urlpatterns
from tests.resilience.stack import restart_redis

pytestmark = pytest.mark.django_db(transaction=True)

app = URLRouter(websocket_urlpatterns)


async def lobby_connects() -> bool:
    """Open a lobby socket, read the list it is sent, close it."""
    communicator = WebsocketCommunicator(app, "/ws/lobby/")
    communicator.scope["user"] = AnonymousUser()
    connected, _ = await communicator.connect(timeout=10)
    if connected:
        assert "<" in await communicator.receive_from(timeout=10)
        await communicator.disconnect()
    return connected


async def test_the_first_lobby_socket_after_a_redis_restart_connects(
    private_redis, settings, tmp_path
):
    env = {"REDIS_URL": private_redis.url, "CHANNEL_LAYER": PUBSUB_LAYER}
    settings.CHANNEL_LAYERS = select_backends(env, base_dir=Path(tmp_path), testing=False)[
        "CHANNEL_LAYERS"
    ]
    assert await lobby_connects()  # the layer now holds connections to this Redis
    again = restart_redis(private_redis)
    try:
        assert await lobby_connects(), "the first connect after the restart was refused"
        assert await lobby_connects()
    finally:
        again.stop()


async def test_the_first_healthz_after_a_redis_restart_says_the_channel_layer_is_up(
    private_redis, settings, tmp_path
):
    """Found on a live bin/run: the first /healthz after the supervised Redis came back
    answered 503 ("channel_layer": "Connection closed by server"), though Redis was up;
    a load balancer would take the process out for nothing. The probe tries once more."""
    from config.healthz import _probe, check_channel_layer

    env = {"REDIS_URL": private_redis.url, "CHANNEL_LAYER": PUBSUB_LAYER}
    settings.CHANNEL_LAYERS = select_backends(env, base_dir=Path(tmp_path), testing=False)[
        "CHANNEL_LAYERS"
    ]
    assert (await _probe("channel_layer", check_channel_layer))["ok"]
    again = restart_redis(private_redis)
    try:
        first = await _probe("channel_layer", check_channel_layer)
        assert first["ok"], first
        assert (await _probe("channel_layer", check_channel_layer))["ok"]
    finally:
        again.stop()
