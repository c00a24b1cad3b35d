"""Alice lays an ace off on a run from 2 to K and says which end it goes (Ruling 1).

The deal is replaced by a known one: Alice holds the clubs from 2 to K and the A♣. She draws,
melds the twelve clubs, and the page offers the A♣ at both ends, as two named choices; she
picks the low end and the ace lies before the 2.
"""

from __future__ import annotations

import re

import pytest

from games import broadcast, engine
from games.models import Table
from tests.e2e.test_table_play import (
    on_server_side,
    select,
    server_channel_layer,  # noqa: F401 (a fixture)
    sign_up,
    wait_for_hand_size,
    wait_for_my_turn,
)
from tests.games.conftest import redeal

TWELVE_CLUBS = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]
ALICE = [*TWELVE_CLUBS, "AC"]
BOT_SEAT = 1


def stack_the_deal(table_id: int) -> int:
    def work() -> int:
        table = Table.objects.get(pk=table_id)
        rules = engine.Rules.from_json(table.rules)
        deck = engine.stack_deck(rules, 2, BOT_SEAT, hands={0: ALICE}, upcard="KH", stock=["3S"])
        redeal(table, dealer=BOT_SEAT, deck=deck)
        broadcast.table_changed(table.pk, table.version)
        return table.version

    return on_server_side(work)


@pytest.mark.e2e
@pytest.mark.usefixtures("server_channel_layer")
def test_alice_lays_the_ace_off_at_the_low_end_of_a_full_run(page, live_server_url):
    base = live_server_url
    alice = page
    sign_up(alice, base, "alice", "Alice")
    alice.goto(f"{base}/")
    alice.get_by_label("Table name").fill("Aces")
    alice.get_by_label("Seats", exact=True).fill("2")
    alice.get_by_role("button", name="Create table").click()
    alice.wait_for_url(re.compile(r".*/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", alice.url).group(1))
    alice.wait_for_selector("#connection:text('live')")
    alice.get_by_role("button", name="Add bot to seat 2").click()
    alice.wait_for_selector("#waiting-room .seat-row[data-seat='1'] .badge-bot")
    alice.get_by_role("button", name="Start the game").click()
    alice.wait_for_selector("#my-hand .hand-card")
    stacked = stack_the_deal(table_id)
    alice.wait_for_selector(f'#table-state[data-version="{stacked}"]')

    wait_for_my_turn(alice, "draw")
    alice.get_by_role("button", name="Draw from the stock").click()
    wait_for_my_turn(alice, "play")
    select(alice, *TWELVE_CLUBS)
    alice.get_by_role("button", name="Meld selected").click()
    wait_for_hand_size(alice, 2)

    # The two ends are two named buttons, rendered by the server ...
    high = alice.get_by_role("button", name="Lay off the A♣ on meld 1 high, after the K♣")
    low = alice.get_by_role("button", name="Lay off the A♣ on meld 1 low, before the 2♣")
    assert high.count() == 1 and low.count() == 1
    # ... and "Lay off here" with the ace selected asks the same question.
    select(alice, "AC")
    alice.locator(".lay-off-button[data-meld='1']").click()
    choice = alice.locator("#reading-choice")
    choice.wait_for(state="visible")
    assert "fits both ends of meld 1" in choice.inner_text()
    choice.get_by_role("button", name="A♣ low, before the 2♣").click()
    alice.wait_for_selector(
        ".meld[data-meld='1'] .meld-cards > :first-child[aria-label^='ace of clubs']"
    )
    wait_for_hand_size(alice, 1)
