"""Limits that must hold when a script sends many requests at the same moment (PostgreSQL,
where transactions run side by side; SQLite takes writes one at a time and hides this).

- Chat: one line a second per player. Lines sent at once (one per socket, or threads)
  each read the same "last line" and twenty gave eleven stored lines; the poster's row is
  locked now (games.services.chat.chat_post).
- Sign-up: the same form sent eight times at once (a double click, a script) passed the
  "name taken" check each time; all saves but one hit the unique constraint, a 500 each.
- Review requests (six an hour) are pinned in tests/games/test_review_requests.py.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client

from accounts.models import User
from games.models import ChatMessage
from games.services import chat, shared
from tests.accounts.test_signup import signup_data
from tests.games.conftest import start_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
AT_ONCE = 20


def test_chat_lines_sent_at_once_pass_the_interval_once(postgres_url, alice):
    assert connection.vendor == "postgresql"
    table = start_table(alice, seats=2)
    barrier = threading.Barrier(AT_ONCE)
    refused: list[str] = []

    def post(number: int) -> None:
        barrier.wait()
        try:
            chat.chat_post(table_id=table.pk, user=alice, text=f"line {number}")
        except shared.TableError as exc:
            refused.append(exc.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(n,)) for n in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert ChatMessage.objects.filter(table=table).count() == 1
    assert refused == ["rate_limited"] * (AT_ONCE - 1)


def test_one_sign_up_sent_at_once_makes_one_account_and_no_error_page(postgres_url):
    assert connection.vendor == "postgresql"
    barrier = threading.Barrier(8)
    answers: list[tuple[int, str]] = []

    def sign_up(number: int) -> None:
        client = Client(raise_request_exception=False)
        barrier.wait()
        try:
            response = client.post(
                "/accounts/signup/", signup_data(), REMOTE_ADDR=f"10.0.0.{number}"
            )
            answers.append((response.status_code, response.content.decode()))
        finally:
            connection.close()

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert User.objects.filter(username="carol").count() == 1
    codes = sorted(code for code, _page in answers)
    assert codes.count(302) == 1 and 500 not in codes
    refused = [page for code, page in answers if code != 302]
    assert all("already exists" in page or "taken" in page for page in refused)
