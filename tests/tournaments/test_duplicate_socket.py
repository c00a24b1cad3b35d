"""The table socket refuses an entrant of a duplicate event at another table of a live deal."""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import consumers
from games.routing import websocket_urlpatterns
from tests.conftest import make_player
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import services
from tournaments.models import Entry, TournamentTable

pytestmark = pytest.mark.django_db(transaction=True)

app = URLRouter(websocket_urlpatterns)


def _event() -> tuple[object, int, int]:
    """A duplicate event at two tables; returns an entrant, their table and the other one."""
    alice = make_player("alice", "Alice")
    t = make_tournament(duplicate=True, seats_per_table=2)
    enter(t, [alice, *bot_players(3)])
    services.start(tournament_id=t.pk, rng=random.Random(3))
    mine = Entry.objects.get(user=alice).table.table_id
    (other,) = set(TournamentTable.objects.values_list("table_id", flat=True)) - {mine}
    return alice, mine, other


async def _close_code(table_id: int, user) -> int | None:
    communicator = WebsocketCommunicator(app, f"/ws/tables/{table_id}/?format=json")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    frame = await communicator.receive_output(timeout=10)
    await communicator.disconnect()
    return frame.get("code") if frame["type"] == "websocket.close" else None


async def test_an_entrant_cannot_watch_another_table_playing_the_deal(settings):
    settings.BOT_MOVE_DELAY_SECONDS = 60  # the bots wait: the deal stays live meanwhile
    alice, mine, other = await database_sync_to_async(_event)()
    assert await _close_code(other, alice) == consumers.CLOSE_FORBIDDEN
    assert await _close_code(mine, alice) is None  # her own table: its state frame
    stranger = await database_sync_to_async(make_player)("zed", "Zed")
    assert await _close_code(other, stranger) is None  # not an entrant: watches as usual
