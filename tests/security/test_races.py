"""Limits that must hold when a script sends many requests at the same moment (PostgreSQL,
where transactions run side by side; SQLite takes writes one at a time and hides this).

- Chat: one line a second per player. Lines sent at once (one per socket, or threads)
  each read the same "last line" and twenty gave eleven stored lines; the poster's row is
  locked now (games.services.chat.chat_post).
- Review requests (six an hour) are pinned in tests/games/test_review_requests.py.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.models import ChatMessage
from games.services import chat, shared
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
