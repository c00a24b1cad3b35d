"""Registering, withdrawing and organizer changes to the field: refused with a reason, or done."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.conftest import make_player
from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.models import Entry, Tournament
from tournaments.services import TournamentError


def test_a_player_registers_during_the_window(alice):
    t = make_tournament()
    services.register(tournament_id=t.pk, user=alice)
    assert Entry.objects.get(tournament=t).user == alice


def test_registering_twice_is_refused(alice):
    t = make_tournament()
    services.register(tournament_id=t.pk, user=alice)
    with pytest.raises(TournamentError, match="already registered"):
        services.register(tournament_id=t.pk, user=alice)
    assert Entry.objects.count() == 1


def test_registering_after_the_window_is_refused(alice):
    t = make_tournament(registration_closes_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(TournamentError, match="closed"):
        services.register(tournament_id=t.pk, user=alice)
    assert not Entry.objects.exists()


def test_registering_before_the_window_is_refused(alice):
    t = make_tournament(registration_opens_at=timezone.now() + timedelta(hours=1))
    with pytest.raises(TournamentError, match="not opened"):
        services.register(tournament_id=t.pk, user=alice)


def test_registering_over_the_maximum_is_refused(alice, bob):
    t = make_tournament(max_entrants=1)
    services.register(tournament_id=t.pk, user=alice)
    with pytest.raises(TournamentError, match="full"):
        services.register(tournament_id=t.pk, user=bob)
    assert Entry.objects.count() == 1


def test_registering_for_a_tournament_in_progress_is_refused(alice):
    t = make_tournament(status=Tournament.Status.RUNNING)
    with pytest.raises(TournamentError, match="in progress"):
        services.register(tournament_id=t.pk, user=alice)


def test_a_single_table_holds_no_more_than_its_seats(db):
    t = make_tournament(format=Tournament.Format.QUICK, seats_per_table=2)
    for i in range(2):
        services.register(tournament_id=t.pk, user=make_player(f"p{i}", f"P{i}"))
    with pytest.raises(TournamentError, match="full"):
        services.register(tournament_id=t.pk, user=make_player("p3", "P3"))


def test_a_player_withdraws_while_registration_is_open(alice):
    t = make_tournament()
    services.register(tournament_id=t.pk, user=alice)
    services.unregister(tournament_id=t.pk, user=alice)
    assert not Entry.objects.exists()


def test_withdrawing_after_registration_closed_is_refused(alice):
    t = make_tournament()
    services.register(tournament_id=t.pk, user=alice)
    services.registration_close(tournament_id=t.pk)
    with pytest.raises(TournamentError):
        services.unregister(tournament_id=t.pk, user=alice)
    assert Entry.objects.count() == 1


def test_bot_accounts_cannot_register_themselves(db):
    bot = make_player("robo", "Robo", is_bot=True)
    t = make_tournament()
    with pytest.raises(TournamentError, match="Bot"):
        services.register(tournament_id=t.pk, user=bot)


@pytest.mark.parametrize("late", [False, True], ids=["before the start", "late"])
def test_a_deleted_or_suspended_account_cannot_be_entered(alice, late):
    """The organizer's entrant list offers every account; a deleted one would hold a seat
    that only a bot ever plays (and could win a prize)."""
    from accounts.services import account_delete

    t = make_tournament(late_registration_level=2)
    if late:
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING, level=1)
    suspended = make_player("sam", "Sam", is_active=False)
    account_delete(user=alice)
    for user in (alice, suspended):
        with pytest.raises(TournamentError) as refused:
            services.entrant_add(tournament_id=t.pk, user=user)
        assert refused.value.code == "inactive_account"
        with pytest.raises(TournamentError):
            services.register(tournament_id=t.pk, user=user)
    assert not Entry.objects.exists()


def test_an_organizer_adds_and_removes_entrants_before_the_start(alice):
    t = make_tournament(status=Tournament.Status.DRAFT)
    services.entrant_add(tournament_id=t.pk, user=alice)
    services.entrant_remove(tournament_id=t.pk, user=alice)
    assert not Entry.objects.exists()


def test_the_sweeper_cancels_a_tournament_below_the_minimum_with_a_notice(alice):
    t = make_tournament(min_entrants=3, scheduled_start=timezone.now() - timedelta(seconds=1))
    services.register(tournament_id=t.pk, user=alice)
    assert services.sweep()["cancelled"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert "1 entered" in t.notice


def test_the_sweepers_cancel_notice_counts_the_entrants_the_rules_need(alice):
    """Classic is played by 3 or more: with a minimum of 2 and 2 entered, the start at the
    scheduled time was refused and the page said only 'Cancelled: the tournament could not
    start.'"""
    t = make_tournament(
        preset="classic",
        seats_per_table=3,
        min_entrants=2,
        scheduled_start=timezone.now() - timedelta(seconds=1),
    )
    services.register(tournament_id=t.pk, user=alice)
    services.entrant_add(tournament_id=t.pk, user=make_player("bob", "Bob"))
    assert services.sweep()["cancelled"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert t.notice == "Cancelled: 2 entered, at least 3 were needed."
    # any other refused start says why
    broken = make_tournament(levels=(), scheduled_start=timezone.now() - timedelta(seconds=1))
    services.entrant_add(tournament_id=broken.pk, user=alice)
    services.entrant_add(tournament_id=broken.pk, user=make_player("cy", "Cy"))
    services.sweep()
    broken.refresh_from_db()
    assert broken.status == Tournament.Status.CANCELLED
    assert broken.notice == (
        "Cancelled: it could not start. A multi-table tourney needs at least one level."
    )


# --- the organizer opens registration by hand --------------------------------------------


def test_opening_by_hand_before_the_window_lets_players_register_now(alice):
    """The page said "Registration open" and the Register button refused: not opened yet."""
    t = make_tournament(
        status=Tournament.Status.DRAFT, registration_opens_at=timezone.now() + timedelta(hours=1)
    )
    services.registration_open(tournament_id=t.pk, by_hand=True)
    services.register(tournament_id=t.pk, user=alice)
    t.refresh_from_db()
    assert t.registration_opens_at <= timezone.now()


def test_reopening_by_hand_after_the_window_stays_open(alice):
    """The sweeper closed it again at once, the window's close being past."""
    t = make_tournament(
        status=Tournament.Status.CLOSED,
        registration_closes_at=timezone.now() - timedelta(minutes=5),
    )
    services.registration_open(tournament_id=t.pk, by_hand=True)
    services.sweep()
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION and t.registration_closes_at is None
    services.register(tournament_id=t.pk, user=alice)


def test_opening_by_hand_after_the_scheduled_start_is_refused_with_the_reason(db):
    """The sweeper cancelled it the moment it opened (nobody entered by its start)."""
    t = make_tournament(
        status=Tournament.Status.DRAFT, scheduled_start=timezone.now() - timedelta(minutes=1)
    )
    with pytest.raises(TournamentError, match="scheduled start has passed"):
        services.registration_open(tournament_id=t.pk, by_hand=True)
    t.refresh_from_db()
    assert t.status == Tournament.Status.DRAFT


def test_the_sweeper_opens_at_the_window_as_before(db):
    t = make_tournament(
        status=Tournament.Status.DRAFT,
        registration_opens_at=timezone.now() - timedelta(minutes=1),
        registration_closes_at=timezone.now() + timedelta(hours=1),
    )
    services.sweep()
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION and t.registration_closes_at is not None
