"""A lay-off and a deep pile take, by mouse and by keyboard alone, at a phone's and a laptop's
size; a reload in the middle of a turn; the hand-end summary's focus; the sound preference.

Alice plays a bot (seat 1) at a two-seat table; the bot deals, so Alice moves first. The deal:

    Alice: 3♣ 3♦ 3♥ 5♠ 6♠ 7♠ 9♦ 9♥ J♥ Q♥ K♣ 2♣ 4♦       up-card 8♥
    bot:   A♣ 5♣ 7♣ J♣ A♦ 6♦ 8♦ 2♥ 4♥ 6♥ 2♠ 10♠ Q♦
    stock from the top: 9♣, 9♠, K♦, K♠, 4♠

Before the page opens, two rounds are played on the server (each draws and throws the card
drawn), so the pile is 8♥ 9♣ 9♠ K♦ K♠ (top last). On the page Alice takes the 9♣ from deep
in the pile (with the 9♠, K♦ and K♠ over it), melds 9♣ 9♦ 9♥ as she must, lays the 9♠ off
on that meld and discards the 2♣.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import broadcast, engine, selectors
from games.models import Hand, Table
from games.services import moves, tables
from tests.conftest import make_player
from tests.e2e.test_table_one_screen import assert_one_screen, card, log_in, my_turn, pick
from tests.e2e.test_table_play import on_server_side, server_channel_layer  # noqa: F401
from tests.games.conftest import redeal

ALICE = ["3C", "3D", "3H", "5S", "6S", "7S", "9D", "9H", "JH", "QH", "KC", "2C", "4D"]
BOT = ["AC", "5C", "7C", "JC", "AD", "6D", "8D", "2H", "4H", "6H", "2S", "TS", "QD"]
UPCARD = "8H"
STOCK = ["9C", "9S", "KD", "KS", "4S"]
DEEP = 3  # the 9♣: three cards lie over it
SIZES = [(390, 844), (1280, 800)]

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("server_channel_layer")]


def _submit(table_id: int, seat: int, action: dict[str, Any]) -> None:
    """One move on the server, then every Rummy call passed (if the rules open a window)."""
    snap = selectors.load_snapshot(table_id)
    moves.move_submit(table_id=table_id, seat=seat, action=action, expected_version=snap.version)
    for _ in range(4):
        snap = selectors.load_snapshot(table_id)
        if snap.state.phase != engine.Phase.CLAIM:
            return
        for waiting in snap.state.to_act:
            moves.move_submit(
                table_id=table_id,
                seat=waiting,
                action={"type": "pass_claim"},
                expected_version=selectors.load_snapshot(table_id).version,
            )


def _new_table(*, sound: bool = False) -> Table:
    from accounts.models import User

    alice = User.objects.filter(username="alice").first() or make_player("alice", "Alice")
    User.objects.filter(pk=alice.pk).update(sound=sound)
    table = tables.table_create(
        host=alice,
        name="Moves",
        preset="standard",
        options={},
        num_seats=2,
        turn_seconds=300,
        fill_with_bots=True,
    )
    tables.table_start(table_id=table.pk, by=alice)
    table.refresh_from_db()
    return table


def deep_pile_table() -> tuple[int, int]:
    """The deal above, after the two rounds that build the pile; returns (table, version)."""

    def work() -> tuple[int, int]:
        table = _new_table()
        rules = engine.Rules.from_json(table.rules)
        deck = engine.stack_deck(rules, 2, 1, hands={0: ALICE, 1: BOT}, upcard=UPCARD, stock=STOCK)
        redeal(table, dealer=1, deck=deck)
        for seat, drawn in ((0, "9C"), (1, "9S"), (0, "KD"), (1, "KS")):
            _submit(table.pk, seat, {"type": "draw_stock"})
            _submit(table.pk, seat, {"type": "discard", "card": drawn})
        snap = selectors.load_snapshot(table.pk)
        assert list(snap.state.discard) == ["8H", "9C", "9S", "KD", "KS"]
        broadcast.table_changed(table.pk, snap.version)
        return table.pk, snap.version

    return on_server_side(work)


def open_table(browser: Any, base: str, size: tuple[int, int], table_id: int, version: int):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.set_default_timeout(15_000)
    page = context.new_page()
    log_in(page, base, "alice")
    page.goto(f"{base}/tables/{table_id}/")
    page.wait_for_selector(f'#table-state[data-version="{version}"]')
    # The page is drawn before its socket opens; a move sent before then is refused on the
    # page ("Not connected to the table yet"), so the tests wait as a player would.
    page.wait_for_selector("#connection:text('live')")
    return context, page


def meld_cards(page: Any, meld: str) -> Any:
    return page.locator(f'#melds .meld[data-meld="{meld}"] .meld-cards .pcard')


def hand_order(page: Any) -> list[str]:
    return page.eval_on_selector_all("#my-hand .hand-card", "els => els.map(e => e.dataset.card)")


def wait_gone(page: Any, code: str) -> None:
    page.wait_for_function(
        f"() => !document.querySelector('#my-hand [data-card=\"{code}\"]')", timeout=15_000
    )


def tab_to(page: Any, selector: str, limit: int = 160) -> None:
    """Press Tab until ``selector`` has the focus, as a keyboard user does."""
    for _ in range(limit):
        if page.evaluate(f"() => Boolean(document.activeElement?.matches({selector!r}))"):
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached {selector}")


def focus_card(page: Any, code: str) -> None:
    """Tab to the hand (one Tab stop), then the arrow keys to the card, as a keyboard user
    does; the hand holds no other Tab stop."""
    tab_to(page, "#my-hand .hand-card")
    assert page.locator('#my-hand .hand-card[tabindex="0"]').count() == 1
    cards = hand_order(page)
    at = page.evaluate("() => document.activeElement.dataset.card")
    key = "ArrowRight" if cards.index(code) > cards.index(at) else "ArrowLeft"
    for _ in range(len(cards)):
        if page.evaluate("() => document.activeElement.dataset.card") == code:
            return
        page.keyboard.press(key)
    pytest.fail(f"the arrow keys never reached {code}")


def assert_after_the_moves(page: Any, where: str) -> None:
    page.wait_for_selector('#table-state[data-my-turn="false"]')
    assert meld_cards(page, "1").count() == 4, f"{where}: the 9♠ went on the nines"
    codes = hand_order(page)
    assert "9S" not in codes and "2C" not in codes and {"KD", "KS"} <= set(codes)
    assert page.locator("#pile .pile-fan .pcard").count() == 2  # 8♥ and the 2♣


@pytest.mark.parametrize("size", SIZES, ids=["phone", "laptop"])
def test_a_deep_pile_take_and_a_lay_off_by_mouse(browser, live_server_url, size):
    table_id, version = deep_pile_table()
    context, page = open_table(browser, live_server_url, size, table_id, version)
    try:
        my_turn(page, "draw")
        assert_one_screen(page, "before the take")
        page.locator(f'#pile .pile-pick[data-depth="{DEEP}"]').click()
        confirm = page.locator("#take-confirm")
        confirm.wait_for(state="visible")
        assert "9♣" in confirm.inner_text() or "9 of clubs" in confirm.inner_text().lower()
        page.locator("#take-confirm-yes").click()
        my_turn(page, "play")
        assert page.locator("#my-hand .hand-card").count() == 17
        assert_one_screen(page, "after the take")
        for code in ("9C", "9D", "9H"):
            pick(page, code)
        page.locator("#meld-button").click()
        wait_gone(page, "9C")
        pick(page, "9S")
        page.locator('#melds .lay-off-button[data-meld="1"]').click()
        wait_gone(page, "9S")
        pick(page, "2C")
        assert_one_screen(page, "before the discard")
        page.locator("#discard-button").click()
        assert_after_the_moves(page, "mouse")
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES, ids=["phone", "laptop"])
def test_a_deep_pile_take_and_a_lay_off_by_keyboard_alone(browser, live_server_url, size):
    table_id, version = deep_pile_table()
    context, page = open_table(browser, live_server_url, size, table_id, version)
    try:
        my_turn(page, "draw")
        tab_to(page, f'#pile .pile-pick[data-depth="{DEEP}"]')
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement?.id === 'take-confirm-yes'")
        page.keyboard.press("Enter")
        my_turn(page, "play")
        for code in ("9C", "9D", "9H"):
            focus_card(page, code)
            page.keyboard.press("Space")
        assert page.locator('#my-hand .hand-card[aria-pressed="true"]').count() == 3
        page.keyboard.press("m")
        wait_gone(page, "9C")
        focus_card(page, "9S")
        page.keyboard.press("Space")
        tab_to(page, '#melds .lay-off-button[data-meld="1"]')
        page.keyboard.press("Enter")
        wait_gone(page, "9S")
        focus_card(page, "2C")
        page.keyboard.press("Space")
        page.keyboard.press("x")
        assert_after_the_moves(page, "keyboard")
    finally:
        context.close()


def test_a_reload_in_the_middle_of_a_turn_restores_the_page(browser, live_server_url):
    table_id, version = deep_pile_table()
    context, page = open_table(browser, live_server_url, SIZES[0], table_id, version)
    try:
        my_turn(page, "draw")
        page.locator("#draw-button").click()
        my_turn(page, "play")
        version = page.locator("#table-state").get_attribute("data-version")
        before = hand_order(page)
        card(page, "2C").focus()
        page.keyboard.press("Shift+ArrowRight")  # the 2♣ two places to the right
        page.keyboard.press("Shift+ArrowRight")
        order = hand_order(page)
        assert order != before and sorted(order) == sorted(before) and len(order) == 14
        pick(page, "3C")
        assert page.locator('#my-hand .hand-card[aria-pressed="true"]').count() == 1

        page.reload()
        page.wait_for_selector(f'#table-state[data-version="{version}"]')
        my_turn(page, "play")
        assert hand_order(page) == order, "the rearranged order is kept"
        assert page.locator('#my-hand .hand-card[aria-pressed="true"]').count() == 0
        assert "Your turn" in page.locator("#table-state").inner_text()
        assert page.locator("#discard-button").is_visible()
    finally:
        context.close()


# --- the hand-end summary and the sound preference ------------------------------------------

# Alice goes out on her first turn: she draws the 4♠ and melds everything but the 2♣.
OUT_HAND = ["3C", "3D", "3H", "5S", "6S", "7S", "9D", "9H", "9C", "JH", "QH", "KH", "2C"]
OUT_BOT = ["AC", "5C", "7C", "JC", "AD", "4D", "6D", "8D", "2H", "4H", "6H", "2S", "TS"]
OUT_MELDS = [["3C", "3D", "3H"], ["4S", "5S", "6S", "7S"], ["9D", "9H", "9C"], ["JH", "QH", "KH"]]


def deal_to_go_out(table_id: int) -> int:
    def work() -> int:
        table = Table.objects.get(pk=table_id)
        if Hand.objects.filter(game__table=table, status=Hand.Status.OVER).exists():
            tables.hand_next(table_id=table_id)
            table.refresh_from_db()
        rules = engine.Rules.from_json(table.rules)
        deck = engine.stack_deck(
            rules, 2, 1, hands={0: OUT_HAND, 1: OUT_BOT}, upcard="8H", stock=["4S"]
        )
        redeal(table, dealer=1, deck=deck)
        broadcast.table_changed(table.pk, table.version)
        return table.version

    return on_server_side(work)


def go_out(table_id: int) -> None:
    def work() -> None:
        _submit(table_id, 0, {"type": "draw_stock"})
        for cards in OUT_MELDS:
            _submit(table_id, 0, {"type": "meld", "cards": cards})
        _submit(table_id, 0, {"type": "discard", "card": "2C"})

    on_server_side(work)


def open_panel(page: Any, panel: str) -> None:
    """Open a panel from the toolbar (a wide screen shows some panels without a toggle)."""
    toggle = page.locator(f'.panel-toggle[aria-controls="{panel}"]')
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.locator(f"#{panel}").wait_for(state="visible")


def active_id(page: Any) -> str:
    return page.evaluate("() => document.activeElement?.id || ''")


def test_the_summary_takes_the_focus_gives_it_back_and_leaves_typing_alone(
    browser, live_server_url
):
    table_id = on_server_side(lambda: _new_table(sound=True).pk)
    version = deal_to_go_out(table_id)
    context, page = open_table(browser, live_server_url, SIZES[1], table_id, version)
    try:
        # The account's sound preference is where the page's switch starts.
        open_panel(page, "table-info")
        assert page.locator("#sound-toggle").is_checked()
        page.locator("#sound-toggle").focus()
        go_out(table_id)
        page.wait_for_selector("#hand-end:not([hidden])")
        page.wait_for_function("() => document.activeElement?.id === 'hand-end-heading'")
        page.keyboard.press("Escape")
        assert page.locator("#hand-end").is_hidden()
        assert active_id(page) == "sound-toggle", "Escape gives the focus back"

        # The next hand, with Alice typing a chat message when it ends: her focus stays.
        version = deal_to_go_out(table_id)
        page.wait_for_selector(f'#table-state[data-version="{version}"]')
        open_panel(page, "chat-panel")
        page.locator("#chat-input").click()
        page.keyboard.type("nice")
        go_out(table_id)
        page.wait_for_selector("#hand-end:not([hidden])")
        page.wait_for_selector('#table-state[data-phase="hand_over"]')
        assert active_id(page) == "chat-input"
        assert page.locator("#chat-input").input_value() == "nice"
        page.locator("#hand-end [data-close='hand-end']").click()
        assert page.locator("#hand-end").is_hidden()
    finally:
        context.close()


def test_the_sound_switch_follows_the_account_until_changed_here(browser, live_server_url):
    table_id = on_server_side(lambda: _new_table(sound=False).pk)
    version = deal_to_go_out(table_id)
    context, page = open_table(browser, live_server_url, SIZES[1], table_id, version)
    try:
        open_panel(page, "table-info")
        toggle = page.locator("#sound-toggle")
        assert not toggle.is_checked()  # the account says no sound
        toggle.check()
        page.reload()
        open_panel(page, "table-info")
        assert page.locator("#sound-toggle").is_checked()  # changed here, kept here

        def sound_on() -> None:
            from accounts.models import User

            User.objects.filter(username="alice").update(sound=True)

        on_server_side(sound_on)
        page.evaluate("() => localStorage.setItem('rummy.sound', 'off/off')")
        page.reload()
        open_panel(page, "table-info")
        # Changed here against "off"; the account now says "on": the account wins.
        assert page.locator("#sound-toggle").is_checked()
    finally:
        context.close()
