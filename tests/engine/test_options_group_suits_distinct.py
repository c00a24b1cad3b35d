"""Option group_suits_distinct: groups hold different suits; off, still four at most (Ruling 2)."""

import pytest

from games.engine import DrawStock, IllegalAction, LayOff, Meld, apply, legal_actions
from tests.engine.helpers import arrange, play


def test_by_default_a_group_may_not_repeat_a_suit_even_with_two_packs():
    state = play(arrange("standard", 5, hands={1: "7H 7H 7S 2C"}, filler=7), DrawStock(1))
    with pytest.raises(IllegalAction, match="different suits"):
        apply(state, Meld(1, ("7H", "7H", "7S")))


def test_with_the_option_off_a_group_may_repeat_a_suit():
    state = arrange("standard", 5, hands={1: "7H 7H 7S 2C"}, filler=7, group_suits_distinct=False)
    state = play(state, DrawStock(1))
    assert Meld(1, ("7H", "7H", "7S")) in legal_actions(state, 1)
    state = play(state, Meld(1, ("7H", "7H", "7S")))
    assert state.melds[0].kind == "group"


def test_with_the_option_off_a_group_still_stops_at_four():
    state = arrange(
        "standard",
        5,
        hands={1: "7C 7D 2C"},
        melds=[(0, "7H 7H 7S 7S")],
        filler=7,
        group_suits_distinct=False,
    )
    state = play(state, DrawStock(1))
    with pytest.raises(IllegalAction, match="does not fit"):
        apply(state, LayOff(1, "7C", 1))
