"""The notice socket: one per page of a signed-in player, opened by the base layout.

It hears the account's notices (accounts/notices.py) on the per-user group that
``AccountSockets`` joins, and closes with it (4401) when the login ends. Clients may send
three small frames, each through the same limits as the table socket's frames (size, rate,
JSON object, clean text):

- ``{"type": "since", "after": <id>}``: the unread notices newer than that id, which the
  page missed while the player went from one page to the next;
- ``{"type": "dismiss", "id": <id>}``: mark one of the player's own notices read (an id
  that is not theirs, or not a notice at all, gets a ``not_found`` error);
- ``{"type": "ping"}``: a ``pong``.

Its limits and helpers come from games.consumers (imported here, at the edge, where routing
loads it; accounts' models and services never import games).
"""

from __future__ import annotations

import json
import time
from datetime import timedelta
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import timezone

from accounts import notices
from accounts.sockets import AccountSockets, LoginEnded, guarded
from games.consumers import (
    RATE_BURST,
    ProtocolError,
    _FrameLimits,
    _GoneSocketsSkipped,
    _NoLoopDatabase,
    db,
)

CLOSE_SIGNED_OUT = 4403
# A page that opens its socket gets back unread notices at most this old: the gap between
# two pages, not the whole history (the tournament lobby lists that).
MISSED_WINDOW = timedelta(minutes=10)


class NoticeConsumer(
    AccountSockets, _GoneSocketsSkipped, _FrameLimits, _NoLoopDatabase, AsyncWebsocketConsumer
):
    async def connect(self) -> None:
        self.tokens = RATE_BURST
        self.refilled_at = time.monotonic()
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_SIGNED_OUT)  # notices are for signed-in players

    async def notice_forward(self, event: dict[str, Any]) -> None:
        notice = event.get("notice")
        if isinstance(notice, dict):
            await self.send(text_data=json.dumps({"type": "notice", **notice}))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.gone:
            return
        try:
            frame = self._admit(text_data, bytes_data)
            await self._dispatch(frame)
        except ProtocolError as exc:
            await self._error(exc.code, exc.message)
        except LoginEnded as exc:
            await self._error(exc.code, exc.message)
            await self.close(code=exc.close_code, reason=exc.reason)

    async def _dispatch(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "ping":
            await self.send(text_data=json.dumps({"type": "pong"}))
        elif kind == "since":
            after = _notice_id(frame.get("after"), allow_zero=True)
            for notice in await db(guarded(self.account_check, self._missed))(after):
                await self.send(text_data=json.dumps({"type": "notice", **notice}))
        elif kind == "dismiss":
            notice_id = _notice_id(frame.get("id"))
            mine = await db(guarded(self.account_check, notices.dismiss))(
                self._account_user_id, notice_id
            )
            if not mine:
                raise ProtocolError("not_found", "You have no notice with that id.")
            await self.send(text_data=json.dumps({"type": "dismissed", "id": notice_id}))
        else:
            raise ProtocolError("unknown", "The notice socket takes since, dismiss and ping.")

    def _missed(self, after: int) -> list[dict[str, object]]:
        assert self._account_user_id is not None
        oldest = timezone.now() - MISSED_WINDOW
        rows = notices.unread_since(self._account_user_id, after)
        return [notices.payload(n) for n in rows if n.created_at >= oldest]

    async def _error(self, code: str, message: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))


def _notice_id(value: object, *, allow_zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < (0 if allow_zero else 1):
        raise ProtocolError("malformed", "A notice id is a positive whole number.")
    if value > 2**63 - 1:
        raise ProtocolError("malformed", "That notice id is out of range.")
    return value
