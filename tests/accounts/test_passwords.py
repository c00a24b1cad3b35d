"""Changing a password while logged in, and resetting a forgotten one by e-mail."""

import re

import pytest
from django.core import mail

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "a-brand-new-secret-42"


def test_it_changes_the_password_and_keeps_the_player_logged_in(alice, alice_client):
    response = alice_client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.url == "/accounts/password/change/done/"
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert alice_client.get("/accounts/").status_code == 200


def test_it_refuses_a_change_with_the_wrong_old_password(alice, alice_client):
    response = alice_client.post(
        "/accounts/password/change/",
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert "old password was entered incorrectly" in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_it_resets_a_forgotten_password_through_the_emailed_link(alice, client):
    response = client.post("/accounts/password/reset/", {"email": "ALICE@example.com"})
    assert response.url == "/accounts/password/reset/sent/"
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    assert "Hello Alice" in message.body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)
    form_page = client.get(link, follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done.url == "/accounts/password/reset/complete/"
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_it_sends_nothing_for_an_unknown_address_but_answers_the_same(client):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.url == "/accounts/password/reset/sent/"
    assert mail.outbox == []


def test_a_reset_link_works_only_once(alice, client):
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)[1]
    form_page = client.get(link, follow=True)
    client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    again = client.get(link, follow=True)
    assert "This link no longer works" in again.content.decode()
