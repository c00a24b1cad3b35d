"""A move the turn clock made for a player says so in the hand's log, to every viewer."""

from __future__ import annotations

from datetime import timedelta

from games import display, engine, presenters, selectors, services
from tests.games.conftest import play_one, redeal, start_table


def _log(table, seat):
    snap = selectors.load_snapshot(table.pk)
    return display.action_log(engine.view(snap.state, seat), snap.names())


def test_the_log_says_the_clock_played_for_the_player_whose_time_ran_out(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)  # Alice to move
    table.refresh_from_db()
    late = table.due_at + timedelta(seconds=1)
    assert services.clock_expired(table_id=table.pk, version=table.version, now=late)
    for seat in (0, 1):  # Alice and the bot's seat read the same public lines
        lines = _log(table, seat)
        made = [line for line in lines if line.startswith("Time ran out")]
        assert made, lines
        assert all("the clock played for Alice: Alice " in line for line in made)
        assert any("drew" in line for line in made) and any("discard" in line for line in made)
    html = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    assert "Time ran out, so the clock played for Alice" in html


def test_a_players_own_moves_are_not_marked(alice):
    import random

    table = start_table(alice, seats=2)
    redeal(table, dealer=1)
    play_one(table, random.Random(1))  # Alice draws herself
    assert not any(line.startswith("Time ran out") for line in _log(table, 1))
