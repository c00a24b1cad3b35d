"""An empty stock: play on from the pile until someone cannot or will not (Rulings 9, 19)."""

import pytest

from games.engine import (
    DeclineDraw,
    Discard,
    DrawStock,
    IllegalAction,
    Meld,
    Phase,
    TakeDiscard,
    apply,
    legal_actions,
)
from tests.engine.helpers import arrange, kinds, play

FULL_RUNS = [
    (0, "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"),
    (1, "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
    (0, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
]


def spades_only(preset="standard", num_seats=2, **options):
    """Every card but the spades is melded; the stock and the pile are empty; seat 1 to discard."""
    hands = {0: "2S 4S 6S 8S TS QS", 1: "AS 3S 5S 7S 9S JS KS"}
    if num_seats == 3:
        hands = {0: "2S 4S 6S 8S", 1: "AS 3S 5S 7S 9S JS KS", 2: "TS QS"}
    return arrange(
        preset, num_seats, hands=hands, melds=FULL_RUNS, stock="", phase="play", **options
    )


def test_with_an_empty_stock_the_player_may_take_from_the_pile_or_decline():
    state = play(spades_only(), Discard(1, "JS"))
    assert state.phase is Phase.DRAW and state.to_act == (0,)
    assert legal_actions(state, 0) == [TakeDiscard(0, 0), DeclineDraw(0)]
    with pytest.raises(IllegalAction, match="stock is empty"):
        apply(state, DrawStock(0))


def test_declining_to_take_ends_the_hand():
    state = play(spades_only(), Discard(1, "JS"))
    state, events = apply(state, DeclineDraw(0))
    assert state.phase is Phase.HAND_OVER and state.end.reason == "declined"
    assert kinds(events) == ["decline_draw", "hand_over"]


def test_the_hand_ends_at_once_when_the_player_to_draw_cannot_take():
    state, events = apply(spades_only(), Discard(1, "KS"))
    assert state.phase is Phase.HAND_OVER
    assert state.end.reason == "cannot_draw" and state.end.seat == 0
    assert kinds(events) == ["discard", "hand_over"]


def test_declining_is_only_possible_with_an_empty_stock():
    state = arrange(hands={1: "2C 5D 9H KS 4C 7S 8D"})
    with pytest.raises(IllegalAction, match="only decline"):
        apply(state, DeclineDraw(1))


def test_a_card_taken_from_the_pile_with_an_empty_stock_must_be_used_at_once():
    state = play(spades_only("classic", 3), Discard(1, "JS"))
    state = play(state, TakeDiscard(2, 0))
    assert state.locked is None
    assert state.obligation.timing == "next_play" and state.obligation.card == "JS"
    assert legal_actions(state, 2) == [Meld(2, ("TS", "JS", "QS"))]


def test_in_rummy_school_the_hand_ends_after_the_turn_that_drew_the_last_card():
    state = arrange("rummy-school", hands={1: "2C 5D 9H KS 4C 7S 8D"}, stock="9C", exact_stock=True)
    state = play(state, DrawStock(1))
    assert state.stock == () and state.last_stock_drawn
    assert state.phase is Phase.PLAY
    state, events = apply(state, Discard(1, "9C"))
    assert state.phase is Phase.HAND_OVER and state.end.reason == "last_stock_card"
    assert kinds(events) == ["discard", "hand_over"]
