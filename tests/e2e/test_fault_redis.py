"""Redis restarted under play (a Redis of the test's own, on its own port): the channel
layer and Celery recover by themselves and the table plays on, seen from a real browser.

Alice plays a bot. Her moves go through Daphne (the page's socket), the bot's through a
Celery worker with the sweeper's beat; the page follows both over the channel layer. Redis
is then stopped and started afresh on the same port, losing everything it held (armed bot
tasks, group memberships); Alice and the bot must play on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest

from config.private_redis import PrivateRedis
from games import selectors
from games.models import Table
from games.services import tables
from tests.e2e.test_fault_daphne import open_table, version_of
from tests.e2e.test_table_play import card_button, on_server_side
from tests.games.conftest import redeal
from tests.resilience.stack import (
    poll,
    restart_redis,
    run_private_redis,
    stack_env,
    start_daphne,
    start_worker,
)

pytestmark = [pytest.mark.services, pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fault_redis() -> Iterator[PrivateRedis]:
    yield from run_private_redis()


def alice_against_a_bot(alice) -> int:
    def work() -> int:
        with mock.patch("games.tasks.schedule_table_work"):
            table = tables.table_create(
                host=alice, name="Redis", preset="standard", options={"target": 5000},
                num_seats=2, turn_seconds=300, fill_with_bots=True, bot_level="easy",
            )  # fmt: skip
            tables.table_start(table_id=table.pk, by=alice)
            table.refresh_from_db()
            redeal(table, dealer=1)  # Alice first
        return table.pk

    return on_server_side(work)


def play_a_turn(page: Any, table_id: int, processes: list[Any]) -> int:
    """Alice draws and discards through her page; returns the version after her discard."""
    page.wait_for_selector('#table-state[data-my-turn="true"][data-phase="draw"]', timeout=90_000)
    page.locator("#connection", has_text="live").wait_for(timeout=90_000)
    start = version_of(table_id)
    page.get_by_role("button", name="Draw from the stock").click()
    poll("Alice's draw is applied", lambda: version_of(table_id) == start + 1, processes)
    page.wait_for_selector(f'#table-state[data-version="{start + 1}"]', timeout=60_000)
    card = on_server_side(lambda: selectors.load_snapshot(table_id).state.hands[0][-1])
    card_button(page, card).click()
    page.get_by_role("button", name="Discard selected").click()
    poll("Alice's discard is applied", lambda: version_of(table_id) >= start + 2, processes)
    return start + 2


def test_a_redis_restart_under_play_is_recovered_from(postgres_url, fault_redis, browser, alice):
    table_id = alice_against_a_bot(alice)
    env = stack_env(fault_redis.url)
    daphne, base = start_daphne(env)
    worker = start_worker(env)
    redis = fault_redis
    try:
        page = open_table(browser, alice, base, table_id)
        after = play_a_turn(page, table_id, [daphne, worker])
        poll("the bot answers", lambda: version_of(table_id) >= after + 2, [daphne, worker])
        redis = restart_redis(redis)
        # On the Pub/Sub layer (the default) Daphne resubscribes by itself and the page's
        # socket may stay open throughout; on the list layer the socket's consumer fails
        # and the page reconnects. Either way the page must be live, and every move below
        # (Alice's through Daphne, the bot's through the worker) must reach it afresh.
        page.locator("#connection", has_text="live").wait_for(timeout=90_000)
        after = play_a_turn(page, table_id, [daphne, worker])  # waits for her turn
        poll("the bot answers again", lambda: version_of(table_id) >= after + 2, [worker])
        play_a_turn(page, table_id, [daphne, worker])
        assert on_server_side(lambda: Table.objects.get(pk=table_id).status) == "playing"
        page.context.close()
    finally:
        worker.stop()
        daphne.stop()
        redis.stop()
