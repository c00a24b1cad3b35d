"""Tables of the presets from issue 6 part A play whole games with bots through the services."""

from __future__ import annotations

import random

import pytest

from games import bot_turns, engine, selectors, services
from games.models import Game, Table
from tests.games.conftest import play_one, start_table

pytestmark = pytest.mark.django_db


def play_to_the_end(table: Table, rng: random.Random, max_moves: int = 6000) -> Game:
    """Bots move through their task path; the host's seat plays random legal moves."""
    for _ in range(max_moves):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return Game.objects.filter(table=table).latest("number")
        snap = selectors.load_snapshot(table.pk)
        if snap.state.phase is engine.Phase.HAND_OVER:
            services.hand_next(table_id=table.pk)
            continue
        if not bot_turns.play_one(table.pk, table.version, rng=rng):
            play_one(table, rng)
    raise AssertionError("the game did not end")


def test_a_throw_down_table_plays_a_whole_game_with_bots(alice):
    table = start_table(alice, seats=3, preset="throw-down", target=100)
    game = play_to_the_end(table, random.Random(5))
    assert game.status == Game.Status.FINISHED
    assert max(game.totals) >= 100 and len(game.winners) == 1
    hand = game.hands.latest("number")
    assert len(hand.state["scatter"]) == len(hand.state["discard"])


def test_the_scattered_pile_says_what_each_card_lies_over_and_what_a_take_brings():
    view = {"discard": ["KH", "5C", "9D", "2S"], "scatter": [0, 0b1, 0b10, 0b1]}
    legal = [{"type": "take_discard", "depth": 2}]
    from games import display

    pile = display.discard_pile(view, legal)
    assert [card["lies_over"] for card in pile] == ["", "K♥", "5♣", "K♥"]
    assert pile[1]["take_text"] == "the 5♣ and the 1 above it: 9♦"
    assert not pile[0]["takeable"] and pile[1]["takeable"]
