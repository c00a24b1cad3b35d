"""A database error in the middle of a move: rolled back whole, the client told, play goes on.

The error is injected after the version swap has been written and before the move log row,
the worst place: a half-written move would leave a version with no move behind it.
"""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import DatabaseError

from games import services
from games.models import Move
from tests.games.conftest import redeal, start_table
from tests.security.socket_helpers import connect, fingerprint, next_frame, table_for

pytestmark = pytest.mark.django_db(transaction=True)


def _failing_create(*args, **kwargs):
    raise DatabaseError("injected: the disk is full")


async def test_a_database_error_mid_move_rolls_back_and_tells_the_client(alice):
    table = await table_for(alice)
    ws = await connect(table, alice)
    state = await next_frame(ws, "state")
    before = await fingerprint(table.pk)
    move = {"id": "m1", "version": state["version"], "action": {"type": "draw_stock"}}
    with mock.patch.object(Move.objects, "create", side_effect=_failing_create):
        await ws.send_json_to(move)
        error = await next_frame(ws, "error")
    assert error["code"] == "server_error" and error["id"] == "m1" and error["message"]
    assert await fingerprint(table.pk) == before  # nothing half-written
    # the socket lives on and the same move, sent again, is applied once
    await ws.send_json_to(move)
    ack = await next_frame(ws, "ack")
    assert ack["version"] == state["version"] + 1
    after = await fingerprint(table.pk)
    assert after[0] == before[0] + 1 and [m[0] for m in after[4]] == [1]
    await ws.disconnect()


def test_the_move_service_leaves_nothing_behind_on_a_database_error(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)
    version = table.version
    with (
        mock.patch.object(Move.objects, "create", side_effect=_failing_create),
        pytest.raises(DatabaseError),
    ):
        services.move_submit(
            table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=version
        )
    table.refresh_from_db()
    assert table.version == version
    assert not Move.objects.filter(hand__game__table=table).exists()
    outcome = services.move_submit(
        table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=version
    )
    assert outcome.version == version + 1 and outcome.seq == 1
