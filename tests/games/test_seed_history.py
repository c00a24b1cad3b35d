"""seed_history: realistic finished games in bulk, rated as the live task would rate them."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User
from games.engine.presets import PRESETS
from games.models import Game, GameResult, PlayerPeriodStats, Rating
from games.ratings import history_seed, ratings


def test_it_seeds_players_and_rated_games(db):
    out, err = io.StringIO(), io.StringIO()
    call_command("seed_history", players=30, games=120, stdout=out, stderr=err)
    assert "Seeded 30 players and 120 games" in out.getvalue()
    assert "rating [" in err.getvalue()  # the progress bar
    assert User.objects.filter(username__startswith="seed-", is_bot=False).count() == 30
    assert not User.objects.get(username="seed-0").has_usable_password()
    games = list(Game.objects.filter(status=Game.Status.FINISHED))
    assert len(games) == 120
    for game in games[:20]:
        assert len(game.players) >= 2
        assert game.totals == [
            sum(h[s] for h in game.hands_summary) for s in range(len(game.players))
        ]
        if PRESETS[game.rules["preset"]].single_hand_game:
            assert len(game.hands_summary) == 1
        else:
            assert max(game.totals) >= 500
        assert game.winners and game.rated_at is not None
    assert GameResult.objects.count() == sum(len(g.players) for g in games)
    assert Rating.objects.filter(pool="humans").exists()
    assert Rating.objects.filter(pool="bots", user__is_bot=True).exists()
    assert PlayerPeriodStats.objects.filter(period="all").exists()


def test_seeding_twice_adds_players_with_new_names(db):
    call_command("seed_history", players=10, games=5, verbosity=0, stdout=io.StringIO())
    call_command("seed_history", players=10, games=5, verbosity=0, stdout=io.StringIO())
    assert User.objects.filter(username__startswith="seed-").count() == 20
    assert Game.objects.count() == 10


def test_the_seeded_ratings_equal_rating_game_by_game(db):
    history_seed.seed(players=12, games=40, rng=random.Random(2))
    for game in Game.objects.order_by("finished_at", "id"):
        assert ratings.rate_game(game.pk)
    incremental = sorted(Rating.objects.values_list("user_id", "family", "pool", "mu", "sigma"))
    ratings.replay_all()
    assert sorted(Rating.objects.values_list("user_id", "family", "pool", "mu", "sigma")) == (
        incremental
    )


@pytest.mark.parametrize("args", [{"players": 2}, {"games": -1}, {"days": 0}])
def test_it_refuses_bad_sizes(db, args):
    with pytest.raises(CommandError):
        call_command("seed_history", verbosity=0, **args)
    assert not Game.objects.exists()
