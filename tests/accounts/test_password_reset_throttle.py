"""Password-reset e-mails are throttled per requesting address and per e-mail address asked
for, with a clear message that is the same whether or not an account uses the address."""

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import PasswordResetRequest

pytestmark = pytest.mark.django_db


def without_csrf_token(page: str) -> str:
    """The page with its per-request CSRF tokens (form field, htmx header) blanked."""
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", page)


def ask(email: str, address: str = "198.51.100.7"):
    return Client().post("/accounts/password/reset/", {"email": email}, REMOTE_ADDR=address)


def test_it_sends_at_most_three_links_an_hour_for_one_account(alice):
    answers = [ask("alice@example.com", address=f"198.51.100.{n}") for n in range(5)]
    assert [a.status_code for a in answers] == [302, 302, 302, 429, 429]
    assert len(mail.outbox) == 3
    refusal = answers[3].content.decode()
    assert "Reset links were already sent 3 times" in refusal
    assert "Use the newest one" in refusal


def test_the_refusal_for_an_unknown_address_reads_the_same_as_for_a_real_one(alice):
    def refusal_for(email: str) -> str:
        for _ in range(3):
            ask(email)
        answer = ask(email)
        assert answer.status_code == 429
        return answer.content.decode().replace(email, "EMAIL")

    known, unknown = refusal_for("alice@example.com"), refusal_for("nobody@example.com")
    assert "Reset links were already sent" in known
    assert without_csrf_token(known) == without_csrf_token(unknown)


def test_letter_case_and_spaces_do_not_get_round_the_limit(alice):
    for email in ("alice@example.com", "ALICE@example.com", " Alice@Example.com "):
        assert ask(email).status_code == 302
    assert ask("aLiCe@example.COM").status_code == 429
    assert len(mail.outbox) == 3


def test_one_address_cannot_mail_many_people(alice):
    answers = [ask(f"someone{n}@example.com") for n in range(11)]
    assert [a.status_code for a in answers] == [302] * 10 + [429]
    assert "Too many password-reset requests came from your network" in (
        answers[-1].content.decode()
    )
    # Another address is not held back by that one.
    assert ask("alice@example.com", address="203.0.113.5").status_code == 302
    assert len(mail.outbox) == 1


def test_a_refused_request_is_not_counted_and_the_window_slides(alice, settings):
    for _ in range(5):
        ask("alice@example.com")
    assert PasswordResetRequest.objects.count() == 3
    PasswordResetRequest.objects.update(requested_at="2000-01-01T00:00:00Z")
    assert ask("alice@example.com").status_code == 302
    # Rows outside the window are pruned, so the table stays small.
    assert PasswordResetRequest.objects.count() == 1


def test_no_email_address_is_stored_in_clear(alice):
    ask("alice@example.com")
    (row,) = PasswordResetRequest.objects.all()
    assert "alice" not in row.email_digest and len(row.email_digest) == 64
