"""Who is at the table: socket heartbeats, clean closes, lapsed heartbeats, the grace period after
a player's last socket closed, and "I'm back".

No version bump for presence itself: it does not change the game. Only a bot taking or giving
back a seat does.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import signals
from games.models import Seat, SeatSocket, Table
from games.services import clock
from games.services.shared import (
    TableError,
    announce,
    bump,
    locked_table,
    own_seat,
    refresh_due,
    table_seats,
)


def presence_expiry_s() -> float:
    return clock.presence_expiry_s()


def presence_seen(*, table_id: int, user_id: int, socket: str, now: Any = None) -> bool:
    """A seated person's socket is alive (it connected, pinged or sent a frame): refresh its
    heartbeat. Returns whether the user holds a seat there (only then is a row kept).

    The heartbeat lapses ``PRESENCE_EXPIRY_SECONDS`` later unless refreshed again, so a
    socket whose web process died stops counting by itself; nothing needs its clean close.
    The seat is looked up by user each time, so a seat taken or changed while the socket is
    open is the one kept alive.
    """
    now = now or timezone.now()
    until = now + timedelta(seconds=presence_expiry_s())
    seats = Seat.objects.filter(table_id=table_id, user_id=user_id)
    with transaction.atomic():
        row = seats.values_list("index", "present_until", "disconnected_at").first()
        if row is None:
            SeatSocket.objects.filter(socket=socket).delete()
            return False
        index, present_until, disconnected_at = row
        if not SeatSocket.objects.filter(socket=socket, table_id=table_id).update(
            expires_at=until, user_id=user_id
        ):
            SeatSocket.objects.filter(socket=socket).delete()  # a reused channel name
            SeatSocket.objects.create(
                socket=socket, table_id=table_id, user_id=user_id, expires_at=until
            )
        seats.update(present_until=until, disconnected_at=None)
    if present_until is None or present_until <= now or disconnected_at is not None:
        signals.seat_presence_changed.send(
            sender=Seat, table_id=table_id, info=presence_info(index, online=True)
        )
    return True


def presence_gone(*, table_id: int, user_id: int, socket: str, now: Any = None) -> None:
    """A socket closed cleanly. If it was the person's last live one, they are known to be
    gone now: the table is told, and in a running game the grace period starts."""
    from django.db.models import Max

    now = now or timezone.now()
    with transaction.atomic():
        SeatSocket.objects.filter(socket=socket).delete()
        live = SeatSocket.objects.filter(
            table_id=table_id, user_id=user_id, expires_at__gt=now
        ).aggregate(until=Max("expires_at"))["until"]
        seats = Seat.objects.filter(table_id=table_id, user_id=user_id)
        if live is not None:
            seats.update(present_until=live)
            return
        row = seats.values_list("index", "table__status").first()
        if row is None:
            return
        seats.update(present_until=now, disconnected_at=now)
    index, status = row
    _announce_gone(table_id, index)
    if status == Table.Status.PLAYING:
        signals.seat_disconnected.send(sender=Seat, table_id=table_id, seat=index)


def presence_expired(*, table_id: int, seat: int, now: Any = None) -> bool:
    """The sweeper found a seat whose every heartbeat lapsed (its web process was killed or
    stopped, or the network went): it is known gone from the moment the last one expired."""
    now = now or timezone.now()
    seats = Seat.objects.filter(
        table_id=table_id,
        index=seat,
        user__isnull=False,
        present_until__lte=now,
        disconnected_at__isnull=True,
    )
    if not seats.update(disconnected_at=F("present_until")):
        return False
    _announce_gone(table_id, seat)
    return True


def presence_info(index: int, *, online: bool, bot: bool = False) -> dict[str, Any]:
    """A seat's presence as every page and JSON client shows it: a bot is a bot."""
    state = "bot" if bot else ("online" if online else "away")
    return {"seat": index, "connected": bot or online, "state": state}


def _announce_gone(table_id: int, index: int) -> None:
    signals.seat_presence_changed.send(
        sender=Seat, table_id=table_id, info=presence_info(index, online=False)
    )


def presence_from_sockets(table_id: int) -> None:
    """Set every seat's ``present_until`` from the live sockets of whoever sits there now
    (after a manager reseats a table, the heartbeats belong to people, not seat numbers)."""
    from django.db.models import Max, OuterRef, Subquery

    live = (
        SeatSocket.objects.filter(
            table_id=table_id, user_id=OuterRef("user_id"), expires_at__gt=timezone.now()
        )
        .values("user_id")
        .annotate(until=Max("expires_at"))
        .values("until")
    )
    Seat.objects.filter(table_id=table_id).update(present_until=Subquery(live[:1]))


def seat_disconnect_expired(*, table_id: int, seat: int, now: Any = None) -> bool:
    """The grace period after a player's last socket closed is over: a bot takes the seat."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=clock.disconnect_grace_s())
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.PLAYING:
            return False
        taken = (
            Seat.objects.filter(
                table=table,
                index=seat,
                user__isnull=False,
                autoplay=False,
                disconnected_at__lte=cutoff,
            )
            .exclude(present_until__gt=now)
            .update(autoplay=True)
        )
        if not taken:
            return False
        version = bump(table)
        refresh_due(table)
        announce(table.pk, version)
    return True


def seat_back(*, table_id: int, user: User) -> None:
    """ "I'm back": a player takes their seat back from the bot that covered for them."""
    with transaction.atomic():
        table = locked_table(table_id)
        seat = own_seat(table_seats(table), user)
        if table.status != Table.Status.PLAYING:
            raise TableError("not_playing", "No game is being played at this table.")
        if seat.left:
            raise TableError("left", "You left this game; a bot finishes it for you.")
        if not seat.autoplay:
            raise TableError("not_autoplay", "You are already playing your seat.")
        seat.autoplay = False
        seat.timeouts = 0
        seat.save(update_fields=["autoplay", "timeouts"])
        version = bump(table)
        refresh_due(table)
        announce(table.pk, version)
