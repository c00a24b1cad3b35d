"""The sweeper finishes whatever a lost task left undone, from the database alone."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import clock, services, sweeper
from games.models import Hand, Move, Seat, Table
from tests.games.conftest import redeal, start_table


def _after_due(table: Table, extra: float = 0) -> object:
    table.refresh_from_db()
    return table.due_at + timedelta(seconds=clock.sweep_slack_s() + 1 + extra)


def test_a_bot_turn_whose_task_was_lost_is_played(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=0)  # the bot moves first; its armed task never runs here
    assert table.due_kind == clock.BOT
    done = sweeper.sweep(now=_after_due(table))
    assert done[clock.BOT] == 1
    assert Move.objects.get().actor == Move.Actor.BOT


def test_nothing_happens_before_the_slack_has_passed(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=0)
    assert sweeper.sweep(now=table.due_at)[clock.BOT] == 0
    assert not Move.objects.exists()


def test_an_overdue_turn_is_timed_out(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)  # Alice to move
    done = sweeper.sweep(now=_after_due(table))
    assert done[clock.CLOCK] == 1
    assert Move.objects.filter(actor=Move.Actor.CLOCK).count() == 2


def test_a_timeout_already_handled_is_not_handled_again(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)
    now = _after_due(table)
    assert sweeper.sweep(now=now)[clock.CLOCK] == 1
    clock_moves = Move.objects.filter(actor=Move.Actor.CLOCK).count()
    assert sweeper.sweep(now=now)[clock.CLOCK] == 0
    assert Move.objects.filter(actor=Move.Actor.CLOCK).count() == clock_moves
    assert Seat.objects.get(table=table, index=0).timeouts == 1


def test_a_finished_hand_gets_its_next_deal(alice):
    table = start_table(alice, seats=2, target=5000)
    services.seat_leave(table_id=table.pk, user=alice)  # bots only from here
    now = timezone.now()
    for _ in range(2000):
        table.refresh_from_db()
        if table.due_kind == clock.NEXT_HAND:
            break
        now = max(now, table.due_at) + timedelta(seconds=clock.sweep_slack_s() + 1)
        sweeper.sweep(now=now)
    assert table.due_kind == clock.NEXT_HAND
    sweeper.sweep(now=_after_due(table))
    assert Hand.objects.filter(game__table=table).count() == 2


def test_a_player_gone_past_the_grace_period_is_covered_by_a_bot(alice):
    table = start_table(alice, seats=2)
    services.seat_presence(table_id=table.pk, seat=0, delta=1)
    services.seat_presence(table_id=table.pk, seat=0, delta=-1)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.disconnected_at is not None
    soon = seat.disconnected_at + timedelta(seconds=clock.disconnect_grace_s() - 1)
    assert sweeper.sweep(now=soon)["disconnect"] == 0
    later = seat.disconnected_at + timedelta(seconds=clock.disconnect_grace_s() + 1)
    assert sweeper.sweep(now=later)["disconnect"] == 1
    seat.refresh_from_db()
    assert seat.autoplay


def test_coming_back_within_the_grace_period_keeps_the_seat(alice):
    table = start_table(alice, seats=2)
    services.seat_presence(table_id=table.pk, seat=0, delta=1)
    services.seat_presence(table_id=table.pk, seat=0, delta=-1)
    services.seat_presence(table_id=table.pk, seat=0, delta=1)
    later = timezone.now() + timedelta(seconds=clock.disconnect_grace_s() + 5)
    assert sweeper.sweep(now=later)["disconnect"] == 0
    assert not Seat.objects.get(table=table, index=0).autoplay


def test_tables_that_never_start_expire(alice):
    table = services.table_create(
        host=alice, name="Lonely", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    later = table.created_at + sweeper.table_expiry() + timedelta(seconds=1)
    assert sweeper.sweep(now=later)["expired"] == 1
    table.refresh_from_db()
    assert table.status == Table.Status.EXPIRED
