"""Options that the engine only carries: the target and the claim window's length."""

from games.engine import game_outcome, make_rules, new_hand, view


def test_the_claim_window_length_is_shown_with_the_rules_and_never_timed_by_the_engine():
    rules = make_rules(rummy_call=True, claim_window_s=8)
    shown = view(new_hand(rules, 4, 0, seed=1), 2)
    assert shown["rules"]["options"]["claim_window_s"] == 8


def test_the_target_decides_when_the_game_ends():
    assert game_outcome(make_rules(target=300), (300, 10)).over
    assert not game_outcome(make_rules(target=301), (300, 10)).over
