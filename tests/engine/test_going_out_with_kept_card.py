"""Ruling 18, "unless it lets you go out": a play may leave only the kept top card in hand
when that card can then be played this turn in a way that ends the hand legally.

The lone top card taken under ``top_discard_free`` may not be discarded this turn, so a meld,
lay-off or switch that leaves it alone in hand is allowed only when the turn can still end with
the hand gone: laid off (not under ``boathouse``), switched for a joker that is then discarded,
or laid down to float (``floating``). After such a play the legal moves hold that way out.
"""

import pytest

from games.engine import (
    Discard,
    DrawStock,
    IllegalAction,
    LayOff,
    Meld,
    Phase,
    SwitchJoker,
    TakeDiscard,
    apply,
    legal_actions,
)
from games.engine.going_out import can_go_out_this_turn
from tests.engine.helpers import arrange, play


def _issue_example(preset: str = "jokers", **options):
    """Seat 0 holds the 10♣, the pile is 5♠ J♣, seat 1 has 7♣ 8♣ 9♣ down; seat 0 takes J♣."""
    state = arrange(
        preset,
        hands={0: "TC"},
        melds=[(1, "7C 8C 9C")],
        discard="5S JC",
        to_move=0,
        **options,
    )
    return play(state, TakeDiscard(0, 0))


def test_laying_off_ten_then_the_kept_jack_takes_seat_0_out():
    state = _issue_example()
    assert state.locked == "JC" and state.stock
    assert LayOff(0, "TC", 1) in legal_actions(state, 0)
    state = play(state, LayOff(0, "TC", 1))
    assert legal_actions(state, 0) == [LayOff(0, "JC", 1)]
    state = play(state, LayOff(0, "JC", 1))
    assert state.phase is Phase.HAND_OVER
    assert state.end.reason == "went_out" and state.end.seat == 0


def test_the_kept_card_still_may_not_be_discarded_this_turn():
    state = play(_issue_example(), LayOff(0, "TC", 1))
    with pytest.raises(IllegalAction, match="may not discard it"):
        apply(state, Discard(0, "JC"))


def test_a_meld_that_leaves_a_kept_nine_for_the_heart_run_is_allowed():
    state = arrange(
        "jokers",
        hands={0: "2S 2H 2D"},
        melds=[(1, "TH JH QH KH")],
        discard="5S 9H",
        to_move=0,
    )
    state = play(state, TakeDiscard(0, 0))
    meld = Meld(0, ("2D", "2H", "2S"))
    assert meld in legal_actions(state, 0)
    state = play(state, meld)
    assert LayOff(0, "9H", 1) in legal_actions(state, 0)
    state = play(state, LayOff(0, "9H", 1))
    assert state.end.reason == "went_out" and state.end.seat == 0


def test_a_play_leaving_a_kept_card_with_no_way_out_is_still_refused():
    state = arrange("jokers", hands={0: "TC"}, melds=[(1, "7C 8C 9C")], discard="5S KD", to_move=0)
    state = play(state, TakeDiscard(0, 0))
    with pytest.raises(IllegalAction, match=r"holding only the K♦.*no way to go out"):
        apply(state, LayOff(0, "TC", 1))
    assert [type(action) for action in legal_actions(state, 0)] == [Discard]


def test_under_boathouse_the_kept_card_cannot_be_the_last_card_laid_off():
    """Boathouse: a hand is never emptied by a lay-off, and the J♣ may not be discarded."""
    state = _issue_example(boathouse=True)
    with pytest.raises(IllegalAction, match="holding only the J♣"):
        apply(state, LayOff(0, "TC", 1))
    assert legal_actions(state, 0) == [Discard(0, "TC")]


def test_under_boathouse_a_switch_for_a_joker_then_its_discard_is_a_way_out():
    """rummy-school: the kept J♣ replaces the joker, and the joker is the last discard."""
    state = arrange(
        "rummy-school",
        hands={1: "5H 6H 7H"},
        melds=[(0, "9C TC JK", "9C TC JC")],
        discard="4S JC",
        boathouse=True,
    )
    state = play(state, TakeDiscard(1, 0))
    assert state.locked == "JC"
    meld = Meld(1, ("5H", "6H", "7H"))
    assert meld in legal_actions(state, 1)
    state = play(state, meld)
    assert SwitchJoker(1, "JC", 1) in legal_actions(state, 1)
    state = play(state, SwitchJoker(1, "JC", 1))
    assert Discard(1, "JK") in legal_actions(state, 1)
    state = play(state, Discard(1, "JK"))
    assert state.end.reason == "went_out" and state.end.seat == 1


def test_under_boathouse_without_a_joker_to_switch_the_meld_is_refused():
    state = arrange(
        "rummy-school",
        hands={1: "5H 6H 7H"},
        melds=[(0, "9C TC JC")],
        discard="4S QC",
        boathouse=True,
    )
    state = play(state, TakeDiscard(1, 0))
    with pytest.raises(IllegalAction, match="holding only the Q♣"):
        apply(state, Meld(1, ("5H", "6H", "7H")))


def test_with_floating_the_kept_card_is_laid_off_and_the_player_floats():
    state = _issue_example(floating=True)
    state = play(state, LayOff(0, "TC", 1), LayOff(0, "JC", 1))
    assert state.phase is Phase.PLAY and state.hands[0] == ()
    assert [type(action).__name__ for action in legal_actions(state, 0)] == ["Float"]


def test_with_floating_a_kept_card_that_fits_nothing_still_blocks_the_play():
    state = arrange(
        "jokers",
        hands={0: "TC"},
        melds=[(1, "7C 8C 9C")],
        discard="5S KD",
        to_move=0,
        floating=True,
    )
    state = play(state, TakeDiscard(0, 0))
    with pytest.raises(IllegalAction, match="holding only the K♦"):
        apply(state, LayOff(0, "TC", 1))


def test_rummy_school_kept_top_card_follows_the_same_rule():
    state = arrange(
        "rummy-school",
        hands={0: "TC"},
        melds=[(1, "7C 8C 9C")],
        discard="5S JC",
        to_move=0,
    )
    state = play(state, TakeDiscard(0, 0))
    assert state.locked == "JC"
    state = play(state, LayOff(0, "TC", 1), LayOff(0, "JC", 1))
    assert state.end.reason == "went_out" and state.end.seat == 0


def test_rummy_school_bottom_card_may_be_left_alone_when_it_goes_out():
    """The bottom card must be used this turn: leaving it alone is fine if it lays off."""
    state = arrange(
        "rummy-school",
        hands={0: "TC"},
        melds=[(1, "7C 8C 9C")],
        discard="5S JC",
        to_move=0,
        top_discard_free=False,
    )
    state = play(state, TakeDiscard(0, 0))
    assert state.obligation is not None and state.obligation.card == "JC"
    assert LayOff(0, "TC", 1) in legal_actions(state, 0)
    state = play(state, LayOff(0, "TC", 1))
    assert legal_actions(state, 0) == [LayOff(0, "JC", 1)]
    state = play(state, LayOff(0, "JC", 1))
    assert state.end.reason == "went_out"


def test_rummy_school_bottom_card_with_boathouse_has_no_way_out_so_it_cannot_be_taken():
    """Boathouse: laying off the 10♣ and then the J♣ would empty the hand without a discard."""
    state = arrange(
        "rummy-school",
        hands={0: "TC"},
        melds=[(1, "7C 8C 9C")],
        discard="5S JC",
        to_move=0,
        top_discard_free=False,
        boathouse=True,
    )
    with pytest.raises(IllegalAction, match="may not take the J♣"):
        apply(state, TakeDiscard(0, 0))


def test_after_every_allowed_play_the_turn_can_still_end():
    state = _issue_example()
    for action in legal_actions(state, 0):
        after = play(state, action)
        if after.phase is Phase.PLAY and after.current == 0 and after.hands[0] == ("JC",):
            assert can_go_out_this_turn(after, 0)


def test_a_drawn_card_leaves_nothing_kept_so_nothing_changes():
    state = arrange("jokers", hands={0: "TC"}, melds=[(1, "7C 8C 9C")], stock="KD", to_move=0)
    state = play(state, DrawStock(0), LayOff(0, "TC", 1))
    assert legal_actions(state, 0) == [Discard(0, "KD")]
