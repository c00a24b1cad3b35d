"""A database error in the middle of a move: rolled back whole, the client told, play goes on.

The error is raised by the database itself, by a trigger on the move log: after the version
swap has been written and before the move row, the worst place (a half-written move would
leave a version with no move behind it). A trigger bites on both write paths, the ORM
transaction and PostgreSQL's single statement (games.services.move_statement), where a
patched Python method would be bypassed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from asgiref.sync import sync_to_async
from django.db import DatabaseError, connection

from games.models import Move
from games.services import moves
from tests.games.conftest import redeal, start_table
from tests.security.socket_helpers import connect, fingerprint, next_frame, table_for

pytestmark = pytest.mark.django_db(transaction=True)


_TRIGGERS = {
    "postgresql": [
        "CREATE FUNCTION refuse_moves() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'injected: the disk is full'; END $$",
        f"CREATE TRIGGER refuse_moves BEFORE INSERT ON {Move._meta.db_table} "
        "FOR EACH ROW EXECUTE FUNCTION refuse_moves()",
    ],
    "sqlite": [
        f"CREATE TRIGGER refuse_moves BEFORE INSERT ON {Move._meta.db_table} "
        "BEGIN SELECT RAISE(ABORT, 'injected: the disk is full'); END",
    ],
}
_DROPS = {
    "postgresql": [
        f"DROP TRIGGER IF EXISTS refuse_moves ON {Move._meta.db_table}",
        "DROP FUNCTION IF EXISTS refuse_moves()",
    ],
    "sqlite": ["DROP TRIGGER IF EXISTS refuse_moves"],
}


def _run(statements: list[str]) -> None:
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def _refuse_moves() -> None:
    _run(_TRIGGERS[connection.vendor])


def _accept_moves() -> None:
    _run(_DROPS[connection.vendor])


@contextmanager
def moves_refused() -> Iterator[None]:
    _refuse_moves()
    try:
        yield
    finally:
        _accept_moves()


async def test_a_database_error_mid_move_rolls_back_and_tells_the_client(alice):
    table = await table_for(alice)
    ws = await connect(table, alice)
    state = await next_frame(ws, "state")
    before = await fingerprint(table.pk)
    move = {"id": "m1", "version": state["version"], "action": {"type": "draw_stock"}}
    await sync_to_async(_refuse_moves)()
    try:
        await ws.send_json_to(move)
        error = await next_frame(ws, "error")
    finally:
        await sync_to_async(_accept_moves)()
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
    with moves_refused(), pytest.raises(DatabaseError):
        moves.move_submit(
            table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=version
        )
    table.refresh_from_db()
    assert table.version == version
    assert not Move.objects.filter(hand__game__table=table).exists()
    outcome = moves.move_submit(
        table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=version
    )
    assert outcome.version == version + 1 and outcome.seq == 1
