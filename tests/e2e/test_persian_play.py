"""Alice and three bots play a hand of Persian Rummy in the browser, to the side score sheet.

Alice creates a Persian table filled with bots and starts it: the shown draw seats the partners
opposite. The deal is then replaced by a known one, dealt by Alice, so the three bots play
first (nothing in their hands melds, nothing on the pile fits), then Alice draws, melds four
fives at once (double: 40), three nines (27), and goes out with a discard (25 more).

    Alice:        5♣ 5♦ 5♥ 5♠ 9♣ 9♦ 9♥     up-card 6♣
    left bot:     2♣ 4♦ 6♠ 8♣ 10♦ Q♥ K♠    stock from the top: A♥, J♥, 3♦ (bots), 10♠ (Alice)
    partner bot:  3♣ 7♦ J♠ 2♥ 4♠ 6♥ 8♠
    right bot:    10♣ Q♦ 3♠ 7♥ 9♠ K♥ 2♦
"""

from __future__ import annotations

import random
import re

import pytest

from games import broadcast, engine, selectors
from games.models import Hand, Seat, Table
from games.services import bot_turns
from tests.e2e.test_table_play import (
    on_server_side,
    select,
    server_channel_layer,  # noqa: F401 - a fixture used below
    sign_up,
    wait_for_hand_size,
    wait_for_my_turn,
)
from tests.games.conftest import redeal

ALICE = ["5C", "5D", "5H", "5S", "9C", "9D", "9H"]
BOTS = [
    ["2C", "4D", "6S", "8C", "TD", "QH", "KS"],
    ["3C", "7D", "JS", "2H", "4S", "6H", "8S"],
    ["TC", "QD", "3S", "7H", "9S", "KH", "2D"],
]
UPCARD = "6C"
STOCK_TOP = ["AH", "JH", "3D", "TS"]


def alice_seat(table_id: int) -> int:
    return on_server_side(lambda: Seat.objects.get(table_id=table_id, user__isnull=False).index)


def stack_the_deal(table_id: int, seat: int) -> None:
    def work() -> None:
        table = Table.objects.get(pk=table_id)
        rules = engine.Rules.from_json(table.rules)
        hands = {seat: ALICE}
        for offset, cards in enumerate(BOTS, start=1):
            hands[(seat + offset) % 4] = cards
        deck = engine.stack_deck(rules, 4, seat, hands=hands, upcard=UPCARD, stock=STOCK_TOP)
        redeal(table, dealer=seat, deck=deck)
        broadcast.table_changed(table.pk, table.version)

    on_server_side(work)


def play_bots(table_id: int, human: int) -> tuple[int, int]:
    """Let the bots move until it is the person's turn; returns how many moves they made and
    the table version the person's page must show before acting."""

    def work() -> tuple[int, int]:
        moves = 0
        for _ in range(40):
            snap = selectors.load_snapshot(table_id)
            if snap.state is None or human in snap.state.to_act:
                return moves, snap.version
            assert bot_turns.play_one(table_id, snap.version, rng=random.Random(moves))
            moves += 1
        return moves, selectors.load_snapshot(table_id).version

    return on_server_side(work)


@pytest.mark.e2e
@pytest.mark.usefixtures("server_channel_layer")
def test_alice_and_three_bots_play_a_persian_hand_to_the_side_score_sheet(page, live_server_url):
    base = live_server_url
    alice = page
    sign_up(alice, base, "alice", "Alice")
    alice.goto(f"{base}/")
    alice.get_by_label("Table name").fill("Persian game")
    alice.get_by_label("Rules").select_option(label="Persian Rummy")
    alice.get_by_label("Seats", exact=True).fill("4")
    alice.get_by_label("Fill empty seats with bots").check()
    alice.get_by_role("button", name="Create table").click()
    alice.wait_for_url(re.compile(r".*/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", alice.url).group(1))
    alice.wait_for_selector("#connection:text('live')")
    alice.get_by_role("button", name="Start the game").click()
    alice.wait_for_selector("#my-hand .hand-card")

    seat = alice_seat(table_id)
    stack_the_deal(table_id, seat)
    moves, version = play_bots(table_id, seat)
    assert moves >= 6  # each bot drew and discarded
    # the page may still show the random deal, where Alice may also be first to draw
    alice.wait_for_selector(f'#table-state[data-version="{version}"]')

    players = alice.locator("#players")
    players.get_by_text("side 1", exact=False).first.wait_for()
    partner_row = alice.locator(f".player[data-seat='{(seat + 2) % 4}']")
    assert "side" in partner_row.inner_text()

    wait_for_my_turn(alice, "draw")
    wait_for_hand_size(alice, 7)
    alice.get_by_role("button", name="Draw from the stock").click()
    wait_for_my_turn(alice, "play")
    select(alice, "5C", "5D", "5H", "5S")
    alice.get_by_role("button", name="Meld selected").click()
    wait_for_hand_size(alice, 4)
    select(alice, "9C", "9D", "9H")
    alice.get_by_role("button", name="Meld selected").click()
    wait_for_hand_size(alice, 1)
    select(alice, "TS")
    alice.get_by_role("button", name="Discard selected").click()

    alice.wait_for_selector("#hand-end:not([hidden])")
    alice.get_by_role("button", name="Scores").click()  # the score sheet is a panel
    alice.wait_for_selector("#side-sheet")
    assert "going out bonus 25" in alice.locator("#hand-end").inner_text()

    def stored() -> dict:
        return Hand.objects.get(game__table_id=table_id).result

    result = on_server_side(stored)
    ours = next(side for side in result["sides"] if seat in side["seats"])
    partner = result["seats"][(seat + 2) % 4]
    mine = result["seats"][seat]
    assert (mine["melded"], mine["bonus"], mine["score"]) == (67, 25, 92)
    assert ours["score"] == 92 + partner["score"]
    sheet = alice.locator("#side-sheet")
    header = sheet.get_by_role("columnheader", name=re.compile("Alice"))
    assert header.is_visible() and " & " in header.inner_text()
    row = sheet.get_by_role("row").filter(has=alice.get_by_role("rowheader", name="1"))
    assert str(ours["total_after"]) in row.inner_text()
    assert str(ours["score"]) in row.inner_text()


@pytest.mark.e2e
def test_the_partner_draw_switch_shows_only_for_persian(page, live_server_url):
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, live_server_url, "alice", "Alice")
    page.goto(f"{live_server_url}/")
    box = page.get_by_label("Partners by draw")
    assert not box.is_visible()
    page.get_by_label("Rules").select_option(value="persian")
    assert box.is_visible() and box.is_checked()
    assert page.get_by_label("Seats", exact=True).input_value() == "4"
    page.get_by_label("Rules").select_option(value="michigan")
    assert not box.is_visible()
    assert not errors
