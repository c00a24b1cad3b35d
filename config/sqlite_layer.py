"""A cross-process Channels layer stored in a SQLite file.

Used only when the private Redis of `bin/run` cannot start (see config/backends.py), so
that a bot move made in the Celery worker still reaches the sockets held by Daphne. It is
correct rather than fast: messages are claimed with DELETE ... RETURNING inside an
IMMEDIATE transaction, so each message is delivered at most once, and receivers poll.

We looked for a maintained package first; channels-lite stores messages in the site's
main database through the ORM, which would make game writes queue behind socket traffic.
This layer keeps its own file and needs only the standard library plus msgpack (already
installed with channels-redis).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import string
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import msgpack
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS layer_message (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    inbox TEXT NOT NULL,
    channel TEXT NOT NULL,
    expires REAL NOT NULL,
    body BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS layer_message_inbox ON layer_message (inbox, id);
CREATE INDEX IF NOT EXISTS layer_message_channel ON layer_message (channel);
CREATE TABLE IF NOT EXISTS layer_membership (
    grp TEXT NOT NULL,
    channel TEXT NOT NULL,
    joined REAL NOT NULL,
    PRIMARY KEY (grp, channel)
);
"""

FASTEST_POLL_S = 0.01
SLOWEST_POLL_S = 0.1
CLEANUP_EVERY_S = 5.0


@dataclass
class _LoopState:
    """Receive buffers for process-local channels, one per event loop that receives."""

    buffers: dict[str, asyncio.Queue[dict[str, Any]]] = field(default_factory=dict)
    last_asked: dict[str, float] = field(default_factory=dict)
    readers: dict[str, asyncio.Task[None]] = field(default_factory=dict)


class SQLiteChannelLayer(BaseChannelLayer):  # type: ignore[misc]
    extensions = ["groups", "flush"]

    def __init__(
        self,
        path: str,
        expiry: int = 60,
        group_expiry: int = 86400,
        capacity: int = 100,
        channel_capacity: dict[str, int] | None = None,
    ) -> None:
        super().__init__(expiry=expiry, capacity=capacity, channel_capacity=channel_capacity)
        self.path = Path(path)
        self.group_expiry = group_expiry
        self.client_prefix = "".join(random.choices(string.ascii_lowercase, k=12))
        self._thread_local = threading.local()
        self._schema_lock = threading.Lock()
        self._schema_ready = False
        self._last_cleanup = 0.0
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = (
            weakref.WeakKeyDictionary()
        )

    # --- Channel layer API -------------------------------------------------------------

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        body = msgpack.packb(message, use_bin_type=True)
        delivered = await self._run(self._insert, [channel], body)
        if not delivered:
            raise ChannelFull(channel)

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        if "!" in channel:
            return await self._receive_local(channel)
        delay = FASTEST_POLL_S
        while True:
            body = await self._run(self._claim_one, channel)
            if body is not None:
                return self._decode(body)
            await asyncio.sleep(delay)
            delay = min(delay * 2, SLOWEST_POLL_S)

    async def new_channel(self, prefix: str = "specific") -> str:
        suffix = "".join(random.choices(string.ascii_letters, k=12))
        return f"{prefix.rstrip('.')}.{self.client_prefix}!{suffix}"

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        await self._run(
            self._execute,
            "INSERT OR REPLACE INTO layer_membership (grp, channel, joined) VALUES (?, ?, ?)",
            (group, channel, time.time()),
        )

    async def group_discard(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        await self._run(
            self._execute,
            "DELETE FROM layer_membership WHERE grp = ? AND channel = ?",
            (group, channel),
        )

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        body = msgpack.packb(message, use_bin_type=True)
        await self._run(self._insert_for_group, group, body)

    async def flush(self) -> None:
        await self._run(self._execute, "DELETE FROM layer_message", ())
        await self._run(self._execute, "DELETE FROM layer_membership", ())
        for state in list(self._loops.values()):
            state.buffers.clear()
            state.last_asked.clear()

    async def close(self) -> None:
        """Connections belong to worker threads and close with them; nothing to do."""

    # --- Process-local channels: one reader per event loop fans messages out ------------

    async def _receive_local(self, channel: str) -> dict[str, Any]:
        state = self._loops.setdefault(asyncio.get_running_loop(), _LoopState())
        queue = state.buffers.setdefault(channel, asyncio.Queue())
        state.last_asked[channel] = time.monotonic()
        inbox = self.non_local_name(channel)
        reader = state.readers.get(inbox)
        if reader is None or reader.done():
            state.readers[inbox] = asyncio.create_task(self._read_inbox(state, inbox))
        message = await queue.get()
        state.last_asked[channel] = time.monotonic()
        return message

    async def _read_inbox(self, state: _LoopState, inbox: str) -> None:
        delay = FASTEST_POLL_S
        while any(self.non_local_name(channel) == inbox for channel in state.buffers):
            rows = await self._run(self._claim_inbox, inbox)
            for channel, body in rows:
                # A message may land before its consumer asks again: keep it until then,
                # or until nobody has asked for longer than a message may live.
                if channel not in state.buffers:
                    state.buffers[channel] = asyncio.Queue()
                    state.last_asked[channel] = time.monotonic()
                state.buffers[channel].put_nowait(self._decode(body))
            self._forget_abandoned(state)
            delay = FASTEST_POLL_S if rows else min(delay * 2, SLOWEST_POLL_S)
            await asyncio.sleep(delay)

    def _forget_abandoned(self, state: _LoopState) -> None:
        """Drop buffers nobody has read for longer than a message may live."""
        horizon = time.monotonic() - self.expiry
        for channel, asked in list(state.last_asked.items()):
            if asked < horizon:
                state.buffers.pop(channel, None)
                state.last_asked.pop(channel, None)

    # --- SQLite work, always on a worker thread -----------------------------------------

    async def _run(self, func: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(func, *args)

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._thread_local, "connection", None)
        if connection is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=20, isolation_level=None)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")
            with self._schema_lock:
                if not self._schema_ready:
                    connection.executescript(SCHEMA)
                    self._schema_ready = True
            self._thread_local.connection = connection
        return connection

    def _transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        connection = self._connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            result = work(connection)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")
        return result

    def _execute(self, sql: str, params: tuple[Any, ...]) -> None:
        self._transaction(lambda connection: connection.execute(sql, params))

    def _insert(self, channels: list[str], body: bytes) -> int:
        """Queue body on each channel that has room; return how many accepted it."""
        now = time.time()
        self._maybe_clean(now)

        def work(connection: sqlite3.Connection) -> int:
            accepted = 0
            for channel in channels:
                (queued,) = connection.execute(
                    "SELECT COUNT(*) FROM layer_message WHERE channel = ? AND expires > ?",
                    (channel, now),
                ).fetchone()
                if queued >= self.get_capacity(channel):
                    continue
                connection.execute(
                    "INSERT INTO layer_message (inbox, channel, expires, body) VALUES (?, ?, ?, ?)",
                    (self._inbox_of(channel), channel, now + self.expiry, body),
                )
                accepted += 1
            return accepted

        return self._transaction(work)

    def _insert_for_group(self, group: str, body: bytes) -> int:
        oldest = time.time() - self.group_expiry
        rows = self._connection().execute(
            "SELECT channel FROM layer_membership WHERE grp = ? AND joined > ?", (group, oldest)
        )
        channels = [channel for (channel,) in rows.fetchall()]
        return self._insert(channels, body) if channels else 0

    def _claim_one(self, channel: str) -> bytes | None:
        def work(connection: sqlite3.Connection) -> bytes | None:
            row = connection.execute(
                "DELETE FROM layer_message WHERE id = (SELECT id FROM layer_message"
                " WHERE channel = ? AND expires > ? ORDER BY id LIMIT 1) RETURNING body",
                (channel, time.time()),
            ).fetchone()
            return None if row is None else bytes(row[0])

        return self._transaction(work)

    def _claim_inbox(self, inbox: str) -> list[tuple[str, bytes]]:
        def work(connection: sqlite3.Connection) -> list[tuple[str, bytes]]:
            rows = connection.execute(
                "DELETE FROM layer_message WHERE inbox = ? RETURNING id, channel, expires, body",
                (inbox,),
            ).fetchall()
            now = time.time()
            ordered = sorted(rows)
            return [
                (channel, bytes(body)) for _, channel, expires, body in ordered if expires > now
            ]

        return self._transaction(work)

    def _maybe_clean(self, now: float) -> None:
        if now - self._last_cleanup < CLEANUP_EVERY_S:
            return
        self._last_cleanup = now

        def work(connection: sqlite3.Connection) -> None:
            connection.execute("DELETE FROM layer_message WHERE expires <= ?", (now,))
            connection.execute(
                "DELETE FROM layer_membership WHERE joined <= ?", (now - self.group_expiry,)
            )

        self._transaction(work)

    def _inbox_of(self, channel: str) -> str:
        return self.non_local_name(channel) if "!" in channel else channel

    @staticmethod
    def _decode(body: bytes) -> dict[str, Any]:
        message: dict[str, Any] = msgpack.unpackb(body, raw=False)
        return message
