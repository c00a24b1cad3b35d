"""Two people and a bot play a hand of Rummy 500 through the browser, until the score sheet.

Alice and Bob sign up in separate browser contexts; Alice creates a table and adds a bot,
Bob joins from the lobby, Alice starts. The deal is then replaced by a known one (the
shuffle is the only thing a test cannot click through), and the hand is played entirely
through the page: taking from the pile, a refused discard with the engine's reason,
melds, lay-offs, draws with the keyboard, discards, until Alice goes out.

The bot's turns run in this process through the same code a Celery worker runs
(games.services.bot_turns.play_one); its broadcasts reach the Daphne server through the server's own
cross-process channel layer, so the browsers see the bot's moves live.

    Seat 0 Alice: 5♥ 6♥ 7♥ 9♣ 9♦ 2♠ K♦    up-card 9♠
    Seat 1 Bob:   8♥ 3♣ 3♦ 3♠ 4♣ Q♠ J♦    stock from the top: 7♣ (Bob), 5♣ (bot), 4♥ (Alice)
    Seat 2 bot:   2♣ 4♦ 6♠ 8♣ 10♦ Q♣ K♠   (nothing it can meld, take or lay off)
    The bot deals, so Alice plays first.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games import broadcast, engine, selectors
from games.models import Hand, Table
from games.services import bot_turns
from tests.e2e.conftest import ARTIFACTS
from tests.games.conftest import redeal

PASSWORD = "quiet-harbour-lantern-64"
ALICE = ["5H", "6H", "7H", "9C", "9D", "2S", "KD"]
BOB = ["8H", "3C", "3D", "3S", "4C", "QS", "JD"]
BOT = ["2C", "4D", "6S", "8C", "TD", "QC", "KS"]
UPCARD = "9S"
STOCK_TOP = ["7C", "5C", "4H"]
BOT_SEAT = 2


def on_server_side(fn: Callable[[], Any]) -> Any:
    """Run database and channel-layer work on a thread of its own.

    Playwright's sync API keeps an event loop on this thread, where Django's async_to_sync
    (used to broadcast) refuses to run.
    """

    def call() -> Any:
        try:
            return fn()
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result()


@pytest.fixture
def server_channel_layer(settings, asgi_server, tmp_path_factory) -> Iterator[None]:
    """Point this process at the Daphne server's cross-process channel layer.

    The server runs with RUMMY_VAR_DIR set to a temporary folder (tests/e2e/conftest.py),
    where its SQLite channel layer lives.
    """
    folders = sorted(tmp_path_factory.getbasetemp().glob("asgi-server*"))
    assert folders, "the asgi_server fixture keeps its RUMMY_VAR_DIR under the session's tmp"
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.sqlite_layer.SQLiteChannelLayer",
            "CONFIG": {"path": str(folders[-1] / "channels.sqlite3"), "capacity": 1500},
        }
    }
    selectors.clear_cache()
    yield
    selectors.clear_cache()


@pytest.fixture
def bob_page(browser, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A second browser context (another person), with a screenshot if the test fails."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid) + "-bob"
        page.screenshot(path=str(Path(ARTIFACTS) / f"{name}.png"), full_page=True)
    context.close()


def sign_up(page: Any, base: str, username: str, display_name: str) -> None:
    page.goto(f"{base}/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Display name").fill(display_name)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base}/")


def card_button(page: Any, code: str) -> Any:
    return page.locator("#my-hand").get_by_role("button", name=engine.card_name(code), exact=True)


def select(page: Any, *codes: str) -> None:
    for code in codes:
        card_button(page, code).click()
        assert card_button(page, code).get_attribute("aria-pressed") == "true"


def wait_for_my_turn(page: Any, phase: str) -> None:
    page.wait_for_selector(f'#table-state[data-my-turn="true"][data-phase="{phase}"]')


def wait_for_hand_size(page: Any, size: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('#my-hand .hand-card').length === {size}"
    )


def stack_the_deal(table_id: int) -> int:
    """Replace the random deal with the known one; returns the table version that shows it."""

    def work() -> int:
        table = Table.objects.get(pk=table_id)
        rules = engine.Rules.from_json(table.rules)
        deck = engine.stack_deck(
            rules, 3, BOT_SEAT, hands={0: ALICE, 1: BOB, 2: BOT}, upcard=UPCARD, stock=STOCK_TOP
        )
        redeal(table, dealer=BOT_SEAT, deck=deck)
        broadcast.table_changed(table.pk, table.version)
        return table.version

    return on_server_side(work)


def play_bot_turn(table_id: int) -> int:
    """Let the bot move until it is somebody else's turn; returns its number of moves."""

    def work() -> int:
        moves = 0
        for _ in range(10):
            snap = selectors.load_snapshot(table_id)
            if snap.state is None or tuple(snap.state.to_act) != (BOT_SEAT,):
                return moves
            assert bot_turns.play_one(table_id, snap.version, rng=random.Random(moves))
            moves += 1
        return moves

    return on_server_side(work)


@pytest.mark.e2e
def test_two_players_and_a_bot_play_a_hand_until_the_score_sheet(
    page, bob_page, live_server_url, server_channel_layer
):
    base = live_server_url
    alice, bob = page, bob_page
    sign_up(alice, base, "alice", "Alice")
    sign_up(bob, base, "bob", "Bob")
    bob.goto(f"{base}/")  # Bob waits in the lobby: the new table appears there by itself
    bob.wait_for_selector("#connection-lobby:text('live')")

    # Alice creates a three-seat table and puts a bot in the last seat.
    alice.goto(f"{base}/")
    alice.get_by_label("Table name").fill("Harbour game")
    alice.get_by_label("Seats", exact=True).fill("3")
    alice.get_by_role("button", name="Create table").click()
    alice.wait_for_url(re.compile(r".*/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", alice.url).group(1))
    alice.wait_for_selector("#connection:text('live')")
    alice.get_by_role("button", name="Add bot to seat 3").click()
    alice.wait_for_selector("#waiting-room .seat-row[data-seat='2'] .badge-bot")

    # Bob finds it in the lobby and "Join" sits him in the free seat at once (seat 2);
    # Alice's page shows him without a reload.
    bob.get_by_role("button", name="Join Harbour game").click()
    bob.wait_for_selector("#waiting-room .seat-row[data-seat='1'] .badge:text('you')")
    alice.wait_for_selector("#waiting-room .seat-row[data-seat='1']:has-text('Bob')")
    alice.get_by_role("button", name="Start the game").click()
    bob.wait_for_selector("#my-hand .hand-card")

    stacked = stack_the_deal(table_id)
    # The random deal may look the same to the waits below: wait for the stacked deal.
    for player in (alice, bob):
        player.wait_for_selector(f'#table-state[data-version="{stacked}"]')

    # Alice takes the 9♠ from the pile: the top card alone, so no second question.
    wait_for_my_turn(alice, "draw")
    wait_for_hand_size(alice, 7)
    # The your-turn alert: in the title, and in the live region screen readers announce.
    alice.wait_for_function("() => document.title.startsWith('● Your turn')")
    alice.wait_for_selector("#announcer:has-text('Your turn')", state="attached")
    assert not bob.title().startswith("●")
    alice.locator("#pile").get_by_role(
        "button", name=re.compile("^Take the nine of spades")
    ).click()
    wait_for_my_turn(alice, "play")
    assert alice.locator("#take-confirm").is_hidden()
    assert "9♠" in alice.locator("#obligation").inner_text()

    # Discarding before using the 9♠ is refused with the engine's reason; nothing changes.
    version = alice.locator("#table-state").get_attribute("data-version")
    select(alice, "2S")
    alice.get_by_role("button", name="Discard selected").click()
    alice.wait_for_function("() => document.getElementById('move-error').textContent.length > 0")
    assert "9♠" in alice.locator("#move-error").inner_text()
    assert alice.locator("#table-state").get_attribute("data-version") == version
    card_button(alice, "2S").click()  # unselect

    select(alice, "9C", "9D", "9S")
    alice.get_by_role("button", name="Meld selected").click()
    alice.wait_for_selector(".meld[data-meld='1']")
    select(alice, "5H", "6H", "7H")
    alice.get_by_role("button", name="Meld selected").click()
    alice.wait_for_selector(".meld[data-meld='2']")
    select(alice, "2S")
    alice.get_by_role("button", name="Discard selected").click()
    wait_for_hand_size(alice, 1)

    # Bob, keyboard only: D draws, Enter selects, the lay-off button, M melds, X discards.
    wait_for_my_turn(bob, "draw")
    assert bob.locator(".meld[data-meld='2'] .pcard").count() == 3
    bob.keyboard.press("d")
    wait_for_my_turn(bob, "play")
    card_button(bob, "8H").focus()
    bob.keyboard.press("Enter")
    bob.get_by_role("button", name="Lay off here on meld 2").focus()
    bob.keyboard.press("Enter")
    bob.wait_for_selector(".meld[data-meld='2'] [aria-label^='eight of hearts, scored by Bob']")
    for code in ("3C", "3D", "3S"):
        card_button(bob, code).focus()
        bob.keyboard.press("Enter")
    bob.keyboard.press("m")
    bob.wait_for_selector(".meld[data-meld='3']")
    card_button(bob, "QS").focus()
    bob.keyboard.press("Enter")
    bob.keyboard.press("x")
    wait_for_hand_size(bob, 3)

    # The bot draws and discards; both pages follow.
    alice.wait_for_selector('#table-state[data-my-turn="false"]')
    assert play_bot_turn(table_id) == 2
    wait_for_my_turn(alice, "draw")

    # Alice draws the 4♥, lays it off on her run and goes out with her last discard.
    alice.get_by_role("button", name="Draw from the stock").click()
    wait_for_my_turn(alice, "play")
    select(alice, "4H")
    alice.get_by_role("button", name="Lay off here on meld 2").click()
    wait_for_hand_size(alice, 1)
    select(alice, "KD")
    alice.get_by_role("button", name="Discard selected").click()

    for viewer in (alice, bob):
        viewer.wait_for_selector("#hand-end:not([hidden])")
        viewer.get_by_role("button", name="Scores").click()  # the score sheet is a panel
        viewer.wait_for_selector("#score-sheet .score-table")
        sheet = viewer.locator("#score-sheet")
        assert sheet.get_by_role("columnheader", name="Alice").is_visible()
        assert sheet.get_by_role("rowheader", name="1").is_visible()
        assert "went out" in viewer.locator("#hand-end").inner_text()

    overflow = bob.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, "the table page must fit a phone screen"

    def stored() -> tuple[str, int]:
        hand = Hand.objects.filter(game__table_id=table_id).get()
        return hand.status, hand.result["seats"][0]["score"]

    status, alice_score = on_server_side(stored)
    assert status == Hand.Status.OVER
    # Alice melded 9♣ 9♦ 9♠ (27), 5♥ 6♥ 7♥ (18) and laid off 4♥ (4): 49, nothing in hand.
    assert alice_score == 49
    assert f"{alice_score}" in alice.locator("#score-sheet").inner_text()
