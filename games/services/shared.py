"""What every service module needs: the refusal they raise, a move's answer, the row lock,
the version bump and the effects that wait for the commit.

Kept in one small module so that the concern modules share one definition of "a write to a
table": lock the row, bump the version, and only after commit announce it (games.signals, which
broadcast and tasks listen to; the services import neither).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F

from accounts.models import User
from games import signals
from games.models import Seat, Table
from games.services import clock


class TableError(Exception):
    """A refused request, with a code for clients and a sentence for people."""

    def __init__(self, code: str, message: str, *, version: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version


@dataclass(frozen=True)
class MoveOutcome:
    version: int
    seq: int
    duplicate: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    hand_over: bool = False
    game_over: bool = False


def after_commit(fn: Callable[[], None]) -> None:
    transaction.on_commit(fn)


def announce(
    table_id: int, version: int, *, lobby: bool = False, work: Any = None, arm_clock: bool = True
) -> None:
    """After commit: tell the table's sockets, the lobby if asked, and arm bots or the next hand.

    ``work`` (a selectors.PendingWork) spares a read when the caller already knows it.
    """
    after_commit(
        lambda: signals.table_changed.send(
            sender=Table,
            table_id=table_id,
            version=version,
            lobby=lobby,
            work=work,
            arm_clock=arm_clock,
        )
    )


def bump(table: Table) -> int:
    """Advance the version of a table whose row this transaction holds."""
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.version += 1
    return table.version


def refresh_due(table: Table) -> None:
    """Store what the table waits for next, after a write other than a move changed it."""
    from games import selectors

    table.due_kind, table.due_at = clock.due_after(selectors.read_snapshot(table))
    Table.objects.filter(pk=table.pk).update(due_kind=table.due_kind, due_at=table.due_at)


def locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("no_table", "There is no such table.") from None


def table_seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user").order_by("index"))


def own_seat(seats: list[Seat], user: User) -> Seat:
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    raise TableError("not_seated", "You have no seat at this table.")
