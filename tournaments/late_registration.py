"""Late registration for multi-table tourneys, until the end of a level the organizer sets.

A late entrant gets the starting stack (a ledger row from the bank, like everyone's) at once.
With independent tables they are sent to the shortest table that has a free seat and sit
down at its next hand boundary; when every table is full they wait without a seat (shown as
waiting) until a seat frees or enough of them wait to open a new table (``boundary_plan``).
In hand-for-hand rounds they are seated with the next round's rebalancing.
"""

from __future__ import annotations

from datetime import datetime

from accounts.models import User
from tournaments import announce
from tournaments.models import ChipLedger, Entry, Tournament, TournamentTable


def is_open(t: Tournament) -> bool:
    """Entries are still taken: a running MTT whose level has not passed the last one open."""
    return (
        t.is_mtt
        and t.status in Tournament.IN_PLAY
        and t.late_registration_level > 0
        and t.level <= t.late_registration_level
    )


def closes_after(t: Tournament) -> int | None:
    """The last level a player may still enter in (None: no late registration)."""
    return t.late_registration_level or None


def enter(t: Tournament, user: User, now: datetime) -> Entry:
    """Enter ``user`` now (``t`` locked, the checks of ``services.register`` passed)."""
    entry = Entry.objects.create(
        tournament=t, user=user, status=Entry.Status.PLAYING, chips=t.starting_chips, late=True
    )
    ChipLedger.objects.create(
        tournament=t,
        kind=ChipLedger.Kind.STACK,
        payee=entry,
        amount=t.starting_chips,
        round=t.round,
        level=t.level,
    )
    if not t.lock_step and not t.hand_for_hand:
        table = shortest_with_room(t)
        if table is not None:
            Entry.objects.filter(pk=entry.pk).update(table=table)
            entry.table = table
            announce.seated(t, [entry])  # they sit down at its next hand boundary
    return entry


def shortest_with_room(t: Tournament) -> TournamentTable | None:
    """The open table with the fewest players (seated and joining) below the table size (one
    query: the database counts them)."""
    from tournaments import independent

    tables = TournamentTable.objects.filter(tournament=t, status=TournamentTable.Status.OPEN)
    return (
        independent.with_sizes(tables)
        .filter(size__lt=t.seats_per_table)
        .order_by("size", "number")
        .first()
    )


def waiting(t: Tournament) -> list[Entry]:
    """Players in the event without a seat yet, first come first."""
    return list(
        Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING, table__isnull=True)
        .select_related("user")
        .order_by("registered_at", "pk")
    )
