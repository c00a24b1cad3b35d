"""Tell sockets that something changed. Only "table n is at version v" crosses the layer:
each socket renders its own seat's view, so no hand ever travels through a shared group."""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
RETRY_PAUSE_S = 0.05


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def _on_a_fresh_loop() -> bool:
    """Whether async_to_sync will run our coroutine on a loop of its own.

    Inside Daphne (a thread that sync_to_async started) it runs on the server's long-lived
    loop. Elsewhere (a Celery task, a management command) each call gets a new loop that dies
    with it, and channels-redis pools bound to it must be closed after use (a known
    channels-redis 4 pitfall), or connections leak and later sends fail.
    """
    threadlocal = SyncToAsync.threadlocal
    loop = getattr(threadlocal, "main_event_loop", None)
    return loop is None or getattr(threadlocal, "main_event_loop_pid", None) != os.getpid()


Message = tuple[str, dict[str, object]]
_deferred: ContextVar[list[Message] | None] = ContextVar("deferred_broadcasts", default=None)


@contextmanager
def deferred() -> Iterator[list[Message]]:
    """Collect this context's sends instead of making them, for a caller on an event loop.

    A socket's move runs on a database thread; sending from there means a round trip back to
    the server's loop (async_to_sync) while the thread waits. The consumer instead takes the
    collected messages home and awaits ``flush`` on its own loop.
    """
    box: list[Message] = []
    token = _deferred.set(box)
    try:
        yield box
    finally:
        _deferred.reset(token)


async def _group_send(layer: Any, group: str, message: dict[str, object]) -> None:
    """One retry: after a Redis restart the first command on a pooled connection fails while
    the next one connects afresh, and the message (a version number) is safe to repeat."""
    try:
        await layer.group_send(group, message)
    except Exception:
        log.warning("channel layer send failed; retrying once", extra={"group": group})
        await asyncio.sleep(RETRY_PAUSE_S)
        await layer.group_send(group, message)


async def flush(messages: list[Message]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for group, message in messages:
        try:
            await _group_send(layer, group, message)
        except Exception:  # as in _send: the move is committed; clients resync
            log.exception("channel layer send failed", extra={"group": group})


def _send(group: str, message: dict[str, object]) -> None:
    box = _deferred.get()
    if box is not None:
        box.append((group, message))
        return
    layer = get_channel_layer()
    if layer is None:
        return
    close_after = _on_a_fresh_loop() and hasattr(type(layer), "close_pools")

    async def send() -> None:
        try:
            await _group_send(layer, group, message)
        finally:
            if close_after:
                await layer.close_pools()

    try:
        async_to_sync(send)()
    except Exception:  # the move is committed; a lost ping is healed by the client's resync
        log.exception("channel layer send failed", extra={"group": group})


def table_changed(table_id: int, version: int) -> None:
    _send(table_group(table_id), {"type": "table.changed", "version": version})


def lobby_changed() -> None:
    """Every lobby socket gets the same id for one change, so a process renders it once."""
    _send(LOBBY_GROUP, {"type": "lobby.changed", "change": uuid.uuid4().hex})


def table_chat(table_id: int, message_id: int) -> None:
    _send(table_group(table_id), {"type": "table.chat", "message": message_id})


def table_presence(table_id: int, presence: dict[str, object]) -> None:
    _send(table_group(table_id), {"type": "table.presence", "presence": presence})


# --- what the services tell (games.signals), connected in GamesConfig.ready() ---------------


def _on_table_changed(
    sender: object, *, table_id: int, version: int, lobby: bool, **_: object
) -> None:
    table_changed(table_id, version)
    if lobby:
        lobby_changed()


def _on_seat_presence_changed(
    sender: object, *, table_id: int, info: dict[str, object], **_: object
) -> None:
    table_presence(table_id, info)


def _on_chat_posted(sender: object, *, table_id: int, message_id: int, **_: object) -> None:
    table_chat(table_id, message_id)


def connect_receivers() -> None:
    from games import signals

    signals.table_changed.connect(_on_table_changed, dispatch_uid="broadcast.table_changed")
    signals.seat_presence_changed.connect(
        _on_seat_presence_changed, dispatch_uid="broadcast.seat_presence_changed"
    )
    signals.chat_posted.connect(_on_chat_posted, dispatch_uid="broadcast.chat_posted")
