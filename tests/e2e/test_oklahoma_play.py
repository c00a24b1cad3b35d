"""Alice plays the start of an Oklahoma hand against a bot in the browser.

She creates an Oklahoma table, the deal is replaced by a known one, and through the page she
passes on the offered up-card, draws (everyone passed, so the stock it is), melds a 9 with two
wild deuces (the page asks what the deuces stand for) and discards.

    Seat 0 Alice: 9♦ 2♠ 2♣ 3♣ 5♦ 7♠ 4♥ 6♣ J♦ K♠ Q♦ 8♣ 10♥
    Seat 1 bot:   3♣ 5♣ 7♣ 9♣ J♣ 4♦ 6♦ 8♦ 10♦ Q♦ 3♠ 5♠ 7♠  (dealer; cannot use the K♥)
    Up-card K♥; stock from the top: 4♠ (Alice)
"""

from __future__ import annotations

import random
import re

import pytest

from games import broadcast, engine, selectors
from games.models import Table
from games.services import bot_turns
from tests.e2e.test_table_play import (
    card_button,
    on_server_side,
    select,
    server_channel_layer,  # noqa: F401 (a fixture)
    sign_up,
    wait_for_hand_size,
    wait_for_my_turn,
)
from tests.games.conftest import redeal

ALICE = ["9D", "2S", "2C", "3C", "5D", "7S", "4H", "6C", "JD", "KS", "QD", "8C", "TH"]
BOT = ["3C", "5C", "7C", "9C", "JC", "4D", "6D", "8D", "TD", "QD", "3S", "5S", "7S"]
BOT_SEAT = 1


def stack_the_deal(table_id: int) -> int:
    """Replace the random deal with the known one; returns the table version that shows it."""

    def work() -> int:
        table = Table.objects.get(pk=table_id)
        rules = engine.Rules.from_json(table.rules)
        deck = engine.stack_deck(
            rules, 2, BOT_SEAT, hands={0: ALICE, 1: BOT}, upcard="KH", stock=["4S"]
        )
        redeal(table, dealer=BOT_SEAT, deck=deck)
        broadcast.table_changed(table.pk, table.version)
        return table.version

    return on_server_side(work)


def bot_passes(table_id: int) -> None:
    def work() -> None:
        snap = selectors.load_snapshot(table_id)
        assert tuple(snap.state.to_act) == (BOT_SEAT,)
        assert engine.legal_actions(snap.state, BOT_SEAT) == [engine.PassUpcard(BOT_SEAT)]
        assert bot_turns.play_one(table_id, snap.version, rng=random.Random(1))

    on_server_side(work)


@pytest.mark.e2e
@pytest.mark.usefixtures("server_channel_layer")
def test_alice_passes_the_up_card_and_declares_her_deuces(page, live_server_url):
    base = live_server_url
    alice = page
    sign_up(alice, base, "alice", "Alice")
    alice.goto(f"{base}/")
    alice.get_by_label("Table name").fill("Arlington")
    alice.get_by_label("Rules").select_option("oklahoma")
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

    # The up-card is offered to Alice first; she passes, then the bot (who cannot use it).
    wait_for_my_turn(alice, "offer")
    wait_for_hand_size(alice, 13)
    assert "offered to you" in alice.locator("#table-state").inner_text()
    alice.get_by_role("button", name="Pass on the up-card").click()
    alice.wait_for_selector('#table-state[data-my-turn="false"]')
    bot_passes(table_id)

    # Everyone passed: Alice starts by drawing from the stock.
    wait_for_my_turn(alice, "draw")
    assert alice.locator("#pile .pile-pick").count() == 0
    alice.get_by_role("button", name="Draw from the stock").click()
    wait_for_my_turn(alice, "play")

    # 9♦ with two deuces reads four ways: the page asks, Alice picks the run 7♦ 8♦ 9♦.
    select(alice, "9D", "2S", "2C")
    alice.get_by_role("button", name="Meld selected").click()
    choice = alice.locator("#reading-choice")
    choice.wait_for(state="visible")
    assert choice.get_by_role("button", name="9♦ any 9 any 9").is_visible()
    choice.get_by_role("button", name="7♦ 8♦ 9♦").click()
    alice.wait_for_selector(".meld[data-meld='1']")
    meld = alice.locator(".meld[data-meld='1']")
    assert meld.locator("[aria-label^='two of clubs as 7♦']").count() == 1
    assert meld.locator("[aria-label^='two of spades as 8♦']").count() == 1

    # The queen of spades is not in her hand; she discards the 4♠ she drew.
    select(alice, "4S")
    alice.get_by_role("button", name="Discard selected").click()
    wait_for_hand_size(alice, 10)
    assert card_button(alice, "KS").is_visible()
