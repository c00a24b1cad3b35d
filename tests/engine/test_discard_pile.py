"""The discard pile: order, what may be discarded after a take (Rulings 5, 6, 18)."""

import pytest

from games.engine import (
    Discard,
    DrawStock,
    IllegalAction,
    LayOff,
    Meld,
    SwitchJoker,
    TakeDiscard,
    apply,
    legal_actions,
    view,
)
from tests.engine.helpers import arrange, play


def test_discards_pile_up_in_order_and_everyone_sees_the_whole_pile():
    state = arrange(hands={1: "2C 5D 9H KS 4C 7S 8D"}, discard="QH JD")
    state = play(state, DrawStock(1), Discard(1, "9H"))
    assert state.discard == ("QH", "JD", "9H")
    assert view(state, 3)["discard"] == ["QH", "JD", "9H"]


def test_a_lone_top_card_kept_may_not_go_straight_back():
    state = arrange("jokers", hands={1: "2C 5D 9H KS 4C 7S 8D"}, discard="3D QH")
    state = play(state, TakeDiscard(1, 0))
    assert state.locked == "QH" and state.obligation is None
    with pytest.raises(IllegalAction, match="alone from the pile this turn"):
        apply(state, Discard(1, "QH"))
    assert Discard(1, "QH") not in legal_actions(state, 1)
    state = play(state, Discard(1, "2C"))
    assert "QH" in state.hands[1] and state.locked is None


def test_after_taking_several_the_card_that_was_on_top_may_be_discarded():
    state = arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="4C 7H 2D 9S")
    state = play(state, TakeDiscard(1, 2), Meld(1, ("5H", "6H", "7H")))
    assert Discard(1, "9S") in legal_actions(state, 1)
    state = play(state, Discard(1, "9S"))
    assert state.discard == ("4C", "9S")


def test_with_two_packs_the_other_copy_of_a_kept_card_may_be_discarded():
    state = arrange("jokers", 5, hands={1: "QH 5D 9H KS 4C 7S 8D"}, discard="3D QH")
    state = play(state, TakeDiscard(1, 0))
    assert state.hands[1].count("QH") == 2
    assert Discard(1, "QH") in legal_actions(state, 1)
    state = play(state, Discard(1, "QH"))
    assert state.hands[1].count("QH") == 1


def test_rummy_school_lets_the_bottom_card_wait_until_the_discard():
    state = arrange(
        "rummy-school",
        hands={1: "5H 6H 2S 3S 4S KD QC"},
        discard="4C 7H 2D 9S",
    )
    state = play(state, TakeDiscard(1, 2))
    assert state.obligation.timing == "this_turn"
    state = play(state, Meld(1, ("2S", "3S", "4S")))
    with pytest.raises(IllegalAction, match="7♥"):
        apply(state, Discard(1, "KD"))
    state = play(state, Meld(1, ("5H", "6H", "7H")))
    assert {Discard(1, "2D"), Discard(1, "9S")} <= set(legal_actions(state, 1))


def test_rummy_school_refuses_a_play_that_leaves_the_bottom_card_unusable():
    state = arrange(
        "rummy-school",
        hands={1: "8S 8D 2S 3S KD QC JC"},
        melds=[(0, "5D 6D 7D")],
        discard="9C 8H 2H",
    )
    state = play(state, TakeDiscard(1, 1))
    with pytest.raises(IllegalAction, match="no way to use the 8♥"):
        apply(state, LayOff(1, "8D", 1))
    assert LayOff(1, "8D", 1) not in legal_actions(state, 1)
    assert Meld(1, ("8D", "8H", "8S")) in legal_actions(state, 1)


def test_rummy_school_counts_a_joker_switch_as_using_the_bottom_card():
    state = arrange(
        "rummy-school",
        hands={1: "2C 5D 9H KS 4C 8D"},
        melds=[(0, "5S 6S JK", "5S 6S 7S")],
        discard="3D 7S 2D",
    )
    state = play(state, TakeDiscard(1, 1), SwitchJoker(1, "7S", 1))
    assert state.obligation is None
    assert "JK" in state.hands[1]
    assert state.melds[0].cards == ("5S", "6S", "7S")
    assert state.melds[0].owners == (0, 0, 1)


def test_a_discard_of_a_card_not_held_is_refused():
    state = play(arrange(hands={1: "2C 5D 9H KS 4C 7S 8D"}), DrawStock(1))
    with pytest.raises(IllegalAction, match="You do not hold the A♠"):
        apply(state, Discard(1, "AS"))


def test_the_kept_card_may_be_laid_off_and_then_the_lock_is_gone():
    state = arrange(
        "classic", 3, hands={1: "2C 5D 9H KS 4C 7S 8D"}, melds=[(0, "TC JC QC")], discard="3D KC"
    )
    state = play(state, TakeDiscard(1, 0), LayOff(1, "KC", 1))
    assert state.locked is None
