"""A move the turn clock made for a player whose time ran out reads as the clock's, in the
hand's log for everyone and in that player's message bar; derived from the Move rows (their
``actor``), so the stored state stays exactly what replaying the move log gives."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games import engine, selectors
from games.models import Hand, Move
from games.services import turn_clock
from games.table import display, presenters, table_frames
from tests.games.conftest import play_one, redeal, start_table
from tests.resilience.integrity import check_table


@pytest.fixture
def timed_out(alice):
    """Alice (seat 0) against one bot; her first turn's time ran out and the clock played."""
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)  # Alice to move
    table.refresh_from_db()
    late = table.due_at + timedelta(seconds=1)
    assert turn_clock.clock_expired(table_id=table.pk, version=table.version, now=late)
    return table


def _discarded(table) -> str:
    move = Move.objects.filter(hand__game__table=table, action__type="discard").get()
    return engine.card_label(move.action["card"])


@pytest.mark.parametrize("cached", [True, False], ids=["after the move", "read afresh"])
def test_the_log_says_the_clock_played_for_the_player(timed_out, cached):
    if not cached:
        selectors.clear_cache()  # the snapshot read from the database knows it too
    snap = selectors.load_snapshot(timed_out.pk)
    for seat in (None, 0, 1):  # a spectator, Alice and the bot's seat read the same lines
        lines = display.action_log(
            engine.view(snap.state, seat), snap.names(), clock_moves=snap.clock_moves
        )
        made = [line for line in lines if line.endswith("(time ran out: the clock played)")]
        assert made == [
            "Alice drew from the stock (time ran out: the clock played)",
            f"Alice discarded the {_discarded(timed_out)} (time ran out: the clock played)",
        ]  # the name once (it read "...the clock played for Alice: Alice drew...")
    log = table_frames.shared_regions(snap)["log"]
    assert "Alice drew from the stock (time ran out: the clock played)" in log


def test_the_players_bar_says_what_the_clock_did_for_them(timed_out, alice):
    snap = selectors.load_snapshot(timed_out.pk)
    html = presenters.state_html(snap, 0, alice)
    said = f"The clock ran out: it drew for you and discarded the {_discarded(timed_out)}."
    assert said in html
    assert "a move was made for you" not in html
    # The discard is not said a second time as the last event.
    assert f"Alice: Alice discarded the {_discarded(timed_out)}" not in html.split("</div>")[0]


def test_the_clock_leaves_the_stored_state_as_the_move_log_replays_it(timed_out):
    assert check_table(timed_out.pk) == 2
    stored = Hand.objects.get(game__table=timed_out).state
    assert "clock" not in str(stored["history"])


def test_a_players_own_moves_are_not_marked(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)
    play_one(table, random.Random(1))  # Alice draws or takes herself
    snap = selectors.load_snapshot(table.pk)
    assert snap.clock_moves == frozenset()
    lines = display.action_log(engine.view(snap.state, 1), snap.names(), clock_moves=())
    assert not any("time ran out" in line for line in lines)
    html = presenters.state_html(snap, 0, alice)
    assert "clock ran out" not in html and "time ran out" not in html.lower()


def test_the_clock_closing_a_claim_window_is_no_players_move():
    events = [
        engine.Event("deal", 0, (("cards_each", 7), ("upcard", "2C"))),
        engine.Event("discard", 1, (("card", "5H"),)),
        engine.Event("claim_window", 1, (("depths", (0,)),)),
        engine.Event("close_claims", -1),
    ]
    assert display.clock_marks(events, {2}) == [False, False, False, False]
    assert display.clock_marks(events, {1}) == [False, True, False, False]
