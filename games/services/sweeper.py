"""The backstop that keeps tables moving: run by Celery beat every few seconds.

Tasks armed after each commit do the work on time; this finds what they missed (a lost task,
a killed worker, a restarted broker) from the database alone and does it through the same
services, so running it twice, or beside the tasks, changes nothing extra.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Seat, SeatSocket, Table
from games.services import bot_turns, clock, presence, tables, turn_clock

BATCH = 200


def table_expiry() -> timedelta:
    return timedelta(minutes=float(getattr(settings, "TABLE_EXPIRY_MINUTES", 120)))


def _mark_lapsed_heartbeats(now: datetime) -> int:
    """Seats whose every socket stopped refreshing (a killed or stopped web process, a lost
    network) are gone from the moment the last heartbeat expired; clean closes were marked
    at once by ``presence.presence_gone``."""
    lapsed = Seat.objects.filter(
        table__status__in=[Table.Status.WAITING, Table.Status.PLAYING],
        user__isnull=False,
        present_until__lte=now,
        disconnected_at__isnull=True,
    ).values_list("table_id", "index")[:BATCH]
    return sum(
        int(presence.presence_expired(table_id=table_id, seat=index, now=now))
        for table_id, index in lapsed
    )


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Handle every overdue turn, bot move, next hand, lapsed heartbeat, lapsed disconnect and
    stale table."""
    now = now or timezone.now()
    done = {
        clock.CLOCK: 0,
        clock.BOT: 0,
        clock.NEXT_HAND: 0,
        "disconnect": 0,
        "away": 0,
        "expired": 0,
    }
    overdue = Table.objects.filter(
        status=Table.Status.PLAYING,
        due_at__lte=now - timedelta(seconds=clock.sweep_slack_s()),
    ).values_list("pk", "version", "due_kind")[:BATCH]
    for table_id, version, kind in overdue:
        if kind == clock.CLOCK:
            handled = turn_clock.clock_expired(table_id=table_id, version=version, now=now)
        elif kind == clock.BOT:
            handled = bot_turns.play_one(table_id, version, rng=random.Random())
        elif kind == clock.NEXT_HAND:
            handled = tables.hand_next(table_id=table_id, expected_version=version) is not None
        else:
            continue
        done[kind] += int(handled)
    done["away"] = _mark_lapsed_heartbeats(now)
    lapsed = (
        Seat.objects.filter(
            table__status=Table.Status.PLAYING,
            user__isnull=False,
            autoplay=False,
            disconnected_at__lte=now - timedelta(seconds=clock.disconnect_grace_s()),
        )
        .exclude(present_until__gt=now)
        .values_list("table_id", "index")[:BATCH]
    )
    for table_id, index in lapsed:
        done["disconnect"] += int(
            presence.seat_disconnect_expired(table_id=table_id, seat=index, now=now)
        )
    SeatSocket.objects.filter(expires_at__lte=now).delete()  # sockets of dead processes
    stale = Table.objects.filter(
        status=Table.Status.WAITING, created_at__lte=now - table_expiry()
    ).values_list("pk", flat=True)[:BATCH]
    for table_id in stale:
        done["expired"] += int(tables.table_expire(table_id=table_id))
    return done
