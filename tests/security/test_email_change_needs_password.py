"""A new e-mail address on the account needs the current password.

Found by probing as someone at another player's open session: the settings form changed the
e-mail address with no password, and a password reset sent to the new address then took the
account over for good (the reset also ends the owner's other sessions). Deleting the account
and changing the password already asked for it. A display name alone still needs none.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SETTINGS = "/accounts/settings/"


@pytest.mark.parametrize("password", [None, "", "wrong-password", PASSWORD.upper()])
def test_an_email_change_without_the_password_is_refused_and_changes_nothing(
    alice, alice_client, password
):
    data = {"display_name": "Alice", "email": "mallory@example.com"}
    if password is not None:
        data["current_password"] = password
    response = alice_client.post(SETTINGS, data)
    assert response.status_code == 200
    assert "Enter your password to change your e-mail address." in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    # and a reset asked for the attacker's address reaches nobody
    Client().post("/accounts/password/reset/", {"email": "mallory@example.com"})
    assert mail.outbox == []


def test_an_email_change_with_the_password_is_saved(alice, alice_client):
    response = alice_client.post(
        SETTINGS,
        {"display_name": "Alice", "email": "new@example.com", "current_password": PASSWORD},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "new@example.com"


@pytest.mark.parametrize("email", ["alice@example.com", "ALICE@example.com"])
def test_a_display_name_change_needs_no_password(alice, alice_client, email):
    response = alice_client.post(SETTINGS, {"display_name": "Alice W", "email": email})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice W"


def test_the_settings_page_asks_for_the_password_as_a_password(alice_client):
    page = alice_client.get(SETTINGS).content.decode()
    assert 'type="password" name="current_password"' in page
    assert 'autocomplete="current-password"' in page
