"""Socket helpers shared by the security and resilience suites: a table, a JSON-mode socket,
and a fingerprint of everything a move could change (to prove that nothing did)."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.models import Hand, Move, Table
from games.routing import websocket_urlpatterns
from tests.games.conftest import redeal, start_table

app = URLRouter(websocket_urlpatterns)


@database_sync_to_async
def fingerprint(table_id: int) -> tuple[Any, ...]:
    """(version, status, hand status, hand state, move log): what a move may change."""
    table = Table.objects.get(pk=table_id)
    hand = Hand.objects.filter(game__table_id=table_id).order_by("-game__number", "-number")[0]
    moves = list(
        Move.objects.filter(hand__game__table_id=table_id).values_list("seq", "seat", "action")
    )
    return table.version, table.status, hand.status, json.dumps(hand.state), moves


@database_sync_to_async
def table_for(user) -> Table:
    """A started two-seat table (the user and a bot) where the user (seat 0) acts first."""
    table = start_table(user, seats=2)
    redeal(table, dealer=1)
    return table


async def connect(table: Table, user) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?format=json")
    ws.scope["user"] = user
    connected, _ = await ws.connect()
    assert connected
    return ws


async def next_frame(ws: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next frame of this type, skipping others (presence, state pushes, chat)."""
    while True:
        reply = await ws.receive_json_from(timeout=15)
        if reply["type"] == kind:
            return reply
