"""Wild jokers: declared by order, fixed for good, never a fifth card (Rulings 3, 4, 20)."""

import pytest

from games.engine import (
    DrawStock,
    IllegalAction,
    LayOff,
    Meld,
    SwitchJoker,
    apply,
    hand_result,
    legal_actions,
)
from tests.engine.helpers import arrange, play


def drawn(preset="jokers", **kwargs):
    return play(arrange(preset, **kwargs), DrawStock(kwargs.get("to_move", 1)))


def test_laying_cards_in_order_declares_the_joker():
    state = drawn(hands={1: "6C 7C JK 2D 9H KS QD"})
    state = play(state, Meld(1, ("6C", "7C", "JK")))
    assert state.melds[0].reading == ("6C", "7C", "8C")


def test_a_fixed_joker_is_never_read_again_to_make_room():
    state = drawn(hands={1: "5C 9C 4C 2D"}, melds=[(0, "6C 7C JK", "6C 7C 8C")], filler=7)
    options = set(legal_actions(state, 1))
    assert {LayOff(1, "5C", 1), LayOff(1, "9C", 1)} <= options
    with pytest.raises(IllegalAction, match="4♣ does not fit"):
        apply(state, LayOff(1, "4C", 1))


def test_a_nine_with_two_jokers_is_asked_and_offered_in_four_readings():
    state = drawn(hands={1: "9D JK JK 2C 5H KS QC"})
    with pytest.raises(IllegalAction, match="more than one way"):
        apply(state, Meld(1, ("9D", "JK", "JK")))
    offered = {a.reading for a in legal_actions(state, 1) if isinstance(a, Meld)}
    assert offered >= {
        ("9D", "9*", "9*"),
        ("7D", "8D", "9D"),
        ("8D", "9D", "TD"),
        ("9D", "TD", "JD"),
    }
    group = play(state, Meld(1, ("9D", "JK", "JK"), ("9D", "9*", "9*")))
    assert group.melds[0].kind == "group"


def test_a_group_joker_stands_for_the_rank_so_any_new_suit_may_join():
    state = drawn(hands={1: "9S 9C 2C 5H"}, melds=[(0, "9D JK JK", "9D 9* 9*")], filler=7)
    assert {LayOff(1, "9S", 1), LayOff(1, "9C", 1)} <= set(legal_actions(state, 1))
    state = play(state, LayOff(1, "9S", 1))
    assert len(state.melds[0].cards) == 4
    assert not state.accepts().get("9C")


def test_there_is_no_fifth_king_for_a_joker():
    state = drawn(hands={1: "KC KD KH KS JK 2C 3D"})
    with pytest.raises(IllegalAction, match="at most four"):
        apply(state, Meld(1, ("KC", "KD", "KH", "KS", "JK")))
    full = drawn(hands={1: "JK 2C 3D"}, melds=[(0, "KC KD KH KS")], filler=7)
    assert not any(isinstance(a, LayOff) for a in legal_actions(full, 1))


def test_a_meld_needs_a_natural_card():
    state = drawn(num_seats=5, hands={1: "JK JK JK 2C"}, filler=7)
    with pytest.raises(IllegalAction, match="natural"):
        apply(state, Meld(1, ("JK", "JK", "JK")))


def test_a_joker_may_stand_for_a_card_already_on_the_table():
    state = drawn(hands={1: "6C 7C JK 2D 9H KS QD"}, melds=[(0, "8C 8D 8H")])
    state = play(state, Meld(1, ("6C", "7C", "JK")))
    assert state.melds[1].reading[-1] == "8C"


def test_a_joker_laid_off_on_an_open_run_must_say_which_end():
    state = drawn(hands={1: "JK 2C 5D"}, melds=[(0, "5H 6H 7H")], filler=7)
    with pytest.raises(IllegalAction, match="which end"):
        apply(state, LayOff(1, "JK", 1))
    offered = {a for a in legal_actions(state, 1) if isinstance(a, LayOff)}
    assert offered == {LayOff(1, "JK", 1, "4H"), LayOff(1, "JK", 1, "8H")}
    state = play(state, LayOff(1, "JK", 1, "4H"))
    assert state.melds[0].reading[0] == "4H"


def test_a_joker_cannot_stand_for_a_card_the_meld_has_no_room_for():
    state = drawn(hands={1: "JK 2C 5D"}, melds=[(0, "5H 6H 7H")], filler=7)
    with pytest.raises(IllegalAction, match="cannot stand for the 9♥"):
        apply(state, LayOff(1, "JK", 1, "9H"))


def test_jokers_score_fifteen_melded_or_in_hand_in_the_jokers_preset():
    state = drawn(hands={1: "6C 7C JK JK 2C"}, filler=7, stock="3S")
    state = play(state, Meld(1, ("6C", "7C", "JK")))
    seat = hand_result(state).seats[1]
    assert seat.melded == 6 + 7 + 15
    assert seat.in_hand == 15 + 2 + 3


def test_in_rummy_school_a_melded_joker_is_worth_the_card_it_stands_for():
    state = drawn("rummy-school", hands={1: "9H JK JH AS 2C"}, filler=7, stock="3S")
    state = play(state, Meld(1, ("9H", "JK", "JH")))
    seat = hand_result(state).seats[1]
    assert seat.melded == 9 + 10 + 10
    assert seat.in_hand == 15 + 2 + 3


def test_joker_switching_gives_the_joker_to_the_player_in_rummy_school():
    state = drawn(
        "rummy-school", hands={1: "8C 2D 5H"}, melds=[(0, "6C 7C JK", "6C 7C 8C")], filler=7
    )
    assert SwitchJoker(1, "8C", 1) in legal_actions(state, 1)
    state = play(state, SwitchJoker(1, "8C", 1))
    assert state.melds[0].cards == ("6C", "7C", "8C")
    assert state.melds[0].owners == (0, 0, 1)
    assert "JK" in state.hands[1] and "8C" not in state.hands[1]


def test_a_group_joker_is_switched_by_a_nine_of_a_missing_suit():
    state = drawn(
        "rummy-school", hands={1: "9S 9D 2C"}, melds=[(0, "9C 9H JK", "9C 9H 9*")], filler=7
    )
    assert SwitchJoker(1, "9S", 1) in legal_actions(state, 1)
    state = play(state, SwitchJoker(1, "9S", 1))
    assert state.melds[0].cards == ("9C", "9H", "9S")


def test_jokers_are_switched_only_in_rummy_school():
    state = drawn(hands={1: "8C 2D 5H"}, melds=[(0, "6C 7C JK", "6C 7C 8C")], filler=7)
    assert not any(isinstance(a, SwitchJoker) for a in legal_actions(state, 1))
    with pytest.raises(IllegalAction, match="cannot be switched"):
        apply(state, SwitchJoker(1, "8C", 1))


def test_a_switch_needs_the_card_the_joker_stands_for():
    state = drawn(
        "rummy-school", hands={1: "9C 2D 5H"}, melds=[(0, "6C 7C JK", "6C 7C 8C")], filler=7
    )
    with pytest.raises(IllegalAction, match="no joker that the 9♣ can replace"):
        apply(state, SwitchJoker(1, "9C", 1))
