"""The tournament socket: says "changed" to every page of a tournament.

Nothing secret crosses it: pages refetch their own fragments over HTTP. A player's own
news (seated, moved) reaches them as a notice on the base layout's notice socket
(tournaments/notices.py), which their lobby and table pages follow.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.sockets import AccountSockets
from tournaments import broadcast
from tournaments.models import Tournament

CLOSE_NO_TOURNAMENT = 4404  # no such tournament, or one not announced yet (a draft)


class TournamentConsumer(AccountSockets, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await database_sync_to_async(self._exists)():
            # Accepted first, as the table socket does: a close before the accept reaches
            # the browser as a bare HTTP 403 with no close code (docs/protocol.md).
            await self.accept()
            await self.close(code=CLOSE_NO_TOURNAMENT)
            return
        self.groups_joined = [broadcast.tournament_group(self.tournament_id)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    def _exists(self) -> bool:
        return (
            Tournament.objects.filter(pk=self.tournament_id)
            .exclude(status=Tournament.Status.DRAFT)
            .exists()
        )

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Clients only listen."""

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send(json.dumps({"type": "changed"}))
