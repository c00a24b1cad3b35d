"""A plain move written to PostgreSQL in one statement instead of a five-round-trip transaction.

Most moves (a draw, a meld, a discard that does not end the hand) change three rows: the
table's version and due moment, the hand's state, and one new move. Through the ORM that is
BEGIN, UPDATE, INSERT, UPDATE, COMMIT; under load the Daphne process spent about a fifth of
its time in those round trips and in building their SQL (docs/performance.md). Here the three
writes are data-modifying CTEs of one statement, which PostgreSQL runs atomically on its own:
the table UPDATE is the same compare-and-swap on the version, and the INSERT and the hand
UPDATE only happen if it returned a row (PostgreSQL runs every data-modifying CTE to the end
whether or not the final SELECT reads it), so a lost race writes nothing.

Moves that end a hand (scores, game totals, signals) and every write on SQLite keep the
ORM transaction in ``services``; the two paths are checked against each other in
tests/games/test_move_statement.py.
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection

from games.models import Hand, Move, Table


def available() -> bool:
    return connection.vendor == "postgresql"


@cache
def _sql() -> str:
    q = connection.ops.quote_name
    table, hand, move = Table._meta.db_table, Hand._meta.db_table, Move._meta.db_table

    def col(model: Any, name: str) -> str:
        return q(model._meta.get_field(name).column)

    return (
        f"WITH swapped AS ("
        f"UPDATE {q(table)} SET {col(Table, 'version')} = %(version)s, "
        f"{col(Table, 'due_kind')} = %(due_kind)s, {col(Table, 'due_at')} = %(due_at)s, "
        f"{col(Table, 'clock_task_at')} = COALESCE(%(clock_task_at)s, "
        f"{col(Table, 'clock_task_at')}) "
        f"WHERE {col(Table, 'id')} = %(table_id)s AND {col(Table, 'version')} = %(expected)s "
        f"AND {col(Table, 'status')} = %(playing)s RETURNING 1), "
        f"appended AS ("
        f"INSERT INTO {q(move)} ({col(Move, 'hand')}, {col(Move, 'seq')}, {col(Move, 'seat')}, "
        f"{col(Move, 'actor')}, {col(Move, 'client_id')}, {col(Move, 'action')}, "
        f"{col(Move, 'table_version')}, {col(Move, 'created_at')}) "
        f"SELECT %(hand_id)s, %(seq)s, %(seat)s, %(actor)s, %(client_id)s, %(action)s::jsonb, "
        f"%(version)s, %(now)s FROM swapped), "
        f"saved AS ("
        f"UPDATE {q(hand)} SET {col(Hand, 'state')} = %(state)s::jsonb, "
        f"{col(Hand, 'moves_count')} = %(seq)s "
        f"WHERE {col(Hand, 'id')} = %(hand_id)s AND EXISTS (SELECT 1 FROM swapped)) "
        f"SELECT count(*) FROM swapped"
    )


def write_move(
    *,
    table_id: int,
    expected_version: int,
    version: int,
    due_kind: str,
    due_at: datetime | None,
    clock_task_at: datetime | None,
    hand_id: int,
    seq: int,
    seat: int,
    actor: str,
    client_id: str,
    action: dict[str, Any],
    state: dict[str, Any],
    now: datetime,
) -> bool:
    """Write the move if the table is still at ``expected_version``; whether it was.

    ``clock_task_at`` is written only when given (a new clock task is being armed)."""
    params = {
        "table_id": table_id,
        "expected": expected_version,
        "version": version,
        "due_kind": due_kind,
        "due_at": due_at,
        "clock_task_at": clock_task_at,
        "playing": Table.Status.PLAYING.value,
        "hand_id": hand_id,
        "seq": seq,
        "seat": seat,
        "actor": actor,
        "client_id": client_id,
        "action": json.dumps(action),
        "state": json.dumps(state),
        "now": now,
    }
    with connection.cursor() as cursor:
        cursor.execute(_sql(), params)
        (swapped,) = cursor.fetchone()
    return bool(swapped)
