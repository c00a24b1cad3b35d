"""The tournament socket: says "changed" to every page of a tournament, "seated" to a player.

Nothing secret crosses it: pages refetch their own fragments over HTTP. A player's lobby
follows the "seated" message to their table (it carries the table's URL).
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import reverse

from accounts.sockets import AccountSockets
from tournaments import broadcast
from tournaments.models import Entry, Tournament


class TournamentConsumer(AccountSockets, AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        if not await database_sync_to_async(self._exists)():
            await self.close(code=4404)
            return
        self.groups_joined = [broadcast.tournament_group(self.tournament_id)]
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.groups_joined.append(broadcast.player_group(user.pk))
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

    async def tournament_seated(self, event: dict[str, Any]) -> None:
        if event.get("tournament") != self.tournament_id:
            return
        url = await database_sync_to_async(self._my_table_url)()
        await self.send(json.dumps({"type": "seated", "url": url}))

    def _my_table_url(self) -> str | None:
        user = self.scope["user"]
        table_id = (
            Entry.objects.filter(tournament_id=self.tournament_id, user=user)
            .values_list("table__table_id", flat=True)
            .first()
        )
        return reverse("table_detail", args=[table_id]) if table_id else None
