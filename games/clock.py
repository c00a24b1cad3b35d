"""What a table waits for next, and until when: bot moves, turn clocks, the next hand.

Every write that changes a game stores ``Table.due_kind`` / ``Table.due_at`` with it; after
commit a Celery task is armed for that moment with the table's version, and the sweeper (Celery
beat) handles whatever is overdue. The database holds the truth, so a lost task, a killed
worker or a restarted broker only delays a table by one sweep.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone

from games import engine

log = logging.getLogger(__name__)

BOT = "bot"
CLOCK = "clock"
NEXT_HAND = "next_hand"


def bot_delay_s() -> float:
    return float(getattr(settings, "BOT_MOVE_DELAY_SECONDS", 1.0))


def hand_pause_s() -> float:
    return float(getattr(settings, "HAND_PAUSE_SECONDS", 6.0))


def hand_pause_left(finished_at: datetime | None, now: datetime) -> float:
    """Seconds left of the pause after a hand (0 when over): the one definition of it.

    Everything that waits for the pause (the next deal, a tournament's next round) asks this,
    so a later way to end it early (players all "Ready") changes only this function.
    """
    if finished_at is None:
        return 0.0
    return max(0.0, hand_pause_s() - (now - finished_at).total_seconds())


def disconnect_grace_s() -> float:
    return float(getattr(settings, "DISCONNECT_GRACE_SECONDS", 60.0))


def presence_expiry_s() -> float:
    """How long a socket's heartbeat keeps its person online: at most two ping intervals of
    the page (it pings every 20-25 s), so a seat whose web process died is known gone soon."""
    return float(getattr(settings, "PRESENCE_EXPIRY_SECONDS", 50.0))


def sweep_slack_s() -> float:
    """How late a due moment must be before the sweeper steps in for its task."""
    return float(getattr(settings, "SWEEP_SLACK_SECONDS", 3.0))


TIMEOUTS_BEFORE_AUTOPLAY = 2


def due_after(
    snap: Any, *, before: Any = None, now: datetime | None = None
) -> tuple[str, datetime | None]:
    """The next due moment of a table in snapshot ``snap`` (``before``: the previous version).

    A turn keeps its deadline while the same player goes on with it (draw, melds, discard);
    a claim window keeps its deadline until it closes.
    """
    from games.models import Hand, Table

    now = now or timezone.now()
    table, state, hand = snap.table, snap.state, snap.hand
    if table.status != Table.Status.PLAYING or state is None or hand is None:
        return "", None
    if table.paused_at is not None:
        return "", None
    if hand.status == Hand.Status.OVER:
        if table.managed:  # its manager deals the next hand (services.hand_next) or ends it
            return "", None
        return NEXT_HAND, now + timedelta(seconds=hand_pause_s())
    if not state.to_act:
        return "", None
    kept = _kept_deadline(snap, before)
    if state.phase == engine.Phase.CLAIM:
        window = engine.Rules.from_json(table.rules).claim_window_s
        return CLOCK, kept or now + timedelta(seconds=window)
    seat = state.to_act[0]
    if 0 <= seat < len(snap.seats) and snap.seats[seat].bot_plays:
        return BOT, now + timedelta(seconds=bot_delay_s())
    if table.turn_seconds is None:
        return "", None
    return CLOCK, kept or now + timedelta(seconds=table.turn_seconds)


def _kept_deadline(snap: Any, before: Any) -> datetime | None:
    if before is None or before.state is None or before.table.due_kind != CLOCK:
        return None
    if before.hand is None or snap.hand is None or before.hand.pk != snap.hand.pk:
        return None
    old, new = before.state, snap.state
    if old.phase == engine.Phase.CLAIM and new.phase == engine.Phase.CLAIM:
        return before.table.due_at
    same_turn = (
        old.phase != engine.Phase.CLAIM
        and new.phase != engine.Phase.CLAIM
        and old.current == new.current
    )
    return before.table.due_at if same_turn else None


def arm_at(
    outstanding: datetime | None, deadline: datetime | None, now: datetime
) -> datetime | None:
    """The deadline a new turn-clock task must be armed for, or None if one already covers it.

    Every turn used to arm its own task, though a turn is a few seconds and the clock a minute
    or more: one Celery message per turn, nearly all of them waking up to find the turn long
    over. Now a task armed for ``outstanding`` that has not fired yet covers any later
    deadline: when it fires and finds the deadline moved on, it re-arms itself for the new one
    (services.clock_expired). A lost task delays only until the sweeper's pass, as before.
    """
    if deadline is None:
        return None
    if outstanding is not None and now < outstanding <= deadline:
        return None
    return deadline


def seconds_left(table: Any, now: datetime | None = None) -> float | None:
    if table.due_kind != CLOCK or table.due_at is None:
        return None
    return max(0.0, (table.due_at - (now or timezone.now())).total_seconds())
