"""Tournaments for the tests, and a driver that plays their bot tables to the end in-process."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors
from games.models import Table
from games.services import bot_turns
from tests.conftest import make_player
from tournaments import services
from tournaments.models import Level, Tournament, TournamentTable


@pytest.fixture(autouse=True)
def _fast_bots(settings):
    settings.BOT_MOVE_DELAY_SECONDS = 0
    settings.HAND_PAUSE_SECONDS = 0
    selectors.clear_cache()
    yield
    selectors.clear_cache()


def make_tournament(*, levels=((1, 5, 2), (2, 20, 2), (3, 100, 1)), **fields) -> Tournament:
    fields.setdefault("name", "Sunday cup")
    fields.setdefault("status", Tournament.Status.REGISTRATION)
    fields.setdefault("starting_chips", 1000)
    fields.setdefault("turn_seconds", 60)
    t = Tournament.objects.create(**fields)
    Level.objects.bulk_create(
        Level(tournament=t, number=n, pcr=pcr, duration=d) for n, pcr, d in levels
    )
    return t


def bot_players(count: int, prefix: str = "bot"):
    return [make_player(f"{prefix}{i}", f"{prefix.title()} {i}", is_bot=True) for i in range(count)]


def enter(t: Tournament, users) -> None:
    for user in users:
        services.entrant_add(tournament_id=t.pk, user=user)


def drive(
    t: Tournament,
    *,
    max_steps: int = 50_000,
    seed: int = 1,
    until: Callable[[], bool] | None = None,
) -> Tournament:
    """Play every bot move at the tournament's tables and advance it until it is over
    (or until ``until()`` holds, checked before every step).

    The same calls the Celery tasks make (bot turns, then ``advance`` once a hand ends: it
    deals the next one or settles), run one after another in this thread, with no delays.
    """
    rng = random.Random(seed)
    idle = 0
    for _ in range(max_steps):
        t.refresh_from_db()
        if t.status != Tournament.Status.RUNNING or (until is not None and until()):
            return t
        live = TournamentTable.objects.filter(
            tournament=t, status=TournamentTable.Status.OPEN, table__isnull=False
        ).values_list("table_id", flat=True)
        moved = False
        for table_id, version in Table.objects.filter(pk__in=list(live)).values_list(
            "pk", "version"
        ):
            moved |= bot_turns.play_one(table_id, version, rng=rng)
        if not moved:
            moved = services.advance(tournament_id=t.pk)
        idle = 0 if moved else idle + 1
        if idle > 3:
            raise AssertionError("the tournament is stuck")
    raise AssertionError("the tournament did not finish")


def later(minutes: float = 1):
    return timezone.now() + timedelta(minutes=minutes)
