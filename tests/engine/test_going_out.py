"""Going out: by melding the last cards or discarding the last card (Ruling 8)."""

import pytest

from games.engine import (
    Discard,
    DrawStock,
    IllegalAction,
    LayOff,
    Meld,
    Phase,
    TakeDiscard,
    apply,
    hand_result,
    legal_actions,
)
from tests.engine.helpers import arrange, kinds, play


def test_melding_the_last_cards_ends_the_hand_at_once():
    state = play(arrange(hands={1: "5H 6H"}, stock="7H"), DrawStock(1))
    state, events = apply(state, Meld(1, ("5H", "6H", "7H")))
    assert state.phase is Phase.HAND_OVER
    assert state.to_act == ()
    assert state.end.reason == "went_out" and state.end.seat == 1
    assert kinds(events) == ["meld", "hand_over"]
    assert hand_result(state).went_out == 1


def test_discarding_the_last_card_ends_the_hand_with_no_rummy_call():
    state = arrange(hands={1: "5H 6H 7H KD"}, melds=[(0, "9C TC JC")], stock="QC", rummy_call=True)
    state = play(state, DrawStock(1), Meld(1, ("5H", "6H", "7H")), LayOff(1, "QC", 1))
    state, events = apply(state, Discard(1, "KD"))
    assert state.phase is Phase.HAND_OVER
    assert "claim_window" not in kinds(events)


def test_nothing_may_be_played_once_the_hand_is_over():
    state = play(arrange(hands={1: "5H 6H"}, stock="7H"), DrawStock(1), Meld(1, ("5H", "6H", "7H")))
    assert legal_actions(state, 2) == []
    with pytest.raises(IllegalAction, match="The hand is over"):
        apply(state, DrawStock(2))


def test_a_play_that_leaves_only_a_kept_top_card_is_refused():
    state = arrange("jokers", hands={1: "5H 6H 7H"}, discard="KC", filler=7)
    state = play(state, TakeDiscard(1, 0))
    with pytest.raises(IllegalAction, match="holding only the K♣"):
        apply(state, Meld(1, ("5H", "6H", "7H")))
    assert Meld(1, ("5H", "6H", "7H")) not in legal_actions(state, 1)


def test_a_kept_top_card_may_be_melded_with_the_rest_to_go_out():
    state = arrange("jokers", hands={1: "5H 6H 7H"}, discard="8H", filler=7)
    state = play(state, TakeDiscard(1, 0), Meld(1, ("5H", "6H", "7H", "8H")))
    assert state.phase is Phase.HAND_OVER and state.end.reason == "went_out"
