"""One turn-clock task per clock period, not per turn: later deadlines are handed on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games import selectors, tasks
from games.models import Table
from games.services import clock, moves, tables, turn_clock
from tests.games.conftest import redeal

T0 = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_a_deadline_with_no_task_waiting_gets_one():
    assert clock.arm_at(None, T0, T0 - timedelta(seconds=5)) == T0


def test_a_later_deadline_is_left_to_the_task_already_waiting():
    assert clock.arm_at(T0, T0 + timedelta(seconds=30), T0 - timedelta(seconds=5)) is None


def test_an_earlier_deadline_gets_its_own_task():
    earlier = T0 - timedelta(seconds=20)
    assert clock.arm_at(T0, earlier, T0 - timedelta(seconds=25)) == earlier


def test_a_task_whose_moment_has_passed_covers_nothing():
    assert clock.arm_at(T0, T0 + timedelta(seconds=30), T0 + timedelta(seconds=1)) is not None


@pytest.fixture
def two_people(alice, bob) -> Table:
    """Alice (seat 0) and Bob (seat 1), 60 s a turn, Alice to move."""
    table = tables.table_create(
        host=alice, name="Clocked", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_join(table_id=table.pk, user=bob)
    tables.table_start(table_id=table.pk, by=alice)
    redeal(table, dealer=1)
    table.refresh_from_db()
    return table


@pytest.fixture
def armed(monkeypatch) -> list[tuple]:
    calls: list[tuple] = []
    monkeypatch.setattr(
        tasks.turn_timeout, "apply_async", lambda args, **kw: calls.append((args, kw["eta"]))
    )
    return calls


def _turn(table: Table, seat: int) -> None:
    """Draw and discard: one whole turn for ``seat``."""
    for _ in range(2):
        snap = selectors.load_snapshot(table.pk)
        action = (
            {"type": "draw_stock"}
            if snap.state.phase.value == "draw"
            else {"type": "discard", "card": snap.state.hands[seat][0]}
        )
        moves.move_submit(
            table_id=table.pk, seat=seat, action=action, expected_version=snap.version
        )


@pytest.fixture
def play(django_capture_on_commit_callbacks):
    """Whole turns for the given seats in order, their after-commit work run; the table after."""

    def played(table: Table, *seats: int) -> Table:
        with django_capture_on_commit_callbacks(execute=True):
            for seat in seats:
                _turn(table, seat)
        table.refresh_from_db()
        return table

    return played


def test_turns_within_the_clock_period_arm_no_new_task(two_people, armed, play):
    first = play(two_people, 0).due_at
    assert armed == [((two_people.pk, first.isoformat()), first)]
    assert two_people.clock_task_at == first
    table = play(two_people, 1, 0)
    assert table.due_at > first  # Bob's turn passed; Alice's new deadline is later
    assert len(armed) == 1 and table.clock_task_at == first


def test_the_waiting_task_re_arms_itself_for_the_moved_deadline_once(
    two_people, armed, play, django_capture_on_commit_callbacks
):
    first = play(two_people, 0).due_at
    table = play(two_people, 1)
    moved, version = table.due_at, table.version
    with django_capture_on_commit_callbacks(execute=True):
        # the task armed for the first deadline wakes up then: nothing is played...
        assert not turn_clock.clock_expired(table_id=table.pk, deadline=first, now=first)
        # ...a duplicate of it arms nothing more
        assert not turn_clock.clock_expired(table_id=table.pk, deadline=first, now=first)
    table.refresh_from_db()
    assert armed[1:] == [((table.pk, moved.isoformat()), moved)]
    assert table.clock_task_at == moved and table.version == version


def test_a_timeout_arms_the_next_players_clock(
    two_people, armed, play, django_capture_on_commit_callbacks
):
    deadline = play(two_people, 0).due_at
    table = two_people
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_clock.clock_expired(
            table_id=table.pk, deadline=deadline, now=deadline + timedelta(seconds=1)
        )
    table.refresh_from_db()
    assert selectors.load_snapshot(table.pk).state.current == 0  # Bob's turn was played out
    assert table.due_kind == clock.CLOCK and table.due_at > deadline
    assert armed[-1] == ((table.pk, table.due_at.isoformat()), table.due_at)
