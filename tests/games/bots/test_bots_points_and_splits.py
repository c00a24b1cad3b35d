"""The bots' own card values and hand splits agree with the engine's scoring and rules."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.bots import choose_action
from games.bots.partition import best_partition, going_out_split
from games.bots.points import shape_points
from games.bots.rollout import estimate
from games.engine.melds import enumerate_melds, place_meld
from games.engine.scoring import melded_line


@pytest.mark.parametrize(
    ("preset", "options"),
    [("standard", {}), ("jokers", {}), ("rummy-school", {}), ("jokers", {"pip5_scoring": True})],
)
def test_meld_points_match_the_engine_scoring(preset, options):
    rules = engine.make_rules(preset, **options)
    hand = ["AC", "2C", "3C", "QH", "KH", "AH", "AS", "AD", "7D", "8D", "JK", "5S", "5H"]
    if not rules.wild_jokers:
        hand.remove("JK")
    shapes = enumerate_melds(hand, rules.wild_jokers, rules.group_suits_distinct)
    assert len(shapes) >= 7
    for shape in shapes:
        meld = place_meld(shape, 1, 0)
        engine_points = sum(
            melded_line(rules.values, meld, i).points for i in range(len(shape.cards))
        )
        assert shape_points(rules.values, shape) == engine_points, shape


def test_the_estimate_of_a_finished_hand_is_the_score_difference():
    rules = engine.make_rules("jokers")
    rng = random.Random(4)
    for seed in range(3):
        state = engine.new_hand(rules, 3, 0, seed=seed)
        while state.phase is not engine.Phase.HAND_OVER:
            seat = state.to_act[0]
            legal = engine.legal_actions(state, seat)
            state, _ = engine.apply(
                state, choose_action("easy", engine.view(state, seat), legal, rng)
            )
        scores = engine.hand_result(state).scores
        for seat in range(3):
            others = [scores[s] for s in range(3) if s != seat]
            assert estimate(state, seat) == pytest.approx(scores[seat] - sum(others) / 2)


def test_the_split_prefers_the_meld_worth_more():
    rules = engine.make_rules("standard")
    # 7♥ can go in a run 5-6-7♥ (18) or a group of sevens (21): the group scores more.
    split = best_partition(["5H", "6H", "7H", "7S", "7C"], rules, {}, {})
    assert split.points == 21
    assert split.rest == ("5H", "6H")


def test_the_split_counts_lay_offs_onto_the_table():
    rules = engine.make_rules("standard")
    table = engine.melds.TableMeld(
        1, "run", ("5H", "6H", "7H"), ("5H", "6H", "7H"), (1,) * 3, "H", "", 5, 7
    )
    spot = engine.melds.layoff_spots(table, "8H", False, True)[0]
    split = best_partition(["8H", "2C"], rules, {}, {"8H": (spot, 8)})
    assert split.points == 8
    assert split.layoffs == (("8H", spot, 8),)
    assert split.rest == ("2C",)


def test_a_card_that_must_be_used_is_used_even_for_fewer_points():
    rules = engine.make_rules("standard")
    hand = ["5H", "6H", "7H", "7S", "7C"]
    split = best_partition(hand, rules, {}, {}, must_use="5H")
    assert split.points == 18
    assert "5H" not in split.rest


def test_going_out_under_boathouse_holds_back_the_cheapest_card():
    rules = engine.make_rules("standard", boathouse=True)
    hand = ["KC", "KD", "KS", "4H", "5H", "6H", "7H"]
    split = best_partition(hand, rules, {}, {})
    assert split.rest == ()
    plan, last = going_out_split(hand, rules, {}, split)
    assert last in ("4H", "7H")
    assert plan.rest == (last,)
    free = engine.make_rules("standard")
    assert going_out_split(hand, free, {}, best_partition(hand, free, {}, {}))[1] is None


def test_no_going_out_with_two_loose_cards():
    rules = engine.make_rules("standard")
    hand = ["KC", "KD", "KS", "2H", "9C"]
    assert going_out_split(hand, rules, {}, best_partition(hand, rules, {}, {})) is None
