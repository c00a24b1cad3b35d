"""What moves a tournament without an organizer: the game-ended signal, the sweeper, levels."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from games.models import Game, Table
from games.services import bot_turns
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import services, tasks
from tournaments.models import Tournament, TournamentTable


def test_a_game_ending_at_a_tournament_table_arms_advance(
    db, monkeypatch, django_capture_on_commit_callbacks
):
    armed = []
    monkeypatch.setattr(tasks.advance, "delay", lambda tid: armed.append(tid))
    t = make_tournament(seats_per_table=2)
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk)
    table = Table.objects.get()
    rng = random.Random(1)
    for _ in range(2000):
        table.refresh_from_db()
        if Game.objects.get(table=table).status != Game.Status.PLAYING:
            break
        with django_capture_on_commit_callbacks(execute=True):
            bot_turns.play_one(table.pk, table.version, rng=rng)
    assert armed == [t.pk]


def test_the_sweeper_opens_closes_and_starts_on_schedule(db):
    now = timezone.now()
    t = make_tournament(
        status=Tournament.Status.DRAFT,
        registration_opens_at=now - timedelta(minutes=10),
        registration_closes_at=now + timedelta(minutes=10),
        scheduled_start=now + timedelta(minutes=20),
    )
    assert services.sweep(now=now)["opened"] == 1
    enter(t, bot_players(4))
    assert services.sweep(now=now + timedelta(minutes=11))["closed"] == 1
    assert services.sweep(now=now + timedelta(minutes=21))["started"] == 1
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert TournamentTable.objects.filter(tournament=t).count() == 1
    assert services.sweep(now=now + timedelta(minutes=22))["started"] == 0


def test_levels_by_minutes_follow_the_running_time_without_pauses(db):
    t = make_tournament(level_unit="minutes", levels=((1, 2, 10), (2, 7, 10)))
    enter(t, bot_players(4))
    start = timezone.now()
    services.start(tournament_id=t.pk, now=start)
    t.refresh_from_db()
    assert (t.level, t.pcr) == (1, 2)
    t.paused_seconds = 5 * 60
    assert services._current_level(t, start + timedelta(minutes=12)).pcr == 2
    assert services._current_level(t, start + timedelta(minutes=16)).pcr == 7
