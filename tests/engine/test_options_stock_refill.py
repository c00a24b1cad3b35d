"""Option stock_refill: the pile but its top card becomes a new stock (001, Ruling 19)."""

from collections import Counter

from games.engine import Discard, DrawStock, Phase, apply
from tests.engine.helpers import arrange, kinds, play


def last_card_state(**extra):
    return arrange(
        hands={1: "2C 5D 9H KS 4C 7S 8D"},
        stock="9C",
        exact_stock=True,
        stock_refill=True,
        extra=extra,
    )


def test_the_pile_but_its_top_card_is_shuffled_into_a_new_stock():
    state = play(last_card_state(), DrawStock(1))
    pile_before = state.discard
    state, events = apply(state, Discard(1, "9C"))
    assert kinds(events) == ["discard", "stock_refilled"]
    assert events[1].get("cards") == len(pile_before)
    assert state.discard == ("9C",)
    assert Counter(state.stock) == Counter(pile_before)
    assert state.stock != pile_before
    assert state.phase is Phase.DRAW and state.to_act == (2,)
    assert state.refills == 1


def test_the_refill_order_comes_from_the_hands_seed():
    one = play(last_card_state(), DrawStock(1), Discard(1, "9C"))
    two = play(last_card_state(), DrawStock(1), Discard(1, "9C"))
    assert one.stock == two.stock
    other_seed = play(last_card_state(seed=8), DrawStock(1), Discard(1, "9C"))
    assert other_seed.stock != one.stock


def test_a_second_refill_needs_a_card_melded_since_the_first():
    stalled = play(last_card_state(refills=1, melded_at_refill=0), DrawStock(1), Discard(1, "9C"))
    assert stalled.refills == 1 and stalled.stock == ()
    progressed = arrange(
        hands={1: "2C 5D 9H KS 4C 7S 8D"},
        melds=[(0, "JH QH KH")],
        stock="9C",
        exact_stock=True,
        stock_refill=True,
        extra={"refills": 1, "melded_at_refill": 0},
    )
    progressed = play(progressed, DrawStock(1), Discard(1, "9C"))
    assert progressed.refills == 2 and progressed.stock


def test_without_the_option_the_stock_stays_empty():
    state = arrange(hands={1: "2C 5D 9H KS 4C 7S 8D"}, stock="9C", exact_stock=True)
    state = play(state, DrawStock(1), Discard(1, "9C"))
    assert state.stock == ()
