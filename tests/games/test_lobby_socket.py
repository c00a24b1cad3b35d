"""The lobby socket: the list on connect, and again after each change, rendered once per change."""

from __future__ import annotations

from unittest import mock

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games import broadcast, selectors
from games.routing import websocket_urlpatterns
from games.services import tables

pytestmark = pytest.mark.django_db(transaction=True)

app = URLRouter(websocket_urlpatterns)


async def _watcher(query: str = "") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, f"/ws/lobby/{query}")
    communicator.scope["user"] = AnonymousUser()
    connected, _ = await communicator.connect()
    assert connected
    await communicator.receive_from(timeout=10)  # the list as it is on connect
    return communicator


def _table(host, name: str):
    return tables.table_create(
        host=host, name=name, preset="standard", options={}, num_seats=3, turn_seconds=60
    )


async def test_every_watcher_gets_a_change_that_the_process_read_and_rendered_once(alice):
    await database_sync_to_async(_table)(alice, "Fresh table")
    watchers = [await _watcher() for _ in range(3)]
    json_watcher = await _watcher("?format=json")
    with mock.patch.object(selectors, "public_tables", wraps=selectors.public_tables) as listed:
        await get_channel_layer().group_send(
            broadcast.LOBBY_GROUP, {"type": "lobby.changed", "change": "c1"}
        )
        pages = [await w.receive_from(timeout=10) for w in watchers]
        frame = await json_watcher.receive_json_from(timeout=10)
    assert all("Fresh table" in page for page in pages)
    assert [row["name"] for row in frame["tables"]] == ["Fresh table"]
    assert listed.call_count == 2  # once for the HTML watchers, once for the JSON one
    for w in [*watchers, json_watcher]:
        await w.disconnect()


async def test_the_next_change_is_read_afresh(alice):
    watcher = await _watcher()
    await get_channel_layer().group_send(
        broadcast.LOBBY_GROUP, {"type": "lobby.changed", "change": "c2"}
    )
    assert "Second" not in await watcher.receive_from(timeout=10)
    await database_sync_to_async(_table)(alice, "Second")  # announces a change of its own
    assert "Second" in await watcher.receive_from(timeout=10)
    await watcher.disconnect()


async def test_a_change_without_an_id_is_still_answered_with_the_list(alice):
    await database_sync_to_async(_table)(alice, "Old sender")
    watcher = await _watcher()
    await get_channel_layer().group_send(broadcast.LOBBY_GROUP, {"type": "lobby.changed"})
    assert "Old sender" in await watcher.receive_from(timeout=10)
    await watcher.disconnect()


# --- client frames: the lobby only listens (issue 18, item 4) --------------------------------


async def _replies(watcher: WebsocketCommunicator, count: int) -> list[dict]:
    return [await watcher.receive_json_from(timeout=10) for _ in range(count)]


async def test_a_ping_is_answered_and_nothing_else_renders_the_list(alice):
    watcher = await _watcher("?format=json")
    with mock.patch.object(selectors, "public_tables", wraps=selectors.public_tables) as listed:
        await watcher.send_json_to({"type": "ping", "id": "p1"})
        await watcher.send_json_to({"type": "resync"})
        await watcher.send_to(text_data="x")
        await watcher.send_to(bytes_data=b"\x00")
        await watcher.send_to(text_data='{"type": "ping", "id": "\\ud800"}')
        pong, *errors = await _replies(watcher, 5)
    assert pong == {"type": "pong", "id": "p1"}
    assert [e["code"] for e in errors] == ["unknown", "malformed", "malformed", "malformed"]
    assert listed.call_count == 0
    await watcher.disconnect()


async def test_the_lobby_socket_has_the_table_sockets_size_and_rate_limits(alice):
    from games import consumers

    watcher = await _watcher("?format=json")
    big = '{"type": "ping", "id": "' + "x" * consumers.MAX_FRAME_BYTES + '"}'
    await watcher.send_to(text_data=big)
    assert (await watcher.receive_json_from(timeout=10))["code"] == "too_large"
    flood = int(consumers.RATE_BURST) * 3
    for i in range(flood):
        await watcher.send_json_to({"type": "ping", "id": f"p{i}"})
    replies = await _replies(watcher, flood)
    limited = [r for r in replies if r.get("code") == "rate_limited"]
    assert len(limited) >= flood - consumers.RATE_BURST - 5
    assert sum(r["type"] == "pong" for r in replies) <= consumers.RATE_BURST + 5
    await watcher.disconnect()


async def test_frames_queued_by_a_client_that_has_gone_are_not_processed():
    """Daphne raises Disconnected from send once the client has gone; the frames it had
    already queued are then dropped without parsing or answering them."""
    from autobahn.exception import Disconnected
    from channels.generic.websocket import AsyncWebsocketConsumer

    from games import consumers

    consumer = consumers.LobbyConsumer()
    consumer.json_mode = True
    sent = []

    async def gone_after_one(self, text_data=None, bytes_data=None, close=False):
        sent.append(text_data)
        raise Disconnected("the client has gone")

    with (
        mock.patch.object(AsyncWebsocketConsumer, "send", gone_after_one),
        mock.patch.object(consumers, "_parse", wraps=consumers._parse) as parsed,
    ):
        for i in range(50):
            await consumer.receive(text_data=f'{{"type": "ping", "id": "p{i}"}}')
    assert len(sent) == 1 and parsed.call_count == 1
