"""An Oklahoma table (with or without jokers) end to end: created, played to its end with bots
through the move service, and shown with what the preset needs (the offered up-card, wild
deuces, the bonuses)."""

from __future__ import annotations

import random

import pytest

from games import engine, selectors
from games.forms import TableCreateForm
from games.models import Hand, Table
from games.services import bot_turns, shared, tables
from games.services.timeouts import timeout_action
from games.table import display, presenters
from tests.games.conftest import play_one, start_table


def _hand(table: Table) -> Hand:
    return Hand.objects.filter(game__table=table).order_by("-game__number", "-number").first()


def _play_to_the_end(table: Table, rng: random.Random, limit: int = 6000) -> None:
    for _ in range(limit):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            return
        if _hand(table).status == Hand.Status.OVER:
            assert tables.hand_next(table_id=table.pk) is not None
            continue
        if not bot_turns.play_one(table.pk, table.version, rng=rng):
            play_one(table, rng)  # Alice's seat: a random legal move
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("preset", ["oklahoma", "oklahoma-jokers"])
def test_an_oklahoma_table_plays_a_whole_game_with_bots_through_the_service(alice, preset):
    table = start_table(alice, seats=3, preset=preset, target=250)
    state = selectors.load_snapshot(table.pk).state
    assert state.phase is engine.Phase.OFFER
    _play_to_the_end(table, random.Random(4))
    game = table.games.get()
    assert game.status == game.Status.FINISHED and len(game.winners) == 1
    winner = game.winners[0]
    hands = list(game.hands.order_by("number"))
    last = hands[-1].result["seats"]
    # the winner's game bonus of 200 comes on top of the last hand's running total
    assert game.totals[winner] == last[winner]["total_after"] + 200
    assert all(game.totals[s["seat"]] == s["total_after"] for s in last if s["seat"] != winner)
    for hand in hands:
        for seat in hand.result["seats"]:
            assert seat["score"] == seat["melded"] - seat["in_hand"] + seat["bonus"]
            if seat["bonus"]:
                assert hand.result["went_out"] == seat["seat"]


def test_the_table_offers_the_up_card_and_explains_the_preset(alice):
    table = start_table(alice, seats=2, preset="oklahoma")
    snap = selectors.load_snapshot(table.pk)
    offered = snap.state.to_act[0]
    ctx = presenters.table_context(snap, offered, alice if offered == 0 else None)
    if offered != 0:  # the bot holds the offer: look from Alice's seat instead
        ctx = presenters.table_context(snap, 0, alice)
        assert ctx["status"].endswith("may take the up-card.")
    else:
        assert ctx["status"].startswith("The up-card is offered to you")
        assert {"type": "pass_upcard"} in [x["action"] for x in ctx["controls"]["extra"]]
    notes = " ".join(ctx["preset_notes"])
    assert "Deuces are wild" in notes and "Q♠" in notes and "own melds" in notes


def test_a_wild_deuce_shows_what_it_stands_for_and_the_pile_take_names_the_whole_pile():
    rules = engine.make_rules("oklahoma")
    state = engine.new_hand(rules, 2, 0, seed=3)
    view = engine.view(state, 1)
    view["melds"] = [
        {
            "id": 1,
            "kind": "run",
            "cards": [
                {"card": "6C", "as": "6C", "owner": 1},
                {"card": "7C", "as": "7C", "owner": 1},
                {"card": "2D", "as": "8C", "owner": 1},
            ],
        }
    ]
    melds = display.table_melds(view, ["Alice", "Bob"])
    assert [c["stands_for"] for c in melds[0]["cards"]] == [None, None, "8♣"]
    view["discard"] = ["3C", "7D", "9H"]
    pile = display.discard_pile(view, [{"type": "take_discard", "depth": 0}])
    assert pile[-1]["take_text"] == "the 9♥ and the 2 below it: 3♣ and 7♦"


def test_the_hand_end_shows_the_going_out_bonus():
    view = {
        "result": {
            "went_out": 0,
            "seats": [
                {
                    "seat": 0,
                    "melded": 45,
                    "in_hand": 0,
                    "bonus": 250,
                    "bonus_reason": "went out concealed (not counted toward the target)",
                    "excluded": 250,
                    "score": 295,
                    "counted": 295,
                    "total_after": 295,
                    "lines": [],
                }
            ],
        }
    }
    [row] = display.breakdown(view, ["Alice"])
    assert (row["bonus"], row["went_out"]) == (250, True)


@pytest.mark.parametrize(("seats", "ok"), [(1, False), (2, True), (4, True), (5, False)])
def test_the_create_form_takes_oklahoma_for_two_to_four_players(seats, ok):
    data = {"preset": "oklahoma", "options_for": "oklahoma", "num_seats": seats}
    data |= {"turn_seconds": "60", "bot_level": "easy", "opt_target": 1000, "opt_boathouse": "on"}
    form = TableCreateForm(data=data)
    assert form.is_valid() == ok, form.errors
    if not ok:
        assert "num_seats" in form.errors


def test_the_create_form_refuses_an_option_oklahoma_settles_with_its_reason():
    data = {"preset": "oklahoma", "options_for": "oklahoma", "num_seats": 3}
    data |= {"turn_seconds": "60", "bot_level": "easy", "opt_target": 1000}  # boathouse off
    form = TableCreateForm(data=data)
    assert not form.is_valid()
    assert "ends with a discard" in str(form.errors)


def test_the_oklahoma_jokers_table_explains_taking_jokers_back(alice):
    table = start_table(alice, seats=2, preset="oklahoma-jokers", jokers=3)
    snap = selectors.load_snapshot(table.pk)
    assert snap.state.rules.jokers == 3 and len(snap.state.rules.deck(2)) == 107
    notes = " ".join(presenters.table_context(snap, 0, alice)["preset_notes"])
    assert "can be taken back" in notes and "scores 100" in notes and "costs 200" in notes


def test_a_player_out_of_time_passes_on_the_offered_up_card():
    rules = engine.make_rules("oklahoma")
    deck = engine.stack_deck(rules, 2, 1, hands={0: ["9H", "9D", "2C"]}, upcard="9S")
    state = engine.new_hand(rules, 2, 1, deck=deck)
    legal = engine.legal_actions(state, 0)
    assert engine.TakeDiscard(0, 0) in legal
    assert timeout_action(engine.view(state, 0), legal) == engine.PassUpcard(0)


def test_the_create_form_marks_the_options_each_preset_settles():
    form = TableCreateForm()
    fixed = {
        name: form[f"opt_{name}"].field.widget.attrs["data-fixed"].split()
        for name in ("boathouse", "floating", "jokers", "target")
    }
    assert "oklahoma" in fixed["boathouse"] and "five-thousand" in fixed["floating"]
    assert "oklahoma-jokers" not in fixed["jokers"] and "standard" in fixed["jokers"]
    assert fixed["target"] == ["michigan"]  # a single hand: the engine refuses any target


@pytest.mark.parametrize(
    ("preset", "seats"), [("oklahoma", 5), ("oklahoma-jokers", 1), ("five-thousand", 9)]
)
def test_creating_a_table_with_the_wrong_number_of_seats_is_refused(alice, preset, seats):
    with pytest.raises(shared.TableError) as refused:
        tables.table_create(
            host=alice,
            name="Too many",
            preset=preset,
            options={},
            num_seats=seats,
            turn_seconds=60,
        )
    assert refused.value.code == "invalid_seats"
    assert "players" in str(refused.value)
    assert not Table.objects.filter(name="Too many").exists()
