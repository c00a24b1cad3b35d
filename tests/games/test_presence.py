"""Presence over the table socket: a heartbeat per open socket, not a count of clean closes.

A seated person is "online" while one of their sockets' heartbeats is fresh, "away" once the
last one closed or lapsed, and a bot (a bot seat or a bot account) is shown as a bot.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games import selectors
from games.models import Seat, SeatSocket, Table
from games.routing import websocket_urlpatterns
from games.services import presence as presence_service
from games.services import tables
from games.table import presenters
from tests.conftest import make_player
from tests.games.conftest import start_table

pytestmark = pytest.mark.django_db(transaction=True)

app = URLRouter(websocket_urlpatterns)


async def _connect(table: Table, user) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?format=json")
    ws.scope["user"] = user
    connected, _ = await ws.connect()
    assert connected
    return ws


async def _frame(ws: WebsocketCommunicator, kind: str) -> dict:
    while True:
        frame = await ws.receive_json_from(timeout=15)
        if frame["type"] == kind:
            return frame


@database_sync_to_async
def _seat(table: Table, index: int) -> Seat:
    return Seat.objects.get(table=table, index=index)


@database_sync_to_async
def _sockets(table: Table) -> int:
    return SeatSocket.objects.filter(table=table).count()


async def test_an_open_socket_keeps_its_player_online_and_a_clean_close_makes_them_away(alice, bob):
    table = await database_sync_to_async(start_table)(alice, seats=2)
    watcher = await _connect(table, bob)
    await _frame(watcher, "state")
    ws = await _connect(table, alice)
    await _frame(ws, "state")
    assert selectors.seat_online(await _seat(table, 0))
    assert await _sockets(table) == 1
    assert (await _frame(watcher, "presence"))["state"] == "online"
    await ws.disconnect()
    presence = await _frame(watcher, "presence")
    assert presence == {"type": "presence", "seat": 0, "connected": False, "state": "away"}
    seat = await _seat(table, 0)
    assert not selectors.seat_online(seat) and seat.disconnected_at is not None
    assert await _sockets(table) == 0
    await watcher.disconnect()


async def test_a_ping_refreshes_the_heartbeat(alice):
    table = await database_sync_to_async(start_table)(alice, seats=2)
    ws = await _connect(table, alice)
    await _frame(ws, "state")
    first = (await _seat(table, 0)).present_until
    await ws.send_json_to({"type": "ping", "id": "p1"})
    await _frame(ws, "pong")
    assert (await _seat(table, 0)).present_until > first
    await ws.disconnect()


async def test_a_seat_taken_while_the_socket_is_open_is_kept_alive(alice, bob):
    """Bob opens the table as a spectator, then sits down: his socket now keeps his seat
    online, and its close makes him away (the seat changed under the socket)."""
    table = await database_sync_to_async(tables.table_create)(
        host=alice, name="t", preset="standard", options={}, num_seats=3, turn_seconds=60
    )
    ws = await _connect(table, bob)
    assert (await _frame(ws, "state"))["you"] is None
    await database_sync_to_async(tables.seat_join)(table_id=table.pk, user=bob, index=2)
    while (await _frame(ws, "state"))["you"] != 2:
        pass
    assert selectors.seat_online(await _seat(table, 2))
    await database_sync_to_async(tables.seat_change)(table_id=table.pk, user=bob, index=1)
    while (await _frame(ws, "state"))["you"] != 1:
        pass
    assert selectors.seat_online(await _seat(table, 1))
    await ws.disconnect()
    assert not selectors.seat_online(await _seat(table, 1))
    assert await _sockets(table) == 0


def _table_with_a_bot_account(alice) -> Table:
    table = start_table(alice, seats=2)
    robot = make_player("robot", "Robo", is_bot=True)
    Seat.objects.filter(table=table, index=1).update(user=robot, bot_level="", autoplay=True)
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)
    return table


def test_a_bot_account_is_shown_as_a_bot_not_as_an_absent_person(alice):
    table = _table_with_a_bot_account(alice)
    snap = selectors.load_snapshot(table.pk)
    seats = presenters.seats_summary(snap)
    assert seats[1]["presence"] == "bot" and seats[1]["bot"]
    assert seats[0]["presence"] == "away"  # Alice has no socket open
    html = presenters.state_html(snap, 0, alice)
    assert "offline" not in html and "bot playing" not in html
    assert 'class="presence presence-bot">bot<' not in html  # bots get no presence line
    # Alice's own presence is not shown to herself (her seat sits by her hand); a spectator
    # sees her as away.
    watching = presenters.state_html(snap, None, AnonymousUser())
    assert ">away<" in watching and "bot playing" not in watching


def test_the_table_page_shows_online_away_and_bot(alice, client):
    table = _table_with_a_bot_account(alice)
    Seat.objects.filter(table=table, index=0).update(
        present_until=timezone.now() + timezone.timedelta(seconds=30)
    )
    page = client.get(f"/tables/{table.pk}/").content.decode()  # a spectator's page
    assert ">online<" in page
    assert "offline" not in page and "bot playing" not in page


def test_a_presence_frame_for_the_page_says_away_not_offline():
    html = presenters.presence_html(presence_service.presence_info(1, online=False))
    assert 'id="presence-1-now"' in html and 'hx-swap-oob="true"' in html
    assert ">away<" in html and "offline" not in html
    assert ">online<" in presenters.presence_html(presence_service.presence_info(1, online=True))
