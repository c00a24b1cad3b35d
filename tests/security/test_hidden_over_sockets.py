"""No frame a table socket sends leaks a hidden card: twenty short games played through the
sockets themselves.

Both players move by sending frames on their own JSON socket; a browser-mode (HTML) socket
per seat and a spectator in each mode listen too. Every frame each socket receives (state,
acks, errors, presence) is scanned with the scanner of tests/games/test_hidden_information.py
against the cards hidden from that socket's seat at that version: codes, labels, spoken
names, in attributes and comments too. bench/leaks/ does the same for 1,000 games
in-process.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games import bots, consumers, engine, selectors
from games.models import Game, Table
from games.services import tables
from tests.conftest import make_player
from tests.games.test_hidden_information import hidden_from, leaks_in_json, leaks_in_text
from tests.security.socket_helpers import app

pytestmark = pytest.mark.django_db(transaction=True)
GAMES = 20
TARGET = 50
HTML_VERSION = re.compile(r'id="table-state"[^>]*data-version="(\d+)"')
DEALER_DRAW = re.compile(r'<(\w+)[^>]*data-public="dealer-draw".*?</\1>', re.S)


class Listener:
    """One socket and the seat it speaks for; scans every frame it receives."""

    def __init__(self, table_id: int, user, seat: int | None, *, json_mode: bool) -> None:
        query = "format=json" if json_mode else ""
        self.ws = WebsocketCommunicator(app, f"/ws/tables/{table_id}/?{query}")
        self.ws.scope["user"] = user
        self.seat = seat
        self.json_mode = json_mode
        self.version = -1
        self.frames = 0
        self.pending: list[str] = []

    async def answer(self) -> None:
        """Wait for the ack of this socket's move (frames read meanwhile are kept for
        ``drain``, to be scanned against the new position)."""
        while True:
            raw = await self.ws.receive_from(timeout=15)
            self.pending.append(raw)
            frame = json.loads(raw)
            if frame["type"] == "ack":
                return
            assert frame["type"] != "error", frame

    async def drain(self, version: int, hidden: set[str]) -> None:
        """Read until this socket has seen ``version``; scan each frame on the way."""
        while self.pending or self.version < version:
            if self.pending:
                raw = self.pending.pop(0)
            else:
                raw = await self.ws.receive_from(timeout=15)
            self.frames += 1
            if self.json_mode:
                frame = json.loads(raw)
                if frame.get("type") == "state":
                    self.version = frame["version"]
                    if frame.get("game"):
                        frame["game"]["dealer_draw"] = None  # a public deck of its own
                found = leaks_in_json(frame, hidden) | leaks_in_text(json.dumps(frame), hidden)
            else:
                match = HTML_VERSION.search(raw)
                if match:
                    self.version = int(match.group(1))
                found = leaks_in_text(DEALER_DRAW.sub("", raw), hidden)
            assert not found, (self.seat, self.json_mode, version, found)


@database_sync_to_async
def _new_game(number: int) -> tuple[int, list[Any], Any]:
    players = [
        make_player(f"p{number}a", f"Ann {number}"),
        make_player(f"p{number}b", f"Ben {number}"),
    ]
    watcher = make_player(f"w{number}", f"Watcher {number}")
    table = tables.table_create(
        host=players[0], name=f"Sockets {number}", preset="standard",
        options={"target": TARGET}, num_seats=2, turn_seconds=300,
    )  # fmt: skip
    tables.seat_join(table_id=table.pk, user=players[1], index=1)
    tables.table_start(table_id=table.pk, by=players[0])
    return table.pk, players, watcher


@database_sync_to_async
def _position(table_id: int) -> tuple[int, Any, str, str]:
    snap = selectors.load_snapshot(table_id)
    return snap.version, snap.state, snap.table.status, snap.hand.status


@database_sync_to_async
def _next_hand(table_id: int) -> None:
    tables.hand_next(table_id=table_id)


async def _play_game(number: int) -> tuple[int, int]:
    table_id, players, watcher = await _new_game(number)
    movers = [Listener(table_id, p, seat, json_mode=True) for seat, p in enumerate(players)]
    listeners = [
        *movers,
        *[Listener(table_id, p, seat, json_mode=False) for seat, p in enumerate(players)],
        Listener(table_id, watcher, None, json_mode=True),
        Listener(table_id, watcher, None, json_mode=False),
    ]
    for listener in listeners:
        connected, _ = await listener.ws.connect()
        assert connected
    rng = random.Random(number)
    moves = 0
    while True:
        version, state, status, hand_status = await _position(table_id)
        for listener in listeners:
            await listener.drain(version, hidden_from(state, listener.seat))
        if status != Table.Status.PLAYING:
            break
        if hand_status != "playing":
            await _next_hand(table_id)
            continue
        seat = state.to_act[0]
        legal = engine.legal_actions(state, seat)
        action = bots.choose_action("easy", engine.view(state, seat), legal, rng)
        frame = {"id": f"m{moves}", "version": version, "action": engine.action_to_json(action)}
        await movers[seat].ws.send_json_to(frame)
        moves += 1
        await movers[seat].answer()
    for listener in listeners:
        await listener.ws.disconnect()
    return moves, sum(listener.frames for listener in listeners)


async def test_twenty_games_over_sockets_leak_no_hidden_card(settings, monkeypatch):
    settings.HAND_PAUSE_SECONDS = 0
    # What is sent, not how it travels, is under test here: the in-memory layer keeps the
    # twenty games quick in the PostgreSQL + Redis pass too (the fault tests cover Redis).
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    # The players move as fast as the server answers: past the per-socket rate limit
    # (tests/security/test_socket_fuzz.py pins that limit).
    monkeypatch.setattr(consumers, "RATE_PER_SECOND", 1000.0)
    monkeypatch.setattr(consumers, "RATE_BURST", 1000.0)
    moves = frames = 0
    for number in range(GAMES):
        played, seen = await _play_game(number)
        moves += played
        frames += seen
    finished = await database_sync_to_async(
        Game.objects.filter(status=Game.Status.FINISHED).count
    )()
    assert finished == GAMES
    assert moves > GAMES * 20 and frames > moves * 6
