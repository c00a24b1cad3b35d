"""Bad input gets a clear reason and changes nothing."""

import pytest

from games.engine import (
    ClaimRummy,
    Discard,
    DrawStock,
    Float,
    IllegalAction,
    LayOff,
    Meld,
    PassClaim,
    SwitchJoker,
    TakeDiscard,
    action_from_json,
    apply,
    is_legal,
    legal_actions,
    state_to_json,
)
from tests.engine.helpers import arrange, play


def refused(state, action, reason):
    before = state_to_json(state)
    with pytest.raises(IllegalAction, match=reason) as error:
        apply(state, action)
    assert state_to_json(state) == before
    assert not is_legal(state, action)
    return error.value


@pytest.fixture
def drawn():
    state = arrange(hands={1: "5H 6H 7H 2C 9D KS QD"}, melds=[(0, "9C TC JC")], stock="3S")
    return play(state, DrawStock(1))


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (Discard(1, "ZZ"), "not a card code"),
        (Discard(1, "AS"), "You do not hold the A♠"),
        (Discard(2, "5H"), "not your turn"),
        (Discard(9, "5H"), "no seat 9"),
        (Discard(True, "5H"), "whole number"),
        (DrawStock(1), "already drawn"),
        (TakeDiscard(1, 0), "already drawn"),
        (Meld(1, ("5H", "6H", "9D")), "do not form a meld"),
        (Meld(1, ("5H", "ZZ", "7H")), "not a card code"),
        (Meld(1, ("5H", "6H", "7H"), ("5H", "6H")), "one for each card"),
        (Meld(1, ("5H", "6H", "7H"), ("5H", "6H", "JK")), "the card it stands for"),
        (Meld(1, "5H 6H 7H"), "list of card codes"),
        (Meld(1, ("5H", "6H", "7H"), ("5H", "6H", "8H")), "only stand for itself"),
        (LayOff(1, "5H", 1), "does not fit meld 1"),
        (LayOff(1, "KS", 5), "no meld 5"),
        (LayOff(1, "KS", "1"), "named by its number"),
        (LayOff(1, "KS", 1, "9S"), "only stand for itself"),
        (LayOff(1, "KS", 1, "nine"), "not a card a wild card"),
        (SwitchJoker(1, "KS", 1), "cannot be switched"),
        (ClaimRummy(2, 0), "right after a discard"),
        (PassClaim(2), "right after a discard"),
        (Float(1), "only float"),
        ("discard", "not a move"),
    ],
)
def test_a_malformed_move_is_refused_and_the_state_is_untouched(drawn, action, reason):
    error = refused(drawn, action, reason)
    assert error.reason.endswith(".") and len(error.reason) > 15


def test_a_forbidden_discard_is_refused_with_the_rule_named():
    state = arrange("jokers", hands={1: "2C 5D 9H KS 4C 7S 8D"}, discard="QH")
    state = play(state, TakeDiscard(1, 0))
    refused(state, Discard(1, "QH"), "alone from the pile this turn")


def test_a_move_in_the_wrong_phase_is_refused():
    state = arrange(hands={1: "5H 6H 7H 2C 9D KS QD"}, discard="9S")
    refused(state, Meld(1, ("5H", "6H", "7H")), "Draw first")
    refused(state, TakeDiscard(1, "0"), "whole number")
    refused(state, TakeDiscard(1, -1), "choose a depth")


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("draw", "JSON object"),
        ({}, "Unknown move type"),
        ({"type": "fly"}, "Unknown move type"),
        ({"type": "discard"}, "needs card"),
        ({"type": "discard", "card": "7H", "why": 1}, "no field why"),
        ({"type": "discard", "card": "7X"}, "not a card code"),
        ({"type": "discard", "card": 7}, "not a card code"),
        ({"type": "take_discard", "depth": "2"}, "whole number"),
        ({"type": "take_discard", "depth": True}, "whole number"),
        ({"type": "take_discard", "depth": -1}, "at least 0"),
        ({"type": "meld", "cards": []}, "non-empty list"),
        ({"type": "meld", "cards": "5H 6H 7H"}, "non-empty list"),
        ({"type": "meld", "cards": ["5H", "6H", "JK"], "reading": ["5H"]}, "one card for each"),
        ({"type": "meld", "cards": ["5H", "6H", "JK"], "reading": ["5H", "6H", "XX"]}, "stand for"),
        ({"type": "lay_off", "card": "8H", "meld": 0}, "at least 1"),
        ({"type": "lay_off", "card": "JK", "meld": 1, "reading": "JK"}, "stand for"),
        ({"type": "claim_rummy", "depth": 1.5}, "whole number"),
    ],
)
def test_malformed_json_moves_are_refused_with_a_reason(data, reason):
    with pytest.raises(IllegalAction, match=reason):
        action_from_json(data, 1)


def test_a_json_move_needs_an_integer_seat():
    with pytest.raises(IllegalAction, match="Seat must be"):
        action_from_json({"type": "draw_stock"}, "1")


def test_a_move_with_an_unhashable_field_is_still_refused_cleanly(drawn):
    legal_actions(drawn, 1)  # fills the cache that apply looks in first
    odd = Meld(1, ("5H", "6H", "7H"))
    object.__setattr__(odd, "reading", [["5H"], "6H", "7H"])
    refused(drawn, odd, "stands for")
