"""Bots under the house rules that change what a move is: Rummy calls, floating, pile duties."""

from __future__ import annotations

import random

import pytest

from games import bots, engine
from games.bots import choose_action
from games.bots.legal import sort_legal
from games.engine import DrawStock, LayOff
from tests.engine.helpers import arrange, play

OTHER = ["QH", "QD", "JH", "JS", "TS", "TH", "9D"]


def _choose(level, state, seat, seed=1):
    legal = engine.legal_actions(state, seat)
    action = choose_action(level, engine.view(state, seat), legal, random.Random(seed))
    assert action in legal
    return action


def _claim_window(scripted, *, last_only=False):
    """Seat 0 throws the 8♥, which fits the 5♥ 6♥ 7♥ on the table: seat 1 may call Rummy."""
    state = scripted(
        hands={0: ["8H", "2C", "3D", "9S", "4C", "6D", "TC"], 1: OTHER},
        pile=["4S"],
        melds=[(0, ["5H", "6H", "7H"])],
        rummy_call=True,
        rummy_last_discard_only=last_only,
    )
    state, _ = engine.apply(state, engine.DrawStock(0))
    state, _ = engine.apply(state, engine.Discard(0, "8H"))
    assert state.phase is engine.Phase.CLAIM
    assert state.to_act == (1,)
    return state


@pytest.mark.parametrize("level", ["medium", "hard"])
@pytest.mark.parametrize("last_only", [False, True])
def test_it_calls_rummy_on_a_discard_it_can_lay_off(scripted, level, last_only):
    state = _claim_window(scripted, last_only=last_only)
    action = _choose(level, state, 1)
    assert action == engine.ClaimRummy(1, 0)
    state, _ = engine.apply(state, action)
    assert _choose(level, state, 1) == engine.LayOff(1, "8H", 1)


def test_the_easy_bot_calls_rummy_only_now_and_then(scripted):
    state = _claim_window(scripted)
    choices = {_choose("easy", state, 1, seed) for seed in range(40)}
    assert choices == {engine.ClaimRummy(1, 0), engine.PassClaim(1)}


@pytest.mark.parametrize("level", bots.LEVELS)
def test_it_passes_when_it_cannot_call(scripted, level):
    state = scripted(
        hands={0: ["8C", "2C", "3D", "9S", "4C", "6D", "TC"], 1: OTHER},
        pile=["4S"],
        melds=[(0, ["5H", "6H", "7H"])],
        rummy_call=True,
    )
    state, _ = engine.apply(state, engine.DrawStock(0))
    state, _ = engine.apply(state, engine.Discard(0, "TC"))
    assert state.phase is not engine.Phase.CLAIM or _choose(level, state, 1) == engine.PassClaim(1)


def _with_stock_top(state, card):
    new = state.copy()
    new.stock = (card, *[other for other in state.stock if other != card])
    return new


@pytest.mark.parametrize("level", bots.LEVELS)
def test_it_melds_everything_and_floats(scripted, level):
    state = scripted(
        hands={0: ["KC", "KD", "KS", "4H", "5H"], 1: OTHER}, pile=["2D"], floating=True
    )
    state, _ = engine.apply(_with_stock_top(state, "6H"), engine.DrawStock(0))
    for _ in range(2):
        state, _ = engine.apply(state, _choose(level, state, 0))
    assert state.hands[0] == ()
    assert state.phase is engine.Phase.PLAY
    assert _choose(level, state, 0) == engine.Float(0)


@pytest.mark.parametrize("level", bots.LEVELS)
def test_a_floating_bot_lays_off_the_card_it_draws(scripted, level):
    state = scripted(
        hands={0: [], 1: OTHER},
        pile=["2D"],
        melds=[(1, ["4H", "5H", "6H"])],
        floating=True,
    )
    state = _with_stock_top(state, "7H")
    state.floating_turn = True
    assert engine.legal_actions(state, 0) == [engine.DrawStock(0)]
    state, _ = engine.apply(state, engine.DrawStock(0))
    assert _choose(level, state, 0) == engine.LayOff(0, "7H", 1)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_after_a_deep_take_it_uses_the_card_it_chose(scripted, level):
    state = scripted(
        hands={0: ["9H", "9S", "2C", "3D", "4S", "5C", "6D", "7H", "8S", "TC", "2D", "3S", "4C"]},
        pile=["9C", "KD", "AC", "AD", "QS", "QC"],
    )
    action = _choose(level, state, 0)
    assert isinstance(action, engine.TakeDiscard) and action.depth >= 2
    state, _ = engine.apply(state, action)
    duty = state.obligation.card
    play = _choose(level, state, 0)
    cards = getattr(play, "cards", None) or (play.card,)
    assert duty in cards


@pytest.mark.parametrize("level", bots.LEVELS)
def test_under_boathouse_it_keeps_a_card_to_discard(scripted, level):
    state = scripted(
        hands={0: ["KC", "KD", "KS", "4H", "5H", "6H"], 1: OTHER},
        pile=["2D"],
        boathouse=True,
    )
    state, _ = engine.apply(_with_stock_top(state, "7H"), engine.DrawStock(0))
    for _ in range(6):
        if state.phase is engine.Phase.HAND_OVER or state.to_act != (0,):
            break
        state, _ = engine.apply(state, _choose(level, state, 0))
    assert state.phase is engine.Phase.HAND_OVER
    assert state.end.reason == "went_out"
    assert state.history[-2].kind == "discard"


def test_every_bot_lays_a_both_ends_ace_at_the_high_end():
    """Ruling 1: the bots keep the high end of a 2..K run, which never scores less."""
    twelve = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"
    state = arrange("standard", 2, hands={1: "AC KD"}, melds=[(0, twelve)], filler=13)
    state = play(state, DrawStock(1))
    legal = engine.legal_actions(state, 1)
    low = LayOff(1, "AC", 1, None, "low")
    assert low in legal
    assert low not in sort_legal(legal).actions
    assert LayOff(1, "AC", 1) in sort_legal(legal).layoffs
    for level in bots.LEVELS:
        for seed in range(8):
            action = choose_action(level, engine.view(state, 1), legal, random.Random(seed))
            assert action != low, level
