"""The table page's "refused" branch: a socket closed with 4403 says so and stays closed.

Bob's page is open on his seat at a table without spectators; the host removes him. The
server closes his socket with 4403 (docs/protocol.md) instead of sending him the table as a
spectator's, and the page shows "not live: refused" and does not reconnect.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Table
from games.services import tables
from tests.e2e.test_fault_daphne import open_table
from tests.e2e.test_table_play import on_server_side, server_channel_layer  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_removed_player_sees_the_page_refused(
    browser: Any,
    live_server_url: str,
    server_channel_layer: None,  # noqa: F811
    alice,
    bob,
) -> None:
    def waiting_table() -> int:
        table = tables.table_create(
            host=alice, name="No watchers", preset="standard", options={}, num_seats=3,
            turn_seconds=60, spectators_allowed=False,
        )  # fmt: skip
        tables.seat_join(table_id=table.pk, user=bob)
        return table.pk

    table_id = on_server_side(waiting_table)
    page = open_table(browser, bob, live_server_url, table_id)
    on_server_side(lambda: tables.seat_remove_player(table_id=table_id, by=alice, index=1))
    page.locator("#connection", has_text="not live: refused").wait_for()
    # refused means refused: the page does not come back on its own
    page.wait_for_timeout(3000)
    assert page.locator("#connection").inner_text() == "not live: refused"
    assert on_server_side(lambda: Table.objects.get(pk=table_id).status) == "waiting"
    page.context.close()
