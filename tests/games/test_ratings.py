"""Ratings: openskill updates per game, pools, idempotence, and recompute == incremental."""

from __future__ import annotations

import datetime as dt
import io
import random

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import User
from games import tasks
from games.engine.presets import PLANNED_PRESETS, PRESETS
from games.models import Game, GameResult, PlayerPeriodStats, Rating, Table
from games.ratings import history_seed, ratings
from tests.conftest import make_player

T0 = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)  # a Monday


def record(users, totals, *, preset="standard", bots=None, winners=None, hands=None):
    bots = bots or [False] * len(users)
    if winners is None:
        winners = [i for i, t in enumerate(totals) if t == max(totals)]
    return ratings.GameRecord(
        game_id=1,
        preset=preset,
        finished_at=T0,
        users=tuple(users),
        bot_seats=tuple(bots),
        totals=tuple(totals),
        winners=tuple(winners),
        hands=tuple(tuple(h) for h in (hands or [totals])),
    )


# --- the pure part ---------------------------------------------------------------------------


def test_every_preset_belongs_to_exactly_one_family():
    for name in [*PRESETS, *PLANNED_PRESETS]:
        assert name in ratings.FAMILY_OF_PRESET, name
    assert sorted(ratings.FAMILIES) == sorted(
        ["standard", "jokers", "partnership", "oklahoma", "five-thousand"]
    )
    assert ratings.family_of("classic") == "standard"
    assert ratings.family_of("rummy-school") == "jokers"
    assert ratings.family_of("oklahoma-jokers") == "oklahoma"


def test_it_rates_a_two_player_game_winner_up_loser_down():
    book = ratings.RatingBook()
    out = book.rate(record([1, 2], [510, 300]))
    winner, loser = out
    assert (winner.rank, loser.rank) == (1, 2)
    assert winner.ordinal_after > winner.ordinal_before
    assert loser.ordinal_after < loser.ordinal_before
    assert book.get((1, "standard", "humans")).games == 1
    assert book.get((1, "standard", "humans")).sigma < ratings.MODEL.sigma


def test_it_ranks_four_players_by_total_with_ties_sharing_a_rank():
    book = ratings.RatingBook()
    out = book.rate(record([1, 2, 3, 4], [520, 300, 300, 100]))
    assert [o.rank for o in out] == [1, 2, 2, 4]
    tied = [book.get((u, "standard", "humans")) for u in (2, 3)]
    assert tied[0].mu == pytest.approx(tied[1].mu)
    mus = [book.get((u, "standard", "humans")).mu for u in (1, 2, 3, 4)]
    assert mus[0] > mus[1] > mus[3]


def test_it_rates_an_eight_player_game_in_finishing_order():
    book = ratings.RatingBook()
    totals = [500, 450, 400, 350, 300, 250, 200, 150]
    out = book.rate(record(list(range(1, 9)), totals))
    after = [o.ordinal_after for o in out]
    assert after == sorted(after, reverse=True)
    assert [o.rank for o in out] == list(range(1, 9))


def test_partnerships_are_rated_as_teams():
    book = ratings.RatingBook()
    teams, ranks = ratings.seat_ranks(record([1, 2, 3, 4], [300, 200, 250, 100], preset="persian"))
    assert teams == [[0, 2], [1, 3]]
    assert ranks == [1, 2]
    out = book.rate(record([1, 2, 3, 4], [300, 200, 250, 100], preset="persian"))
    assert {o.user: o.rank for o in out} == {1: 1, 2: 2, 3: 1, 4: 2}
    assert book.get((1, "partnership", "humans")).mu == pytest.approx(
        book.get((3, "partnership", "humans")).mu
    )
    assert book.get((1, "partnership", "humans")).mu > book.get((2, "partnership", "humans")).mu


def test_the_engine_named_winner_ranks_first_even_on_equal_totals():
    out = ratings.RatingBook().rate(record([1, 2], [500, 500], winners=[1]))
    assert [o.rank for o in out] == [2, 1]


def test_a_game_with_a_bot_seat_goes_to_the_bots_pool():
    rec = record([1, 99], [500, 200], bots=[False, True])
    assert rec.pool == "bots"
    book = ratings.RatingBook()
    book.rate(rec)
    assert set(book.ratings) == {(1, "standard", "bots"), (99, "standard", "bots")}


def test_a_bot_level_at_several_seats_counts_once_with_the_mean_of_its_seats():
    book = ratings.RatingBook()
    rec = record([1, 99, 99, 2], [500, 400, 100, 50], bots=[False, True, True, False])
    out = book.rate(rec)
    assert [(o.user, o.seat, o.rank) for o in out] == [(1, 0, 1), (99, 1, 2), (2, 3, 4)]
    bot = book.get((99, "standard", "bots"))
    assert bot.games == 1
    alone = ratings.RatingBook()
    alone.rate(record([1, 99, 98, 2], [500, 400, 100, 50], bots=[False, True, True, False]))
    second, third = alone.get((99, "standard", "bots")), alone.get((98, "standard", "bots"))
    assert bot.mu == pytest.approx((second.mu + third.mu) / 2)
    assert bot.sigma == pytest.approx((second.sigma + third.sigma) / 2)


def test_weeks_start_on_monday_and_months_on_the_first_in_the_site_time_zone(settings):
    sunday_late = dt.datetime(2026, 3, 1, 23, 30, tzinfo=dt.UTC)
    assert dict(ratings.period_starts(sunday_late)) == {
        "all": ratings.ALL_TIME_START,
        "week": dt.date(2026, 2, 23),
        "month": dt.date(2026, 3, 1),
    }
    settings.TIME_ZONE = "Europe/Berlin"  # 00:30 on Monday 2 March there
    assert dict(ratings.period_starts(sunday_late))["week"] == dt.date(2026, 3, 2)


# --- the database part -----------------------------------------------------------------------


@pytest.fixture
def players(db):
    return [make_player(f"p{i}", f"Player {i}") for i in range(6)]


@pytest.fixture
def table(players):
    return Table.objects.create(name="History", preset="standard", rules={}, num_seats=4)


def add_game(table, seats, hands, *, minutes, preset="standard", number=None):
    game = history_seed.finished_game(
        table=table,
        number=number or Game.objects.filter(table=table).count() + 1,
        seats=seats,
        hands=hands,
        finished_at=T0 + dt.timedelta(minutes=minutes),
        preset=preset,
    )
    game.save()
    return game


def snapshot():
    return (
        sorted(Rating.objects.values_list("user_id", "family", "pool", "mu", "sigma", "games")),
        sorted(
            GameResult.objects.values_list(
                "game_id", "user_id", "pool", "rank", "won", "ordinal_before", "ordinal_after"
            )
        ),
        sorted(
            PlayerPeriodStats.objects.values_list(
                "user_id",
                "period",
                "start",
                "games",
                "wins",
                "hands",
                "hand_points",
                "avg_hand",
                "best_hand",
                "best_total",
                "presets",
            )
        ),
    )


def test_rating_a_game_twice_changes_nothing(table, players):
    game = add_game(table, players[:2], [[60, 10], [30, 40]], minutes=1)
    assert ratings.rate_game(game.pk) is True
    first = snapshot()
    assert ratings.rate_game(game.pk) is False
    assert tasks.rate_game(game.pk) is False
    assert snapshot() == first
    assert GameResult.objects.filter(game=game).count() == 2
    game.refresh_from_db()
    assert game.rated_at is not None


def test_it_keeps_results_and_period_totals(table, players):
    alice, bob = players[:2]
    game = add_game(table, [alice, bob], [[60, 10], [30, 40]], minutes=1)
    ratings.rate_game(game.pk)
    result = GameResult.objects.get(game=game, user=alice)
    assert (result.rank, result.won, result.total, result.hands) == (1, True, 90, 2)
    assert (result.hand_points, result.best_hand, result.pool) == (90, 60, "humans")
    career = PlayerPeriodStats.objects.get(user=alice, period="career")
    assert (career.games, career.wins, career.presets) == (1, 1, {"standard": 1})
    week = PlayerPeriodStats.objects.get(user=bob, period="week")
    assert week.start == dt.date(2026, 3, 2)
    assert (week.games, week.wins, week.hands, week.avg_hand, week.best_total) == (
        1,
        0,
        2,
        25.0,
        50,
    )


def test_an_unfinished_game_is_not_rated(table, players):
    game = add_game(table, players[:2], [[60, 10]], minutes=1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING)
    assert ratings.rate_game(game.pk) is False
    assert ratings.rate_game(10**9) is False
    assert not GameResult.objects.exists()


def test_bots_are_rated_on_their_own_account_and_never_on_the_human_board(table, players):
    game = add_game(table, [players[0], "hard"], [[10, 80]], minutes=1)
    ratings.rate_game(game.pk)
    assert not Rating.objects.filter(pool="humans").exists()
    bot = Rating.objects.get(user__is_bot=True)
    assert (bot.pool, bot.user.username) == ("bots", "bot-level-hard")
    assert Rating.objects.get(user=players[0]).pool == "bots"
    # leaderboard totals (wins, averages) count games among people only; the player page's
    # career totals count every game
    assert set(PlayerPeriodStats.objects.values_list("period", flat=True)) == {"career"}


def test_a_table_full_of_one_bot_level_is_rated(table, players):
    game = add_game(table, [players[0], "easy", "easy", "easy"], [[90, 10, 50, 20]], minutes=1)
    assert ratings.rate_game(game.pk)
    bot = Rating.objects.get(user__username="bot-level-easy")
    assert (bot.games, bot.pool) == (1, "bots")
    assert GameResult.objects.filter(game=game).count() == 2
    assert GameResult.objects.get(game=game, user=bot.user).seat == 2


def test_a_table_that_opted_out_keeps_results_without_ratings(table, players):
    Table.objects.filter(pk=table.pk).update(rated=False)
    game = add_game(table, players[:2], [[60, 10]], minutes=1)
    assert ratings.rate_game(game.pk) is True
    assert not Rating.objects.exists()
    assert set(GameResult.objects.values_list("pool", flat=True)) == {""}


def test_recompute_ratings_equals_the_incremental_result(table, players):
    rng = random.Random(5)
    presets = ["standard", "jokers", "classic", "rummy-school", "persian"]
    games = []
    for minute in range(40):
        preset = rng.choice(presets)
        n = 4 if preset == "persian" else rng.choice([2, 3, 4])
        seats = rng.sample(players, n)
        if rng.random() < 0.2 and preset != "persian":
            seats[0] = rng.choice(["easy", "hard"])
        hands = [[rng.randint(-20, 90) for _ in seats] for _ in range(rng.randint(1, 4))]
        games.append(add_game(table, seats, hands, minutes=minute * 997, preset=preset))
    for game in games:  # the task runs as games finish
        assert ratings.rate_game(game.pk)
    incremental = snapshot()
    assert len(incremental[0]) > 10
    call_command("recompute_ratings", verbosity=0)
    assert snapshot() == incremental
    call_command("recompute_ratings", verbosity=0)
    assert snapshot() == incremental


def test_a_finished_game_schedules_its_rating_after_the_commit(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    from tests.games.conftest import start_table
    from tests.games.test_views import finish_game

    scheduled = []
    monkeypatch.setattr(tasks.rate_game, "delay", lambda game_id: scheduled.append(game_id))
    table = start_table(alice, seats=2, target=60)
    with django_capture_on_commit_callbacks(execute=True):
        game = finish_game(table, seed=3)
    assert scheduled == [game.pk]
    assert tasks.rate_game(game.pk) is True
    game.refresh_from_db()
    assert len(game.hands_summary) == game.hands.count()
    mine = GameResult.objects.get(game=game, user=alice)
    assert mine.total == game.totals[mine.seat]
    assert mine.hand_points == sum(h[mine.seat] for h in game.hands_summary)
    assert mine.pool == "bots"
    assert timezone.now() >= game.rated_at


def test_a_bot_level_takes_its_username_as_name_when_a_person_has_its_name(db):
    make_player("human", "Easy bot")
    ids = ratings.bot_account_ids(["easy", "easy"])
    bot = User.objects.get(pk=ids["easy"])
    assert (bot.is_bot, bot.display_name, bot.has_usable_password()) == (
        True,
        "bot-level-easy",
        False,
    )
    assert ratings.bot_account_ids(["easy"]) == ids


def test_recompute_missing_rates_only_the_games_a_lost_task_left(table, players):
    first = add_game(table, players[:2], [[60, 10]], minutes=1)
    ratings.rate_game(first.pk)
    before = snapshot()
    lost = add_game(table, players[2:4], [[5, 70]], minutes=2)
    out = io.StringIO()
    call_command("recompute_ratings", "--missing", stdout=out)
    assert "Rated 1 games" in out.getvalue()
    lost.refresh_from_db()
    assert lost.rated_at is not None
    assert GameResult.objects.filter(game=first).count() == 2
    assert set(snapshot()[0]) > set(before[0])
    call_command("recompute_ratings", "--missing", stdout=io.StringIO())
    assert GameResult.objects.count() == 4


def test_a_live_game_with_three_bots_of_one_level_is_rated(alice):
    from tests.games.conftest import start_table
    from tests.games.test_views import finish_game

    table = start_table(alice, seats=4, target=60)
    game = finish_game(table, seed=5)
    assert sum(1 for p in game.players if p["bot"]) == 3
    assert tasks.rate_game(game.pk) is True
    assert set(GameResult.objects.filter(game=game).values_list("user__username", flat=True)) == {
        "alice",
        f"bot-level-{game.players[1]['bot']}",
    }
    assert Rating.objects.get(user=alice).games == 1


def test_a_live_persian_game_is_rated_by_sides(alice):
    from tests.games.conftest import start_table
    from tests.games.test_views import finish_game

    table = start_table(alice, seats=4, preset="persian", target=60)
    game = finish_game(table, seed=2)
    teams, ranks = ratings.seat_ranks(ratings.record_of(game, table_rated=True, bots={"easy": 0}))
    assert teams == [[0, 2], [1, 3]]
    assert sorted(ranks) == [1, 2]
    assert tasks.rate_game(game.pk) is True
    mine = GameResult.objects.get(game=game, user=alice)
    assert mine.family == "partnership"
    # The partner draw may reseat her: find her seat in the game's own record.
    seat = next(i for i, p in enumerate(game.players) if p["user"] == alice.pk)
    assert mine.won == (mine.rank == 1) == (seat in game.winners)
    assert Rating.objects.get(user=alice).family == "partnership"


def test_the_shown_rating_is_1500_plus_60_ordinals_and_a_new_player_shows_1500():
    assert ratings.display_rating(None) == 1500
    assert ratings.display_rating(0.0) == 1500
    assert ratings.display_rating(3.4) == 1704
    assert ratings.display_rating(-1.8) == 1392
    fresh = ratings.RatingState(mu=ratings.MODEL.mu, sigma=ratings.MODEL.sigma)
    assert ratings.display_rating(fresh.ordinal) == 1500


def test_the_shown_rating_has_a_question_mark_while_provisional():
    assert ratings.display_label(1.0, ratings.PROVISIONAL_GAMES - 1) == "1560?"
    assert ratings.display_label(1.0, ratings.PROVISIONAL_GAMES) == "1560"
