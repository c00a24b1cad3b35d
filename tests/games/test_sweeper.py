"""The sweeper finishes whatever a lost task left undone, from the database alone."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import selectors
from games.models import Hand, Move, Seat, SeatSocket, Table
from games.services import clock, presence, sweeper, tables
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
    tables.seat_leave(table_id=table.pk, user=alice)  # bots only from here
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
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="s1")
    presence.presence_gone(table_id=table.pk, user_id=alice.pk, socket="s1")
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
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="s1")
    presence.presence_gone(table_id=table.pk, user_id=alice.pk, socket="s1")
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="s2")
    later = timezone.now() + timedelta(seconds=clock.disconnect_grace_s() + 5)
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="s2", now=later)
    assert sweeper.sweep(now=later)["disconnect"] == 0
    assert not Seat.objects.get(table=table, index=0).autoplay


def test_a_socket_that_never_closed_stops_counting_when_its_heartbeat_lapses(alice):
    """A killed web process runs no disconnect: the heartbeat's expiry marks the seat gone,
    and the grace period runs from that moment."""
    table = start_table(alice, seats=2)
    seen = timezone.now()
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="phantom", now=seen)
    expiry = seen + timedelta(seconds=clock.presence_expiry_s())
    just_before = expiry - timedelta(seconds=1)
    assert sweeper.sweep(now=just_before)["away"] == 0
    assert Seat.objects.get(table=table, index=0).disconnected_at is None
    assert sweeper.sweep(now=expiry + timedelta(seconds=1))["away"] == 1
    seat = Seat.objects.get(table=table, index=0)
    assert seat.disconnected_at == expiry
    assert not SeatSocket.objects.filter(table=table).exists()  # the dead socket's row
    grace = timedelta(seconds=clock.disconnect_grace_s())
    assert sweeper.sweep(now=expiry + grace - timedelta(seconds=1))["disconnect"] == 0
    assert sweeper.sweep(now=expiry + grace + timedelta(seconds=1))["disconnect"] == 1
    assert Seat.objects.get(table=table, index=0).autoplay


def test_a_second_open_socket_keeps_the_player_online_when_one_closes(alice):
    table = start_table(alice, seats=2)
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="tab-1")
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="tab-2")
    presence.presence_gone(table_id=table.pk, user_id=alice.pk, socket="tab-1")
    seat = Seat.objects.get(table=table, index=0)
    assert seat.disconnected_at is None
    assert selectors.seat_online(seat)


def test_a_restart_leaves_no_phantom_presence(alice):
    """Sockets of a process that died before they closed, then a new socket that closes
    cleanly: the seat is away at once, whatever the dead sockets were."""
    table = start_table(alice, seats=2)
    long_ago = timezone.now() - timedelta(seconds=clock.presence_expiry_s() + 5)
    for n in range(3):
        presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket=f"d{n}", now=long_ago)
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="fresh")
    presence.presence_gone(table_id=table.pk, user_id=alice.pk, socket="fresh")
    seat = Seat.objects.get(table=table, index=0)
    assert not selectors.seat_online(seat)
    assert seat.disconnected_at is not None


def test_tables_that_never_start_expire(alice):
    table = tables.table_create(
        host=alice, name="Lonely", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    later = table.created_at + sweeper.table_expiry() + timedelta(seconds=1)
    assert sweeper.sweep(now=later)["expired"] == 1
    table.refresh_from_db()
    assert table.status == Table.Status.EXPIRED


def test_a_player_away_when_the_game_starts_is_covered_after_the_grace_period(alice):
    table = tables.table_create(
        host=alice, name="t", preset="standard", options={}, num_seats=2, turn_seconds=60,
        fill_with_bots=True,
    )  # fmt: skip
    presence.presence_seen(table_id=table.pk, user_id=alice.pk, socket="s1")
    presence.presence_gone(table_id=table.pk, user_id=alice.pk, socket="s1")
    tables.table_start(table_id=table.pk, by=alice)
    gone = Seat.objects.get(table=table, index=0).disconnected_at
    assert gone is not None
    soon = gone + timedelta(seconds=clock.disconnect_grace_s() - 1)
    assert sweeper.sweep(now=soon)["disconnect"] == 0
    later = gone + timedelta(seconds=clock.disconnect_grace_s() + 1)
    assert sweeper.sweep(now=later)["disconnect"] == 1
    assert Seat.objects.get(table=table, index=0).autoplay
