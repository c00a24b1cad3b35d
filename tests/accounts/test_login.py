"""Logging in and out, and the lockouts (django-axes): five failed passwords for one account
from one address, twenty from any addresses; a password reset lifts both."""

import re

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def log_in(client, password, username="alice", address="10.0.0.1"):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_it_logs_in_with_the_right_password_and_lands_in_the_lobby(alice, client):
    response = log_in(client, PASSWORD)
    assert response.status_code == 302 and response.url == "/"
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_says_the_password_is_wrong_without_logging_in(alice, client):
    response = log_in(client, "wrong-password")
    assert response.status_code == 200
    assert "enter a correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_follows_a_safe_next_link_after_login(alice, client):
    response = client.post(
        "/accounts/login/?next=/rules/", {"username": "alice", "password": PASSWORD}
    )
    assert response.url == "/rules/"


def test_it_ignores_a_next_link_to_another_site(alice, client):
    response = client.post(
        "/accounts/login/?next=https://evil.example/",
        {"username": "alice", "password": PASSWORD},
    )
    assert response.url == "/"


def test_it_locks_out_after_five_failures_with_a_clear_message(alice, client):
    for _ in range(4):
        assert log_in(client, "wrong-password").status_code == 200
    fifth = log_in(client, "wrong-password")
    assert fifth.status_code == 429
    assert "Too many failed log-ins" in fifth.content.decode()
    # Even the right password is refused while locked out.
    sixth = log_in(client, PASSWORD)
    assert sixth.status_code == 429
    assert "Too many failed log-ins" in sixth.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_page_is_styled_and_offers_a_password_reset(alice, client):
    for _ in range(5):
        response = log_in(client, "wrong-password")
    page = response.content.decode()
    assert "css/site.css" in page
    assert "/accounts/password/reset/" in page


def test_a_lockout_does_not_lock_the_player_out_from_another_address(alice):
    attacker, player = Client(), Client()
    for _ in range(5):
        log_in(attacker, "wrong-password", address="203.0.113.9")
    assert log_in(player, PASSWORD, address="198.51.100.7").status_code == 302


def test_it_locks_the_account_everywhere_after_twenty_failures_from_rotating_addresses(alice):
    for n in range(19):
        assert log_in(Client(), "wrong-password", address=f"198.51.100.{n}").status_code == 200
    twentieth = log_in(Client(), "wrong-password", address="198.51.100.19")
    assert twentieth.status_code == 429
    page = twentieth.content.decode()
    assert "paused everywhere" in page and "/accounts/password/reset/" in page
    player = Client()
    refused = log_in(player, PASSWORD, address="203.0.113.200")
    assert refused.status_code == 429
    assert "_auth_user_id" not in player.session


def test_other_accounts_are_not_locked_by_an_attack_on_one(alice, bob):
    for n in range(20):
        log_in(Client(), "wrong-password", address=f"198.51.100.{n}")
    assert log_in(Client(), PASSWORD, username="bob", address="198.51.100.1").status_code == 302


def test_the_address_lock_page_says_it_is_for_this_address_only(alice, client):
    for _ in range(5):
        response = log_in(client, "wrong-password")
    page = response.content.decode()
    assert "from your address" in page and "paused everywhere" not in page
    assert "15 minutes" in page


def _reset_password_by_email(client: Client, email: str, new_password: str) -> None:
    assert client.post("/accounts/password/reset/", {"email": email}).status_code == 302
    body = mail.outbox[-1].body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", body)[1]
    form_page = client.get(link, follow=True)
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": new_password, "new_password2": new_password},
    )
    assert done.url == "/accounts/password/reset/complete/"


def test_a_password_reset_lifts_both_locks(alice):
    for n in range(20):
        log_in(Client(), "wrong-password", address=f"198.51.100.{n % 4}")
    player = Client()
    assert log_in(player, PASSWORD, address="198.51.100.0").status_code == 429
    _reset_password_by_email(Client(), "alice@example.com", "a-brand-new-secret-42")
    assert not AccessAttempt.objects.filter(username="alice").exists()
    assert log_in(player, "a-brand-new-secret-42", address="198.51.100.0").status_code == 302


def test_a_successful_login_clears_earlier_failures(alice, client):
    for _ in range(4):
        log_in(client, "wrong-password")
    assert log_in(client, PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="alice").exists()


def test_it_refuses_bot_accounts_at_the_login_form(client):
    from accounts.models import User

    bot = User.objects.create_user("bot-zed", display_name="Zed Bot", is_bot=True)
    bot.set_unusable_password()
    bot.save()
    assert log_in(client, "", username="bot-zed").status_code == 200
    assert "_auth_user_id" not in client.session


def test_a_bot_account_with_a_password_still_cannot_log_in(client):
    """An account made a bot in the admin keeps its password; the form refuses it anyway."""
    from accounts.models import User

    User.objects.create_user("bot-ann", password=PASSWORD, display_name="Ann Bot", is_bot=True)
    response = log_in(client, PASSWORD, username="bot-ann")
    assert response.status_code == 200
    assert "bot account" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_logs_out_on_post(alice_client):
    response = alice_client.post("/accounts/logout/")
    assert response.status_code == 302 and response.url == "/"
    assert "_auth_user_id" not in alice_client.session


def test_it_does_not_log_out_on_get(alice_client):
    assert alice_client.get("/accounts/logout/").status_code == 405
    assert "_auth_user_id" in alice_client.session


def test_the_account_page_needs_a_login(client):
    response = client.get("/accounts/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/accounts/"


def test_the_header_links_to_my_public_page_and_my_account(alice_client, alice):
    page = alice_client.get("/rules/").content.decode()
    assert f'href="/players/{alice.display_name}/"' in page
    assert 'href="/accounts/">Account</a>' in page
