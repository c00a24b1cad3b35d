"""Stored hands: versioned JSON that round-trips, and loud refusal of anything else."""

import copy
import json

import pytest

from games.engine import (
    FORMAT,
    DrawStock,
    FormatError,
    Rules,
    TakeDiscard,
    make_rules,
    new_hand,
    state_from_json,
    state_to_json,
)
from tests.engine.helpers import arrange, play, play_out, random_states


def stored(state):
    return json.loads(json.dumps(state_to_json(state)))


def test_a_state_survives_a_trip_through_json_at_every_step():
    for state, _action in random_states("rummy-school", 3, seed=4, rummy_call=True):
        assert state_from_json(stored(state)) == state


def test_a_finished_hand_verifies_against_a_replay_of_its_moves():
    state = play_out("jokers", 5, seed=12, stock_refill=True)
    assert state_from_json(stored(state), verify=True) == state


def test_a_loaded_state_plays_on_like_the_original():
    state = play(arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="8C 7H"), TakeDiscard(1, 0))
    loaded = state_from_json(stored(state))
    assert loaded.obligation == state.obligation
    assert loaded.locked == state.locked


def test_the_format_is_versioned():
    data = stored(new_hand(make_rules(), 4, 0, seed=1))
    assert data["format"] == FORMAT == 1
    assert data["engine"] == "rummy500"


def corrupt(change):
    data = stored(play(new_hand(make_rules("jokers"), 4, 0, seed=1), DrawStock(1)))
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda d: d.update(format=2), "newer than this engine"),
        (lambda d: d.update(format=0), "never written"),
        (lambda d: d.update(format="1"), "Unknown stored-hand format"),
        (lambda d: d.pop("format"), "no 'format'"),
        (lambda d: d.update(engine="gin"), "not stored by the rummy500"),
        (lambda d: d.update(colour="red"), "Unknown keys"),
        (lambda d: d.pop("stock"), "Missing keys"),
        (lambda d: d["hands"][0].append("7H"), "do not add up"),
        (lambda d: d["hands"][0].__setitem__(0, "ZZ"), "card codes"),
        (lambda d: d.update(phase="dancing"), "Unknown phase"),
        (lambda d: d.update(to_act=[2]), "current seat"),
        (lambda d: d.update(num_seats=9), "played by"),
        (lambda d: d.update(rules={"preset": "poker", "options": {}}), "rules are not valid"),
        (lambda d: d.update(totals=[0, 0]), "one total per seat"),
        (lambda d: d.update(dealer=7), "out of range"),
        (lambda d: d.update(seed="x"), "whole number"),
        (lambda d: d.update(floating_turn="no"), "true or false"),
        (lambda d: d.update(obligation={"card": "7H"}), "obligation"),
        (lambda d: d.update(claim={"discarder": 0}), "claim"),
        (lambda d: d.update(history=[{"seat": 1}]), "events"),
        (lambda d: d.update(actions=[{"type": "fly", "seat": 0}]), "move is malformed"),
        (lambda d: d.update(actions=[{"type": "draw_stock"}]), "with a seat"),
        (lambda d: d.update(phase="hand_over"), "finished hand"),
        (lambda d: d.update(phase="claim"), "claim window"),
        (lambda d: d.update(phase="offer"), "not used"),
        (lambda d: d.update(locked=5), "'locked'"),
        (lambda d: d.update(hands="x"), "one hand per seat"),
        (lambda d: d.update(melds=[{"id": 1}]), "malformed"),
        (lambda d: d.update(on_board=[1]), "one flag per seat"),
        (lambda d: d.update(displayed=[]), "on show per seat"),
        (lambda d: d.update(to_act="1"), "list of seats"),
        (lambda d: d.update(melds="none"), "must be a list"),
        (lambda d: d.update(actions="none"), "list of moves"),
        (lambda d: d.update(deck=["2C"] * 54), "deal order"),
    ],
)
def test_corrupt_or_foreign_data_is_refused_with_a_clear_error(change, reason):
    with pytest.raises(FormatError, match=reason):
        state_from_json(corrupt(change))


def test_only_an_object_is_a_stored_hand():
    with pytest.raises(FormatError, match="JSON object"):
        state_from_json([1, 2])


def test_an_invalid_meld_in_storage_is_refused():
    data = stored(arrange(melds=[(0, "5H 6H 7H")]))
    bad = copy.deepcopy(data)
    bad["melds"][0]["cards"][2]["card"] = "9H"
    bad["melds"][0]["cards"][2]["as"] = "9H"
    with pytest.raises(FormatError):
        state_from_json(bad)
    repeated = stored(arrange("standard", 5, melds=[(0, "5H 5H 5S")], group_suits_distinct=False))
    repeated["rules"]["options"]["group_suits_distinct"] = True
    with pytest.raises(FormatError, match="repeats a suit"):
        state_from_json(repeated)


def test_tampering_that_keeps_the_cards_is_caught_by_verification():
    state = play_out("standard", 4, seed=3)
    data = stored(state)
    data["hands"][0], data["hands"][1] = data["hands"][1], data["hands"][0]
    state_from_json(data)
    with pytest.raises(FormatError, match="differs from a replay"):
        state_from_json(data, verify=True)


def test_stored_moves_that_do_not_replay_are_refused_on_verification():
    data = stored(play_out("standard", 3, seed=6))
    data["actions"][0] = {"seat": 1, "type": "decline_draw"}
    with pytest.raises(FormatError, match="do not replay"):
        state_from_json(data, verify=True)


def test_stored_rules_round_trip():
    rules = make_rules("classic", floating=True)
    assert Rules.from_json(stored(new_hand(rules, 3, 0, seed=1))["rules"]) == rules
