"""The bulk paths on real PostgreSQL: COPY inserts, and recompute == incremental there too."""

from __future__ import annotations

import random

import pytest
from django.db import connection

from games.models import Game, GameResult, PlayerPeriodStats, Rating
from games.ratings import history_seed, ratings

pytestmark = pytest.mark.services


def derived():
    return (
        sorted(Rating.objects.values_list("user_id", "family", "pool", "mu", "sigma", "games")),
        sorted(GameResult.objects.values_list("game_id", "user_id", "rank", "ordinal_after")),
        sorted(
            PlayerPeriodStats.objects.values_list(
                "user_id", "period", "start", "games", "wins", "avg_hand", "presets"
            )
        ),
    )


def test_seeding_and_replaying_on_postgresql_match_the_game_by_game_task(postgres_url, db):
    assert connection.vendor == "postgresql"
    history_seed.seed(players=15, games=60, rng=random.Random(4))
    games = list(Game.objects.order_by("finished_at", "id"))
    assert len(games) == 60
    assert all(g.started_at < g.finished_at for g in games)
    ratings.replay_all()
    replayed = derived()
    assert len(replayed[1]) == sum(len(g.players) for g in games)
    GameResult.objects.all().delete()
    Rating.objects.all().delete()
    PlayerPeriodStats.objects.all().delete()
    Game.objects.update(rated_at=None)
    for game in games:
        assert ratings.rate_game(game.pk)
    assert derived() == replayed
