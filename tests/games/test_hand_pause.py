"""The pause between hands has one definition (games.services.clock): at most HAND_PAUSE_SECONDS,
shorter once every connected person at the table has said Ready."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.utils import timezone

from games import selectors
from games.models import Hand, Seat, Table
from games.services import clock, tables
from tests.games.test_table_top import _finish_hand


def _seat(index: int, **fields) -> SimpleNamespace:
    base = dict(
        index=index,
        user_id=index + 1,
        bot_level="",
        autoplay=False,
        left=False,
        present_until=timezone.now() + timedelta(minutes=1),
    )
    return SimpleNamespace(**{**base, **fields})


def test_the_pause_never_lasts_longer_than_the_setting(settings):
    settings.HAND_PAUSE_SECONDS = 8
    ended = timezone.now()
    assert clock.hand_pause_left(ended, ended + timedelta(seconds=3)) == pytest.approx(5)
    assert clock.hand_pause_left(ended, ended + timedelta(seconds=30)) == 0


def test_the_pause_ends_early_once_everyone_connected_is_ready(settings):
    settings.HAND_PAUSE_SECONDS = 8
    ended = timezone.now()
    assert clock.hand_pause_left(ended, ended, everyone_ready=True) == 0


def test_only_connected_people_are_waited_for():
    now = timezone.now()
    seats = [
        _seat(0),
        _seat(1, bot_level="easy", user_id=None),
        _seat(2, autoplay=True),
        _seat(3, left=True),
        _seat(4, present_until=now - timedelta(seconds=1)),
        _seat(5),
    ]
    assert clock.ready_waited_for(seats, [0], now) == [5]
    assert not clock.everyone_ready(seats, [0], now)
    assert clock.everyone_ready(seats, [0, 5], now)


def test_a_table_where_nobody_pressed_waits_the_whole_pause():
    now = timezone.now()
    bots_only = [_seat(0, bot_level="easy", user_id=None)]
    assert not clock.everyone_ready(bots_only, [], now)


@pytest.fixture
def pair(alice, bob, settings) -> Table:
    settings.HAND_PAUSE_SECONDS = 30
    table = tables.table_create(
        host=alice, name="Pair", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_join(table_id=table.pk, user=bob)
    tables.table_start(table_id=table.pk, by=alice)
    Seat.objects.filter(table=table).update(present_until=timezone.now() + timedelta(minutes=5))
    selectors.clear_cache()
    return table


def test_a_tables_pause_reads_the_ready_presses(pair, alice, bob):
    _finish_hand(pair)
    assert clock.table_pause_left(pair.pk) > 25
    Hand.objects.filter(game__table=pair).update(result={"ready": [0]})
    assert clock.table_pause_left(pair.pk) > 25  # Bob is connected and has not said so
    Hand.objects.filter(game__table=pair).update(result={"ready": [0, 1]})
    assert clock.table_pause_left(pair.pk) == 0


def test_no_pause_runs_while_a_hand_is_played(pair):
    assert clock.table_pause_left(pair.pk) == 0
