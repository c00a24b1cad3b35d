"""Late registration: until the organizer's level, with the starting stack, at the shortest
table's next hand boundary, or waiting when every table is full."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.conftest import make_player
from tests.tournaments.test_independent_tables import NO_PAUSE, headless, settle
from tournaments import independent, late_registration, services
from tournaments.models import ChipLedger, Entry, Tournament, TournamentTable
from tournaments.services import TournamentError


def test_a_late_entrant_gets_the_stack_and_sits_at_the_shortest_tables_next_boundary(db):
    t = headless(7, late_registration_level=2)
    short = TournamentTable.objects.get(tournament=t, entries__seat=3, number=1)
    shortest = TournamentTable.objects.exclude(pk=short.pk).get(tournament=t)
    late = make_player("late", "Late Comer")
    entry = services.register(tournament_id=t.pk, user=late)
    entry.refresh_from_db()
    assert (entry.status, entry.chips, entry.late) == (Entry.Status.PLAYING, 1000, True)
    assert (entry.table_id, entry.seat) == (shortest.pk, None)  # joins at its boundary
    stack = ChipLedger.objects.get(payee=entry)
    assert (stack.kind, stack.amount, stack.payer) == (ChipLedger.Kind.STACK, 1000, None)
    now = timezone.now()
    settle(t, shortest, now, {0: 1})
    independent.boundaries(t, now, live=False, **NO_PAUSE)
    entry.refresh_from_db()
    assert entry.table_id == shortest.pk and entry.seat == 3


def test_when_every_table_is_full_late_entrants_wait_then_open_a_new_table(db):
    t = headless(8, late_registration_level=2)
    first = TournamentTable.objects.filter(tournament=t).first()
    one = services.register(tournament_id=t.pk, user=make_player("l1", "Late One"))
    one.refresh_from_db()
    assert one.table is None  # shown as waiting
    assert [e.pk for e in late_registration.waiting(t)] == [one.pk]
    now = timezone.now()
    settle(t, first, now, {0: 1})
    independent.boundaries(t, now, live=False, **NO_PAUSE)
    one.refresh_from_db()
    assert one.table is None  # one alone cannot open a table
    two = services.register(tournament_id=t.pk, user=make_player("l2", "Late Two"))
    first.refresh_from_db()
    settle(t, first, now, {0: 1})
    dealt, _ = independent.boundaries(t, now, live=False, **NO_PAUSE)
    one.refresh_from_db()
    two.refresh_from_db()
    assert one.table_id == two.table_id and one.table_id not in (None, first.pk)
    assert TournamentTable.objects.filter(tournament=t, status="open").count() == 3
    sizes = sorted(
        Entry.objects.filter(table=tt, status="playing").count()
        for tt in TournamentTable.objects.filter(tournament=t, status="open")
    )
    assert sizes == [3, 3, 4]  # the free table sent its next dealer to the new one
    assert len(dealt) == 2


def test_late_registration_closes_after_its_level(db):
    t = headless(8, late_registration_level=1)
    Tournament.objects.filter(pk=t.pk).update(level=2)
    with pytest.raises(TournamentError, match="already in progress"):
        services.register(tournament_id=t.pk, user=make_player("l3", "Too Late"))
    assert Entry.objects.filter(tournament=t).count() == 8


def test_without_late_registration_a_running_event_refuses_entries(db):
    t = headless(8)
    with pytest.raises(TournamentError, match="already in progress"):
        services.register(tournament_id=t.pk, user=make_player("l4", "No Late"))
    assert not Entry.objects.filter(tournament=t, late=True).exists()


def test_a_late_entry_twice_is_refused_and_adds_nothing(db):
    t = headless(7, late_registration_level=2)
    late = make_player("l5", "Twice")
    services.register(tournament_id=t.pk, user=late)
    with pytest.raises(TournamentError, match="already registered"):
        services.register(tournament_id=t.pk, user=late)
    assert ChipLedger.objects.filter(payee__user=late).count() == 1
