"""games.table.display: the table's parts as templates get them, built from one seat's view only."""

from __future__ import annotations

import json
import random

import pytest

from games import engine
from games.table import display


def dealt(seats: int = 3, dealer: int = 2, **hands) -> engine.HandState:
    rules = engine.make_rules("standard")
    deck = engine.stack_deck(
        rules, seats, dealer, hands={int(k[1:]): v for k, v in hands.items()}, upcard="9S"
    )
    return engine.new_hand(rules, seats, dealer, deck=deck)


def play(state: engine.HandState, *actions: engine.Action) -> engine.HandState:
    for action in actions:
        state, _ = engine.apply(state, action)
    return state


NAMES = ["Alice", "Bob", "Easy bot 3"]


def test_a_card_has_a_label_a_spoken_name_and_a_face_that_says_it():
    seven = display.card("7H")
    assert (seven["label"], seven["name"], seven["suit"]) == ("7♥", "seven of hearts", "hearts")
    assert 'aria-label="seven of hearts"' in seven["html"]
    assert "pcard-small" in seven["small_html"]
    ten = display.card("TS")
    assert ten["rank"] == "10" and ten["symbol"] == "♠"
    assert display.card("JK")["name"] == "joker"


def test_a_card_face_escapes_the_owner_name():
    melded = display.card("7H", owner_name='<img src=x onerror="alert(1)">')
    assert "<img" not in melded["html"]
    assert "&lt;img" in melded["html"]
    assert "scored by &lt;img" in melded["html"]


def test_cards_text_lists_cards_for_a_sentence():
    assert display.cards_text([]) == "no cards"
    assert display.cards_text(["7H"]) == "7♥"
    assert display.cards_text(["7H", "8C", "KD"]) == "7♥, 8♣ and K♦"


def test_a_pile_card_that_can_be_taken_is_a_button_naming_what_it_brings():
    view = {"discard": ["7H", "8C", "KD"], "preset": "standard", "scatter": []}
    pile = display.discard_pile(view, [{"type": "take_discard", "depth": 2}])
    assert [c["takeable"] for c in pile] == [True, False, False]
    assert pile[0]["button_html"] == (
        '<button type="button" class="pile-pick pcard pcard-hearts" data-depth="2"'
        ' data-kind="take_discard" data-take-text="the 7♥ and the 2 above it: 8♣ and K♦"'
        ' data-brings="2" aria-label="Take the seven of hearts and the 2 above it: eight of'
        ' clubs and king of diamonds"><span class="pcard-rank" aria-hidden="true">7</span>'
        '<span class="pcard-suit" aria-hidden="true">♥</span></button>'
    )
    claim = display.discard_pile(view, [{"type": "claim_rummy", "depth": 0}])[-1]
    assert 'data-kind="claim_rummy"' in claim["button_html"]
    assert 'aria-label="Call Rummy on the king of diamonds"' in claim["button_html"]


def test_my_hand_is_sorted_by_suit_and_knows_its_rank_order():
    state = dealt(s0=["KD", "2C", "7H", "AS", "7C", "QH", "3D"])
    hand = display.my_hand(engine.view(state, 0))
    assert [c["code"] for c in hand] == ["2C", "7C", "3D", "KD", "7H", "QH", "AS"]
    by_rank = sorted(hand, key=lambda c: c["rank_order"])
    assert [c["code"] for c in by_rank] == ["AS", "2C", "3D", "7C", "7H", "QH", "KD"]
    assert display.my_hand(engine.view(state, None)) == []


def test_players_show_sizes_scores_and_whose_move_but_only_public_cards():
    state = dealt(s0=["9C", "9D", "2S", "KD", "5H", "6H", "7H"])
    state = play(state, engine.TakeDiscard(0, 0))  # everyone saw Alice take the 9♠
    view = engine.view(state, 1)
    seats = [
        {"index": i, "name": n, "bot": "", "connected": True, "empty": False}
        for i, n in enumerate(NAMES)
    ]
    rows = display.players(view, seats, 1, [10, 20, 30])
    assert [r["hand_size"] for r in rows] == [8, 7, 7]
    assert [r["total"] for r in rows] == [10, 20, 30]
    assert rows[0]["to_act"] and rows[2]["is_dealer"] and rows[1]["is_me"]
    assert rows[1]["known"] == []
    # The 9♠ stays in everyone's record (history, ``known``) but does not lie face up in front
    # of Alice: discards_displayed is off (Ruling 13).
    assert view["public_cards"]["known"][0] == ["9S"]
    assert rows[0]["known"] == [] and rows[0]["displayed"] == []


def _displayed_table() -> engine.HandState:
    rules = engine.make_rules("standard", discards_displayed=True, top_discard_free=True)
    hands = {0: ["9C", "9D", "2S", "KD", "5H", "6H", "7H"]}
    deck = engine.stack_deck(rules, 3, 2, hands=hands, upcard="8S")
    return engine.new_hand(rules, 3, 2, deck=deck)


SEATS = [
    {"index": i, "name": n, "bot": "", "connected": True, "empty": False}
    for i, n in enumerate(NAMES)
]


def test_with_discards_displayed_a_kept_card_lies_face_up_in_front_of_its_taker_for_all():
    state = play(_displayed_table(), engine.TakeDiscard(0, 0), engine.Discard(0, "2S"))
    for viewer in (0, 1, 2, None):
        rows = display.players(engine.view(state, viewer), SEATS, viewer, None)
        assert [c["code"] for c in rows[0]["displayed"]] == ["8S"], viewer
        assert rows[1]["displayed"] == [] and rows[2]["displayed"] == []


def test_displayed_cards_leave_the_table_at_the_takers_next_turn():
    state = play(_displayed_table(), engine.TakeDiscard(0, 0), engine.Discard(0, "2S"))
    state = play(state, engine.DrawStock(1), engine.Discard(1, state.hands[1][0]))
    state = play(state, engine.DrawStock(2), engine.Discard(2, state.hands[2][0]))
    rows = display.players(engine.view(state, 1), SEATS, 1, None)
    assert rows[0]["displayed"] == []
    assert engine.view(state, 1)["public_cards"]["known"][0] == ["8S"]


def test_melds_mark_every_card_with_who_scores_it():
    state = dealt(s0=["9C", "9D", "2S", "KD", "5H", "6H", "7H"], s1=["8H", "3C"])
    state = play(
        state,
        engine.TakeDiscard(0, 0),
        engine.Meld(0, ("9C", "9D", "9S")),
        engine.Meld(0, ("5H", "6H", "7H")),
        engine.Discard(0, "2S"),
        engine.DrawStock(1),
        engine.LayOff(1, "8H", 2),
    )
    melds = display.table_melds(engine.view(state, None), NAMES)
    assert [m["id"] for m in melds] == [1, 2]
    run = melds[1]["cards"]
    assert [(c["code"], c["owner_name"]) for c in run][-1] == ("8H", "Bob")
    assert "eight of hearts, scored by Bob" in run[-1]["html"]


def test_the_obligation_is_told_to_its_owner_and_about_them_to_others():
    state = dealt(s0=["9C", "9D", "2S", "KD", "5H", "6H", "7H"])
    state = play(state, engine.TakeDiscard(0, 0))
    mine = display.obligation_text(engine.view(state, 0), NAMES)
    theirs = display.obligation_text(engine.view(state, 1), NAMES)
    assert mine.startswith("You took the 9♠")
    assert theirs == "Alice must use the 9♠ in a meld or lay it off."
    assert display.obligation_text(engine.view(dealt(), 0), NAMES) is None


def test_the_status_line_says_whose_move_it_is():
    state = dealt()
    assert display.status_text(engine.view(state, 0), NAMES, 0).startswith("Your turn: draw")
    assert display.status_text(engine.view(state, 1), NAMES, 1) == "Alice is drawing."
    state = play(state, engine.DrawStock(0))
    assert display.status_text(engine.view(state, None), NAMES, None) == "Alice is playing."


def test_the_log_tells_the_hand_in_words():
    state = play(dealt(), engine.DrawStock(0))
    lines = display.action_log(engine.view(state, 1), NAMES)
    assert lines[-1] == "Alice drew from the stock"
    assert display.last_event(engine.view(state, 1), NAMES) == "Alice drew from the stock"


def test_controls_follow_the_legal_moves():
    state = dealt()
    legal = [engine.action_to_json(a) for a in engine.legal_actions(state, 0)]
    drawing = display.controls(legal, engine.view(state, 0))
    assert drawing["draw"] and not drawing["playing"] and not drawing["discard"]
    state = play(state, engine.DrawStock(0))
    legal = [engine.action_to_json(a) for a in engine.legal_actions(state, 0)]
    playing = display.controls(legal, engine.view(state, 0))
    assert playing["playing"] and playing["discard"] and not playing["draw"]
    assert display.controls([], engine.view(state, 1))["any"] is False


def test_rare_moves_get_a_button_that_sends_exactly_the_legal_action():
    legal = [{"type": "pass_claim"}, {"type": "switch_joker", "card": "7H", "meld": 2}]
    extra = display.controls(legal, None)["extra"]
    assert [json.loads(x["json"]) for x in extra] == legal
    assert extra[1]["text"] == "Put the 7♥ in place of the joker in meld 2"


def test_the_hand_end_breakdown_lists_each_card_and_its_points():
    rng = random.Random(4)
    state = dealt()
    while state.phase is not engine.Phase.HAND_OVER:
        state = play(state, rng.choice(engine.legal_actions(state, state.to_act[0])))
    rows = display.breakdown(engine.view(state, 0), NAMES)
    result = engine.hand_result(state)
    assert [r["score"] for r in rows] == list(result.scores)
    for row, seat in zip(rows, result.seats, strict=True):
        assert sum(c["points"] for c in row["plus"]) == seat.melded
        assert -sum(c["points"] for c in row["minus"]) == seat.in_hand
    assert display.breakdown(engine.view(dealt(), 0), NAMES) == []


def test_the_score_sheet_has_one_row_per_hand_with_running_totals():
    first = {"seat": 0, "melded": 40, "in_hand": 5, "score": 35, "counted": 35, "total_after": 35}
    second = {"seat": 1, "melded": 0, "in_hand": 20, "score": -20, "counted": -20}
    result = {"seats": [first, {**second, "total_after": -20}]}
    rows = display.score_sheet([{"hand": 1, "result": result}], 2)
    assert rows == [
        {
            "hand": 1,
            "cells": [
                {"melded": 40, "in_hand": 5, "score": 35, "total": 35},
                {"melded": 0, "in_hand": 20, "score": -20, "total": -20},
            ],
        }
    ]


def test_standings_share_a_place_on_a_tie_and_mark_the_winner():
    rows = display.standings([520, 300, 300, 610], [3], ["A", "B", "C", "D"])
    assert [(r["place"], r["name"], r["winner"]) for r in rows] == [
        (1, "D", True),
        (2, "A", False),
        (3, "B", False),
        (3, "C", False),
    ]


def test_the_draw_for_dealer_is_told_round_by_round():
    lines = display.dealer_draw([[[0, "5S"], [1, "5H"]], [[0, "KD"], [1, "2C"]]], ["A", "B"])
    assert lines == ["Draw for dealer: A 5♠, B 5♥", "Tie, drawn again: A K♦, B 2♣"]


def test_rules_summary_lists_only_changed_house_rules_with_descriptions():
    rules = engine.make_rules("standard", rummy_call=True, target=300).to_json()
    summary = display.rules_summary(rules)
    assert {item["name"] for item in summary} == {"rummy_call", "target"}
    assert all(item["description"] == engine.OPTIONS[item["name"]].description for item in summary)
    assert display.rules_summary({"preset": "nonsense"}) == []


def test_a_finished_hand_replays_position_by_position_face_up():
    rng = random.Random(9)
    state = dealt()
    while state.phase is not engine.Phase.HAND_OVER:
        state = play(state, rng.choice(engine.legal_actions(state, state.to_act[0])))
    steps = display.replay_steps(state, NAMES)
    assert len(steps) == len(state.actions) + 1
    last = steps[-1]
    assert [[c["code"] for c in h["cards"]] for h in last["hands"]] == [
        list(hand) for hand in state.hands
    ]
    assert [c["code"] for c in last["discard"]] == list(state.discard)
    assert last["stock_count"] == len(state.stock)


def test_a_running_hand_cannot_be_replayed_face_up():
    with pytest.raises(ValueError):
        display.replay_steps(dealt(), NAMES)


def test_a_finished_games_bonus_gets_its_own_row_so_the_totals_add_up():
    last = {"seat": 0, "melded": 90, "in_hand": 0, "counted": 90, "total_after": 1040}
    other = {"seat": 1, "melded": 10, "in_hand": 30, "counted": -20, "total_after": 700}
    rows = display.score_sheet([{"hand": 7, "result": {"seats": [last, other]}}], 2, [1240, 700])
    assert rows[-1] == {
        "hand": "Game bonus",
        "game_bonus": True,
        "cells": [{"bonus": 200, "total": 1240}, None],
    }


def test_no_bonus_row_while_the_game_goes_on_or_when_it_added_nothing():
    seat = {"seat": 0, "melded": 60, "in_hand": 0, "counted": 60, "total_after": 520}
    rows = [{"hand": 4, "result": {"seats": [seat]}}]
    assert [r["hand"] for r in display.score_sheet(rows, 1)] == [4]
    assert [r["hand"] for r in display.score_sheet(rows, 1, [520])] == [4]


def test_the_score_table_shows_the_bonus_row_with_its_points_and_total():
    from django.template.loader import render_to_string

    last = {"seat": 0, "melded": 90, "in_hand": 0, "counted": 90, "total_after": 1040}
    rows = display.score_sheet([{"hand": 7, "result": {"seats": [last]}}], 1, [1240])
    html = render_to_string(
        "games/partials/score_table.html", {"score_sheet": rows, "columns": [{"name": "Ann"}]}
    )
    assert "Game bonus" in html and 'aria-label="game bonus 200, total 1240"' in html


def test_an_ace_that_fits_both_ends_of_a_run_is_offered_as_two_named_choices():
    """Ruling 1: the player says which end; each end is its own button with its move."""
    legal = [
        {"type": "lay_off", "card": "AC", "meld": 3},
        {"type": "lay_off", "card": "AC", "meld": 3, "ace_end": "low"},
        {"type": "discard", "card": "AC"},
    ]
    choices = display.controls(legal, {"phase": "play"})["ace_ends"]
    assert [c["text"] for c in choices] == [
        "Lay off the A♣ on meld 3 high, after the K♣",
        "Lay off the A♣ on meld 3 low, before the 2♣",
    ]
    assert [json.loads(c["json"]) for c in choices] == legal[:2]


def test_a_joker_standing_for_the_ace_is_named_by_the_card_it_stands_for():
    legal = [
        {"type": "lay_off", "card": "JK", "meld": 1, "reading": "AH"},
        {"type": "lay_off", "card": "JK", "meld": 1, "reading": "AH", "ace_end": "low"},
    ]
    texts = [c["text"] for c in display.ace_end_choices(legal)]
    assert texts == [
        "Lay off the Joker as the A♥ on meld 1 high, after the K♥",
        "Lay off the Joker as the A♥ on meld 1 low, before the 2♥",
    ]
    assert display.ace_end_choices([{"type": "lay_off", "card": "8H", "meld": 1}]) == []
