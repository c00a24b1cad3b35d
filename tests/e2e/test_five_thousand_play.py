"""Alice plays a turn of 5000 Rummy against a bot in the browser.

The deal is replaced by a known one. The page shows the bot's face-up card and that sevens are
wild (the dealer's face-up rank); Alice draws, melds 8♠ 9♠ with a wild seven (the page asks what
it stands for), puts the 10♠ it stands for down in front of her, and discards.

    Seat 0 Alice: 6♥ face up, then 8♠ 9♠ 7♣ 10♠ 2♦ 4♣
    Seat 1 bot:   7♦ face up (the dealer: sevens are wild), then 3♣ 5♣ 9♣ J♣ 4♦ 6♦ 8♦
    Up-card K♥; stock from the top: 3♠ (Alice)
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

ALICE = ["6H", "8S", "9S", "7C", "TS", "2D", "4C"]
BOT = ["7D", "3C", "5C", "9C", "JC", "4D", "6D", "8D"]
BOT_SEAT = 1


def stack_the_deal(table_id: int) -> int:
    """Replace the random deal with the known one; returns the table version that shows it."""

    def work() -> int:
        table = Table.objects.get(pk=table_id)
        rules = engine.Rules.from_json(table.rules)
        deck = engine.stack_deck(
            rules, 2, BOT_SEAT, hands={0: ALICE, 1: BOT}, upcard="KH", stock=["3S"]
        )
        redeal(table, dealer=BOT_SEAT, deck=deck)
        broadcast.table_changed(table.pk, table.version)
        return table.version

    return on_server_side(work)


@pytest.mark.e2e
@pytest.mark.usefixtures("server_channel_layer")
def test_alice_melds_with_a_wild_seven_and_puts_its_natural_card_in_front(page, live_server_url):
    base = live_server_url
    alice = page
    sign_up(alice, base, "alice", "Alice")
    alice.goto(f"{base}/")
    alice.get_by_label("Table name").fill("Wild one")
    alice.get_by_label("Rules").select_option("five-thousand")
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
    # The random deal may look the same to the waits below (Alice to act, same hand size):
    # wait for the stacked deal's version, or her first click would act on the old deal.
    alice.wait_for_selector(f'#table-state[data-version="{stacked}"]')

    wait_for_my_turn(alice, "draw")
    wait_for_hand_size(alice, 7)
    assert alice.locator("#wild-note").inner_text() == (
        "This hand the sevens are wild (the dealer's face-up card)."
    )
    assert alice.locator(".player-known [aria-label^='seven of diamonds']").count() == 1
    alice.get_by_role("button", name="Draw from the stock").click()
    wait_for_my_turn(alice, "play")

    select(alice, "8S", "9S", "7C")
    alice.get_by_role("button", name="Meld selected").click()
    choice = alice.locator("#reading-choice")
    choice.wait_for(state="visible")
    choice.get_by_role("button", name="8♠ 9♠ 10♠").click()
    alice.wait_for_selector(".meld[data-meld='1'] [aria-label^='seven of clubs as 10♠']")

    alice.get_by_role("button", name=re.compile(r"^Put the 10♠ in front of you")).click()
    alice.wait_for_selector(".player-fronts [aria-label^='ten of spades']")
    wait_for_hand_size(alice, 4)
    select(alice, "3S")
    alice.get_by_role("button", name="Discard selected").click()
    wait_for_hand_size(alice, 3)
