"""Option floating: meld everything and float instead of going out (002, Ruling 8)."""

import pytest

from games.engine import (
    Discard,
    DrawStock,
    Float,
    IllegalAction,
    LayOff,
    Meld,
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
)
from tests.engine.helpers import arrange, kinds, play


def test_melding_the_last_cards_makes_a_floater_not_a_winner():
    state = arrange(hands={1: "5H 6H"}, stock="7H", floating=True)
    state = play(state, DrawStock(1), Meld(1, ("5H", "6H", "7H")))
    assert state.phase is Phase.PLAY and state.hands[1] == ()
    assert legal_actions(state, 1) == [Float(1)]
    with pytest.raises(IllegalAction, match="float to end your turn"):
        apply(state, Discard(1, "7H"))
    state, events = apply(state, Float(1))
    assert kinds(events) == ["float"]
    assert state.phase is Phase.DRAW and state.to_act == (2,)


def test_floating_is_refused_with_cards_in_hand():
    state = play(arrange(hands={1: "5H 6H"}, stock="2C", floating=True), DrawStock(1))
    with pytest.raises(IllegalAction, match="only float when your hand is empty"):
        apply(state, Float(1))


def floating_turn(next_card="", discard=""):
    """Seat 0 discards; seat 1, with no cards, is then to draw ``next_card``."""
    state = arrange(
        hands={0: "4C 5C 2D", 1: ""},
        melds=[(0, "9S TS JS")],
        stock=next_card,
        discard=discard,
        phase="play",
        to_move=0,
        floating=True,
    )
    state = play(state, Discard(0, "4C"))
    assert state.floating_turn and state.to_act == (1,)
    return state


def test_a_floater_may_only_draw_from_the_stock():
    state = floating_turn("QS 8D")
    assert legal_actions(state, 1) == [DrawStock(1)]
    with pytest.raises(IllegalAction, match="floating"):
        apply(state, TakeDiscard(1, 0))


def test_a_floater_must_lay_off_a_playable_card_and_floats_on():
    state = play(floating_turn("QS 8D"), DrawStock(1))
    assert legal_actions(state, 1) == [LayOff(1, "QS", 1)]
    with pytest.raises(IllegalAction, match="fits a meld, so you must lay it off"):
        apply(state, Discard(1, "QS"))
    state = play(state, LayOff(1, "QS", 1), Float(1))
    assert state.phase is Phase.DRAW and state.to_act == (2,)


def test_a_floater_discards_an_unplayable_card_and_goes_out():
    state = play(floating_turn("2H 8D"), DrawStock(1))
    assert legal_actions(state, 1) == [Discard(1, "2H")]
    with pytest.raises(IllegalAction, match="floating"):
        apply(state, Meld(1, ("2H", "3H", "4H")))
    state = play(state, Discard(1, "2H"))
    assert state.phase is Phase.HAND_OVER and state.end.reason == "went_out"


def test_a_floater_facing_an_empty_stock_ends_the_hand():
    state = arrange(hands={0: "4C 5C", 1: ""}, stock="", phase="play", to_move=0, floating=True)
    state = play(state, Discard(0, "4C"))
    assert state.phase is Phase.HAND_OVER and state.end.reason == "cannot_draw"
