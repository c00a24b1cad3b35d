"""Hostile frames on the table socket: each one gets an error (or is ignored), none changes
the table unless it is a legal move of the sender's own seat, and none breaks the socket.

Hypothesis draws frames of every shape: not JSON, binary, JSON that is not an object, huge,
wrong types in every field, moves for stale or future versions, actions made of random
fields and real card codes, extra "seat"/"table" keys that try to act for someone else, and
text with lone surrogates, NUL and noncharacters in every string (ids, chat, keys, raw frames).
After each frame the socket must still answer a ping, and the table's version, hand state
and move log must be as before, or exactly one move further on when the server acked it;
nothing of ours is logged above INFO.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from games import consumers, engine, selectors
from games.engine.actions import ACTION_TYPES
from games.models import Hand, Table
from tests.security.socket_helpers import app, connect, fingerprint, next_frame, table_for

pytestmark = pytest.mark.django_db(transaction=True)
CARDS = sorted(engine.make_rules("standard").deck(2))
REPLY_TYPES = {"error", "pong", "state", "ack", "chat", "presence"}

# Placeholders resolved against the table when the frame is sent, so that frames hit the
# current version (and so reach the engine) often, not only by luck.
CURRENT, PREVIOUS, NEXT = "<current>", "<previous>", "<next>"


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """Pick a strategy by weight (``st.one_of`` drops repeated strategies)."""
    return st.sampled_from([s for weight, s in choices for _ in range(weight)]).flatmap(lambda s: s)


# Text that no layer below may choke on: lone surrogates (UTF-8, orjson, SQLite and psycopg
# refuse them), NUL (PostgreSQL refuses it), noncharacters and the last code point.
BAD_CHARACTERS = ["\x00", "\ud800", "\udbff", "\udc00", "\udfff", "\ufffe", "\uffff", "\U0010ffff"]
any_character = weighted(
    (6, st.characters()),
    (1, st.characters(categories=["Cs"])),
    (1, st.sampled_from(BAD_CHARACTERS)),
)
any_text = st.text(alphabet=any_character, max_size=20)
json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    any_text,
    st.sampled_from(CARDS),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(any_text, inner),
    max_leaves=12,
)
action = st.fixed_dictionaries(
    {"type": st.sampled_from([*ACTION_TYPES, "DRAW_STOCK", "", "__class__"])},
    optional={
        "depth": st.one_of(st.integers(-3, 60), json_leaf),
        "card": st.one_of(st.sampled_from(CARDS), json_leaf),
        "cards": st.one_of(st.lists(st.sampled_from(CARDS), max_size=5), json_value),
        "meld": st.one_of(st.integers(-2, 20), json_leaf),
        "reading": json_value,
        "seat": st.integers(-1, 5),
    },
)
version = weighted(
    (6, st.sampled_from([CURRENT, CURRENT, PREVIOUS, NEXT])),
    (1, st.integers(min_value=-5, max_value=2**64)),
    (1, st.one_of(st.booleans(), st.floats(allow_nan=False), st.text(max_size=5), st.none())),
)
move_frame = st.fixed_dictionaries(
    {
        "id": weighted(
            (3, st.text(min_size=1, max_size=70)),
            (1, st.text(alphabet=any_character, min_size=1, max_size=70)),
            (1, json_leaf),
        ),
        "version": version,
        "action": weighted((4, action), (1, json_value)),
    },
    optional={
        "type": st.sampled_from(["move", "resync", "ping", "chat", "MOVE", "", "state"]),
        "seat": st.integers(-1, 5),
        "table": st.integers(-1, 10**6),
        "text": st.one_of(st.text(max_size=30), any_text, json_leaf),
    },
)
frame = weighted(
    (8, move_frame.map(lambda f: ("json", f))),
    (1, json_value.map(lambda v: ("json", v))),
    (1, st.text(alphabet=any_character, max_size=200).map(lambda t: ("text", t))),
    (1, st.binary(max_size=200).map(lambda b: ("bytes", b))),
    (1, st.integers(consumers.MAX_FRAME_BYTES + 1, 40_000).map(lambda n: ("text", "[" + " " * n))),
)


def _resolve(value: Any, current: int) -> Any:
    if isinstance(value, dict):
        return {k: _resolve(v, current) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, current) for v in value]
    return {CURRENT: current, PREVIOUS: current - 1, NEXT: current + 1}.get(value, value)


@database_sync_to_async
def _legal_for(table_id: int, seat: int, sent: Any, current: int) -> bool:
    """Would the server rightly apply this frame as a move of ``seat``?"""
    if not isinstance(sent, dict) or sent.get("type", "move") != "move" or "action" not in sent:
        return False
    if sent.get("version") != current or isinstance(sent.get("version"), bool):
        return False
    state = selectors.load_snapshot(table_id).state
    try:
        parsed = engine.action_from_json(sent["action"], seat)
    except engine.IllegalAction:
        return False
    return parsed in engine.legal_actions(state, seat)


async def _replies(ws: WebsocketCommunicator) -> list[dict[str, Any]]:
    """Everything the server says until it answers our ping (sent right after the frame)."""
    replies = []
    while True:
        reply = await ws.receive_json_from(timeout=15)
        if reply.get("type") == "pong" and reply.get("id") == "fuzz-ping":
            return replies
        replies.append(reply)


@pytest.fixture
def tables() -> dict[str, Table]:
    """One table for all of a test's examples (the host may only play at one at a time)."""
    return {}


@settings(
    max_examples=120,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(frames=st.lists(frame, min_size=1, max_size=6))
async def test_no_hostile_frame_changes_the_table_or_breaks_the_socket(
    alice, tables, frames, caplog
):
    if "fuzz" not in tables:
        tables["fuzz"] = await table_for(alice)
    table = tables["fuzz"]
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?format=json")
    ws.scope["user"] = alice
    connected, _ = await ws.connect()
    assert connected
    first = await ws.receive_json_from(timeout=15)
    assert first["type"] == "state"
    for kind, raw in frames:
        before = await fingerprint(table.pk)
        sent = _resolve(raw, before[0]) if kind == "json" else None
        legal = await _legal_for(table.pk, 0, sent, before[0])
        if kind == "json":
            await ws.send_input({"type": "websocket.receive", "text": json.dumps(sent)})
        else:  # straight to the consumer: the test client refuses empty frames
            await ws.send_input({"type": "websocket.receive", kind: raw})
        await ws.send_json_to({"type": "ping", "id": "fuzz-ping"})
        replies = await _replies(ws)  # a crashed or silent socket fails here
        after = await fingerprint(table.pk)
        assert all(r.get("type") in REPLY_TYPES for r in replies), replies
        acks = [r for r in replies if r["type"] == "ack"]
        if acks and after[0] == before[0] + 1:
            assert legal, f"the server applied a move that was not legal: {sent!r:.300}"
            assert len(after[4]) == len(before[4]) + 1 and after[4][-1][1] == 0
        else:
            assert after == before, f"{kind} frame {raw!r:.200} changed the table"
        errors = [r for r in replies if r["type"] == "error"]
        assert all(e["code"] and e["message"] for e in errors)
        for reply in replies:
            event(f"reply {reply['type']} {reply.get('code', '')}".strip())
    await ws.disconnect()
    logged = [r for r in caplog.records if r.levelno > logging.INFO and r.name.startswith("games")]
    assert not logged, [r.getMessage() for r in logged]


async def test_a_flood_is_rate_limited_and_applies_nothing_past_the_limit(alice):
    table = await table_for(alice)
    ws = await connect(table, alice)
    state = await next_frame(ws, "state")
    before = await fingerprint(table.pk)
    flood = int(consumers.RATE_BURST) * 3
    for i in range(flood):
        # every frame a legal move: only the first may be applied, the rest are repeats,
        # stale, or refused by the limit
        await ws.send_json_to(
            {"id": f"f{i}", "version": state["version"], "action": {"type": "draw_stock"}}
        )
    codes = []
    while len(codes) < flood:
        reply = await ws.receive_json_from(timeout=15)
        if reply["type"] in {"ack", "error"}:
            codes.append(reply.get("code", "ack"))
    assert codes.count("ack") == 1
    assert codes.count("rate_limited") >= flood - consumers.RATE_BURST - 5
    after = await fingerprint(table.pk)
    assert after[0] == before[0] + 1 and len(after[4]) == len(before[4]) + 1


async def test_replayed_reordered_and_foreign_moves_change_nothing(alice, bob):
    table = await table_for(alice)
    ws = await connect(table, alice)
    state = await next_frame(ws, "state")
    draw = {"id": "d1", "version": state["version"], "action": {"type": "draw_stock"}}
    await ws.send_json_to(draw)
    ack = await next_frame(ws, "ack")
    applied = await fingerprint(table.pk)
    # replayed: the first answer again, nothing applied twice
    await ws.send_json_to(draw)
    assert await next_frame(ws, "ack") == ack
    # reordered: a different move for the version before the draw is stale
    await ws.send_json_to({**draw, "id": "d0", "action": {"type": "take_discard", "depth": 0}})
    assert (await next_frame(ws, "error"))["code"] == "stale"
    assert await fingerprint(table.pk) == applied
    # another player's socket at this table acts for nobody: Bob only watches
    spectator = await connect(table, bob)
    watched = await next_frame(spectator, "state")
    card = {"type": "discard", "card": CARDS[0]}
    await spectator.send_json_to(
        {"id": "b1", "version": watched["version"], "seat": 0, "action": card}
    )
    assert (await next_frame(spectator, "error"))["code"] == "not_seated"
    assert await fingerprint(table.pk) == applied
    await spectator.disconnect()
    await ws.disconnect()


async def test_a_move_on_a_finished_hand_is_refused(alice):
    table = await table_for(alice)
    await database_sync_to_async(_finish_hand)(table.pk)
    ws = await connect(table, alice)
    state = await next_frame(ws, "state")
    before = await fingerprint(table.pk)
    await ws.send_json_to(
        {"id": "late", "version": state["version"], "action": {"type": "draw_stock"}}
    )
    assert (await next_frame(ws, "error"))["code"] == "hand_over"
    assert await fingerprint(table.pk) == before
    await ws.disconnect()


def _finish_hand(table_id: int) -> None:
    Hand.objects.filter(game__table_id=table_id).update(status=Hand.Status.OVER)
    Table.objects.filter(pk=table_id).update(version=Table.objects.get(pk=table_id).version + 1)
