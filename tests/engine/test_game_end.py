"""The game: totals carried between hands, the target, ties playing on (Ruling 10)."""

import random

import pytest

from games.engine import (
    DrawStock,
    IllegalAction,
    Meld,
    Phase,
    RulesError,
    apply,
    finish_hand,
    game_outcome,
    hand_result,
    legal_actions,
    make_rules,
    new_game,
    start_hand,
)
from tests.engine.helpers import arrange, play, play_out


def test_the_game_goes_on_until_a_total_reaches_the_target():
    rules = make_rules()
    assert not game_outcome(rules, (499, 0, 120)).over
    outcome = game_outcome(rules, (500, 0, 120))
    assert outcome.over and outcome.winners == (0,)


def test_the_highest_total_wins_when_several_pass_the_target():
    outcome = game_outcome(make_rules(), (510, 620, 100))
    assert outcome.over and outcome.winners == (1,)


def test_a_tie_for_the_highest_total_plays_another_hand():
    outcome = game_outcome(make_rules(), (600, 600, 510))
    assert not outcome.over and outcome.winners == ()
    assert "another hand" in outcome.reason


def test_the_target_is_a_table_option():
    assert game_outcome(make_rules(target=200), (210, 0)).over
    assert not game_outcome(make_rules(target=1000), (800, 0)).over


def test_no_totals_means_no_outcome():
    assert not game_outcome(make_rules(), ()).over


def test_a_whole_game_carries_totals_and_passes_the_deal():
    rules = make_rules(target=150)
    game = new_game(rules, 3, dealer=2)
    seed = 0
    while not game.outcome.over:
        hand = start_hand(game, seed=seed)
        assert hand.dealer == game.dealer and hand.totals == game.totals
        done = play_out_hand(hand, seed)
        before = game
        game = finish_hand(game, done)
        assert game.dealer == (before.dealer + 1) % 3
        assert game.hands_played == before.hands_played + 1
        seed += 1
        assert seed < 200
    assert sum(map(sum, game.scores)) == sum(game.totals)
    assert game.to_json()["hands_played"] == game.hands_played
    with pytest.raises(IllegalAction, match="game is over"):
        start_hand(game)


def play_out_hand(hand, seed):
    chooser = random.Random(seed)
    while hand.phase is not Phase.HAND_OVER:
        seat = hand.to_act[0]
        hand, _events = apply(hand, chooser.choice(legal_actions(hand, seat)))
    return hand


def test_an_unfinished_or_foreign_hand_is_not_booked():
    game = new_game(make_rules(), 4, dealer=0)
    hand = start_hand(game, seed=1)
    with pytest.raises(IllegalAction, match="still being played"):
        finish_hand(game, hand)
    other = play_out("standard", 4, 3)
    with pytest.raises(IllegalAction, match="does not belong"):
        finish_hand(game, other)


def test_a_game_needs_a_valid_first_dealer():
    with pytest.raises(RulesError, match="dealer"):
        new_game(make_rules(), 4, dealer=4)


def test_going_out_early_can_end_the_game():
    state = arrange(hands={1: "5H 6H"}, stock="7H", totals=[0, 490, 0, 0], target=500)
    state = play(state, DrawStock(1), Meld(1, ("5H", "6H", "7H")))
    totals = hand_result(state).totals
    assert totals[1] == 508
    assert game_outcome(state.rules, totals).winners == (1,)
