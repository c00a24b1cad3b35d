"""What a table waits for next, and until when: bot moves, turn clocks, the next hand.

Every write that changes a game stores ``Table.due_kind`` / ``Table.due_at`` with it; after
commit a Celery task is armed for that moment with the table's version, and the sweeper (Celery
beat) handles whatever is overdue. The database holds the truth, so a lost task, a killed
worker or a restarted broker only delays a table by one sweep.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
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


def hand_pause_left(
    finished_at: datetime | None, now: datetime, *, everyone_ready: bool = False
) -> float:
    """Seconds left of the pause after a hand (0 when over): the one definition of it.

    The pause lasts ``HAND_PAUSE_SECONDS`` from the hand's end at most, and ends early once
    every connected person at the table has said "Ready" (``everyone_ready``). Everything
    that waits for it (a table's next deal, a tournament's next deal or round) asks this
    through ``table_pause_left``, so the site has one pause, tournament tables included.
    """
    if finished_at is None or everyone_ready:
        return 0.0
    return max(0.0, hand_pause_s() - (now - finished_at).total_seconds())


def ready_waited_for(seats: Iterable[Any], ready: Iterable[int], now: datetime) -> list[int]:
    """The seats whose "Ready" the pause still waits for: people connected now who have not
    pressed it. Bots, seats a bot covers, people who left and people whose socket went
    quiet (no fresh heartbeat) never hold the table up."""
    pressed = set(ready)
    return [
        s.index
        for s in seats
        if s.user_id is not None
        and not s.bot_level
        and not s.autoplay
        and not s.left
        and s.present_until is not None
        and s.present_until > now
        and s.index not in pressed
    ]


def everyone_ready(seats: Iterable[Any], ready: Iterable[int], now: datetime) -> bool:
    """Someone said Ready and nobody connected is left to say it. A table where nobody
    pressed (bots only, or everyone away) waits the whole pause, as people watching expect."""
    pressed = list(ready)
    return bool(pressed) and not ready_waited_for(seats, pressed, now)


def ready_open(table: Any, hand: Any, game: Any, now: datetime | None = None) -> bool:
    """Whether "Ready" may be pressed after ``hand`` (games.services.hand_ready): it is over
    and the next deal is still to come. At a table of ours its game goes on; a managed table
    (a tournament's) deals its next hand or round after the same pause, even after a one-hand
    game, so there it is offered while the pause runs (its manager may also end the event,
    and nothing would be left to be ready for)."""
    from games.models import Game, Hand, Table

    if hand is None or game is None or hand.status != Hand.Status.OVER:
        return False
    if table.paused_at is not None:
        return False
    if table.managed:
        running = table.status in (Table.Status.PLAYING, Table.Status.FINISHED)
        return running and hand_pause_left(hand.finished_at, now or timezone.now()) > 0
    return table.status == Table.Status.PLAYING and game.status == Game.Status.PLAYING


def table_pause_left(table_id: int, now: datetime | None = None) -> float:
    """Seconds left of the pause after the latest hand at a table (0 when none is running:
    no finished hand, or the next one already dealt)."""
    return tables_pause_left([table_id], now).get(table_id, 0.0)


def tables_pause_left(table_ids: Iterable[int], now: datetime | None = None) -> dict[int, float]:
    """``table_pause_left`` of many tables in at most three queries, whatever their number
    (a tournament asks for all its tables between hands at once)."""
    from django.db.models import OuterRef, Subquery

    from games.models import Hand, Seat, Table

    now = now or timezone.now()
    latest = (
        Hand.objects.filter(game__table_id=OuterRef("pk"))
        .order_by("-game__number", "-number")
        .values("pk")[:1]
    )
    last = dict(
        Table.objects.filter(pk__in=list(table_ids))
        .annotate(hand=Subquery(latest))
        .values_list("pk", "hand")
    )
    over: dict[int, tuple[datetime | None, list[int]]] = {}
    table_of = {hand: table for table, hand in last.items() if hand is not None}
    for pk, finished_at, result in Hand.objects.filter(
        pk__in=list(table_of), status=Hand.Status.OVER
    ).values_list("pk", "finished_at", "result"):
        over[table_of[pk]] = (finished_at, (result or {}).get("ready") or [])
    seats: dict[int, list[Any]] = {}
    asked = [table for table, (_at, ready) in over.items() if ready]
    for seat in Seat.objects.filter(table_id__in=asked) if asked else []:
        seats.setdefault(seat.table_id, []).append(seat)
    left = dict.fromkeys(last, 0.0)
    for table, (finished_at, ready) in over.items():
        done = everyone_ready(seats.get(table, []), ready, now)
        left[table] = hand_pause_left(finished_at, now, everyone_ready=done)
    return left


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
        if table.managed:  # its manager deals the next hand (services.tables.hand_next) or ends it
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
    (services.turn_clock.clock_expired). A lost task delays only until the sweeper's pass, as
    before.
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
