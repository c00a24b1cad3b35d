"""Play again does not put a player who left the last game into the next one.

Found by probing: Bob leaves a running game (a bot finishes it for him; "I'm back" is
refused, and he may sit down elsewhere). When the game is over the host presses "play
again", and the new game started with Bob's seat still marked as left: a bot played all of
it in his name, and its result (a rated one) was his, though he had gone and might be
playing at another table. Now a bot of the table's level takes a leaver's seat for the new
game, and Bob is no longer seated there.
"""

from __future__ import annotations

import pytest

from games.models import Game, Seat, Table
from games.services import tables
from games.services.shared import TableError
from tests.conftest import make_player

pytestmark = pytest.mark.django_db


def finish(table: Table) -> None:
    """The running game ends (as its last hand's move would end it)."""
    Game.objects.filter(table=table, status=Game.Status.PLAYING).update(status=Game.Status.FINISHED)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)


def test_play_again_seats_a_bot_for_a_player_who_left(alice, bob):
    table = tables.table_create(
        host=alice, name="", preset="standard", options={}, num_seats=3, turn_seconds=60
    )
    tables.seat_join(table_id=table.pk, user=bob)
    tables.seat_set_bot(table_id=table.pk, by=alice, index=2, level="medium")
    tables.table_start(table_id=table.pk, by=alice)
    tables.seat_leave(table_id=table.pk, user=bob)
    # Bob goes and plays elsewhere, as a player who left may
    carol = make_player("carol", "Carol")
    elsewhere = tables.table_create(
        host=carol, name="", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_join(table_id=elsewhere.pk, user=bob)
    tables.table_start(table_id=elsewhere.pk, by=carol)
    finish(table)

    second = tables.table_start(table_id=table.pk, by=alice)

    seats = {s.index: s for s in Seat.objects.filter(table=table)}
    assert seats[1].user_id is None and seats[1].bot_level == table.bot_level
    assert not seats[1].left and not seats[1].autoplay
    assert [p["user"] for p in second.players] == [alice.pk, None, None]
    assert second.players[1]["bot"] == table.bot_level
    assert not Seat.objects.filter(table=table, user=bob).exists()
    # his game elsewhere is untouched
    assert Seat.objects.get(table=elsewhere, user=bob).left is False


def test_play_again_keeps_everyone_who_stayed(alice, bob):
    table = tables.table_create(
        host=alice, name="", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_join(table_id=table.pk, user=bob)
    tables.table_start(table_id=table.pk, by=alice)
    finish(table)
    second = tables.table_start(table_id=table.pk, by=alice)
    assert [p["user"] for p in second.players] == [alice.pk, bob.pk]


def test_only_the_host_plays_again_and_a_refusal_frees_nobody(alice, bob):
    table = tables.table_create(
        host=alice, name="", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_join(table_id=table.pk, user=bob)
    tables.table_start(table_id=table.pk, by=alice)
    tables.seat_leave(table_id=table.pk, user=bob)
    finish(table)
    with pytest.raises(TableError) as refused:
        tables.table_start(table_id=table.pk, by=bob)
    assert refused.value.code == "not_host"
    assert Seat.objects.get(table=table, index=1).user_id == bob.pk
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


def _finished_two_seat_game(alice, bob) -> Table:
    table = tables.table_create(
        host=alice, name="", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_join(table_id=table.pk, user=bob)
    tables.table_start(table_id=table.pk, by=alice)
    finish(table)
    return table


def test_a_player_may_leave_a_finished_table_and_is_not_in_the_next_game(alice, bob):
    """Leaving once the game is over was refused ('This table has finished'), so the host's
    Play again pulled someone who had gone into a new rated game."""
    table = _finished_two_seat_game(alice, bob)
    tables.seat_leave(table_id=table.pk, user=bob)
    second = tables.table_start(table_id=table.pk, by=alice)
    assert [p["user"] for p in second.players] == [alice.pk, None]
    assert second.players[1]["bot"] == table.bot_level


def test_leaving_a_finished_table_twice_is_refused_and_changes_nothing(alice, bob):
    table = _finished_two_seat_game(alice, bob)
    tables.seat_leave(table_id=table.pk, user=bob)
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(TableError) as refused:
        tables.seat_leave(table_id=table.pk, user=bob)
    assert refused.value.code == "left"
    assert Table.objects.get(pk=table.pk).version == version


def test_the_host_leaving_a_finished_table_hands_the_next_game_to_someone_still_seated(alice, bob):
    table = _finished_two_seat_game(alice, bob)
    tables.seat_leave(table_id=table.pk, user=alice)
    assert Table.objects.get(pk=table.pk).host_id == bob.pk
    with pytest.raises(TableError) as refused:
        tables.table_start(table_id=table.pk, by=alice)
    assert refused.value.code == "not_host"
    second = tables.table_start(table_id=table.pk, by=bob)
    assert [p["user"] for p in second.players] == [None, bob.pk]


def test_the_last_person_to_leave_a_finished_table_cannot_start_a_game_of_bots(alice):
    table = tables.table_create(
        host=alice,
        name="",
        preset="standard",
        options={},
        num_seats=2,
        turn_seconds=60,
        fill_with_bots=True,
    )
    tables.table_start(table_id=table.pk, by=alice)
    finish(table)
    tables.seat_leave(table_id=table.pk, user=alice)
    with pytest.raises(TableError) as refused:
        tables.table_start(table_id=table.pk, by=alice)
    assert refused.value.code == "left"
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED
