"""The turn clock's writes: a turn (or claim window) whose time ran out gets its default move,
a deadline that moved later gets a fresh timeout task, and timeouts in a row hand the seat to
a bot. What is due when is defined in services.clock; the default move in services.timeouts.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import engine, signals
from games.models import Hand, Move, Seat, Table
from games.services import clock
from games.services.moves import move_submit
from games.services.shared import (
    TableError,
    after_commit,
    announce,
    bump,
    locked_table,
    refresh_due,
)

log = logging.getLogger(__name__)


def clock_expired(
    *, table_id: int, version: int | None = None, deadline: Any = None, now: Any = None
) -> bool:
    """Play the default for a turn (or close a claim window) whose time ran out.

    Does nothing unless the table's clock is due and still the one the caller means: the
    same ``deadline`` (the armed task's) or the same ``version`` (the sweeper's), so a late,
    repeated or superseded call is harmless. A move that ends the turn just before the
    deadline wins: the deadline moves on with the next turn, and this sees that.
    """
    from games import selectors
    from games.services.timeouts import timeout_action

    now = now or timezone.now()
    snap = selectors.load_snapshot(table_id)
    table = snap.table
    if table.due_kind != clock.CLOCK or table.due_at is None or snap.state is None:
        return False
    if version is not None and snap.version != version:
        return False
    if deadline is not None and table.due_at > deadline:
        _rearm_clock(table_id, fired_for=deadline, due_at=table.due_at)
        return False
    if deadline is not None and table.due_at != deadline:
        return False
    if table.due_at > now:
        return False
    version = snap.version
    state = snap.state
    if state.phase == engine.Phase.CLAIM:
        _clock_move(table_id, -1, {"type": "close_claims"}, version)
        return True
    seat = state.to_act[0]
    for _ in range(100):  # a turn is a handful of moves; the bound only guards a bug
        snap = selectors.load_snapshot(table_id)
        state = snap.state
        if (
            snap.hand is None
            or snap.hand.status != Hand.Status.PLAYING
            or state.phase == engine.Phase.CLAIM
            or state.current != seat
            or seat not in state.to_act
        ):
            break
        action = timeout_action(engine.view(state, seat), engine.legal_actions(state, seat))
        if not _clock_move(table_id, seat, engine.action_to_json(action), snap.version):
            break
    _count_timeout(table_id, seat)
    return True


def _rearm_clock(table_id: int, *, fired_for: Any, due_at: Any) -> None:
    """The task armed for ``fired_for`` found the deadline moved later (clock.arm_at): arm one
    for the new deadline. Only the task the table last recorded does it, so a duplicated or
    superseded task arms nothing; the table's version does not change."""
    handed_on = Table.objects.filter(
        pk=table_id, clock_task_at=fired_for, due_kind=clock.CLOCK, due_at=due_at
    ).update(clock_task_at=due_at)
    if handed_on:
        after_commit(
            lambda: signals.clock_deadline_moved.send(
                sender=Table, table_id=table_id, due_at=due_at
            )
        )


def _clock_move(table_id: int, seat: int, action: dict[str, Any], version: int) -> bool:
    try:
        move_submit(
            table_id=table_id,
            seat=seat,
            action=action,
            expected_version=version,
            actor=Move.Actor.CLOCK,
        )
    except TableError as exc:
        log.info("clock move refused", extra={"table": table_id, "code": exc.code})
        return False
    return True


def _count_timeout(table_id: int, seat: int) -> None:
    """A second timeout in a row hands the seat to a bot until the player says they are back."""
    with transaction.atomic():
        table = locked_table(table_id)
        Seat.objects.filter(table=table, index=seat).update(timeouts=F("timeouts") + 1)
        handed = Seat.objects.filter(
            table=table,
            index=seat,
            timeouts__gte=clock.TIMEOUTS_BEFORE_AUTOPLAY,
            autoplay=False,
            user__isnull=False,
        ).update(autoplay=True)
        # A person's first timeout is news to them too: the page says "time ran out; a move
        # was made for you" (a new version, so the pages hear of it).
        person = Seat.objects.filter(table=table, index=seat, user__isnull=False).exists()
        if (handed or person) and table.status == Table.Status.PLAYING:
            version = bump(table)
            refresh_due(table)
            announce(table.pk, version)
