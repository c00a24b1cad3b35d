"""A tournament player looking at their table's page is taken to their new table when moved.

Alice and three bots are in a two-seat tournament, so it starts at two tables. Alice opens
her table: its header names the tournament. The tournament then moves her to the other table
(the same seat write and "moved" notice a rebalance makes, done here directly because
which player a rebalance moves depends on who is eliminated), and her page goes there by
itself, through the notice socket that the base layout opened.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model

from tests.e2e.test_table_play import (
    on_server_side,
    server_channel_layer,  # noqa: F401 (a fixture)
    sign_up,
)
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import announce, services
from tournaments.models import Entry, Tournament


def start_cup() -> tuple[int, int, int]:
    """Start the cup; return its id, Alice's table and the other table (games table ids)."""
    alice = get_user_model().objects.get(username="alice")
    t = make_tournament(name="Winter cup", seats_per_table=2, bots_allowed=True)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    mine = Entry.objects.select_related("table").get(tournament=t, user=alice).table
    other = t.tables.exclude(pk=mine.pk).get()
    return t.pk, mine.table_id, other.table_id


def move_alice(tournament_id: int) -> None:
    """Swap Alice with a bot of the other table, then say so as a rebalance does."""
    alice = Entry.objects.get(tournament_id=tournament_id, user__username="alice")
    bot = Entry.objects.filter(tournament_id=tournament_id).exclude(table=alice.table).first()
    assert bot is not None
    alice_place, bot_place = (alice.table_id, alice.seat), (bot.table_id, bot.seat)
    Entry.objects.filter(pk=alice.pk).update(table_id=bot_place[0], seat=bot_place[1])
    Entry.objects.filter(pk=bot.pk).update(table_id=alice_place[0], seat=alice_place[1])
    moved = Entry.objects.select_related("user", "table").get(pk=alice.pk)
    announce.moved(Tournament.objects.get(pk=tournament_id), [moved])


def test_a_moved_player_is_taken_from_their_table_to_the_new_one(
    page,
    live_server_url,
    server_channel_layer,  # noqa: F811
):
    base = live_server_url
    sign_up(page, base, "alice", "Alice")
    tournament_id, mine, other = on_server_side(start_cup)

    page.goto(f"{base}/tables/{mine}/")
    page.wait_for_selector("#connection:text('live')")
    banner = page.locator("#managed-by")
    assert "Winter cup" in banner.inner_text()
    assert banner.get_by_role("link", name="Winter cup").get_attribute("href") == (
        f"/tournaments/{tournament_id}/lobby/"
    )
    page.wait_for_selector("#notices[data-connected='1']", state="attached")

    on_server_side(lambda: move_alice(tournament_id))
    page.wait_for_url(f"{base}/tables/{other}/")
    page.wait_for_selector("#connection:text('live')")
    assert "Winter cup" in page.locator("#managed-by").inner_text()
