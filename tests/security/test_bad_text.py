"""Text no layer can store or encode: lone surrogates, NUL, and a move id used twice.

Each used to break something: a lone surrogate (``"\\ud800"``) in a ping id, move id or chat
text closed the socket with 1011 and logged a traceback (orjson, SQLite and psycopg refuse
it); a NUL made PostgreSQL refuse the write (``server_error`` and a traceback); a move id
reused for another move hit the unique constraint (``server_error`` again). Now each gets a
``malformed`` or ``duplicate_id`` error, the socket stays open, nothing changes and nothing
is logged above INFO.
"""

from __future__ import annotations

import json
import logging

import pytest
from channels.db import database_sync_to_async

from games.models import ChatMessage, SeatSocket
from tests.security.socket_helpers import connect, fingerprint, next_frame, table_for

pytestmark = pytest.mark.django_db(transaction=True)

SURROGATE = "\ud800"
BAD_TEXTS = [SURROGATE, "\udfff", "a\ud83dz", "\x00", "nul\x00inside"]


def _frames(text: str, version: int) -> list[dict]:
    draw = {"type": "draw_stock"}
    return [
        {"type": "ping", "id": text},
        {"type": "ping", "id": "p", "version": version, text: 1},
        {"id": text, "version": version, "action": draw},
        {"id": "m1", "version": version, "action": {"type": "discard", "card": text}},
        {"type": "chat", "text": text},
        {"type": "chat", "text": ["fine", {"nested": text}]},
    ]


async def _still_answers(ws) -> None:
    await ws.send_json_to({"type": "ping", "id": "after"})
    while True:
        reply = await ws.receive_json_from(timeout=15)
        if reply["type"] == "pong" and reply["id"] == "after":
            return


def _quiet(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Records above INFO, but kombu's note that the test settings name no broker host (a
    grace-period task armed when the socket closes), which says nothing about the frames."""
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno > logging.INFO and not r.name.startswith("kombu")
    ]


@pytest.mark.parametrize("text", BAD_TEXTS, ids=repr)
async def test_text_that_cannot_be_stored_is_malformed_and_changes_nothing(alice, text, caplog):
    caplog.set_level(logging.INFO)
    table = await table_for(alice)
    ws = await connect(table, alice)
    state = await next_frame(ws, "state")
    before = await fingerprint(table.pk)
    for frame in _frames(text, state["version"]):
        # json.dumps escapes a lone surrogate as \ud800, as a browser's JSON.stringify does
        await ws.send_to(text_data=json.dumps(frame))
        error = await next_frame(ws, "error")
        assert error["code"] == "malformed", (frame, error)
        await _still_answers(ws)
    assert await fingerprint(table.pk) == before
    assert not await database_sync_to_async(ChatMessage.objects.filter(table=table).exists)()
    await ws.disconnect()
    assert not await database_sync_to_async(SeatSocket.objects.filter(table=table).exists)()
    assert _quiet(caplog) == []


async def test_a_frame_that_is_not_valid_utf8_is_malformed(alice, caplog):
    """A raw text frame holding a lone surrogate (no JSON escape) cannot even be measured
    in bytes; the consumer says so instead of crashing."""
    caplog.set_level(logging.INFO)
    table = await table_for(alice)
    ws = await connect(table, alice)
    await next_frame(ws, "state")
    await ws.send_input({"type": "websocket.receive", "text": '{"type": "ping", "id": "\ud800"}'})
    assert (await next_frame(ws, "error"))["code"] == "malformed"
    await _still_answers(ws)
    await ws.disconnect()
    assert _quiet(caplog) == []


async def test_a_move_id_reused_for_another_move_is_a_duplicate_id(alice, caplog):
    caplog.set_level(logging.INFO)
    table = await table_for(alice)
    ws = await connect(table, alice)
    state = await next_frame(ws, "state")
    await ws.send_json_to(
        {"id": "m1", "version": state["version"], "action": {"type": "draw_stock"}}
    )
    ack = await next_frame(ws, "ack")
    state = await next_frame(ws, "state")
    while state["version"] != ack["version"]:
        state = await next_frame(ws, "state")
    before = await fingerprint(table.pk)
    card = state["legal"][-1]
    assert card["type"] == "discard"
    await ws.send_json_to({"id": "m1", "version": state["version"], "action": card})
    error = await next_frame(ws, "error")
    assert error["code"] == "duplicate_id" and error["id"] == "m1"
    assert await fingerprint(table.pk) == before
    await _still_answers(ws)
    # a fresh id for the same move is applied
    await ws.send_json_to({"id": "m2", "version": state["version"], "action": card})
    assert (await next_frame(ws, "ack"))["version"] == state["version"] + 1
    await ws.disconnect()
    assert _quiet(caplog) == []


@pytest.mark.parametrize("depth", [900, 2000], ids=["deep", "deeper-than-the-decoder"])
async def test_a_deeply_nested_frame_is_malformed(alice, depth, caplog):
    """A 4 KB frame can nest arrays two thousand deep, past the JSON decoder's recursion
    limit (RecursionError, not ValueError, which used to close the socket with 1011)."""
    caplog.set_level(logging.INFO)
    table = await table_for(alice)
    ws = await connect(table, alice)
    await next_frame(ws, "state")
    before = await fingerprint(table.pk)
    nested = "[" * depth + '"\\ud800"' + "]" * depth
    await ws.send_to(text_data='{"type": "chat", "text": ' + nested + "}")
    assert (await next_frame(ws, "error"))["code"] == "malformed"
    await _still_answers(ws)
    assert await fingerprint(table.pk) == before
    await ws.disconnect()
    assert _quiet(caplog) == []
