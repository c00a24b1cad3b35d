"""Account settings: display name and e-mail; names are validated and always escaped."""

import pytest

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_changes_display_name_and_email(alice, alice_client):
    response = alice_client.post(
        "/accounts/settings/",
        {"display_name": "Alice W", "email": "aw@example.com", "current_password": PASSWORD},
    )
    assert response.url == "/accounts/"
    alice.refresh_from_db()
    assert (alice.display_name, alice.email) == ("Alice W", "aw@example.com")


def test_it_lets_a_player_keep_their_own_name_in_another_case(alice, alice_client):
    alice_client.post("/accounts/settings/", {"display_name": "ALICE", "email": alice.email})
    alice.refresh_from_db()
    assert alice.display_name == "ALICE"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"display_name": "bob", "email": "alice@example.com"}, "taken"),
        ({"display_name": "Alice", "email": "BOB@example.com"}, "already exists"),
        ({"display_name": "<img src=x>", "email": "alice@example.com"}, "letters, digits"),
        ({"display_name": "Al  ice", "email": "alice@example.com"}, "space"),
        ({"display_name": "A" * 25, "email": "alice@example.com"}, "at most 24"),
    ],
)
def test_it_refuses_bad_settings_and_changes_nothing(alice, bob, alice_client, data, message):
    response = alice_client.post("/accounts/settings/", data)
    assert response.status_code == 200
    assert message in str(response.context["form"].errors)
    alice.refresh_from_db()
    assert (alice.display_name, alice.email) == ("Alice", "alice@example.com")


def test_it_escapes_a_display_name_even_if_markup_reached_the_database(client):
    """Validation keeps markup out; escaping is the second wall if it ever gets in."""
    sneaky = User.objects.create_user("mallory", password="irrelevant-pass-1")
    User.objects.filter(pk=sneaky.pk).update(display_name='<script>"x"</script>')
    client.force_login(sneaky, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get("/accounts/").content.decode()
    assert '<script>"x"' not in page
    assert "&lt;script&gt;&quot;x&quot;&lt;/script&gt;" in page


def test_the_privacy_page_is_public_and_says_what_we_keep(client):
    page = client.get("/accounts/privacy/").content.decode()
    assert "What we keep" in page and "delete your account" in page


def test_save_and_cancel_sit_in_one_spaced_row(alice_client):
    """The Cancel link stood against the Save button with a bare space between them."""
    html = alice_client.get("/accounts/settings/").content.decode()
    row = html[html.index('<p class="actions">') :]
    row = row[: row.index("</p>")]
    assert ">Save</button>" in row and ">Cancel</a>" in row
