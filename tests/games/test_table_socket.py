"""The table socket: each refusal gets an error frame and changes nothing; views stay per seat."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from games import consumers
from games.models import Move, Table
from games.routing import websocket_urlpatterns
from tests.games.conftest import redeal, start_table

pytestmark = pytest.mark.django_db(transaction=True)

app = URLRouter(websocket_urlpatterns)


async def _connect(table: Table, user, *, query: str = "format=json") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?{query}")
    communicator.scope["user"] = user
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def _state(communicator: WebsocketCommunicator) -> dict:
    while True:
        frame = await communicator.receive_json_from(timeout=15)
        if frame["type"] == "state":
            return frame


async def _frame_of(communicator: WebsocketCommunicator, kind: str) -> dict:
    while True:
        frame = await communicator.receive_json_from(timeout=15)
        if frame["type"] == kind:
            return frame


async def _states_within(communicator: WebsocketCommunicator, seconds: float) -> list[dict]:
    """State frames that arrive within ``seconds`` (presence and chat frames are let by)."""
    states = []
    while not await communicator.receive_nothing(timeout=seconds):
        frame = await communicator.receive_json_from()
        if frame["type"] == "state":
            states.append(frame)
    return states


async def _draw(communicator: WebsocketCommunicator, version: int) -> None:
    await communicator.send_json_to(
        {"id": "m1", "version": version, "action": {"type": "draw_stock"}}
    )


async def _lost(messages: list) -> None:
    """Stands in for ``broadcast.flush``: the move's group messages never arrive."""


@database_sync_to_async
def _table_for(user, seats: int = 2) -> Table:
    """A started two-seat table where the user (seat 0) moves first."""
    table = start_table(user, seats=seats)
    redeal(table, dealer=seats - 1)
    return table


@database_sync_to_async
def _moves(table: Table) -> int:
    return Move.objects.filter(hand__game__table=table).count()


@database_sync_to_async
def _version(table: Table) -> int:
    table.refresh_from_db()
    return table.version


async def test_on_connect_a_player_gets_their_own_view_and_legal_moves(alice):
    table = await _table_for(alice)
    ws = await _connect(table, alice)
    state = await _state(ws)
    assert state["you"] == 0
    assert state["version"] == await _version(table)
    assert len(state["view"]["hand"]) == 13
    assert state["view"]["to_act"] == [0]
    assert {"type": "draw_stock"} in state["legal"]
    await ws.disconnect()


async def test_a_spectator_gets_the_public_view_and_cannot_move(alice, bob):
    table = await _table_for(alice)
    ws = await _connect(table, bob)
    state = await _state(ws)
    assert state["you"] is None and "hand" not in state["view"] and state["legal"] == []
    await ws.send_json_to(
        {"id": "x1", "version": state["version"], "action": {"type": "draw_stock"}}
    )
    error = await _frame_of(ws, "error")
    assert error["code"] == "not_seated"
    assert await _moves(table) == 0
    await ws.disconnect()


async def test_anonymous_visitors_only_spectate(alice):
    table = await _table_for(alice)
    ws = await _connect(table, AnonymousUser())
    state = await _state(ws)
    assert state["you"] is None and "hand" not in state["view"]
    await ws.disconnect()


async def _close_code(communicator: WebsocketCommunicator) -> int:
    """The socket is accepted and then closed, so that the client sees the documented code
    (a handshake refused before accepting reaches a browser as a bare HTTP 403)."""
    connected, _ = await communicator.connect()
    assert connected
    closed = await communicator.receive_output(timeout=10)
    assert closed["type"] == "websocket.close"
    return closed["code"]


async def test_a_table_without_spectators_refuses_strangers(alice, bob):
    table = await _table_for(alice)
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(
        spectators_allowed=False, version=table.version + 1
    )
    communicator = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?format=json")
    communicator.scope["user"] = bob
    assert await _close_code(communicator) == consumers.CLOSE_FORBIDDEN


async def test_a_private_table_refuses_a_stranger_without_the_invite(alice, bob):
    table = await _table_for(alice)
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(
        is_private=True, version=table.version + 1
    )
    communicator = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?format=json&invite=bad")
    communicator.scope["user"] = bob
    assert await _close_code(communicator) == consumers.CLOSE_FORBIDDEN


async def test_an_unknown_table_closes_the_socket(alice):
    communicator = WebsocketCommunicator(app, "/ws/tables/999999/?format=json")
    communicator.scope["user"] = alice
    assert await _close_code(communicator) == consumers.CLOSE_NO_TABLE


async def test_a_player_removed_from_a_table_without_spectators_stops_receiving(alice, bob):
    """Once the host removes Bob, his open socket is closed with 4403, not kept on as a
    spectator's at a table that has none."""
    from games.services import tables

    def setup() -> Table:
        table = tables.table_create(
            host=alice, name="t", preset="standard", options={}, num_seats=3, turn_seconds=60
        )
        Table.objects.filter(pk=table.pk).update(spectators_allowed=False)
        tables.seat_join(table_id=table.pk, user=bob)
        return table

    table = await database_sync_to_async(setup)()
    ws = await _connect(table, bob)
    assert (await _state(ws))["you"] == 1
    await database_sync_to_async(tables.seat_remove_player)(table_id=table.pk, by=alice, index=1)
    while True:
        output = await ws.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            break
        frame = json.loads(output["text"])
        assert frame["type"] != "state" or frame["you"] == 1, "a state sent after removal"
    assert output["code"] == consumers.CLOSE_FORBIDDEN
    await ws.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        (json.dumps({"type": "dance"}), "unknown"),
        (json.dumps({"id": "a", "version": "7", "action": {"type": "draw_stock"}}), "malformed"),
        (json.dumps({"id": "", "version": 1, "action": {"type": "draw_stock"}}), "malformed"),
        (json.dumps({"id": "a", "version": 1, "action": "draw"}), "malformed"),
        (json.dumps({"id": "a", "version": 1, "action": {"type": "x" * 5000}}), "too_large"),
    ],
)
async def test_bad_frames_get_an_error_and_change_nothing(alice, frame, code):
    table = await _table_for(alice)
    ws = await _connect(table, alice)
    await _state(ws)
    version = await _version(table)
    await ws.send_to(text_data=frame)
    error = await _frame_of(ws, "error")
    assert error["code"] == code and error["message"]
    assert await _version(table) == version and await _moves(table) == 0
    await ws.disconnect()


async def test_a_stale_version_gets_an_error_then_a_resync(alice):
    table = await _table_for(alice)
    ws = await _connect(table, alice)
    state = await _state(ws)
    await ws.send_json_to(
        {"id": "s1", "version": state["version"] - 1, "action": {"type": "draw_stock"}}
    )
    error = await _frame_of(ws, "error")
    assert error["code"] == "stale" and error["version"] == state["version"]
    resync = await _state(ws)
    assert resync["version"] == state["version"]
    assert await _moves(table) == 0
    await ws.disconnect()


async def test_moving_out_of_phase_is_refused_with_the_engines_reason(alice):
    table = await _table_for(alice)
    ws = await _connect(table, alice)
    state = await _state(ws)
    action = {"type": "discard", "card": state["view"]["hand"][0]}  # must draw first
    await ws.send_json_to({"id": "o1", "version": state["version"], "action": action})
    error = await _frame_of(ws, "error")
    assert error["code"] == "illegal" and error["message"]
    assert await _moves(table) == 0
    await ws.disconnect()


async def test_a_move_is_acked_and_every_socket_gets_its_own_new_view(alice, bob):
    table = await _table_for(alice)
    player = await _connect(table, alice)
    spectator = await _connect(table, bob)
    first = await _state(player)
    await _state(spectator)
    await _draw(player, first["version"])
    ack = await _frame_of(player, "ack")
    assert ack == {"type": "ack", "id": "m1", "version": first["version"] + 1}
    mine = await _state(player)
    theirs = await _state(spectator)
    assert mine["version"] == theirs["version"] == first["version"] + 1
    assert len(mine["view"]["hand"]) == 14 and "hand" not in theirs["view"]
    # the same id again: the same ack, nothing applied twice
    await _draw(player, first["version"])
    again = await _frame_of(player, "ack")
    assert again["version"] == ack["version"]
    assert await _moves(table) == 1
    await player.disconnect()
    await spectator.disconnect()


async def _html_frame(communicator: WebsocketCommunicator, version: int) -> str:
    """The next browser frame that carries ``version`` (acks and presence are let by)."""
    while True:
        text = await communicator.receive_from(timeout=15)
        if f'data-version="{version}"' in text:
            return text


async def test_browser_frames_of_a_version_this_process_has_are_built_without_a_thread_hop(
    alice, bob, monkeypatch
):
    """The move was written here, so its snapshot is in this process's cache: both browser
    sockets build their frames on the event loop, as JSON sockets do, and each still gets
    only its own view."""
    table = await _table_for(alice)
    threaded: list[int | None] = []
    thread_render = consumers.TableConsumer._render

    def counted(self, version=None):
        threaded.append(version)
        return thread_render(self, version)

    monkeypatch.setattr(consumers.TableConsumer, "_render", counted)
    player = await _connect(table, alice, query="")
    watcher = await _connect(table, bob, query="")
    version = await _version(table)
    await _html_frame(player, version)
    await _html_frame(watcher, version)
    threaded.clear()
    await _draw(player, version)
    mine = await _html_frame(player, version + 1)
    theirs = await _html_frame(watcher, version + 1)
    assert threaded == []
    assert 'data-seat="0"' in mine and 'data-my-turn="true"' in mine
    assert 'data-phase="play"' in mine and 'id="discard-button"' in mine
    assert 'data-seat=""' in theirs and 'data-my-turn="false"' in theirs
    assert "hand-card" in mine and "hand-card" not in theirs
    await player.disconnect()
    await watcher.disconnect()


def _out_in_one_turn(host, target: int = 500) -> Table:
    """A two-seat table where the host (seat 0) goes out on the first turn with 94 points
    (``_GOING_OUT``): the game ends there when ``target`` is 94 or less."""
    from games import engine

    table = start_table(host, seats=2, target=target)
    rules = engine.Rules.from_json(table.rules)
    hand = ["3C", "3D", "3H", "5S", "6S", "7S", "9D", "9H", "9C", "JH", "QH", "KH", "2C"]
    deck = engine.stack_deck(rules, 2, 1, hands={0: hand}, upcard="8H", stock=["4S"])
    redeal(table, dealer=1, deck=deck)
    table.refresh_from_db()
    return table


_GOING_OUT = [
    {"type": "draw_stock"},
    {"type": "meld", "cards": ["3C", "3D", "3H"]},
    {"type": "meld", "cards": ["4S", "5S", "6S", "7S"]},
    {"type": "meld", "cards": ["9D", "9H", "9C"]},
    {"type": "meld", "cards": ["JH", "QH", "KH"]},
    {"type": "discard", "card": "2C"},
]


async def test_a_hand_that_ends_reaches_the_browser_without_a_thread_hop(alice, monkeypatch):
    """The hand-end version (summary panel, scores) is built on the loop as well: nothing on
    that path reads the database at an unmanaged table."""
    table = await database_sync_to_async(_out_in_one_turn)(alice)
    threaded: list[int | None] = []
    thread_render = consumers.TableConsumer._render

    def counted(self, version=None):
        threaded.append(version)
        return thread_render(self, version)

    monkeypatch.setattr(consumers.TableConsumer, "_render", counted)
    player = await _connect(table, alice, query="")
    version = await _version(table)
    await _html_frame(player, version)
    threaded.clear()
    for number, action in enumerate(_GOING_OUT):
        await player.send_json_to({"id": f"m{number}", "version": version, "action": action})
        version += 1
        last = await _html_frame(player, version)
    assert 'data-phase="hand_over"' in last and 'id="hand-end"' in last
    assert threaded == []
    await player.disconnect()


@pytest.mark.parametrize("query", ["", "format=json"], ids=["browser", "json"])
async def test_play_again_reaches_every_socket_at_the_table(alice, query):
    """The page's "Play again" posts with no swap of its own: the new game reaches the
    players' screens only through their sockets."""
    from games.services import tables

    table = await database_sync_to_async(_out_in_one_turn)(alice, 50)
    player = await _connect(table, alice, query=query)
    version = await _version(table)

    async def until(wanted: int) -> None:
        while True:
            text = await player.receive_from(timeout=15)
            if text.startswith("{"):
                frame = json.loads(text)
                if frame["type"] == "state" and frame["version"] >= wanted:
                    return
            elif f'data-version="{wanted}"' in text:
                return

    for number, action in enumerate(_GOING_OUT):
        await player.send_json_to({"id": f"m{number}", "version": version, "action": action})
        version += 1
        await until(version)
    await database_sync_to_async(table.refresh_from_db)()
    assert table.status == Table.Status.FINISHED
    await database_sync_to_async(tables.table_start)(table_id=table.pk, by=alice)
    await until(version + 1)
    await database_sync_to_async(table.refresh_from_db)()
    assert table.status == Table.Status.PLAYING and table.version == version + 1
    await player.disconnect()


async def test_the_mover_gets_their_new_view_even_when_the_group_message_is_lost(
    alice, monkeypatch
):
    """Group messages are delivered at most once; the mover's own socket does not wait for
    one."""
    table = await _table_for(alice)
    player = await _connect(table, alice)
    first = await _state(player)

    monkeypatch.setattr(consumers.broadcast, "flush", _lost)
    await _draw(player, first["version"])
    assert (await _frame_of(player, "ack"))["version"] == first["version"] + 1
    mine = await _state(player)
    assert mine["version"] == first["version"] + 1 and len(mine["view"]["hand"]) == 14
    await player.disconnect()


async def test_a_ping_with_an_old_version_brings_the_current_state(alice, bob):
    table = await _table_for(alice)
    player = await _connect(table, alice)
    spectator = await _connect(table, bob)
    first = await _state(player)
    await _state(spectator)
    # The spectator's group message is lost: the move is made with no group send at all.
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(consumers.broadcast, "flush", _lost)
        await _draw(player, first["version"])
        await _frame_of(player, "ack")
    assert await _states_within(spectator, 0.3) == []
    await spectator.send_json_to({"type": "ping", "id": "c", "version": first["version"]})
    assert await _frame_of(spectator, "pong") == {"type": "pong", "id": "c"}
    caught_up = await _state(spectator)
    assert caught_up["version"] == first["version"] + 1 and "hand" not in caught_up["view"]
    # Up to date: a pong and nothing more.
    await spectator.send_json_to({"type": "ping", "id": "d", "version": caught_up["version"]})
    assert await _frame_of(spectator, "pong") == {"type": "pong", "id": "d"}
    assert await _states_within(spectator, 0.3) == []
    await player.disconnect()
    await spectator.disconnect()


@pytest.mark.parametrize("version", ["7", -1, True, 1.5])
async def test_a_ping_with_a_malformed_version_is_refused(alice, version):
    table = await _table_for(alice)
    ws = await _connect(table, alice)
    await _state(ws)
    await ws.send_json_to({"type": "ping", "id": "p", "version": version})
    await _frame_of(ws, "pong")
    assert (await _frame_of(ws, "error"))["code"] == "malformed"
    await ws.disconnect()


async def test_reconnecting_resumes_at_the_current_version(alice):
    table = await _table_for(alice)
    ws = await _connect(table, alice)
    first = await _state(ws)
    await ws.disconnect()
    again = await _connect(table, alice)
    state = await _state(again)
    assert state["version"] == first["version"] and state["view"]["hand"] == first["view"]["hand"]
    await again.disconnect()


async def test_flooding_the_socket_is_rate_limited(alice):
    table = await _table_for(alice)
    ws = await _connect(table, alice)
    await _state(ws)
    for i in range(int(consumers.RATE_BURST) + 5):
        await ws.send_json_to({"type": "ping", "id": str(i)})
    codes = []
    for _ in range(int(consumers.RATE_BURST) + 5):
        frame = await ws.receive_json_from(timeout=15)
        codes.append(frame.get("code", frame["type"]))
    assert "rate_limited" in codes
    await ws.disconnect()


async def test_a_player_removed_from_a_seat_no_longer_acts_or_sees_for_it(alice, bob):
    """The host removes Bob and Carol takes his seat: Bob's open socket gets neither her
    cards nor her moves."""
    from games.services import tables
    from tests.conftest import make_player

    def setup() -> tuple[Table, object]:
        table = tables.table_create(
            host=alice, name="t", preset="standard", options={}, num_seats=2, turn_seconds=60
        )
        tables.seat_join(table_id=table.pk, user=bob)
        return table, make_player("carol", "Carol")

    table, carol = await database_sync_to_async(setup)()
    ws = await _connect(table, bob)
    assert (await _state(ws))["you"] == 1

    def replace_bob_with_carol_and_start() -> None:
        tables.seat_remove_player(table_id=table.pk, by=alice, index=1)
        tables.seat_join(table_id=table.pk, user=carol, index=1)
        tables.table_start(table_id=table.pk, by=alice)

    await database_sync_to_async(replace_bob_with_carol_and_start)()
    state = await _state(ws)
    while state["table"]["status"] != "playing":
        state = await _state(ws)
    assert state["you"] is None and "hand" not in state["view"] and state["legal"] == []
    await ws.send_json_to(
        {"id": "b1", "version": state["version"], "action": {"type": "draw_stock"}}
    )
    error = await _frame_of(ws, "error")
    assert error["code"] == "not_seated"
    assert await _moves(table) == 0
    await ws.disconnect()


async def test_a_refused_chat_line_is_answered_in_the_chat_panel(alice):
    """The page shows a chat refusal under the chat (chat-error), not under the move buttons,
    which the open chat panel covers."""
    table = await _table_for(alice)
    ws = await _connect(table, alice, query="")
    await ws.send_json_to({"type": "chat", "text": "x" * 1000})
    while "data-code=" not in (frame := await ws.receive_from(timeout=15)):
        pass
    assert 'id="chat-error"' in frame and 'data-code="too_long"' in frame
    await ws.disconnect()
