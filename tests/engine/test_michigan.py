"""Michigan Rummy [000]: running scores, one hand per game, and the "Stop" call.

The arranged tables give seat 1 the move; seat 0 has melded 7♥ 8♥ 9♥.
"""

from __future__ import annotations

import random

import pytest

from games.engine import (
    ClaimRummy,
    Discard,
    DrawStock,
    IllegalAction,
    LayOff,
    Meld,
    PassClaim,
    Phase,
    RulesError,
    apply,
    describe_action,
    finish_hand,
    game_outcome,
    hand_result,
    legal_actions,
    make_rules,
    new_game,
    start_hand,
    state_from_json,
    state_to_json,
    view,
)
from tests.engine.helpers import arrange, movers, play


def table(**kwargs):
    kwargs.setdefault("hands", {1: "TH KC 3D", 2: "4S 5S 6S 9C", 3: "JH 2C 2D QS"})
    return arrange("michigan", 4, melds=[(0, "7H 8H 9H")], phase="play", **kwargs)


# The preset -------------------------------------------------------------------------------------


def test_michigan_plays_like_standard_with_two_to_eight_players():
    rules = make_rules("michigan")
    assert rules.spec.min_players == 2 and rules.spec.max_players == 8
    assert rules.deal_size(2) == 13 and rules.deal_size(5) == 7 and rules.packs(5) == 2
    assert rules.claims_open and not rules.rummy_call


def test_a_target_rummy_call_or_thirty_point_rule_do_not_apply_to_one_hand():
    with pytest.raises(RulesError, match="single hand, so a target"):
        make_rules("michigan", target=300)
    with pytest.raises(RulesError, match="own Stop call"):
        make_rules("michigan", rummy_call=True)
    with pytest.raises(RulesError, match="thirty_point_rule"):
        make_rules("michigan", thirty_point_rule=True)


# Running scores ---------------------------------------------------------------------------------


def test_scores_run_during_the_hand_as_melds_are_made():
    state = table()
    assert view(state, 2)["running"] == [24, 0, 0, 0]
    state = arrange(
        "michigan",
        4,
        hands={2: "4S 5S 6S 9C"},
        melds=[(0, "7H 8H 9H")],
        to_move=2,
        phase="play",
    )
    state = play(state, Meld(2, ("4S", "5S", "6S")))
    assert view(state, 0)["running"] == [24, 0, 15, 0]
    assert "running" not in view(arrange("standard", 4), 0)


def test_going_michigan_the_others_subtract_their_hands_and_may_go_negative():
    state = arrange(
        "michigan",
        3,
        hands={0: "KC QD", 1: "5S 6S 7S", 2: "2H"},
        melds=[(0, "7H 8H 9H")],
        to_move=1,
        phase="play",
    )
    state = play(state, Meld(1, ("5S", "6S", "7S")))
    assert state.phase is Phase.HAND_OVER and state.end.reason == "went_out"
    result = hand_result(state)
    assert result.scores == (24 - 20, 18, -2)


# One hand is one game ----------------------------------------------------------------------------


def test_each_hand_is_a_complete_game_ranked_by_its_scores():
    rules = make_rules("michigan")
    game = new_game(rules, 3, 0)
    assert not game.outcome.over
    state = start_hand(game, seed=11)
    rng = random.Random(11)
    while state.phase is not Phase.HAND_OVER:
        seat = rng.choice(movers(state))
        state, _events = apply(state, rng.choice(legal_actions(state, seat)))
    game = finish_hand(game, state)
    outcome = game.outcome
    assert outcome.over and game.hands_played == 1
    best = max(game.totals)
    assert outcome.winners == tuple(s for s, t in enumerate(game.totals) if t == best)
    with pytest.raises(IllegalAction, match="game is over"):
        start_hand(game)


def test_tied_highest_scores_share_the_win_and_no_target_is_needed():
    rules = make_rules("michigan")
    assert game_outcome(rules, [-5, 12, 12]).winners == (1, 2)
    assert game_outcome(rules, [-5, 3, 1]).winners == (1,)
    assert not game_outcome(rules, [0, 0, 0], hands_played=0).over


# The Stop call ----------------------------------------------------------------------------------


def test_a_discard_that_fits_a_meld_opens_a_stop_window_for_the_others():
    state = play(table(), Discard(1, "TH"))
    assert state.phase is Phase.CLAIM
    assert state.claim.depths == (0,) and set(state.to_act) == {0, 2, 3}
    assert ClaimRummy(3, 0) in legal_actions(state, 3)
    with pytest.raises(IllegalAction, match="cannot call Stop on your own discard"):
        apply(state, ClaimRummy(1, 0))


def test_a_discard_that_fits_nothing_passes_the_turn_at_once():
    state = play(table(), Discard(1, "KC"))
    assert state.phase is Phase.DRAW and state.current == 2


def test_the_caller_lays_the_card_off_discards_and_play_returns_after_the_discarder():
    state = play(table(), Discard(1, "TH"), ClaimRummy(3, 0))
    assert state.current == 3 and state.obligation.timing == "stop"
    assert [type(a) for a in legal_actions(state, 3)] == [LayOff]
    with pytest.raises(IllegalAction, match="called Stop on the 10♥"):
        apply(state, Discard(3, "QS"))
    state = play(state, LayOff(3, "TH", 1))
    assert view(state, 0)["running"] == [24, 0, 0, 10]
    assert {type(a) for a in legal_actions(state, 3)} == {Discard}
    with pytest.raises(IllegalAction, match="now discard a card"):
        apply(state, Meld(3, ("2C", "2D", "QS")))
    state = play(state, Discard(3, "2C"))
    assert state.phase is Phase.DRAW and state.current == 2
    assert state.obligation is None


def test_stop_is_called_only_on_the_latest_discard():
    state = play(table(discard="6H 5C"), Discard(1, "TH"))
    assert state.claim.depths == (0,)
    with pytest.raises(IllegalAction, match="Stop may only be called on the latest discard"):
        apply(state, ClaimRummy(2, 2))  # the 6♥ fits the run too, but it is not the latest


def test_when_everyone_passes_the_next_player_draws():
    state = play(table(), Discard(1, "TH"), PassClaim(2), PassClaim(3), PassClaim(0))
    assert state.phase is Phase.DRAW and state.current == 2


def test_a_stop_caller_discarding_their_last_card_goes_out():
    state = table(hands={1: "TH KC 3D", 2: "4S 5S 6S 9C", 3: "5D"})
    state = play(state, Discard(1, "TH"), ClaimRummy(3, 0), LayOff(3, "TH", 1))
    state = play(state, Discard(3, "5D"))
    assert state.phase is Phase.HAND_OVER and state.end.seat == 3


def test_a_stop_turn_stores_replays_and_reads_well():
    state = play(table(), Discard(1, "TH"))
    assert describe_action(ClaimRummy(3, 0), ["A", "B", "C", "D"], state).startswith(
        "D called Stop and took the 10♥"
    )
    state = play(state, ClaimRummy(3, 0))
    assert state_from_json(state_to_json(state)) == state
    state = play(state, LayOff(3, "TH", 1))
    assert state_from_json(state_to_json(state)) == state
    state = play(state, Discard(3, "QS"), DrawStock(2))
    assert state_from_json(state_to_json(state), verify=False) == state
