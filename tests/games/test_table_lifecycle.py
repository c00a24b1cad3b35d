"""Creating, joining, leaving and starting tables: what hosts and players may do, and may not."""

from __future__ import annotations

import pytest

from games.models import Game, Seat, Table
from games.services import moves, shared, tables
from tests.conftest import make_player
from tests.games.conftest import start_table


def _create(host, **overrides) -> Table:
    fields = {
        "host": host,
        "name": "Friday game",
        "preset": "standard",
        "options": {},
        "num_seats": 3,
        "turn_seconds": 30,
    }
    fields.update(overrides)
    return tables.table_create(**fields)


def _occupants(table: Table) -> list[object]:
    return [s.user_id or s.bot_level or None for s in table.seats.order_by("index")]


def test_the_host_takes_the_first_seat(alice):
    table = _create(alice)
    assert _occupants(table) == [alice.pk, None, None]
    assert table.status == Table.Status.WAITING


def test_bots_fill_the_empty_seats_when_asked(alice):
    table = _create(alice, fill_with_bots=True, bot_level="medium")
    assert _occupants(table) == [alice.pk, "medium", "medium"]


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"preset": "no-such-game"}, "invalid_rules"),
        ({"options": {"no_such_option": True}}, "invalid_rules"),
        ({"num_seats": 9}, "invalid_seats"),
        ({"num_seats": 1}, "invalid_seats"),
        ({"turn_seconds": 5}, "invalid_clock"),
        ({"turn_seconds": 301}, "invalid_clock"),
        ({"turn_seconds": None}, "invalid_clock"),
        ({"bot_level": "godlike"}, "invalid_bot"),
    ],
)
def test_invalid_tables_are_refused_and_nothing_is_created(alice, overrides, code):
    with pytest.raises(shared.TableError) as refused:
        _create(alice, **overrides)
    assert refused.value.code == code
    assert refused.value.message
    assert not Table.objects.exists()


def test_private_tables_may_be_untimed(alice):
    table = _create(alice, is_private=True, turn_seconds=None)
    assert table.turn_seconds is None and len(table.invite_token) >= 32


def test_players_join_leave_and_change_seats_before_the_start(alice, bob):
    table = _create(alice)
    version = table.version
    tables.seat_join(table_id=table.pk, user=bob)
    assert _occupants(table) == [alice.pk, bob.pk, None]
    tables.seat_change(table_id=table.pk, user=bob, index=2)
    assert _occupants(table) == [alice.pk, None, bob.pk]
    tables.seat_leave(table_id=table.pk, user=bob)
    assert _occupants(table) == [alice.pk, None, None]
    table.refresh_from_db()
    assert table.version == version + 3


def test_joining_twice_or_a_taken_seat_is_refused(alice, bob):
    table = _create(alice)
    tables.seat_join(table_id=table.pk, user=bob, index=1)
    with pytest.raises(shared.TableError, match="already have a seat"):
        tables.seat_join(table_id=table.pk, user=bob)
    carol = make_player("carol", "Carol")
    with pytest.raises(shared.TableError, match="taken"):
        tables.seat_join(table_id=table.pk, user=carol, index=1)


def test_a_full_table_refuses_another_player(alice, bob):
    table = _create(alice, num_seats=2)
    tables.seat_join(table_id=table.pk, user=bob)
    with pytest.raises(shared.TableError) as refused:
        tables.seat_join(table_id=table.pk, user=make_player("carol", "Carol"))
    assert refused.value.code == "full"


def test_only_the_host_manages_bots_and_players(alice, bob):
    table = _create(alice)
    tables.seat_join(table_id=table.pk, user=bob)
    with pytest.raises(shared.TableError) as refused:
        tables.seat_set_bot(table_id=table.pk, by=bob, index=2, level="easy")
    assert refused.value.code == "not_host"
    with pytest.raises(shared.TableError):
        tables.seat_remove_player(table_id=table.pk, by=bob, index=0)
    tables.seat_set_bot(table_id=table.pk, by=alice, index=2, level="hard")
    assert _occupants(table) == [alice.pk, bob.pk, "hard"]
    tables.seat_set_bot(table_id=table.pk, by=alice, index=2, level=None)
    tables.seat_remove_player(table_id=table.pk, by=alice, index=1)
    assert _occupants(table) == [alice.pk, None, None]


def test_the_host_starts_only_a_full_table(alice, bob):
    table = _create(alice)
    with pytest.raises(shared.TableError) as refused:
        tables.table_start(table_id=table.pk, by=alice)
    assert refused.value.code == "not_full"
    tables.seat_join(table_id=table.pk, user=bob)
    tables.seat_set_bot(table_id=table.pk, by=alice, index=2, level="easy")
    with pytest.raises(shared.TableError) as refused:
        tables.table_start(table_id=table.pk, by=bob)
    assert refused.value.code == "not_host"
    game = tables.table_start(table_id=table.pk, by=alice)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert [p["name"] for p in game.players] == ["Alice", "Bob", "Easy bot"]
    assert game.hands.count() == 1


def test_an_auto_start_table_starts_when_the_last_seat_is_taken(alice, bob):
    table = _create(alice, num_seats=2, auto_start=True)
    tables.seat_join(table_id=table.pk, user=bob)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert Game.objects.filter(table=table).count() == 1


def test_a_player_sits_at_one_running_table_at_a_time(alice, bob):
    start_table(alice)
    other = _create(bob)
    with pytest.raises(shared.TableError) as refused:
        tables.seat_join(table_id=other.pk, user=alice)
    assert refused.value.code == "busy"
    assert "one running game at a time" in refused.value.message
    assert "watch any number of tables" in refused.value.message
    with pytest.raises(TypeError):  # no way around the rule any more
        tables.seat_join(table_id=other.pk, user=alice, allow_multiple=True)
    assert not Seat.objects.filter(table=other, user=alice).exists()


def test_leaving_a_running_game_hands_the_seat_to_a_bot(alice):
    table = start_table(alice)
    tables.seat_leave(table_id=table.pk, user=alice)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.user_id == alice.pk and seat.left and seat.autoplay
    record = Game.objects.get(table=table).players[0]
    assert record["user"] == alice.pk and record["bot_finished"] is True


def test_nobody_joins_a_started_table(alice, bob):
    table = start_table(alice)
    with pytest.raises(shared.TableError) as refused:
        tables.seat_join(table_id=table.pk, user=bob)
    assert refused.value.code == "started"


def test_staff_abort_records_the_reason(alice):
    table = start_table(alice)
    tables.table_abort(table_id=table.pk, reason="Server trouble")
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED and table.abort_reason == "Server trouble"
    with pytest.raises(shared.TableError):
        moves.move_submit(
            table_id=table.pk, seat=1, action={"type": "draw_stock"}, expected_version=None
        )


def test_changes_are_announced_only_after_commit(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        _create(alice)
    assert len(callbacks) == 1


def test_a_private_table_takes_only_players_with_its_invite(alice, bob):
    table = _create(alice, is_private=True)
    with pytest.raises(shared.TableError) as refused:
        tables.seat_join(table_id=table.pk, user=bob)
    assert refused.value.code == "no_invite"
    with pytest.raises(shared.TableError):
        tables.seat_join(table_id=table.pk, user=bob, invite="guess")
    tables.seat_join(table_id=table.pk, user=bob, invite=table.invite_token)
    assert _occupants(table) == [alice.pk, bob.pk, None]


def test_a_game_does_not_start_while_someone_seated_plays_elsewhere(alice, bob):
    waiting = _create(alice, num_seats=2)
    tables.seat_join(table_id=waiting.pk, user=bob)  # bob waits here, then plays elsewhere
    start_table(bob)
    with pytest.raises(shared.TableError) as refused:
        tables.table_start(table_id=waiting.pk, by=alice)
    assert refused.value.code == "busy"
    assert "Bob is already playing" in refused.value.message
    assert "one running game at a time" in refused.value.message
    waiting.refresh_from_db()
    assert waiting.status == Table.Status.WAITING
    assert not Game.objects.filter(table=waiting).exists()
