"""Option top_discard_free: a lone top discard may be kept without using it (000, Ruling 5)."""

import pytest

from games.engine import Discard, IllegalAction, TakeDiscard, apply, legal_actions
from tests.engine.helpers import arrange, play

HAND = "2C 5D 9H KS 4C 7S 8D"


def test_with_the_option_the_lone_top_card_may_be_kept():
    state = arrange(hands={1: HAND}, discard="3H QH", top_discard_free=True)
    assert TakeDiscard(1, 0) in legal_actions(state, 1)
    state = play(state, TakeDiscard(1, 0), Discard(1, "2C"))
    assert "QH" in state.hands[2 - 1]


def test_without_it_the_lone_top_card_must_be_usable():
    state = arrange(hands={1: HAND}, discard="3H QH", top_discard_free=False)
    with pytest.raises(IllegalAction, match="may not take the Q♥"):
        apply(state, TakeDiscard(1, 0))


def test_a_deeper_card_still_carries_the_duty():
    state = arrange(hands={1: HAND}, discard="QH 3H", top_discard_free=True)
    with pytest.raises(IllegalAction, match="may not take the Q♥"):
        apply(state, TakeDiscard(1, 1))
