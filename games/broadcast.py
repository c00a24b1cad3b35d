"""Tell sockets that something changed. Only "table n is at version v" crosses the layer:
each socket renders its own seat's view, so no hand ever travels through a shared group."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


# Set in Celery workers and management commands: there every async_to_sync call runs on a
# fresh event loop, and channels-redis pools bound to a dead loop must be closed after use
# (a known channels-redis 4 pitfall). Inside Daphne the send runs on the server's own loop.
CLOSE_POOLS_AFTER_SEND = False


def _send(group: str, message: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return

    async def send() -> None:
        try:
            await layer.group_send(group, message)
        finally:
            if CLOSE_POOLS_AFTER_SEND and hasattr(layer, "close_pools"):
                await layer.close_pools()

    try:
        async_to_sync(send)()
    except Exception:  # the move is committed; a lost ping is healed by the client's resync
        log.exception("channel layer send failed", extra={"group": group})


def table_changed(table_id: int, version: int) -> None:
    _send(table_group(table_id), {"type": "table.changed", "version": version})


def lobby_changed() -> None:
    _send(LOBBY_GROUP, {"type": "lobby.changed"})


def table_chat(table_id: int, message_id: int) -> None:
    _send(table_group(table_id), {"type": "table.chat", "message": message_id})


def table_presence(table_id: int, presence: dict[str, object]) -> None:
    _send(table_group(table_id), {"type": "table.presence", "presence": presence})
