"""With a partnership preset the review scores the side, not the seat."""

from __future__ import annotations

import random

from games import engine
from games.review import Budget, review_game
from games.review.search import playout


def test_a_partnership_review_reports_sides(bot_hand):
    final = bot_hand("persian", seats=4, seed=2)
    review = review_game([final], [0, 1], seed=1, budget=Budget(deals=4, confirm_deals=4))
    assert review["scored_as"] == "side"
    assert [player["side"] for player in review["players"]] == [[0, 2], [1, 3]]


def test_a_standard_review_scores_the_seat(bot_hand):
    final = bot_hand(seed=2)
    review = review_game([final], [0], seed=1, budget=Budget(deals=4, confirm_deals=4))
    assert review["scored_as"] == "seat"
    assert review["players"][0]["side"] == [0]


def test_the_value_of_the_move_that_ends_the_hand_is_the_sides_score_difference(bot_hand):
    final = bot_hand("persian", seats=4, seed=2)
    state = engine.new_hand(final.rules, 4, final.dealer, seed=final.seed, on_board=final.on_board)
    *before, last = final.actions
    for action in before:
        state, _events = engine.apply(state, action)
    value = playout(state, last.seat, last, random.Random(1), to_end=True)
    scores = [seat.score for seat in engine.hand_result(final).seats]
    ours = engine.side_of(final.rules, last.seat)
    theirs = [seat for seat in range(4) if seat not in ours]
    assert value == sum(scores[s] for s in ours) - sum(scores[s] for s in theirs)
