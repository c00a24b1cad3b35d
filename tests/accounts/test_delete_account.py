"""Deleting an account removes personal data but keeps the row for finished games."""

import pytest
from axes.models import AccessAttempt
from django.test import Client

from accounts.models import User
from accounts.services import account_delete
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_anonymises_the_account_and_logs_out(alice, alice_client):
    response = alice_client.post("/accounts/delete/", {"password": PASSWORD})
    assert response.url == "/"
    assert "_auth_user_id" not in alice_client.session
    alice.refresh_from_db()
    anonymous = f"deleted-{alice.pk}"
    assert (alice.username, alice.display_name, alice.email) == (anonymous, anonymous, "")
    assert not alice.has_usable_password()
    assert not alice.is_active
    assert alice.deleted_at is not None and alice.is_deleted


def test_it_keeps_the_row_so_games_can_still_point_at_it(alice, alice_client):
    alice_client.post("/accounts/delete/", {"password": PASSWORD})
    assert User.objects.filter(pk=alice.pk).exists()


def test_it_asks_for_the_password_and_changes_nothing_when_wrong(alice, alice_client):
    response = alice_client.post("/accounts/delete/", {"password": "not-it"})
    assert response.status_code == 200
    assert "That is not your password" in response.content.decode()
    alice.refresh_from_db()
    assert alice.username == "alice" and alice.is_active


def test_the_old_credentials_no_longer_log_in(alice, alice_client):
    alice_client.post("/accounts/delete/", {"password": PASSWORD})
    client = Client()
    client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert "_auth_user_id" not in client.session


def test_it_ends_the_accounts_other_sessions(alice, alice_client):
    other_browser = Client()
    other_browser.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    alice_client.post("/accounts/delete/", {"password": PASSWORD})
    assert other_browser.get("/accounts/").status_code == 302


def test_it_forgets_failed_login_records_of_the_old_username(alice, client):
    client.post("/accounts/login/", {"username": "alice", "password": "bad"})
    assert AccessAttempt.objects.filter(username="alice").exists()
    account_delete(user=alice)
    assert not AccessAttempt.objects.filter(username="alice").exists()


def test_the_name_is_free_for_a_new_player_afterwards(alice, client):
    account_delete(user=alice)
    User.objects.create_user("alice", email="alice@example.com", display_name="Alice")
    assert User.objects.filter(display_name__iexact="alice").count() == 1


# --- what games stored by value (issue 18, item 8) -----------------------------------------


def _finished_game(table, seats, *, minutes=1):
    import datetime as dt

    from games.models import Game
    from games.ratings import history_seed

    game = history_seed.finished_game(
        table=table,
        number=Game.objects.filter(table=table).count() + 1,
        seats=seats,
        hands=[[60, 10], [30, 40]],
        finished_at=dt.datetime(2026, 3, 2, 12, minutes, tzinfo=dt.UTC),
        preset="standard",
    )
    game.save()
    return game


def _history_table():
    from games.models import Table

    return Table.objects.create(name="History", preset="standard", rules={}, num_seats=2)


def test_finished_games_show_the_anonymous_name_and_keep_the_others(alice, bob):
    game = _finished_game(_history_table(), [alice, bob])
    assert [p["name"] for p in game.players] == ["Alice", "Bob"]
    account_delete(user=alice)
    game.refresh_from_db()
    assert [p["name"] for p in game.players] == [f"deleted-{alice.pk}", "Bob"]
    assert [p["user"] for p in game.players] == [alice.pk, bob.pk]


def test_default_table_names_lose_the_name_and_chosen_ones_stay(alice):
    from games.services import tables

    default = tables.table_create(
        host=alice, name="", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    assert default.name == "Alice's table"
    chosen = tables.table_create(
        host=alice, name="Friday cards", preset="standard", options={}, num_seats=2,
        turn_seconds=60,
    )  # fmt: skip
    account_delete(user=alice)
    default.refresh_from_db()
    chosen.refresh_from_db()
    assert (default.name, chosen.name) == (f"deleted-{alice.pk}'s table", "Friday cards")


def test_deleting_removes_the_accounts_ratings_and_results(alice, bob):
    from games.models import GameResult, PlayerPeriodStats, Rating
    from games.ratings import ratings

    game = _finished_game(_history_table(), [alice, bob])
    ratings.rate_game(game.pk)
    assert Rating.objects.filter(user=alice).exists()
    account_delete(user=alice)
    for model in (Rating, GameResult, PlayerPeriodStats):
        assert not model.objects.filter(user=alice).exists()
        assert model.objects.filter(user=bob).exists()


def test_a_game_finishing_after_deletion_rates_nobody_deleted(alice, bob):
    from games.models import GameResult, PlayerPeriodStats, Rating
    from games.ratings import ratings

    account_delete(user=alice)
    game = _finished_game(_history_table(), [alice, bob])
    assert ratings.rate_game(game.pk) is True
    for model in (Rating, GameResult, PlayerPeriodStats):
        assert not model.objects.filter(user=alice).exists()
    assert GameResult.objects.filter(game=game, user=bob).exists()


def test_rebuilding_every_rating_writes_none_for_a_deleted_account(alice, bob):
    from games.models import GameResult, PlayerPeriodStats, Rating
    from games.ratings import ratings

    _finished_game(_history_table(), [alice, bob])
    account_delete(user=alice)
    ratings.replay_all()
    for model in (Rating, GameResult, PlayerPeriodStats):
        assert not model.objects.filter(user=alice).exists()
    assert Rating.objects.filter(user=bob).exists()


def test_the_delete_and_privacy_pages_promise_the_same_name(alice, alice_client):
    delete_page = alice_client.get("/accounts/delete/").content.decode()
    privacy_page = alice_client.get("/accounts/privacy/").content.decode()
    assert f"anonymous name “deleted-{alice.pk}”" in delete_page
    assert "anonymous name “deleted-N”" in privacy_page
