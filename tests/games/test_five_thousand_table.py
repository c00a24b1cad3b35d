"""A 5000 Rummy table end to end: played to its end with bots through the move service, and
shown with what the preset needs (the face-up deal cards, the wild rank, naturals in front)."""

from __future__ import annotations

import random
import re

from games import engine, selectors
from games.models import Hand, Table
from games.table import display, presenters
from tests.games.conftest import start_table
from tests.games.test_oklahoma_table import _play_to_the_end


def test_a_five_thousand_table_plays_a_whole_game_with_bots_through_the_service(alice):
    table = start_table(alice, seats=4, preset="five-thousand", target=600)
    _play_to_the_end(table, random.Random(8))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    game = table.games.get()
    assert len(game.winners) == 1 and max(game.totals) >= 600
    for hand in Hand.objects.filter(game=game):
        for seat in hand.result["seats"]:
            assert seat["in_hand"] == 0  # cards left in hand cost nothing in 5000
            if seat["bonus"]:
                assert hand.result["went_out"] == seat["seat"]


def test_the_table_shows_the_face_up_cards_the_wild_rank_and_the_preset_rules(alice):
    table = start_table(alice, seats=3, preset="five-thousand")
    snap = selectors.load_snapshot(table.pk)
    state = snap.state
    ctx = presenters.table_context(snap, 0, alice)
    rank_name = engine.card_name(state.wild + "*")[4:]
    assert ctx["wild_note"].startswith("This hand the ") and rank_name in ctx["wild_note"]
    face_up = state.history[0].get("face_up")
    others = [p for p in ctx["players"] if not p["is_me"]]
    assert all(p["known"][0]["code"] == face_up[p["index"]] for p in others)
    notes = " ".join(ctx["preset_notes"])
    assert "face-up card" in notes and "in front" in notes and "whoever goes out" in notes


def test_a_natural_card_in_front_is_shown_with_its_player_and_offered_as_a_control():
    rules = engine.make_rules("five-thousand")
    state = engine.new_hand(rules, 2, 0, seed=3)
    seen = engine.view(state, 0)
    seen["fronts"] = [[1, "8H", 1]]
    seats = [{"index": i, "connected": True, "name": n} for i, n in enumerate(["Alice", "Bob"])]
    rows = display.players(seen, seats, 0, [0, 0])
    assert [c["code"] for c in rows[1]["fronts"]] == ["8H"] and rows[0]["fronts"] == []
    controls = display.controls([{"type": "play_natural", "card": "8H", "meld": 1}], seen)
    text = controls["extra"][0]["text"]
    assert re.sub("<[^>]+>", "", text) == "Put the 8♥ in front of you (for the wild card in meld 1)"
    # what a phone shows, the rest only to screen readers (games.css .on-wide)
    assert re.sub('<span class="on-wide">.*?</span>', "", text) == "Put the 8♥ in front (meld 1)"


def test_the_replay_of_a_finished_hand_shows_the_naturals_in_front():
    rules = engine.make_rules("five-thousand")
    for seed in range(60):
        state = engine.new_hand(rules, 3, 0, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = rng.choice([*state.to_act, *([-1] if state.phase.value == "claim" else [])])
            options = engine.legal_actions(state, seat)
            naturals = [a for a in options if isinstance(a, engine.PlayNatural)]
            state, _ = engine.apply(state, naturals[0] if naturals else rng.choice(options))
        if state.fronts:
            break
    assert state.fronts, "some random hand puts a natural in front"
    steps = display.replay_steps(state, ["Alice", "Bob", "Carol"])
    assert [c["code"] for c in steps[-1]["fronts"]] == [card for _s, card, _m in state.fronts]
