"""Daphne faults, seen from real browsers: a web process killed and restarted under a
player, and two web processes serving one table.

Both tests run their own Daphne processes on the test database (PostgreSQL) and a Redis of
their own for the channel layer. Moves are made by clicking in the pages, so they go
through the processes under test; the test only reads the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client

from config.private_redis import PrivateRedis
from games import selectors
from games.models import Table
from games.services import moves, tables
from tests.e2e.test_table_play import card_button, on_server_side
from tests.games.conftest import redeal
from tests.resilience.stack import (
    poll,
    run_private_redis,
    stack_env,
    start_daphne,
)

pytestmark = [pytest.mark.services, pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def layer_redis() -> Iterator[PrivateRedis]:
    yield from run_private_redis()


def two_player_table(alice, bob, *, dealer: int) -> int:
    """Alice (seat 0) and Bob (seat 1), started; nothing armed in the test's own broker."""

    def work() -> int:
        with mock.patch("games.tasks.schedule_table_work"):
            table = tables.table_create(
                host=alice,
                name="Faults",
                preset="standard",
                options={"target": 5000},
                num_seats=2,
                turn_seconds=300,
            )
            tables.seat_join(table_id=table.pk, user=bob, index=1)
            tables.table_start(table_id=table.pk, by=alice)
            table.refresh_from_db()
            redeal(table, dealer=dealer)
        return table.pk

    return on_server_side(work)


def open_table(browser: Any, user, base: str, table_id: int) -> Any:
    """A page of its own browser context, logged in as ``user``, on the table."""
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(60_000)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base,
            }
        ]
    )
    page = context.new_page()
    page.goto(f"{base}/tables/{table_id}/")
    page.locator("#connection", has_text="live").wait_for()
    return page


def version_of(table_id: int) -> int:
    return on_server_side(lambda: Table.objects.get(pk=table_id).version)


def shows_version(page: Any, version: int) -> None:
    page.wait_for_selector(f'#table-state[data-version="{version}"]', timeout=60_000)


@pytest.fixture
def layer_env(layer_redis) -> Iterator[dict[str, str]]:
    yield stack_env(layer_redis.url)


def test_a_restarted_web_process_is_rejoined_resynced_and_played_on(
    postgres_url, layer_env, browser, alice, bob
):
    table_id = two_player_table(alice, bob, dealer=0)  # Bob plays first
    daphne, base = start_daphne(layer_env)
    port = int(base.rsplit(":", 1)[1])
    try:
        page = open_table(browser, alice, base, table_id)
        shows_version(page, version_of(table_id))
        daphne.kill()
        page.locator("#connection", has_text="reconnecting").wait_for()

        def bob_plays() -> None:  # while the web process is down
            snap = selectors.load_snapshot(table_id)
            moves.move_submit(
                table_id=table_id, seat=1, action={"type": "draw_stock"},
                expected_version=snap.version,
            )  # fmt: skip
            snap = selectors.load_snapshot(table_id)
            card = snap.state.hands[1][0]
            moves.move_submit(
                table_id=table_id, seat=1, action={"type": "discard", "card": card},
                expected_version=snap.version,
            )  # fmt: skip

        on_server_side(bob_plays)
        daphne, _ = start_daphne(layer_env, port)
        page.locator("#connection", has_text="live").wait_for()
        after_bob = version_of(table_id)
        shows_version(page, after_bob)  # resynced without a reload
        page.get_by_role("button", name="Draw from the stock").click()
        poll("Alice's draw is applied", lambda: version_of(table_id) == after_bob + 1, [daphne])
        shows_version(page, after_bob + 1)
        page.context.close()
    finally:
        daphne.stop()


def test_two_web_processes_serving_one_table_pass_updates_both_ways(
    postgres_url, layer_env, browser, alice, bob
):
    table_id = two_player_table(alice, bob, dealer=1)  # Alice plays first
    first, first_url = start_daphne(layer_env)
    second, second_url = start_daphne(layer_env)
    try:
        alice_page = open_table(browser, alice, first_url, table_id)
        bob_page = open_table(browser, bob, second_url, table_id)
        start = version_of(table_id)
        alice_page.get_by_role("button", name="Draw from the stock").click()
        shows_version(bob_page, start + 1)  # Alice's move, made on the first, seen on the second
        card = on_server_side(lambda: selectors.load_snapshot(table_id).state.hands[0][0])
        card_button(alice_page, card).click()
        alice_page.get_by_role("button", name="Discard selected").click()
        shows_version(bob_page, start + 2)
        bob_page.get_by_role("button", name="Draw from the stock").click()
        shows_version(alice_page, start + 3)  # and Bob's, the other way
        assert version_of(table_id) == start + 3
        alice_page.context.close()
        bob_page.context.close()
    finally:
        first.stop()
        second.stop()
