"""Bots move through a Celery task and the same move service as people."""

from __future__ import annotations

import random
import time

import pytest

from games import selectors, tasks
from games.models import Hand, Move, Seat, Table
from games.services import bot_turns, tables
from games.services import moves as moves_service
from tests.games.conftest import redeal, start_table


def _moves(table: Table) -> int:
    return Move.objects.filter(hand__game__table=table).count()


def test_a_bot_seat_moves_through_the_service(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=0)  # the bot in seat 1 moves first
    assert bot_turns.play_one(table.pk, table.version, rng=random.Random(1))
    move = Move.objects.get()
    assert move.seat == 1 and move.actor == Move.Actor.BOT
    table.refresh_from_db()
    assert table.version == move.table_version


def test_a_late_or_repeated_bot_task_does_nothing(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=0)
    armed = table.version
    assert tasks.play_bot_turn(table.pk, armed)
    assert not tasks.play_bot_turn(table.pk, armed)  # re-delivered: the table moved on
    assert _moves(table) == 1


def test_a_bot_task_never_moves_for_a_person(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)  # Alice (seat 0) moves first
    assert not tasks.play_bot_turn(table.pk, table.version)
    assert _moves(table) == 0


def test_after_a_commit_the_bots_turn_is_armed(
    alice, django_capture_on_commit_callbacks, monkeypatch
):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)
    snap = selectors.load_snapshot(table.pk)
    armed: list[tuple] = []
    monkeypatch.setattr(
        tasks.play_bot_turn, "apply_async", lambda args, **kw: armed.append((args, kw))
    )
    with django_capture_on_commit_callbacks(execute=True):
        moves_service.move_submit(
            table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=snap.version
        )
    assert armed == []  # still Alice's turn: she must discard
    snap = selectors.load_snapshot(table.pk)
    discard = {"type": "discard", "card": snap.state.hands[0][0]}
    with django_capture_on_commit_callbacks(execute=True):
        moves_service.move_submit(
            table_id=table.pk, seat=0, action=discard, expected_version=snap.version
        )
    table.refresh_from_db()
    assert armed == [((table.pk, table.version), {"countdown": 0.0})]


@pytest.mark.timeout(120)
def test_bots_play_a_whole_hand_through_a_real_celery_worker(alice, celery_worker):
    table = start_table(alice, seats=3)
    # Alice leaves: a bot finishes for her, so every seat is now played by the computer.
    tables.seat_leave(table_id=table.pk, user=alice)
    assert Seat.objects.get(table=table, index=0).autoplay
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if Hand.objects.filter(game__table=table, status=Hand.Status.OVER).exists():
            break
        time.sleep(0.2)
    over = Hand.objects.filter(game__table=table, status=Hand.Status.OVER).first()
    assert over is not None, f"no hand finished; {_moves(table)} moves made"
    moves = list(over.moves.order_by("seq"))
    assert moves and all(m.actor == Move.Actor.BOT for m in moves)
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
