"""The password a signed-in player is asked for again (to delete the account, to change the
password, to change the e-mail address) is checked through the login lockouts.

Found by probing as someone at another player's open session: those forms checked the
password with ``check_password`` alone, so 30 wrong guesses at the password-change form were
each answered "incorrect", none counted by django-axes, and the right one was then accepted:
an unlimited password oracle beside a login that locks after five. Now a wrong password
there counts as a failed log-in, the fifth locks that account and address (the lockout page,
429), and while locked even the right password changes nothing, on every form and at the
log-in.
"""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.test import Client

from accounts.models import User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "Zx9-a-brand-new-pass"


def change_password(client: Client, old: str):
    return client.post(
        "/accounts/password/change/",
        {"old_password": old, "new_password1": NEW, "new_password2": NEW},
    )


def delete(client: Client, password: str):
    return client.post("/accounts/delete/", {"password": password})


def change_email(client: Client, password: str):
    return client.post(
        "/accounts/settings/",
        {"display_name": "Alice", "email": "mallory@example.com", "current_password": password},
    )


FORMS = {"password change": change_password, "delete": delete, "e-mail change": change_email}


def unchanged(alice: User) -> bool:
    alice = User.objects.get(pk=alice.pk)
    return (
        alice.is_active
        and alice.deleted_at is None
        and alice.email == "alice@example.com"
        and alice.check_password(PASSWORD)
    )


@pytest.mark.parametrize("form", FORMS)
def test_wrong_passwords_on_a_form_count_and_lock_as_at_the_log_in(alice, form):
    client = Client()
    client.force_login(alice)
    send = FORMS[form]
    answers = [send(client, f"guess-{i}").status_code for i in range(6)]
    assert answers[:4] == [200] * 4  # "incorrect", next to the field
    assert answers[4:] == [429, 429]  # the fifth failure locks: the lockout page
    assert AccessAttempt.objects.get(username="alice").failures_since_start == 5
    # locked: the right password changes nothing, here and on the other forms
    for other in FORMS.values():
        assert other(client, PASSWORD).status_code == 429
    assert unchanged(alice)
    # and the log-in from that address is locked too (one lock, whichever form counted)
    login = Client().post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert login.status_code == 429


def test_the_right_password_still_works_on_each_form(alice):
    client = Client()
    client.force_login(alice)
    assert change_email(client, PASSWORD).status_code == 302
    assert change_password(client, PASSWORD).status_code == 302
    assert delete(client, NEW).status_code == 302
    assert not AccessAttempt.objects.filter(failures_since_start__gt=0).exists()
