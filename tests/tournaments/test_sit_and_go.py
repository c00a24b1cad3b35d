"""Sit-and-go: a full event starts by itself after its countdown; a withdrawal cancels it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.conftest import make_player
from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tournaments import services, tasks
from tournaments.models import Entry, Level, Tournament
from tournaments.services import TournamentError


def humans(count: int, prefix: str = "p"):
    return [make_player(f"{prefix}{i}", f"Player {prefix}{i}") for i in range(count)]


def sng(**fields) -> Tournament:
    fields.setdefault("format", Tournament.Format.STT)
    fields.setdefault("seats_per_table", 3)
    fields.setdefault("sit_and_go", True)
    fields.setdefault("sit_and_go_seconds", 15)
    return make_tournament(**fields)


def register_all(t: Tournament, users, now) -> None:
    for user in users:
        services.register(tournament_id=t.pk, user=user, now=now)


def test_the_last_seat_taken_starts_the_countdown_and_the_sweeper_starts_it_after(db):
    now = timezone.now()
    t = sng()
    register_all(t, humans(2), now)
    t.refresh_from_db()
    assert t.sit_and_go_at is None
    register_all(t, humans(1, "q"), now)
    t.refresh_from_db()
    assert t.sit_and_go_at == now + timedelta(seconds=15)
    assert services.sweep(now=now + timedelta(seconds=14))["started"] == 0
    assert services.sweep(now=now + timedelta(seconds=15))["started"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert t.sit_and_go_at is None
    assert services.sweep(now=now + timedelta(seconds=16))["started"] == 0


def test_a_withdrawal_during_the_countdown_cancels_it(db):
    now = timezone.now()
    t = sng()
    players = humans(3)
    register_all(t, players, now)
    services.unregister(tournament_id=t.pk, user=players[0], now=now + timedelta(seconds=5))
    t.refresh_from_db()
    assert t.sit_and_go_at is None
    assert services.sweep(now=now + timedelta(seconds=30))["started"] == 0
    assert not services.sit_and_go_due(tournament_id=t.pk, now=now + timedelta(seconds=30))
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    # a new player fills the seat: a fresh countdown from that moment
    again = now + timedelta(seconds=40)
    services.register(tournament_id=t.pk, user=players[0], now=again)
    t.refresh_from_db()
    assert t.sit_and_go_at == again + timedelta(seconds=15)


def test_the_armed_task_starts_it_and_does_nothing_once_cancelled(
    db, monkeypatch, django_capture_on_commit_callbacks
):
    armed = []
    monkeypatch.setattr(
        tasks.sit_and_go, "apply_async", lambda args, countdown: armed.append((args, countdown))
    )
    now = timezone.now()
    t = sng(sit_and_go_seconds=0)
    players = humans(3)
    with django_capture_on_commit_callbacks(execute=True):
        register_all(t, players, now)
    assert armed == [((t.pk,), 0)]
    assert tasks.sit_and_go(t.pk) is True
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert tasks.sit_and_go(t.pk) is False  # a repeat does nothing


def test_the_task_of_a_cancelled_countdown_does_nothing(db):
    now = timezone.now()
    t = sng(sit_and_go_seconds=0)
    players = humans(3)
    register_all(t, players, now - timedelta(seconds=5))
    services.unregister(tournament_id=t.pk, user=players[1], now=now - timedelta(seconds=4))
    assert tasks.sit_and_go(t.pk) is False
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION


def test_bot_entrants_fill_seats_only_where_bots_are_allowed(db):
    now = timezone.now()
    allowed = sng(name="bots welcome")
    for user in bot_players(3, "b"):
        services.entrant_add(tournament_id=allowed.pk, user=user, now=now)
    allowed.refresh_from_db()
    assert allowed.sit_and_go_at is not None

    refused = sng(name="people only", bots_allowed=False, seats_per_table=3)
    bots = bot_players(1, "c")
    services.entrant_add(tournament_id=refused.pk, user=bots[0], now=now)
    register_all(refused, humans(2), now)
    refused.refresh_from_db()
    assert Entry.objects.filter(tournament=refused).count() == 3
    assert refused.sit_and_go_at is None  # the bot holds a seat but does not make it full


def test_a_multi_table_sit_and_go_waits_for_its_maximum_entrants(db):
    now = timezone.now()
    t = sng(format=Tournament.Format.MTT, seats_per_table=2, max_entrants=6, min_entrants=2)
    enter(t, bot_players(5))
    t.refresh_from_db()
    assert t.sit_and_go_at is None
    enter(t, bot_players(1, "z"))
    assert services.sweep(now=timezone.now() + timedelta(seconds=15))["started"] == 1
    t = drive(t)
    assert t.status == Tournament.Status.FINISHED
    assert sorted(Entry.objects.filter(tournament=t).values_list("place", flat=True))[0] == 1
    assert now <= t.started_at


def test_a_quick_game_sit_and_go_starts_and_finishes(db):
    t = sng(format=Tournament.Format.QUICK, seats_per_table=2, hands=1, sit_and_go_seconds=0)
    enter(t, bot_players(2))
    assert services.sweep()["started"] == 1
    assert drive(t).status == Tournament.Status.FINISHED


def test_a_countdown_out_of_range_is_refused(db):
    t = sng(sit_and_go_seconds=301)
    with pytest.raises(TournamentError, match="countdown"):
        services.check_settings(t)


def test_a_multi_table_sit_and_go_needs_a_seat_cap_it_can_reach(db):
    # Left at the default of 1000 entrants the event would wait for ever.
    t = sng(format=Tournament.Format.MTT, seats_per_table=4)
    assert t.max_entrants == 1000
    with pytest.raises(TournamentError, match="seat cap") as refused:
        services.check_settings(t)
    assert refused.value.code == "invalid_seat_cap"
    t.max_entrants = services.SIT_AND_GO_MTT_CAP
    services.check_settings(t)


def test_a_refused_start_says_why_and_counts_down_again_for_the_fixed_event(db):
    now = timezone.now()
    # levels that cannot run: the start is refused and the reason shown on the public page
    t = sng(format=Tournament.Format.MTT, max_entrants=4, seats_per_table=2, levels=())
    enter(t, bot_players(4))
    then = now + timedelta(seconds=20)
    assert services.sweep(now=then)["started"] == 0
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    assert "level" in t.notice.lower()
    assert t.sit_and_go_at == then + timedelta(seconds=15)  # a new countdown for a retry
    Level.objects.create(tournament=t, number=1, pcr=5, duration=3)  # the organizer fixes it
    assert services.sweep(now=then + timedelta(seconds=15))["started"] == 1


def test_the_sweeper_counts_down_an_event_made_sit_and_go_after_it_filled(db):
    now = timezone.now()
    t = sng(sit_and_go=False)
    enter(t, bot_players(3))
    Tournament.objects.filter(pk=t.pk).update(sit_and_go=True)  # the admin form's save
    services.sweep(now=now)
    t.refresh_from_db()
    assert t.sit_and_go_at == now + timedelta(seconds=15)


def test_the_public_page_shows_the_countdown_of_a_full_sit_and_go(db):
    from django.test import Client
    from django.urls import reverse

    t = sng()
    url = reverse("tournaments:detail", args=[t.pk])
    assert "starts by itself 15 s after" in Client().get(url).content.decode()
    enter(t, bot_players(3))
    page = Client().get(url).content.decode()
    assert "All seats are taken" in page and "data-countdown-to=" in page
