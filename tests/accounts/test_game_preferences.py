"""Game preferences: card size, deck colours and sound, saved on the account, on every page."""

import pytest

from accounts.models import User

pytestmark = pytest.mark.django_db


def body_tag(html: str) -> str:
    return html.split("<body", 1)[1].split(">", 1)[0]


def test_new_accounts_and_visitors_get_the_default_classes(client, alice_client):
    assert 'class="pref-cards-medium pref-deck-four pref-sound-off"' in body_tag(
        client.get("/").content.decode()
    )
    assert 'class="pref-cards-medium pref-deck-four pref-sound-off"' in body_tag(
        alice_client.get("/").content.decode()
    )


def test_saved_preferences_become_body_classes_on_every_page(alice, alice_client):
    response = alice_client.post(
        "/accounts/settings/preferences/",
        {"pref-card_size": "large", "pref-deck_colours": "two", "pref-sound": "on"},
    )
    assert response.status_code == 302 and response.url == "/accounts/settings/"
    alice.refresh_from_db()
    assert (alice.card_size, alice.deck_colours, alice.sound) == ("large", "two", True)
    for path in ("/", "/rules/", "/leaderboards/rating/", "/accounts/settings/"):
        body = body_tag(alice_client.get(path).content.decode())
        assert 'class="pref-cards-large pref-deck-two pref-sound-on"' in body, path


def test_the_settings_page_offers_the_preferences_with_the_saved_ones_chosen(alice_client):
    html = alice_client.get("/accounts/settings/").content.decode()
    assert "Game preferences" in html
    assert 'name="pref-card_size" value="medium"' in html and "checked" in html
    assert 'name="pref-deck_colours" value="two"' in html
    assert 'name="pref-sound"' in html
    assert "css/preferences.css" in html


def test_a_bad_preference_is_refused_and_changes_nothing(alice, alice_client):
    response = alice_client.post(
        "/accounts/settings/preferences/",
        {"pref-card_size": "huge", "pref-deck_colours": "two"},
    )
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    alice.refresh_from_db()
    assert (alice.card_size, alice.deck_colours) == ("medium", "four")


def test_saving_preferences_leaves_name_and_e_mail_alone(alice, alice_client):
    alice_client.post(
        "/accounts/settings/preferences/",
        {"pref-card_size": "small", "pref-deck_colours": "four"},
    )
    fresh = User.objects.get(pk=alice.pk)
    assert (fresh.display_name, fresh.email, fresh.card_size) == (
        "Alice",
        "alice@example.com",
        "small",
    )


def test_preferences_need_a_login_and_a_post(client, alice_client):
    assert client.post("/accounts/settings/preferences/").status_code == 302
    assert alice_client.get("/accounts/settings/preferences/").status_code == 405


def test_the_preference_stylesheet_turns_the_deck_to_two_colours_and_resizes_cards():
    from pathlib import Path

    css = (Path(__file__).parents[2] / "static/css/preferences.css").read_text()
    assert "body.pref-deck-two" in css and "--suit-diamonds: var(--suit-hearts)" in css
    assert "body.pref-cards-large .pcard" in css and "body.pref-cards-small .pcard" in css
