"""Option boathouse: you must discard to go out (001, Ruling 8)."""

import pytest

from games.engine import (
    Discard,
    DrawStock,
    IllegalAction,
    Meld,
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
)
from tests.engine.helpers import arrange, play


def test_melding_every_card_is_refused():
    state = play(arrange(hands={1: "5H 6H"}, stock="7H", boathouse=True), DrawStock(1))
    with pytest.raises(IllegalAction, match="keep a card to discard"):
        apply(state, Meld(1, ("5H", "6H", "7H")))
    assert not any(isinstance(a, Meld) for a in legal_actions(state, 1))


def test_going_out_by_discarding_the_last_card_is_allowed():
    state = play(arrange(hands={1: "5H 6H 7H"}, stock="KD", boathouse=True), DrawStock(1))
    state = play(state, Meld(1, ("5H", "6H", "7H")), Discard(1, "KD"))
    assert state.phase is Phase.HAND_OVER and state.end.reason == "went_out"


def test_a_take_whose_only_use_would_empty_the_hand_is_refused():
    state = arrange(hands={1: "5H 6H"}, discard="7H", boathouse=True)
    assert TakeDiscard(1, 0) not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="keep a card to discard"):
        apply(state, TakeDiscard(1, 0))
    without = arrange(hands={1: "5H 6H"}, discard="7H")
    assert TakeDiscard(1, 0) in legal_actions(without, 1)
