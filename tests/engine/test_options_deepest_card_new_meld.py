"""Option deepest_card_new_meld: the chosen card must start a new meld (002, Ruling 17)."""

import pytest

from games.engine import IllegalAction, LayOff, Meld, TakeDiscard, apply, legal_actions
from tests.engine.helpers import arrange, play


def test_a_card_that_could_only_be_laid_off_may_not_be_taken():
    state = arrange(
        hands={1: "2C 5D 9H KS 4C 7S 8D"},
        melds=[(0, "5H 6H 7H")],
        discard="8H",
        deepest_card_new_meld=True,
    )
    assert TakeDiscard(1, 0) not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="put it in a new meld"):
        apply(state, TakeDiscard(1, 0))


def test_the_duty_is_met_only_by_a_new_meld():
    state = arrange(
        hands={1: "9H TH 9D KS 4C 7S 8D"},
        melds=[(0, "5H 6H 7H")],
        discard="8H",
        deepest_card_new_meld=True,
    )
    state = play(state, TakeDiscard(1, 0))
    with pytest.raises(IllegalAction, match="new meld first"):
        apply(state, LayOff(1, "8H", 1))
    assert LayOff(1, "8H", 1) not in legal_actions(state, 1)
    state = play(state, Meld(1, ("8H", "9H", "TH")))
    assert state.obligation is None
