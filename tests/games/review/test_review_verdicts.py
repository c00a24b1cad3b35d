"""The reviewer's verdicts: a discard that hands the next player the pile, forced moves,
determinism, thresholds and the accuracy figure."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.review import (
    Budget,
    Thresholds,
    accuracy,
    move_accuracy,
    review_decision,
    review_game,
    verdict,
)

ACES_FOR_THE_NEXT_PLAYER = dict(
    hands={
        0: ["AC", "2D", "4C", "6S", "8D", "TC", "JS"],
        1: ["AH", "3S", "5H", "7C", "9H", "JH", "KD"],
    },
    pile=["AD", "5S", "9C"],
    known={1: ["AH"]},
)


def _after_drawing(scripted) -> engine.HandState:
    state = scripted(**ACES_FOR_THE_NEXT_PLAYER)
    state, _events = engine.apply(state, engine.DrawStock(0))
    return state


def test_a_discard_that_hands_the_next_player_the_pile_is_a_mistake(scripted):
    # The next player is known to hold the ace of hearts and the ace of diamonds lies in the
    # pile: throwing the ace of clubs lets them take the pile down to it and meld three aces.
    state = _after_drawing(scripted)
    decision = review_decision(engine.view(state, 0), engine.Discard(0, "AC"), random.Random(5))
    assert decision.verdict == "mistake"
    assert 25 < decision.loss <= 50
    assert decision.low > 0
    assert decision.best is not None and decision.best.card != "AC"


def test_a_harmless_discard_in_the_same_position_is_not_marked(scripted):
    state = _after_drawing(scripted)
    decision = review_decision(engine.view(state, 0), engine.Discard(0, "JS"), random.Random(5))
    assert decision.verdict == "good"


def test_a_forced_move_is_never_marked_even_with_zero_thresholds(scripted):
    state = scripted(**ACES_FOR_THE_NEXT_PLAYER)
    assert engine.legal_actions(state, 0) == [engine.DrawStock(0)]
    eager = Budget(thresholds=Thresholds(0, 0, 0))
    decision = review_decision(engine.view(state, 0), engine.DrawStock(0), random.Random(1), eager)
    assert decision.verdict == "forced"
    assert decision.loss == 0 and decision.best is None


def test_forced_moves_do_not_count_in_accuracy(bot_hand):
    final = bot_hand(seed=11)
    review = review_game([final], [0], seed=1, budget=Budget(deals=6, confirm_deals=6))
    decisions = review["hands"][0]["decisions"]
    forced = [d for d in decisions if d["verdict"] == "forced"]
    weighed = [d for d in decisions if d["verdict"] != "forced"]
    assert forced and weighed
    player = review["players"][0]
    assert player["decisions"] == len(weighed)
    assert player["accuracy"] == accuracy(d["loss"] for d in weighed)


def test_a_move_not_legal_in_the_view_is_refused(scripted):
    state = _after_drawing(scripted)
    with pytest.raises(ValueError, match="not a legal move"):
        review_decision(engine.view(state, 0), engine.Discard(0, "KD"), random.Random(1))


def test_the_review_is_deterministic_for_a_seed(bot_hand):
    final = bot_hand(seed=4)
    budget = Budget(deals=6, confirm_deals=6)
    assert review_game([final], [1], seed=9, budget=budget) == review_game(
        [final], [1], seed=9, budget=budget
    )


def test_verdict_needs_the_interval_above_zero_and_grows_with_the_loss():
    assert verdict(60, -1) == "good"
    assert verdict(9, 1) == "good"
    assert verdict(11, 1) == "inaccuracy"
    assert verdict(30, 1) == "mistake"
    assert verdict(51, 1) == "blunder"
    assert verdict(30, 1, Thresholds(40, 45, 90)) == "good"


def test_thresholds_must_grow():
    with pytest.raises(ValueError, match="grow"):
        Thresholds(30, 20, 50)


def test_accuracy_is_the_mean_per_move_accuracy():
    assert move_accuracy(0) == 100
    assert round(move_accuracy(25), 1) == 36.8
    assert accuracy([0, 25]) == round((100 + 36.79) / 2, 1)
    assert accuracy([]) is None


def test_the_three_costliest_decisions_name_the_better_move(bot_hand):
    final = bot_hand(seed=11)
    review = review_game([final], [0], seed=1, budget=Budget(deals=6, confirm_deals=6))
    costliest = review["players"][0]["costliest"]
    assert len(costliest) <= 3
    losses = [d["loss"] for d in costliest]
    assert losses == sorted(losses, reverse=True)
    assert all(d["best_text"] for d in costliest)
