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
