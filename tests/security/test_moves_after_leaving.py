"""A player who left a running game (a bot finishes it for them, and "I'm back" is refused)
could still play their seat by sending moves on the socket they had open: the move service
did not look at ``left``, and the state frames still offered the seat its legal moves. Now
such a move is refused (``left``) and changes nothing, and the frames offer the seat nothing.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import selectors
from games.models import Move
from games.services import moves, tables
from games.services.shared import TableError
from games.table import presenters
from tests.security.socket_helpers import connect, fingerprint, next_frame, table_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_a_move_sent_after_leaving_is_refused_and_changes_nothing(alice):
    table = await table_for(alice)  # alice (seat 0) is to act
    ws = await connect(table, alice)
    before_leave = await next_frame(ws, "state")
    assert before_leave["legal"], "alice is to act, so she has moves"
    await database_sync_to_async(tables.seat_leave)(table_id=table.pk, user=alice)
    state = await next_frame(ws, "state")
    assert state["version"] > before_leave["version"]
    assert state["legal"] == []
    before = await fingerprint(table.pk)

    await ws.send_json_to(
        {"id": "after-leaving", "version": state["version"], "action": {"type": "draw_stock"}}
    )
    error = await next_frame(ws, "error")
    assert error["code"] == "left"
    assert error["id"] == "after-leaving"
    assert await fingerprint(table.pk) == before
    # the socket stays usable
    await ws.send_json_to({"type": "ping", "id": "p"})
    assert (await next_frame(ws, "pong"))["id"] == "p"
    await ws.disconnect()


def test_the_service_refuses_a_persons_move_for_a_seat_that_left_but_not_the_bots(alice):
    from tests.games.conftest import redeal, start_table

    table = start_table(alice, seats=2)
    redeal(table, dealer=1)
    tables.seat_leave(table_id=table.pk, user=alice)
    snap = selectors.load_snapshot(table.pk)
    assert snap.seats[0].left and presenters.seat_legal(snap, 0) == []
    with pytest.raises(TableError) as refused:
        moves.move_submit(
            table_id=table.pk,
            seat=0,
            action={"type": "draw_stock"},
            expected_version=snap.version,
            client_id="human-after-leaving",
        )
    assert refused.value.code == "left"
    assert not Move.objects.filter(hand__game__table=table).exists()
    # the bot that finishes for her plays the same move
    outcome = moves.move_submit(
        table_id=table.pk,
        seat=0,
        action={"type": "draw_stock"},
        expected_version=snap.version,
        actor=Move.Actor.BOT,
    )
    assert outcome.version == snap.version + 1
    assert list(Move.objects.filter(hand__game__table=table).values_list("seat", "actor")) == [
        (0, Move.Actor.BOT)
    ]
