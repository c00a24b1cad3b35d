"""The table fits one screen: a whole hand against a bot without scrolling the page.

At 390x844, 360x740 and 1280x800, Alice plays a known two-player deal (13 cards each)
against a bot until she goes out; at every step her hand, the draw control and the discard
control lie inside the viewport and the page itself does not scroll. Tables of 4 and 8 seats
are checked on the phone sizes at her first turn. The deal:

    Alice: 3♣ 3♦ 3♥ 5♠ 6♠ 7♠ 9♦ 9♥ 9♣ J♥ Q♥ K♥ 2♣     up-card 8♥
    bot:   A♣ 5♣ 7♣ J♣ A♦ 4♦ 6♦ 8♦ 2♥ 4♥ 6♥ 2♠ 10♠  (nothing to meld, take or lay off)
    stock from the top: K♦ (Alice), K♠ (bot), 9♠ (Alice)

Alice draws the K♦, melds the threes and the spades and discards the K♦; the bot draws and
discards; Alice draws the 9♠, melds the four nines and the hearts and goes out with the 2♣.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import broadcast, engine, selectors
from games.models import Table
from games.services import bot_turns, tables
from tests.conftest import PASSWORD, make_player
from tests.e2e.test_table_play import on_server_side, server_channel_layer  # noqa: F401
from tests.games.conftest import redeal

ALICE = ["3C", "3D", "3H", "5S", "6S", "7S", "9D", "9H", "9C", "JH", "QH", "KH", "2C"]
BOT = ["AC", "5C", "7C", "JC", "AD", "4D", "6D", "8D", "2H", "4H", "6H", "2S", "TS"]
SIZES = [(390, 844), (360, 740), (1280, 800)]

# The bot's moves run in this process and reach the server's sockets through its channel layer.
pytestmark = pytest.mark.usefixtures("server_channel_layer")


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def bot_table(
    seats: int, *, stacked: bool, preset: str = "standard", **options: Any
) -> tuple[int, int]:
    """Alice and bots at a started table, Alice to play first; returns (table, version)."""

    def work() -> tuple[int, int]:
        from accounts.models import User

        alice = User.objects.filter(username="alice").first() or make_player("alice", "Alice")
        table = tables.table_create(
            host=alice,
            name=f"{seats} seats",
            preset=preset,
            options=options,
            num_seats=seats,
            turn_seconds=300,
            fill_with_bots=True,
        )
        tables.table_start(table_id=table.pk, by=alice)
        table.refresh_from_db()
        rules = engine.Rules.from_json(table.rules)
        if stacked:
            deck = engine.stack_deck(
                rules, 2, 1, hands={0: ALICE, 1: BOT}, upcard="8H", stock=["KD", "KS", "9S"]
            )
            redeal(table, dealer=1, deck=deck)
        else:
            redeal(table, dealer=seats - 1, seed=7)
        broadcast.table_changed(table.pk, table.version)
        return table.pk, table.version

    return on_server_side(work)


def play_bots(table_id: int) -> None:
    def work() -> None:
        for step in range(40):
            snap = selectors.load_snapshot(table_id)
            if snap.state is None or not snap.state.to_act or snap.state.to_act[0] == 0:
                return
            assert bot_turns.play_one(table_id, snap.version, rng=random.Random(step))

    on_server_side(work)


def box_of(locator: Any) -> Any:
    """The element's box; a push may be swapping its region in at this instant, so a box
    that is not there yet is asked for again once the new element is drawn."""
    box = None
    for _attempt in range(3):
        locator.first.wait_for(state="visible")
        box = locator.bounding_box()
        if box is not None:
            break
    return box


def assert_one_screen(page: Any, where: str) -> None:
    """The hand, the stock's draw control and the discard control are in view; no page scroll."""
    page.locator("#my-hand .hand-cards").first.wait_for(state="visible")
    height = page.evaluate("window.innerHeight")
    width = page.evaluate("window.innerWidth")
    scroll = page.evaluate("document.documentElement.scrollHeight")
    assert scroll <= height, f"{where}: the page scrolls ({scroll} > {height})"
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{where}: the page is wider than the screen ({wide} > {width})"
    boxes = ["#my-hand .hand-cards", "#pile .stock"]
    for selector in ("#draw-button", "#discard-button"):
        if page.locator(selector).count():
            boxes.append(selector)
    for selector in boxes:
        box = box_of(page.locator(selector))
        assert box is not None, f"{where}: {selector} is not shown"
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (where, selector, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (where, selector, box)


def card(page: Any, code: str) -> Any:
    return page.locator("#my-hand").get_by_role("button", name=engine.card_name(code), exact=True)


def pick(page: Any, code: str) -> None:
    """Click a card where a person does when the hand overlaps: its corner (rank and suit)."""
    card(page, code).click(position={"x": 6, "y": 14})


def my_turn(page: Any, phase: str) -> None:
    page.wait_for_selector(f'#table-state[data-my-turn="true"][data-phase="{phase}"]')


def meld(page: Any, *codes: str) -> None:
    for code in codes:
        pick(page, code)
    assert_one_screen(page, f"selected {' '.join(codes)}")
    page.get_by_role("button", name="Meld selected").click()
    page.wait_for_function(
        f"() => document.querySelectorAll('#my-hand [data-card=\"{codes[0]}\"]').length === 0"
    )


@pytest.mark.e2e
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_whole_hand_against_a_bot_fits_one_screen(
    browser,
    live_server_url,
    width,
    height,
):
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, version = bot_table(2, stacked=True, target=50)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        page.wait_for_selector(f'#table-state[data-version="{version}"]')
        my_turn(page, "draw")
        assert page.locator("#my-hand .hand-card").count() == 13
        assert_one_screen(page, "first draw")

        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        assert_one_screen(page, "after drawing")
        meld(page, "3C", "3D", "3H")
        meld(page, "5S", "6S", "7S")
        pick(page, "KD")
        assert_one_screen(page, "before discarding")
        page.get_by_role("button", name="Discard selected").click()
        page.wait_for_selector('#table-state[data-my-turn="false"]')
        assert_one_screen(page, "the bot's turn")

        play_bots(table_id)
        my_turn(page, "draw")
        assert_one_screen(page, "second draw")
        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        meld(page, "9D", "9H", "9C", "9S")
        meld(page, "JH", "QH", "KH")
        pick(page, "2C")
        assert_one_screen(page, "the last discard")
        page.get_by_role("button", name="Discard selected").click()
        page.wait_for_selector("#hand-end:not([hidden])")
        assert "went out" in page.locator("#hand-end").inner_text()
        scroll = page.evaluate("document.documentElement.scrollHeight")
        assert scroll <= height, "the hand-end summary opens over the table, not below it"
        # Her hand ends the game (target 50): the game's end does not cover the summary (at
        # 1280 px it once lay over all of it but its heading).
        page.wait_for_selector("#game-end:not([hidden])")
        summary, end = box_of(page.locator("#hand-end")), box_of(page.locator("#game-end"))
        assert summary["y"] + summary["height"] <= end["y"] + 1, (summary, end)
    finally:
        context.close()


@pytest.mark.e2e
def test_a_table_full_of_melds_still_fits_a_phone_screen(browser, live_server_url):
    """Sixteen melds scroll inside their own area. The words only screen readers hear (each
    meld's "Meld 7: a run") were placed against the page, not that area, and made the page
    longer than the screen once the melds did not fit."""
    from tests.engine.helpers import arrange

    table_id, _version = bot_table(2, stacked=False)
    runs = [f"A{s} 2{s} 3{s}" for s in "CDHS"] + [f"4{s} 5{s} 6{s}" for s in "CDHS"]
    runs += [f"7{s} 8{s} 9{s}" for s in "CDHS"] + [f"T{s} J{s} Q{s}" for s in "CDHS"]

    def many_melds() -> int:
        table = Table.objects.get(pk=table_id)
        state = arrange(
            "standard", 2, to_move=0, phase="play", discard="KS", stock="",
            hands={0: "KC KD", 1: "KH"},
            melds=[(i % 2, run) for i, run in enumerate(runs)],
        )  # fmt: skip
        redeal(table, dealer=1, state=state)
        broadcast.table_changed(table.pk, table.version)
        return table.version

    version = on_server_side(many_melds)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        page.wait_for_selector(f'#table-state[data-version="{version}"]')
        assert page.locator("#melds .meld").count() == 16
        assert_one_screen(page, "sixteen melds at 360x740")
    finally:
        context.close()


@pytest.mark.e2e
def test_a_hand_of_twenty_one_cards_scrolls_in_its_box_not_the_page(browser, live_server_url):
    """After taking a whole pile (Throw-down) a hand of 21 cards made the page 444 px wide
    at 360 px: each card kept a strip of at least 1.2rem."""
    from tests.engine.helpers import arrange

    table_id, _version = bot_table(2, stacked=False)
    long_hand = " ".join(f"{r}{s}" for s in "CD" for r in "A23456789TJ")[:62]

    def long_hand_to_play() -> int:
        table = Table.objects.get(pk=table_id)
        state = arrange("standard", 2, to_move=0, phase="play", hands={0: long_hand})
        redeal(table, dealer=1, state=state)
        broadcast.table_changed(table.pk, table.version)
        return table.version

    version = on_server_side(long_hand_to_play)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        page.wait_for_selector(f'#table-state[data-version="{version}"]')
        assert page.locator("#my-hand .hand-card").count() == 21
        assert_one_screen(page, "21 cards at 360x740")
    finally:
        context.close()


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("seats", "preset"), [(4, "standard"), (8, "standard"), (4, "persian"), (8, "five-thousand")]
)
def test_larger_tables_fit_a_phone_screen(
    browser,
    live_server_url,
    seats,
    preset,
):
    # Persian: partners, whose "side 2, with ..." badges once widened the page past the screen.
    # 5000: every seat shows its face-up card, which once pushed the hand below the screen.
    table_id, _version = bot_table(seats, stacked=False, preset=preset)
    for width, height in SIZES[:2]:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(15_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m, errors=errors: m.type == "error" and errors.append(m.text))
        try:
            log_in(page, live_server_url, "alice")
            page.goto(f"{live_server_url}/tables/{table_id}/")
            if preset != "standard":  # partners drawn, deals by face-up card: seats differ
                page.wait_for_selector("#my-hand .hand-card")
            else:
                my_turn(page, "draw")
            assert page.locator("#players .player").count() == seats - 1
            assert_one_screen(page, f"{seats} seats at {width}x{height}")
            # Her own seat's presence ("online" once her socket is in) reaches her page too,
            # which shows no presence for her own seat during play: dropped without an error.
            page.wait_for_selector("#connection:text('live')")
            page.wait_for_timeout(500)
            assert errors == []
            # Compact seats keep their status in sight: every bot says so, the dealer too.
            bots = page.locator("#players .player .badge-bot")
            assert bots.count() == seats - 1
            assert all(bots.nth(i).bounding_box() for i in range(seats - 1))
            dealer = page.locator("#players .player .badge", has_text="dealer")
            assert dealer.count() == 1 and dealer.bounding_box()
        finally:
            context.close()


@pytest.mark.e2e
def test_panels_open_from_the_toolbar_and_close_with_escape(
    browser,
    live_server_url,
):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, _version = bot_table(2, stacked=True)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        history = page.get_by_role("button", name="History")
        assert history.get_attribute("aria-expanded") == "false"
        assert not page.locator("#log").is_visible()
        history.click()
        assert history.get_attribute("aria-expanded") == "true"
        assert page.locator("#log").is_visible()
        # The push after a move replaces #log; the panel stays open, scrolled to the newest.
        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        assert page.locator("#log").is_visible()
        assert "drew from the stock" in page.locator("#log li").last.inner_text()
        newest_in_view = page.evaluate(
            """() => { const log = document.getElementById('log');
            return log.scrollTop + log.clientHeight >= log.scrollHeight - 2; }"""
        )
        assert newest_in_view, "the history opens scrolled to its newest line"
        page.keyboard.press("Escape")
        assert not page.locator("#log").is_visible()
        assert history.get_attribute("aria-expanded") == "false"
        page.get_by_role("button", name="Scores").click()
        assert page.locator("#score-sheet").is_visible()
    finally:
        context.close()


@pytest.mark.e2e
def test_a_click_on_a_pile_card_that_cannot_be_taken_says_why(
    browser,
    live_server_url,
):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, _version = bot_table(2, stacked=True)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        # The 8♥ up-card makes nothing with Alice's cards: no dashed border, no button.
        assert page.locator("#pile .pile-pick").count() == 0
        assert "take from the pile" not in page.locator("#table-state").inner_text()
        page.locator("#pile .pile-card .pcard").last.click()
        page.wait_for_function("() => document.getElementById('move-error').textContent !== ''")
        assert "draw from the stock" in page.locator("#move-error").inner_text()
        assert Table.objects.filter(pk=table_id).exists()
    finally:
        context.close()


@pytest.mark.e2e
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_drawn_card_is_marked_and_moves_unless_motion_is_reduced(
    browser,
    live_server_url,
    motion,
):
    context = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion=motion)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, _version = bot_table(2, stacked=True)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        # Count the card slides the page starts (Web Animations on the moved cards).
        page.evaluate(
            """() => { window.slides = 0; const original = Element.prototype.animate;
            Element.prototype.animate = function (...args) { window.slides += 1;
            return original.apply(this, args); }; }"""
        )
        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        drawn = page.locator("#my-hand .hand-card.just-drawn")
        drawn.wait_for()
        assert drawn.get_attribute("data-card") == "KD"
        assert drawn.get_attribute("aria-describedby") == "just-drawn-note"
        slides = page.evaluate("window.slides")
        if motion == "reduce":
            assert slides == 0
        else:
            assert slides >= 1
        # The mark stays for the turn: melding re-renders the hand.
        meld(page, "3C", "3D", "3H")
        assert page.locator('#my-hand .hand-card.just-drawn[data-card="KD"]').count() == 1
        # Her meld is marked on the table as the last move.
        assert page.locator("#melds .meld[data-meld='1'] .just-moved").count() == 3
        # A reload mid-turn shows the mark again (kept in this tab's session storage).
        page.reload()
        my_turn(page, "play")
        page.locator('#my-hand .hand-card.just-drawn[data-card="KD"]').wait_for()
        assert page.locator("#my-hand .hand-card.just-drawn").count() == 1
    finally:
        context.close()


@pytest.mark.e2e
def test_a_drawn_second_copy_of_a_card_is_the_only_card_marked(browser, live_server_url):
    """Five players play with two packs: Alice holds the K♦ and draws the other one. Only one
    K♦ is marked as drawn, also after a reload (the page once marked every card of the drawn
    code)."""

    def work() -> int:
        from accounts.models import User

        alice = User.objects.filter(username="alice").first() or make_player("alice", "Alice")
        table = tables.table_create(
            host=alice,
            name="two packs",
            preset="standard",
            options={},
            num_seats=5,
            turn_seconds=300,
            fill_with_bots=True,
        )
        tables.table_start(table_id=table.pk, by=alice)
        table.refresh_from_db()
        rules = engine.Rules.from_json(table.rules)
        deck = engine.stack_deck(
            rules, 5, 4, hands={0: ["3C", "3D", "5S", "9D", "JH", "QH", "KD"]}, stock=["KD"]
        )
        redeal(table, dealer=4, deck=deck)
        broadcast.table_changed(table.pk, table.version)
        return table.pk

    table_id = on_server_side(work)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        page.locator("#my-hand .hand-card.just-drawn").first.wait_for()
        assert page.locator('#my-hand .hand-card[data-card="KD"]').count() == 2
        assert page.locator("#my-hand .hand-card.just-drawn").count() == 1
        page.reload()
        my_turn(page, "play")
        page.locator("#my-hand .hand-card.just-drawn").first.wait_for()
        assert page.locator("#my-hand .hand-card.just-drawn").count() == 1
    finally:
        context.close()


@pytest.mark.e2e
def test_someone_watching_on_a_phone_sees_the_whole_header(browser, live_server_url):
    """The "watching" badge and the connection status came last on a line cut at the
    screen's edge; someone watching has no hand to keep in view, so their facts wrap."""
    table_id, _version = bot_table(8, stacked=False)
    on_server_side(lambda: make_player("bob", "Bob"))
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server_url, "bob")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        page.wait_for_selector("#connection:text('live')")
        width = page.evaluate("window.innerWidth")
        for locator in (
            page.locator(".table-facts .badge", has_text="watching"),
            page.locator("#connection"),
        ):
            box = locator.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
            assert locator.evaluate(
                "e => { const r = e.getBoundingClientRect(),"
                " p = e.parentElement.getBoundingClientRect(); return r.right <= p.right + 1; }"
            ), "cut off by its line"
    finally:
        context.close()


def test_a_players_header_and_nav_on_a_phone_scroll_sideways_with_a_cue(browser, live_server_url):
    """A seated player's header is kept to one line, and so is the site's nav: what does not
    fit (the turn time, the connection, the links on the right) was cut off mid-word with no
    way to reach it. Both now scroll sideways, with a shadow at the edge where more follows."""
    table_id, _version = bot_table(4, stacked=False)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        page.wait_for_selector("#connection:text('live')")
        for strip in (page.locator(".table-facts"), page.locator(".site-nav")):
            assert strip.evaluate("e => e.scrollWidth > e.clientWidth"), "it all fits: no test"
            assert strip.evaluate("e => getComputedStyle(e).overflowX") == "auto"
            assert "local" in strip.evaluate("e => getComputedStyle(e).backgroundAttachment")
        facts = page.locator(".table-facts")
        facts.evaluate("e => e.scrollLeft = e.scrollWidth")
        assert page.locator("#connection").evaluate(
            "e => e.getBoundingClientRect().right"
            " <= e.parentElement.getBoundingClientRect().right + 1"
        ), "the connection status cannot be scrolled into view"
    finally:
        context.close()


def test_the_movers_clock_stays_inside_a_narrow_seat_and_keeps_its_word(browser, live_server_url):
    """Eight seats at 360 px: "to move · 4:59" ran past the edge of the mover's seat (an
    eighth of the screen's width) on one line. It may now take two, the time with its dot.
    The ticking clock also wrote "to move" over the server's word, so in a Rummy call window
    a claimant's seat said "to move" after its first second."""

    def work() -> int:
        alice, bob = make_player("alice", "Alice"), make_player("bob", "Bob")
        table = tables.table_create(
            host=alice, name="Eight", preset="standard", options={}, num_seats=8,
            turn_seconds=300,
        )  # fmt: skip
        tables.seat_join(table_id=table.pk, user=bob, index=1)
        for index in range(2, 8):
            tables.seat_set_bot(table_id=table.pk, by=alice, index=index, level="easy")
        tables.table_start(table_id=table.pk, by=alice)
        table.refresh_from_db()
        redeal(table, dealer=0, seed=7)  # Bob, a person with a clock, moves first
        broadcast.table_changed(table.pk, table.version)
        return table.pk

    table_id = on_server_side(work)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        clock = page.locator("#players .player .player-clock")
        page.wait_for_function(
            "() => /to move ·\\s?[45]:\\d\\d/.test("
            "document.querySelector('#players .player-clock')?.textContent || '')"
        )
        inside = clock.evaluate(
            "e => { const r = e.getBoundingClientRect(),"
            " s = e.closest('.player').getBoundingClientRect();"
            " return [r.left >= s.left - 1, r.right <= s.right + 1, r.bottom <= s.bottom + 1]; }"
        )
        assert inside == [True, True, True], inside
        # A call window's word, as the server writes it, outlives the clock's ticks.
        page.evaluate(
            "() => { const e = document.querySelector('#players .player-clock');"
            " e.textContent = 'may call Rummy'; delete e.dataset.doing; }"
        )
        page.wait_for_function(
            "() => /^may call Rummy · ?\\d:\\d\\d$/.test(document.querySelector("
            "'#players .player-clock').textContent.replace('\\u00a0', ' '))"
        )
    finally:
        context.close()


def test_the_waiting_room_on_a_phone_shows_the_whole_header(browser, live_server_url):
    """Seated at a table that has not started, a player's header was cut at the screen's
    edge as during play (to keep the hand in view); there is no hand yet, and the rules,
    target and turn time people read before the start were out of sight."""

    def work() -> int:
        alice = make_player("alice", "Alice Papadopoulou-Long")
        table = tables.table_create(
            host=alice, name="A table with a long name", preset="oklahoma-jokers",
            options={}, num_seats=4, turn_seconds=90,
        )  # fmt: skip
        return table.pk

    table_id = on_server_side(work)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        page.wait_for_selector("#connection:text('live')")
        facts = page.locator(".table-facts > span")
        assert facts.count() >= 4
        for i in range(facts.count()):
            assert facts.nth(i).evaluate(
                "e => { const r = e.getBoundingClientRect(),"
                " p = e.parentElement.getBoundingClientRect();"
                " return r.width > 0 && r.right <= p.right + 1 && r.right <= innerWidth; }"
            ), facts.nth(i).inner_text()
    finally:
        context.close()


def hand_order(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "#my-hand .hand-card", "cards => cards.map(c => c.dataset.card)"
    )


def touch_drag(page: Any, code: str, to_code: str) -> None:
    """A finger on ``code`` slides sideways onto ``to_code`` and lifts (Chromium's touch
    input, which the page receives as pointer events of type "touch")."""
    start = card(page, code).bounding_box()
    end = card(page, to_code).bounding_box()
    y = start["y"] + 20
    x0, x1 = start["x"] + 6, end["x"] + 6
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for step in range(1, 9):
        x = x0 + (x1 - x0) * step / 8
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.e2e
def test_the_hand_is_rearranged_by_keyboard_and_touch_and_a_reload_keeps_the_order(
    browser,
    live_server_url,
):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, _version = bot_table(2, stacked=True)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        first = hand_order(page)
        card(page, first[0]).focus()
        page.keyboard.press("Shift+ArrowRight")
        page.keyboard.press("Shift+ArrowRight")
        moved = hand_order(page)
        assert moved == [first[1], first[2], first[0], *first[3:]]
        assert page.evaluate("document.activeElement.dataset.card") == first[0]
        # A finger drags the fourth card onto the first one's place; nothing is selected.
        touch_drag(page, moved[3], moved[0])
        touched = [moved[3], *moved[:3], *moved[4:]]
        page.wait_for_function(
            f"() => document.querySelector('#my-hand .hand-card').dataset.card === '{moved[3]}'"
        )
        assert hand_order(page) == touched
        assert page.locator('#my-hand .hand-card[aria-pressed="true"]').count() == 0
        page.reload()
        my_turn(page, "draw")
        assert hand_order(page) == touched
        # A tap without moving still selects.
        card(page, touched[5]).tap(position={"x": 6, "y": 14})
        assert card(page, touched[5]).get_attribute("aria-pressed") == "true"
        # A sort puts the hand back in order and forgets the player's own.
        page.get_by_role("button", name="Table").click()
        page.get_by_role("button", name="by suit").click()
        assert hand_order(page) == first
    finally:
        context.close()


@pytest.mark.e2e
def test_a_push_in_the_middle_of_a_touch_drag_leaves_one_copy_of_each_card(
    browser,
    live_server_url,
):
    """A push (a bot's move, the socket's catch-up) replaced the hand under a finger dragging
    a card; the drag then moved the old element into the new hand: the card was shown twice."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, _version = bot_table(2, stacked=True)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        page.wait_for_selector("#connection:text('live')")
        first = hand_order(page)
        start, end = box_of(card(page, first[3])), box_of(card(page, first[0]))
        y, x0, x1 = start["y"] + 20, start["x"] + 6, end["x"] + 6
        cdp = page.context.new_cdp_session(page)

        def touch(kind: str, x: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", x0)
        touch("touchMove", x0 - 15)
        # what a push does to the hand: the region is replaced by a new copy of itself
        page.evaluate(
            "() => { const h = document.getElementById('my-hand'); h.outerHTML = h.outerHTML; }"
        )
        touch("touchMove", x1)
        touch("touchEnd", x1)
        cdp.detach()
        order = hand_order(page)
        assert sorted(order) == sorted(first), order
        assert order[0] == first[3]
    finally:
        context.close()


@pytest.mark.e2e
def test_ready_deals_the_next_hand_and_the_summary_stays_until_closed(
    browser,
    live_server_url,
):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, _version = bot_table(2, stacked=True)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        meld(page, "3C", "3D", "3H")
        meld(page, "5S", "6S", "7S")
        pick(page, "KD")
        page.get_by_role("button", name="Discard selected").click()
        page.wait_for_selector('#table-state[data-my-turn="false"]')
        play_bots(table_id)
        my_turn(page, "draw")
        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        meld(page, "9D", "9H", "9C", "9S")
        meld(page, "JH", "QH", "KH")
        pick(page, "2C")
        page.get_by_role("button", name="Discard selected").click()

        summary = page.locator("#hand-end")
        summary.get_by_role("button", name="Ready for the next hand").click()
        # Alice is the only person at the table: her Ready ends the pause at once.
        page.wait_for_function(
            "() => document.querySelectorAll('#my-hand .hand-card').length === 13"
        )
        assert summary.is_visible() and "Hand 1 is over" in summary.inner_text()
        summary.get_by_role("button", name="Close the summary of hand 1").click()
        assert summary.is_hidden()
        page.reload()
        page.wait_for_selector("#my-hand .hand-card")
        assert page.locator("#hand-end").is_hidden()  # closed stays closed
    finally:
        context.close()


@pytest.mark.e2e
def test_the_hint_marks_exactly_the_cards_a_legal_meld_or_lay_off_uses(
    browser,
    live_server_url,
):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, _version = bot_table(2, stacked=True)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        hint = page.get_by_role("button", name="Hint")
        hint.click()
        assert hint.get_attribute("aria-pressed") == "true"
        marked = page.eval_on_selector_all(
            "#my-hand .hint-card", "cards => cards.map(c => c.dataset.card).sort()"
        )
        assert marked == sorted(set(ALICE) - {"2C"})  # the K♦ drawn and the 2♣ make nothing
        hint.click()
        assert page.locator("#my-hand .hint-card").count() == 0
    finally:
        context.close()


@pytest.mark.e2e
def test_the_hint_says_so_when_nothing_can_be_melded_or_laid_off(browser, live_server_url):
    """Pressed with nothing to mark, the hint once looked broken: nothing moved, nothing said."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table_id, _version = bot_table(2, stacked=False)

        def nothing_to_meld() -> int:
            table = Table.objects.get(pk=table_id)
            rules = engine.Rules.from_json(table.rules)
            hands = {  # nothing melds, with the up-card 9♥ or the J♥ Alice draws
                0: ["2C", "4D", "6S", "8C", "TD", "QC", "KS", "3H", "5H", "9S", "JD", "AS", "7D"],
                1: ["AC", "5C", "7C", "JC", "AD", "6D", "8D", "2H", "4H", "6H", "2S", "TS", "3S"],
            }
            deck = engine.stack_deck(rules, 2, 1, hands=hands, upcard="9H", stock=["JH"])
            redeal(table, dealer=1, deck=deck)
            broadcast.table_changed(table.pk, table.version)
            return table.version

        version = on_server_side(nothing_to_meld)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        page.wait_for_selector(f'#table-state[data-version="{version}"]')
        page.wait_for_selector("#connection:text('live')")  # a click before it is refused
        page.get_by_role("button", name="Draw from the stock").click()
        my_turn(page, "play")
        page.get_by_role("button", name="Hint").click()
        assert page.locator("#my-hand .hint-card").count() == 0
        assert "Nothing in your hand can be melded" in page.locator("#move-error").inner_text()
    finally:
        context.close()


@pytest.mark.e2e
def test_keyboard_focus_stays_in_the_hand_when_a_push_replaces_it(browser, live_server_url):
    """Every push replaces the hand: focus on a card once fell back to the page's top, so a
    keyboard player had to tab back to the hand after each draw, discard and bot move."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.set_default_timeout(15_000)
    page = context.new_page()
    focused = "() => document.activeElement && document.activeElement.dataset.card"
    try:
        table_id, _version = bot_table(2, stacked=True)
        log_in(page, live_server_url, "alice")
        page.goto(f"{live_server_url}/tables/{table_id}/")
        my_turn(page, "draw")
        page.wait_for_selector("#connection:text('live')")  # keys before it are refused
        card(page, "9D").focus()
        page.keyboard.press("d")
        my_turn(page, "play")
        assert page.evaluate(focused) == "9D"
        card(page, "KD").focus()
        page.keyboard.press("Enter")
        page.keyboard.press("x")
        page.wait_for_selector('#table-state[data-my-turn="false"]')
        assert page.evaluate(focused) in ALICE  # the card now where the K♦ was
        play_bots(table_id)
        my_turn(page, "draw")
        assert page.evaluate(focused) in ALICE
    finally:
        context.close()
