"""Drawing: from the stock, or any card of the pile with the duty to use it (Rulings 5, 17)."""

import pytest

from games.engine import (
    DeclineDraw,
    Discard,
    DrawStock,
    IllegalAction,
    LayOff,
    Meld,
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
)
from tests.engine.helpers import arrange, play

HAND = "5H 6H 2C 9D KS QD 3S"


def test_it_draws_the_top_card_of_the_stock_into_the_hand():
    state = arrange(hands={1: HAND}, stock="9C 4D")
    after, events = apply(state, DrawStock(1))
    assert after.hands[1] == (*HAND.split(), "9C")
    assert after.stock[0] == "4D" and len(after.stock) == len(state.stock) - 1
    assert after.phase is Phase.PLAY
    assert [event.kind for event in events] == ["draw_stock"]
    assert "card" not in events[0].to_json()


def test_playing_before_drawing_is_refused():
    state = arrange(hands={1: HAND})
    with pytest.raises(IllegalAction, match="Draw first"):
        apply(state, Discard(1, "2C"))


def test_drawing_twice_in_a_turn_is_refused():
    state = play(arrange(hands={1: HAND}), DrawStock(1))
    with pytest.raises(IllegalAction, match="already drawn"):
        apply(state, DrawStock(1))


def test_only_the_seat_to_move_may_draw():
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(arrange(hands={1: HAND}), DrawStock(2))


def test_a_top_card_that_can_be_used_may_be_taken_and_must_be_used_first():
    state = play(arrange(hands={1: HAND}, discard="8C 7H"), TakeDiscard(1, 0))
    assert state.obligation is not None and state.obligation.card == "7H"
    with pytest.raises(IllegalAction, match="You took the 7♥ from the pile, so you must meld it"):
        apply(state, Discard(1, "2C"))
    state = play(state, Meld(1, ("5H", "6H", "7H")))
    assert state.obligation is None
    assert Discard(1, "2C") in legal_actions(state, 1)


def test_in_standard_a_top_card_that_cannot_be_used_may_not_be_taken():
    state = arrange(hands={1: HAND}, discard="7H 8C")
    assert legal_actions(state, 1) == [DrawStock(1), TakeDiscard(1, 1)]
    with pytest.raises(IllegalAction, match="may not take the 8♣"):
        apply(state, TakeDiscard(1, 0))


def test_a_deep_take_brings_every_card_above_the_chosen_one():
    state = arrange(hands={1: HAND}, discard="4C 7H 2D 9S")
    after, events = apply(state, TakeDiscard(1, 2))
    assert after.discard == ("4C",)
    assert after.hands[1][-3:] == ("7H", "2D", "9S")
    assert events[0].get("cards") == ("7H", "2D", "9S")
    assert after.obligation.card == "7H"


def test_the_chosen_card_must_be_in_the_very_next_play_and_the_others_are_free():
    state = arrange(hands={1: "5H 6H 2S 3S 4S KD QC"}, discard="4C 7H 2D 9S")
    state = play(state, TakeDiscard(1, 2))
    with pytest.raises(IllegalAction, match="7♥"):
        apply(state, Meld(1, ("2S", "3S", "4S")))
    state = play(state, Meld(1, ("5H", "6H", "7H")), Meld(1, ("2S", "3S", "4S")))
    assert Discard(1, "9S") in legal_actions(state, 1)
    assert Discard(1, "2D") in legal_actions(state, 1)


def test_the_chosen_card_may_be_melded_with_the_cards_taken_above_it():
    state = arrange(hands={1: HAND}, discard="4C 8S 9S TS")
    assert TakeDiscard(1, 2) in legal_actions(state, 1)
    state = play(state, TakeDiscard(1, 2), Meld(1, ("8S", "9S", "TS")))
    assert state.melds[0].cards == ("8S", "9S", "TS")


def test_the_chosen_card_may_be_used_as_a_lay_off_on_any_meld():
    state = arrange(hands={1: HAND}, melds=[(3, "TC JC QC")], discard="KC 4D")
    state = play(state, TakeDiscard(1, 1), LayOff(1, "KC", 1))
    assert state.melds[0].cards == ("TC", "JC", "QC", "KC")
    assert state.melds[0].owners == (3, 3, 3, 1)


def test_draw_options_list_the_stock_and_exactly_the_usable_depths():
    state = arrange(hands={1: HAND}, discard="7H 4C 8C KH 4D")
    # only the 7H makes a meld (with 5H 6H); the 4C, 8C, KH and 4D make none, even with the
    # cards above them
    options = legal_actions(state, 1)
    assert options == [DrawStock(1), TakeDiscard(1, 4)]
    assert DeclineDraw(1) not in options


def test_a_depth_beyond_the_pile_is_refused():
    state = play(arrange(hands={1: HAND}, discard="7H"), TakeDiscard(1, 0))
    state = play(state, Meld(1, ("5H", "6H", "7H")), Discard(1, "2C"))
    assert state.discard == ("2C",)
    with pytest.raises(IllegalAction, match="choose a depth from 0"):
        apply(state, TakeDiscard(2, 3))
