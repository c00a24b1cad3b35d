"""The table page and the rulings of issue 17: the ace's two ends (Ruling 1) and the cards
a player took and kept, on show only under discards_displayed (Ruling 13)."""

from __future__ import annotations

from html import unescape

from games import engine, selectors
from games.services import moves, tables
from games.table import presenters
from tests.games.conftest import redeal

TWELVE_CLUBS = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]


def _two_seat_table(alice, bob, **options):
    table = tables.table_create(
        host=alice,
        name="Rulings table",
        preset="standard",
        options=options,
        num_seats=2,
        turn_seconds=60,
    )
    tables.seat_join(table_id=table.pk, user=bob, index=1)
    tables.table_start(table_id=table.pk, by=alice)
    table.refresh_from_db()
    return table


def _move(table, seat, action):
    snap = selectors.load_snapshot(table.pk)
    return moves.move_submit(
        table_id=table.pk,
        seat=seat,
        action=engine.action_to_json(action),
        expected_version=snap.version,
    )


def test_the_page_asks_which_end_an_ace_goes_on_a_two_to_king_run(alice, bob):
    table = _two_seat_table(alice, bob)
    rules = engine.make_rules("standard")
    hands = {0: [*TWELVE_CLUBS, "9D"], 1: ["AC", "5S", "7D", "9H", "JS", "3D", "6H"]}
    deck = engine.stack_deck(rules, 2, 0, hands=hands, upcard="4S", stock=["2S", "QD", "8H"])
    redeal(table, dealer=0, deck=deck)
    _move(table, 1, engine.DrawStock(1))
    _move(table, 1, engine.Discard(1, "5S"))
    _move(table, 0, engine.DrawStock(0))
    _move(table, 0, engine.Meld(0, tuple(TWELVE_CLUBS)))
    _move(table, 0, engine.Discard(0, "9D"))
    _move(table, 1, engine.DrawStock(1))
    html = unescape(presenters.state_html(selectors.load_snapshot(table.pk), 1, bob))
    assert "Lay off the A♣ on meld 1 high, after the K♣" in html
    assert "Lay off the A♣ on meld 1 low, before the 2♣" in html
    assert '"ace_end": "low"' in html
    watcher = unescape(presenters.state_html(selectors.load_snapshot(table.pk), None, None))
    assert "Lay off the A♣" not in watcher


def test_with_discards_displayed_the_page_shows_the_kept_card_in_front_of_its_taker(alice, bob):
    table = _two_seat_table(alice, bob, discards_displayed=True, top_discard_free=True)
    rules = engine.make_rules("standard", discards_displayed=True, top_discard_free=True)
    hands = {1: ["5S", "7D", "9H", "JS", "3D", "6H", "2C"]}
    deck = engine.stack_deck(rules, 2, 0, hands=hands, upcard="KD")
    redeal(table, dealer=0, deck=deck)
    _move(table, 1, engine.TakeDiscard(1, 0))
    _move(table, 1, engine.Discard(1, "2C"))
    for seat, user in ((0, alice), (1, bob), (None, None)):
        html = presenters.state_html(selectors.load_snapshot(table.pk), seat, user)
        assert "on show until" in html and 'aria-label="king of diamonds"' in html, seat


def test_without_discards_displayed_a_taken_card_is_not_laid_out_in_front(alice, bob):
    table = _two_seat_table(alice, bob, top_discard_free=True)
    rules = engine.make_rules("standard", top_discard_free=True)
    hands = {1: ["5S", "7D", "9H", "JS", "3D", "6H", "2C"]}
    deck = engine.stack_deck(rules, 2, 0, hands=hands, upcard="KD")
    redeal(table, dealer=0, deck=deck)
    _move(table, 1, engine.TakeDiscard(1, 0))
    _move(table, 1, engine.Discard(1, "2C"))
    snap = selectors.load_snapshot(table.pk)
    html = presenters.state_html(snap, 0, alice)
    assert "on show until" not in html and "known:" not in html
    assert "took the K♦" in unescape(html)  # the log still names the take
    assert engine.view(snap.state, 0)["public_cards"]["known"][1] == ["KD"]
