"""One tournament that fails to advance never stops the sweeper for the others; it is retried
with backoff, then held as needing attention until an organizer resumes it."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import TournamentError


@pytest.fixture
def two_running(db, monkeypatch):
    """Two running MTTs; advancing the first one raises as a bug would."""
    broken, healthy = make_tournament(name="Broken"), make_tournament(name="Healthy")
    enter(broken, bot_players(2, prefix="b"))
    enter(healthy, bot_players(2, prefix="h"))
    for t in (broken, healthy):
        services.start(tournament_id=t.pk, live=False, rng=random.Random(1))
    real = services._advance_mtt
    seen = []

    def advance_mtt(t, now):
        seen.append(t.pk)
        if t.pk == broken.pk:
            raise ZeroDivisionError("a bug in one tournament")
        return real(t, now)

    monkeypatch.setattr(services, "_advance_mtt", advance_mtt)
    return broken, healthy, seen


def test_a_failing_tournament_is_recorded_and_the_others_still_advance(two_running):
    broken, healthy, seen = two_running
    now = timezone.now()
    done = services.sweep(now=now)

    assert healthy.pk in seen and done["failed"] == 1
    broken.refresh_from_db()
    assert "ZeroDivisionError: a bug in one tournament" in broken.last_error
    assert (broken.error_count, broken.error_at, broken.needs_attention) == (1, now, False)
    assert broken.retry_at == now + timedelta(seconds=services.RETRY_BASE_SECONDS)
    assert broken.status == Tournament.Status.RUNNING


def test_retries_back_off_then_the_tournament_needs_attention_until_resumed(two_running):
    broken, _healthy, seen = two_running
    now = timezone.now()
    services.sweep(now=now)
    seen.clear()
    services.sweep(now=now + timedelta(seconds=1))  # before the retry is due: skipped
    assert broken.pk not in seen
    waits = []
    for _ in range(services.ADVANCE_TRIES - 1):
        broken.refresh_from_db()
        waits.append((broken.retry_at - broken.error_at).total_seconds())
        now = broken.retry_at
        services.sweep(now=now)
    broken.refresh_from_db()
    assert waits == [10, 20]
    assert broken.needs_attention and broken.error_count == services.ADVANCE_TRIES
    seen.clear()
    services.sweep(now=now + timedelta(days=1))
    assert broken.pk not in seen  # held: the sweeper leaves it alone

    services.resume(tournament_id=broken.pk)
    broken.refresh_from_db()
    assert not broken.needs_attention and broken.error_count == 0 and broken.retry_at is None
    services.sweep(now=now + timedelta(days=1))
    assert broken.pk in seen


def test_a_tournament_that_needs_no_attention_and_is_not_paused_cannot_resume(db):
    t = make_tournament()
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk, live=False)
    with pytest.raises(TournamentError, match="paused tournament or one that needs attention"):
        services.resume(tournament_id=t.pk)
