"""PostgreSQL's one-statement move write (games.services.move_statement) against the ORM
transaction."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.utils import timezone

from games import selectors
from games.models import Hand, Move, Table
from games.services import move_statement, shared, tables
from games.services import moves as moves_service
from tests.conftest import make_player
from tests.games.conftest import redeal, start_table

pytestmark = pytest.mark.services


def _rows(table: Table) -> tuple:
    table.refresh_from_db()
    hand = Hand.objects.filter(game__table=table).order_by("-number").first()
    moves = list(
        Move.objects.filter(hand=hand)
        .order_by("seq")
        .values_list("seq", "seat", "actor", "client_id", "action", "table_version")
    )
    armed_for_the_deadline = table.clock_task_at == table.due_at
    return (
        table.version,
        table.due_kind,
        armed_for_the_deadline,
        hand.state,
        hand.moves_count,
        moves,
    )


def _turn(table: Table) -> None:
    """Seat 0 draws and discards: the turn, and its clock, pass to the other person."""
    moves_service.move_submit(
        table_id=table.pk,
        seat=0,
        action={"type": "draw_stock"},
        expected_version=table.version,
        client_id="c1",
    )
    snap = selectors.load_snapshot(table.pk)
    moves_service.move_submit(
        table_id=table.pk,
        seat=0,
        action={"type": "discard", "card": snap.state.hands[0][0]},
        expected_version=snap.version,
        client_id="c2",
    )


def _two_people(host, guest) -> Table:
    table = tables.table_create(
        host=host, name="Pair", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_join(table_id=table.pk, user=guest)
    tables.table_start(table_id=table.pk, by=host)
    redeal(table, dealer=1, seed=5)
    table.refresh_from_db()
    return table


def test_plain_moves_write_what_the_orm_transaction_writes(postgres_url, db, alice, bob):
    assert connection.vendor == "postgresql"
    by_statement = _two_people(alice, bob)
    by_orm = _two_people(make_player("carol", "Carol"), make_player("dave", "Dave"))
    with mock.patch.object(
        move_statement, "write_move", wraps=move_statement.write_move
    ) as statement:
        _turn(by_statement)
    assert statement.call_count == 2
    with mock.patch.object(move_statement, "available", return_value=False):
        _turn(by_orm)
    written, expected = _rows(by_statement), _rows(by_orm)
    assert written == expected
    assert written[1:3] == ("clock", True)  # the next player's clock, and its task recorded
    assert written[4] == 2 and written[5][0][:4] == (1, 0, Move.Actor.HUMAN, "c1")
    assert (
        Move.objects.filter(hand__game__table=by_statement, created_at__isnull=False).count() == 2
    )


def test_a_lost_race_in_the_statement_writes_nothing(postgres_url, db, alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1, seed=5)
    table.refresh_from_db()
    before = _rows(table)
    hand = Hand.objects.filter(game__table=table).get()
    won = move_statement.write_move(
        table_id=table.pk,
        expected_version=table.version - 1,  # someone else moved first
        version=table.version,
        due_kind="",
        due_at=None,
        clock_task_at=None,
        hand_id=hand.pk,
        seq=1,
        seat=0,
        actor=Move.Actor.HUMAN,
        client_id="late",
        action={"type": "draw_stock"},
        state={"forged": True},
        now=timezone.now(),
    )
    assert won is False
    assert _rows(table) == before


def test_a_stale_move_through_the_statement_is_refused_and_the_first_answer_kept(
    postgres_url, db, alice
):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1, seed=5)
    table.refresh_from_db()
    version = table.version
    first = moves_service.move_submit(
        table_id=table.pk, seat=0, action={"type": "draw_stock"},
        expected_version=version, client_id="once",
    )  # fmt: skip
    selectors.clear_cache()
    again = moves_service.move_submit(
        table_id=table.pk, seat=0, action={"type": "draw_stock"},
        expected_version=version, client_id="once",
    )  # fmt: skip
    assert again.duplicate and again.version == first.version
    with pytest.raises(shared.TableError) as refused:
        moves_service.move_submit(
            table_id=table.pk, seat=0, action={"type": "draw_stock"},
            expected_version=version, client_id="other",
        )  # fmt: skip
    assert refused.value.code == "stale"
    assert Move.objects.filter(hand__game__table=table).count() == 1
