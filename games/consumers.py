"""The table socket: parse, authorise, call the service; render this socket's own view.

Browsers get HTML fragments for htmx's out-of-band swaps; scripted clients that connect with
``?format=json`` get the same updates as JSON (docs/protocol.md). A group message only says
"version n"; each socket loads the (per-process cached) snapshot and renders its own seat,
so no other seat's cards ever pass through here.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import DatabaseError

from accounts.sockets import AccountSockets, LoginEnded, guarded
from games import broadcast, layer_retry, secrecy, selectors
from games.models import Table
from games.services import chat, moves, presence, shared
from games.table import presenters, table_frames

log = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
MAX_ID_LENGTH = 64
# Token bucket per socket: a burst of RATE_BURST frames, refilled at RATE_PER_SECOND.
RATE_PER_SECOND = 5.0
RATE_BURST = 20.0
CLOSE_NO_TABLE = 4404
CLOSE_FORBIDDEN = 4403


# Sockets wait on the database far more than they compute. Channels runs
# database_sync_to_async on one thread by default, so every socket of a process would queue
# behind each other's queries; these calls touch no thread-bound state, so they run on a
# pool (each thread keeps its own connection).
_DB_POOL = ThreadPoolExecutor(
    max_workers=getattr(settings, "SOCKET_DB_THREADS", 16), thread_name_prefix="socket-db"
)


def db(fn: Any) -> Any:
    return database_sync_to_async(fn, thread_sensitive=False, executor=_DB_POOL)


class ProtocolError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _NoLoopDatabase:
    """Our consumers never touch the database on the event loop's thread: every query runs on
    ``_DB_POOL``, whose threads tidy their own connections around each call. Channels'
    ``dispatch`` would first hop to a thread to close that thread's stale connections, for
    every frame and group message a socket gets; for us that hop is pure cost (profiled at a
    tenth of a table socket's CPU), so dispatch goes straight to the handler."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class _GoneSocketsSkipped:
    """A group message can reach a consumer whose client has just gone, before Daphne has
    told it so; Daphne then raises from ``send``. Nobody is left to read the frame, and the
    disconnect that follows tidies up, so the frame is dropped instead of logging an error.
    Frames the client queued before it went are not worth any work either: ``gone`` tells
    ``receive`` to drop them."""

    gone = False

    async def send(self, *args: Any, **kwargs: Any) -> None:
        if self.gone:
            return
        try:
            await super().send(*args, **kwargs)  # type: ignore[misc]
        except Disconnected:
            self.gone = True
            log.debug("frame for a socket that has gone; dropped")

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        self.gone = True
        await super().websocket_disconnect(message)  # type: ignore[misc]


class _FrameLimits:
    """The limits every client frame meets before any work is done for it: text only, at
    most MAX_FRAME_BYTES, the per-socket rate, a JSON object, and text that every layer
    below can encode and store (no lone surrogates, which UTF-8, orjson and the database
    drivers refuse, and no NUL, which PostgreSQL refuses)."""

    tokens = RATE_BURST
    refilled_at = 0.0

    def _admit(self, text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
        if bytes_data is not None or text_data is None:
            raise ProtocolError("malformed", "Frames must be JSON text.")
        try:
            size = len(text_data.encode())
        except UnicodeEncodeError:
            raise ProtocolError("malformed", "Frames must be valid UTF-8 text.") from None
        if size > MAX_FRAME_BYTES:
            raise ProtocolError("too_large", f"Frames are limited to {MAX_FRAME_BYTES} bytes.")
        self._take_token()
        frame = _parse(text_data)
        if not _clean_text(frame):
            raise ProtocolError(
                "malformed", "Text in a frame must be valid Unicode without NUL characters."
            )
        return frame

    def _take_token(self) -> None:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.refilled_at) * RATE_PER_SECOND)
        self.refilled_at = now
        if self.tokens < 1:
            raise ProtocolError("rate_limited", "Too many messages; slow down.")
        self.tokens -= 1


class TableConsumer(
    AccountSockets, _GoneSocketsSkipped, _FrameLimits, _NoLoopDatabase, AsyncWebsocketConsumer
):
    table_id: int
    seat: int | None
    json_mode: bool
    last_version: int

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.json_mode = _query_param(self.scope, "format") == "json"
        self.user = self.scope.get("user")
        self.last_version = -1
        self.tokens = RATE_BURST
        self.refilled_at = time.monotonic()
        self.seat = None
        self.heartbeat_at: float | None = None
        access = await db(self._access)()
        if access is None or not access[0]:
            # Accepted first, so that the client sees the documented close code; a refused
            # handshake would only be an HTTP 403 without one.
            await self.accept()
            await self.close(code=CLOSE_NO_TABLE if access is None else CLOSE_FORBIDDEN)
            return
        self.seat = access[1]  # the seat kept alive for presence; moves look it up afresh
        await layer_retry.group_add(
            self.channel_layer, broadcast.table_group(self.table_id), self.channel_name
        )
        await self.accept()
        if self.seat is not None:
            await self._heartbeat()
        await self._push_state()

    def _access(self) -> tuple[bool, int | None] | None:
        try:
            snap = selectors.load_snapshot(self.table_id)
        except Table.DoesNotExist:
            return None
        seat = snap.seat_of(self._user_id())
        return self._may_watch(snap, seat) and not self._held_from(snap, seat), seat

    def _held_from(self, snap: selectors.TableSnapshot, seat: int | None) -> bool:
        """A managed table's manager may refuse a spectator for now (games.secrecy: an entrant
        of a duplicate deal played here too). Asks the database: only in a worker thread."""
        return (
            seat is None and snap.table.managed and bool(secrecy.refusal(snap.table.pk, self.user))
        )

    def _may_watch(self, snap: selectors.TableSnapshot, seat: int | None) -> bool:
        """Seated players always; others if the table allows spectators (and, when it is
        private, they came with its invite token)."""
        if seat is not None:
            return True
        table = snap.table
        if not table.spectators_allowed:
            return False
        if table.is_private:
            return _query_param(self.scope, "invite") == table.invite_token
        return True

    async def disconnect(self, code: int) -> None:
        if getattr(self, "table_id", None) is None:
            return
        await self.channel_layer.group_discard(
            broadcast.table_group(self.table_id), self.channel_name
        )
        if self.heartbeat_at is not None:
            await db(presence.presence_gone)(
                table_id=self.table_id, user_id=self._user_id(), socket=self.channel_name
            )

    # --- presence ----------------------------------------------------------------------------

    async def _heartbeat(self, *, unless_fresh: bool = False) -> None:
        """Refresh this socket's heartbeat (games.models.SeatSocket), if the user sits here.

        Pings always refresh it; other frames only once it is a third of its life old, so a
        busy scripted client that never pings stays online at one write per interval."""
        user_id = self._user_id()
        if user_id is None or self.seat is None:
            return
        now = time.monotonic()
        fresh = self.heartbeat_at is not None and (
            now - self.heartbeat_at < presence.presence_expiry_s() / 3
        )
        if unless_fresh and fresh:
            return
        seated = await db(presence.presence_seen)(
            table_id=self.table_id, user_id=user_id, socket=self.channel_name
        )
        self.heartbeat_at = now if seated else None

    async def _seat_moved(self, seat: int | None) -> None:
        """The user's seat changed while this socket was open (sat down, moved, was removed):
        keep presence with the seat they hold now."""
        self.seat = seat
        if seat is not None:
            await self._heartbeat()
        elif self.heartbeat_at is not None:
            self.heartbeat_at = None
            await db(presence.presence_gone)(
                table_id=self.table_id, user_id=self._user_id(), socket=self.channel_name
            )

    # --- from the client -----------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.gone:
            return  # queued by a client that has gone: nobody reads the answer
        frame_id = None
        try:
            frame = self._admit(text_data, bytes_data)
            frame_id = frame.get("id")
            await self._dispatch(frame)
        except ProtocolError as exc:
            await self._send_error(frame_id, exc.code, exc.message)
        except LoginEnded as exc:  # the account or session ended while the socket was open
            await self._send_error(frame_id, exc.code, exc.message)
            await self.close(code=exc.close_code, reason=exc.reason)
        except shared.TableError as exc:
            await self._send_error(frame_id, exc.code, exc.message, version=exc.version)
            if exc.code in {"stale", "hand_over", "illegal"}:
                await self._push_state(force=exc.code == "stale")
        except DatabaseError:
            # The move's transaction rolled back whole; say so instead of dropping the
            # socket, so the page keeps its connection and the player can simply retry.
            log.exception("database error on table %s", self.table_id)
            await self._send_error(
                frame_id, "server_error", "The server could not save that; nothing changed."
            )

    async def _dispatch(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type", "move" if "action" in frame else None)
        if kind == "move":
            await self._move(frame)
        elif kind == "resync":
            await self._push_state(force=True)
        elif kind == "ping":
            await self._heartbeat()  # stored before the pong: a pong means "counted"
            await self._send_json({"type": "pong", "id": frame.get("id")})
            await self._catch_up(frame.get("version"))
            return
        elif kind == "chat":
            await self._chat(frame)
        else:
            raise ProtocolError("unknown", "Unknown frame type.")
        await self._heartbeat(unless_fresh=True)

    async def _move(self, frame: dict[str, Any]) -> None:
        # Seats change before a game starts (the host may remove a player): always act for
        # the seat the user holds now, never the one they held when the socket opened.
        frame_id = frame.get("id")
        if not isinstance(frame_id, str) or not 0 < len(frame_id) <= MAX_ID_LENGTH:
            raise ProtocolError("malformed", "A move needs an id of 1 to 64 characters.")
        version = frame.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise ProtocolError("malformed", "A move needs the table version you acted on.")
        action = frame.get("action")
        if not isinstance(action, dict):
            raise ProtocolError("malformed", "A move needs an action object.")
        cached = selectors.cached_snapshot(self.table_id, version)
        if cached is not None:
            seat = cached.seat_of(self._user_id())
        else:
            seat = await db(self._seat_now)(version)
        if seat is None:
            raise ProtocolError("not_seated", "Spectators cannot make moves.")
        outcome, messages = await db(guarded(self.account_check, _submit_move))(
            table_id=self.table_id,
            seat=seat,
            action=action,
            expected_version=version,
            client_id=frame_id,
        )
        await broadcast.flush(messages)
        await self._send_json({"type": "ack", "id": frame_id, "version": outcome.version})
        if outcome.duplicate:
            await self._push_state()
        else:
            # The mover's own view goes straight back on this socket, not by way of the
            # group: a lost or late group message cannot leave them looking at the table
            # before their move. The group's copy of this version is then skipped.
            await self._push_state(version=outcome.version)

    async def _catch_up(self, version: Any) -> None:
        """A ping may carry the version the client shows. Group messages are delivered at
        most once (a Redis restart drops those in flight), so a client that is behind gets
        the current state: the page pings now and then, and heals within one interval."""
        if version is None:
            return
        if not isinstance(version, int) or isinstance(version, bool) or version < 0:
            raise ProtocolError("malformed", "A ping's version must be a table version.")
        current = await db(selectors.table_version)(self.table_id)
        if current is not None and current > version:
            await self._push_state(version=current)

    async def _chat(self, frame: dict[str, Any]) -> None:
        if self.user is None or not self.user.is_authenticated:
            raise ProtocolError("not_seated", "Log in to chat.")
        text = frame.get("text")
        if not isinstance(text, str):
            raise ProtocolError("malformed", "A chat message needs text.")
        try:
            await db(guarded(self.account_check, chat.chat_post))(
                table_id=self.table_id, user=self.user, text=text
            )
        except shared.TableError as exc:
            # Said in the chat panel, under the line that was refused: the move error sits
            # under the table's buttons, hidden behind the open panel.
            await self._send_error(frame.get("id"), exc.code, exc.message, target="chat-error")

    # --- from the group --------------------------------------------------------------------

    async def table_changed(self, event: dict[str, Any]) -> None:
        version = int(event["version"])
        if version > self.last_version:
            await self._push_state(version=version)

    async def table_presence(self, event: dict[str, Any]) -> None:
        if self.json_mode:
            await self._send_json({"type": "presence", **event["presence"]})
        else:
            await self.send(text_data=presenters.presence_html(event["presence"]))

    async def table_chat(self, event: dict[str, Any]) -> None:
        payload = await db(presenters.chat_payload)(
            event["message"], self.user, json_mode=self.json_mode
        )
        if payload is None:
            return
        if self.json_mode:
            await self._send_json(payload)
        else:
            await self.send(text_data=payload)

    # --- to the client ---------------------------------------------------------------------

    async def _push_state(self, *, force: bool = False, version: int | None = None) -> None:
        """Send this socket's view; ``version`` (from a group message) may come from cache.

        A user who may no longer watch (removed from a seat at a table without spectators)
        is closed with CLOSE_FORBIDDEN instead of being sent the table. A browser gets only
        the regions that changed since its last frame (games/table/table_frames.py), so its frames
        are rendered and sent one at a time: two frames built against the same record could
        otherwise each leave out a region the other changed."""
        cached = None
        if self.json_mode and version is not None:
            cached = selectors.cached_snapshot(self.table_id, version)
        if cached is not None and not cached.table.managed:
            # A managed table's view may be held back (games.secrecy), which asks the
            # database: that is done in a worker thread below, never on the loop.
            # A JSON view of a cached snapshot is a fraction of a millisecond of pure Python:
            # cheaper on the loop than the hop to a thread and back.
            seat = cached.seat_of(self._user_id())
            allowed = self._may_watch(cached, seat)
            payload, version = self._render_json(cached), cached.version
            await self._deliver(payload, version, seat, allowed, force=force)
            return
        if self.json_mode:
            payload, version, seat, allowed, _ = await db(self._render)(version)
            await self._deliver(payload, version, seat, allowed, force=force)
            return
        lock = self.__dict__.setdefault("_frame_lock", asyncio.Lock())
        async with lock:
            if force:
                self._regions_sent = {}
            rendered = self._render_on_loop(version)
            if rendered is None:
                rendered = await db(self._render)(version)
            payload, version, seat, allowed, after = rendered
            if await self._deliver(payload, version, seat, allowed, force=force):
                self._regions_sent = after

    async def _deliver(
        self, payload: str, version: int, seat: int | None, allowed: bool, *, force: bool
    ) -> bool:
        """Close a socket that may no longer watch, follow a changed seat, then send the
        frame unless it is older than the last one sent; True when it was sent."""
        if not allowed:
            await self.close(code=CLOSE_FORBIDDEN)
            return False
        if seat != self.seat:
            await self._seat_moved(seat)
        if version <= self.last_version and not force:
            return False
        self.last_version = max(self.last_version, version)
        await self.send(text_data=payload)
        return True

    def _render(
        self, version: int | None = None
    ) -> tuple[str, int, int | None, bool, dict[str, int]]:
        snap = selectors.load_snapshot(self.table_id, version)
        seat = snap.seat_of(self._user_id())
        if not self._may_watch(snap, seat) or self._held_from(snap, seat):
            return "", snap.version, seat, False, {}
        if self.json_mode:
            return self._render_json(snap), snap.version, seat, True, {}
        sent = getattr(self, "_regions_sent", {})
        payload, after = table_frames.frame(snap, seat, self.user, sent)
        return payload, snap.version, seat, True, after

    def _render_on_loop(
        self, version: int | None
    ) -> tuple[str, int, int | None, bool, dict[str, int]] | None:
        """A browser's frame of a cached snapshot built here on the loop, as a JSON socket's
        is, or None: then ``_render`` builds it in a worker thread. Only the string path
        qualifies (``table_frames.frame_from_strings``: it reads the snapshot alone); the
        hop to a thread and back, per socket and version, cost the web processes more than
        the frame itself under load (docs/performance.md). Should anything on that path
        reach the database after all, Django refuses it on the loop and the thread path
        takes over."""
        snap = selectors.cached_snapshot(self.table_id, version)
        if snap is None:
            return None
        seat = snap.seat_of(self._user_id())
        if not self._may_watch(snap, seat):
            return None  # the thread path gives the same answer and closes the socket
        try:
            framed = table_frames.frame_from_strings(
                snap, seat, self.user, getattr(self, "_regions_sent", {})
            )
        except SynchronousOnlyOperation:
            log.warning("A browser frame of table %s reached the database", self.table_id)
            return None
        if framed is None:
            return None
        payload, after = framed
        return payload, snap.version, seat, True, after

    def _render_json(self, snap: selectors.TableSnapshot) -> str:
        return presenters.state_json(snap, snap.seat_of(self._user_id()))

    def _user_id(self) -> int | None:
        user = self.user
        return user.pk if user is not None and user.is_authenticated else None

    def _seat_now(self, version: int | None = None) -> int | None:
        """The seat the user holds at ``version`` (the one they acted on; seats only change
        with the version, so a stale version's seat is refused with the move anyway)."""
        return selectors.load_snapshot(self.table_id, version).seat_of(self._user_id())

    def _names(self) -> list[str]:
        """The seats' names, for refusals the engine words with seat numbers."""
        return selectors.load_snapshot(self.table_id).names()

    async def _send_json(self, payload: dict[str, Any]) -> None:
        await self.send(text_data=presenters.encode(payload))

    async def _send_error(
        self,
        frame_id: Any,
        code: str,
        message: str,
        *,
        version: int | None = None,
        target: str = "move-error",
    ) -> None:
        if self.json_mode:
            payload: dict[str, Any] = {"type": "error", "code": code, "message": message}
            if isinstance(frame_id, str):
                payload["id"] = frame_id[:MAX_ID_LENGTH]
            if version is not None:
                payload["version"] = version
            await self._send_json(payload)
        else:
            names = await db(self._names)()
            await self.send(text_data=presenters.error_html(code, message, names, target=target))


def _submit_move(**kwargs: Any) -> tuple[shared.MoveOutcome, list[broadcast.Message]]:
    """The move service, with its after-commit group sends handed back to the caller's loop."""
    with broadcast.deferred() as messages:
        outcome = moves.move_submit(**kwargs)
    return outcome, messages


def _clean_text(frame: Any) -> bool:
    """No string in the frame (keys included) has a lone surrogate or a NUL. A loop, not a
    recursion: a 4 KB frame can nest a thousand levels deep."""
    pending = [frame]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return False
            if not value.isascii():
                try:
                    value.encode()
                except UnicodeEncodeError:
                    return False
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return True


def _parse(text: str) -> dict[str, Any]:
    try:
        frame = json.loads(text)
    except ValueError:
        raise ProtocolError("malformed", "That frame is not valid JSON.") from None
    except RecursionError:  # nesting deeper than the JSON decoder takes
        raise ProtocolError("malformed", "That frame is nested too deeply.") from None
    if not isinstance(frame, dict):
        raise ProtocolError("malformed", "A frame must be a JSON object.")
    return frame


def _query_param(scope: dict[str, Any], name: str) -> str | None:
    from urllib.parse import parse_qs

    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get(name)
    return values[0] if values else None


# One query and rendering per lobby change per process, by (change id, JSON or HTML): every
# lobby socket of the process receives the same group message, and each used to read and
# render the whole list for itself, a hundred renderings of one change with a hundred
# watchers. Kept a few seconds, until every socket of the process has had the message.
LOBBY_RENDER_KEPT_S = 5.0
_lobby_renders: dict[tuple[str, bool], asyncio.Future[str]] = {}


class LobbyConsumer(
    AccountSockets, _GoneSocketsSkipped, _FrameLimits, _NoLoopDatabase, AsyncWebsocketConsumer
):
    """The lobby's live table list: re-rendered for each socket when any table changes."""

    async def connect(self) -> None:
        self.json_mode = _query_param(self.scope, "format") == "json"
        self.tokens = RATE_BURST
        self.refilled_at = time.monotonic()
        await layer_retry.group_add(self.channel_layer, broadcast.LOBBY_GROUP, self.channel_name)
        await self.accept()
        await self._push()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(broadcast.LOBBY_GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The lobby socket only listens: a ping gets its pong, and any other frame a short
        error, after the table socket's size and rate limits; nothing re-renders the list."""
        if self.gone:
            return
        try:
            frame = self._admit(text_data, bytes_data)
            if frame.get("type") != "ping":
                raise ProtocolError("unknown", "The lobby socket takes only pings.")
            await self.send(text_data=presenters.encode({"type": "pong", "id": frame.get("id")}))
        except ProtocolError as exc:
            error = {"type": "error", "code": exc.code, "message": exc.message}
            await self.send(text_data=presenters.encode(error))

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        change = event.get("change")
        if not isinstance(change, str):
            await self._push()
            return
        key = (change, self.json_mode)
        rendering = _lobby_renders.get(key)
        if rendering is None:
            rendering = asyncio.ensure_future(db(self._render)())
            _lobby_renders[key] = rendering
            rendering.add_done_callback(
                lambda _: asyncio.get_running_loop().call_later(
                    LOBBY_RENDER_KEPT_S, _lobby_renders.pop, key, None
                )
            )
        payload = await asyncio.shield(rendering)
        await self.send(text_data=payload)

    async def _push(self) -> None:
        payload = await db(self._render)()
        await self.send(text_data=payload)

    def _render(self) -> str:
        tables = selectors.public_tables()
        if self.json_mode:
            return json.dumps({"type": "lobby", "tables": presenters.lobby_rows(tables)})
        return presenters.lobby_html(tables, self.scope.get("user"))
