"""Laying off on any meld, credit to the player who lays off, and the final choice (Ruling 7)."""

import pytest

from games.engine import DrawStock, IllegalAction, LayOff, apply, hand_result, legal_actions
from tests.engine.helpers import arrange, play


def test_a_card_extends_either_end_of_any_players_run():
    state = arrange(hands={1: "4H 8H 2C 9D KS QD 3S"}, melds=[(0, "5H 6H 7H")])
    state = play(state, DrawStock(1), LayOff(1, "4H", 1), LayOff(1, "8H", 1))
    meld = state.melds[0]
    assert meld.cards == ("4H", "5H", "6H", "7H", "8H")
    assert meld.owners == (1, 0, 0, 0, 1)


def test_a_laid_off_card_scores_for_the_player_who_laid_it_off():
    state = arrange(hands={1: "8H 2C"}, melds=[(0, "5H 6H 7H")], stock="3S")
    state = play(state, DrawStock(1), LayOff(1, "8H", 1))
    result = hand_result(state)
    assert result.seats[0].melded == 18
    assert result.seats[1].melded == 8


def test_the_fourth_card_of_a_group_may_be_laid_off_but_not_a_repeated_suit():
    state = arrange("standard", 5, hands={1: "9H 9C 2C 4D KS QD 3S"}, melds=[(0, "9C 9S 9D")])
    state = play(state, DrawStock(1))
    assert LayOff(1, "9H", 1) in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="does not fit meld 1"):
        apply(state, LayOff(1, "9C", 1))


def test_the_hearts_nine_goes_where_the_player_says_and_stays_there():
    """[001]: C may add the 9♥ to the heart run or to the nines; the choice then decides the 10♥."""
    table = [(0, "5H 6H 7H 8H"), (1, "9C 9S 9D")]
    to_run = arrange(hands={2: "9H 2C 4D"}, melds=table, to_move=2, filler=5)
    to_run = play(to_run, DrawStock(2))
    assert {LayOff(2, "9H", 1), LayOff(2, "9H", 2)} <= set(legal_actions(to_run, 2))
    on_run = play(to_run, LayOff(2, "9H", 1))
    on_group = play(to_run, LayOff(2, "9H", 2))
    assert on_run.melds[0].cards[-1] == "9H"
    assert on_group.melds[1].cards[-1] == "9H"
    assert on_run.accepts().get("TH")
    assert not on_group.accepts().get("TH")


def test_an_ace_extends_a_run_low_or_high_but_not_around_the_corner():
    state = arrange(hands={1: "AH AS 2C 4D 8S QD 3S"}, melds=[(0, "2H 3H 4H"), (3, "JS QS KS")])
    state = play(state, DrawStock(1), LayOff(1, "AH", 1), LayOff(1, "AS", 2))
    assert state.melds[0].lo == 1 and state.melds[1].hi == 14
    assert not state.accepts().get("KH")


def test_a_lay_off_on_a_meld_that_does_not_exist_is_refused():
    state = play(arrange(hands={1: "8H 2C"}, melds=[(0, "5H 6H 7H")], stock="3S"), DrawStock(1))
    with pytest.raises(IllegalAction, match="no meld 2"):
        apply(state, LayOff(1, "8H", 2))
    empty = play(arrange(hands={1: "8H 2C"}, stock="3S"), DrawStock(1))
    with pytest.raises(IllegalAction, match="no melds on the table"):
        apply(empty, LayOff(1, "8H", 1))


def test_a_lay_off_that_does_not_fit_is_refused_with_the_meld_shown():
    state = play(arrange(hands={1: "9H 2C"}, melds=[(0, "5H 6H 7H")], stock="3S"), DrawStock(1))
    with pytest.raises(IllegalAction, match=r"9♥ does not fit meld 1 \(5♥, 6♥ and 7♥\)"):
        apply(state, LayOff(1, "9H", 1))
