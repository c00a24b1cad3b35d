"""Signing up: the happy path logs the new player in; every bad input changes nothing."""

import pytest
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def signup_data(**overrides):
    data = {
        "username": "carol",
        "display_name": "Carol",
        "email": "carol@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return {**data, **overrides}


def test_it_creates_the_account_logs_in_and_lands_in_the_lobby(client):
    response = client.post("/accounts/signup/", signup_data(), follow=True)
    assert response.redirect_chain[-1][0] == "/"
    assert response.context["user"].username == "carol"
    page = response.content.decode()
    assert "Welcome, Carol" in page
    carol = User.objects.get(username="carol")
    assert carol.display_name == "Carol"
    assert carol.check_password(PASSWORD)
    assert not carol.is_bot


def test_it_shows_the_signup_form(client):
    response = client.get("/accounts/signup/")
    assert response.status_code == 200
    assert 'name="display_name"' in response.content.decode()


def test_it_sends_a_logged_in_player_to_the_lobby(alice_client):
    assert alice_client.get("/accounts/signup/").url == "/"


def test_it_follows_a_safe_next_link_after_signing_up(client):
    page = client.get("/accounts/signup/?next=/rules/").content.decode()
    assert '<input type="hidden" name="next" value="/rules/">' in page
    response = client.post("/accounts/signup/", {**signup_data(), "next": "/rules/"})
    assert response.url == "/rules/"


def test_it_ignores_a_next_link_to_another_site_after_signing_up(client):
    response = client.post("/accounts/signup/?next=https://evil.example/", signup_data())
    assert response.url == "/"


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"username": "ALICE"}, "username", "already exists"),
        ({"email": "Alice@Example.com"}, "email", "already exists"),
        ({"display_name": "aLiCe"}, "display_name", "taken"),
        ({"password1": "password", "password2": "password"}, "password2", "too common"),
        ({"password1": "48213957", "password2": "48213957"}, "password2", "entirely numeric"),
        ({"password1": "sh0rt!", "password2": "sh0rt!"}, "password2", "too short"),
        ({"password2": PASSWORD + "x"}, "password2", "didn’t match"),
        ({"display_name": "<b>Carol</b>"}, "display_name", "letters, digits"),
        ({"display_name": "Carol<script>"}, "display_name", "letters, digits"),
        ({"display_name": "Jo"}, "display_name", "3 to 24"),
        ({"display_name": "deleted-12"}, "display_name", "kept for removed"),
        ({"display_name": "\u3164\u3164\u3164"}, "display_name", "blank space"),
        ({"display_name": "Al\uffa0ice"}, "display_name", "blank space"),
        ({"display_name": "\u115f\u1160Bo"}, "display_name", "blank space"),
        ({"username": "deleted-12"}, "username", "kept for removed"),
        ({"email": "not-an-address"}, "email", "valid email"),
        ({"email": ""}, "email", "required"),
    ],
)
def test_it_rejects_bad_input_with_a_field_error_and_creates_nothing(
    alice, client, overrides, field, message
):
    before = User.objects.count()
    response = client.post("/accounts/signup/", signup_data(**overrides))
    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors.get(field, []))
    assert message in errors, response.context["form"].errors
    assert User.objects.count() == before
    assert "_auth_user_id" not in client.session


def test_it_rejects_a_signup_without_csrf_token_and_creates_nothing():
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/signup/", signup_data())
    assert response.status_code == 403
    assert not User.objects.filter(username="carol").exists()


def test_it_rejects_a_forged_csrf_token_and_creates_nothing():
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/signup/")
    forged = {**signup_data(), "csrfmiddlewaretoken": "f" * 64}
    response = client.post("/accounts/signup/", forged)
    assert response.status_code == 403
    assert not User.objects.filter(username="carol").exists()


def test_it_accepts_a_signup_with_the_real_csrf_token():
    client = Client(enforce_csrf_checks=True)
    client.get("/accounts/signup/")
    data = {**signup_data(), "csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    assert client.post("/accounts/signup/", data).status_code == 302
    assert User.objects.filter(username="carol").exists()


def test_sign_ups_from_one_address_are_limited_with_a_clear_message(settings):
    """A script could make accounts by the thousand; past the limit the form refuses with
    429 and makes nothing, while other addresses and, after the window, this one sign up."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import SignUpRecord

    settings.SIGNUP_LIMIT_PER_ADDRESS = 3

    def sign_up(n: int, address: str = "10.0.0.7"):
        data = signup_data(username=f"user{n}", display_name=f"User {n}", email=f"u{n}@x.org")
        return Client().post("/accounts/signup/", data, REMOTE_ADDR=address)

    assert [sign_up(n).status_code for n in range(3)] == [302, 302, 302]
    refused = sign_up(3)
    assert refused.status_code == 429
    assert "Too many accounts were made from your network" in refused.content.decode()
    assert not User.objects.filter(username="user3").exists()
    assert sign_up(4, address="10.0.0.8").status_code == 302
    SignUpRecord.objects.update(created_at=timezone.now() - timedelta(minutes=61))
    assert sign_up(5).status_code == 302


def test_a_form_with_a_mistake_does_not_count_toward_the_limit(settings):
    settings.SIGNUP_LIMIT_PER_ADDRESS = 1
    for _ in range(3):
        assert Client().post("/accounts/signup/", signup_data(password2="nope")).status_code == 200
    assert Client().post("/accounts/signup/", signup_data()).status_code == 302
