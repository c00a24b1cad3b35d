"""Bots in persian (they play for their side), throw-down and michigan (they call Stop)."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.bots import choose_action
from games.bots.rollout import estimate
from tests.engine.helpers import arrange, play, play_out


def _choose(level, state, seat, seed=1):
    legal = engine.legal_actions(state, seat)
    action = choose_action(level, engine.view(state, seat), legal, random.Random(seed))
    assert action in legal
    return action


def test_the_hard_bots_estimate_is_its_sides_score_against_the_other_side():
    for seed in range(3):
        final = play_out("persian", 4, seed)
        for seat in range(4):
            partner = (seat + 2) % 4
            assert estimate(final, seat) == estimate(final, partner)
            assert estimate(final, seat) == -estimate(final, (seat + 1) % 4)
        midway = arrange("persian", 4, hands={1: "KC KD KH 2C"}, phase="play")
        assert estimate(midway, 1) == estimate(midway, 3) == -estimate(midway, 0)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_meld_a_group_of_jokers_in_persian(level):
    # Three cards left in the stock: nobody holds melds back this late.
    state = arrange(
        "persian",
        4,
        hands={1: "JK JK JK 2C 7D 9H"},
        melds=[(0, "5C 5D 5H")],
        phase="play",
        stock="2S 3S 4D",
        exact_stock=True,
    )
    for _ in range(6):
        action = _choose(level, state, 1)
        if isinstance(action, engine.Discard):
            break
        state, _ = engine.apply(state, action)
    assert any(meld.kind == "jokers" for meld in state.melds)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_call_stop_on_a_discard_they_can_lay_off(level):
    state = arrange(
        "michigan",
        4,
        hands={1: "TH KC 3D", 3: "2C 2D QS 4H 9S"},
        melds=[(0, "7H 8H 9H")],
        phase="play",
    )
    state = play(state, engine.Discard(1, "TH"))
    state = play(state, engine.PassClaim(2), engine.PassClaim(0))
    assert state.to_act == (3,)
    assert _choose(level, state, 3) == engine.ClaimRummy(3, 0)
    state = play(state, engine.ClaimRummy(3, 0))
    assert _choose(level, state, 3) == engine.LayOff(3, "TH", 1)
    state = play(state, engine.LayOff(3, "TH", 1))
    assert isinstance(_choose(level, state, 3), engine.Discard)


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_take_from_a_scattered_pile_only_as_the_engine_allows(level):
    state = arrange(
        "throw-down",
        3,
        hands={1: "5H 5S 9H 9S 3C 4C QD"},
        discard="KH 5C 9D 2S",
        extra={"scatter": [0, 0b1, 0b10, 0b1]},
    )
    action = _choose(level, state, 1)
    assert action in engine.legal_actions(state, 1)
