"""Throw-down (seed 000, Ruling 14): discards land scattered; a take brings what lies over it.

Layouts below are drawn oldest card first; ``scatter[i]`` is the bit mask of the earlier cards
that card ``i`` lies on directly.
"""

from __future__ import annotations

import json
import random

import pytest

from games.engine import (
    Discard,
    DrawStock,
    FormatError,
    IllegalAction,
    Phase,
    TakeDiscard,
    apply,
    describe_action,
    legal_actions,
    make_rules,
    new_hand,
    state_from_json,
    state_to_json,
    view,
)
from games.engine.scatter import MAX_COVERED, covered_by, landing, over, take
from tests.engine.helpers import arrange, movers, play
from tests.engine.test_properties import check_exactness, check_takes, check_view

# KH (0) alone; 5C (1) over KH; 9D (2) over 5C; 2S (3) over KH.
LAYOUT = [0, 0b1, 0b10, 0b1]


def table(**kwargs):
    return arrange(
        "throw-down",
        3,
        hands={1: "5H 5S 9H 9S 3C 4C QD"},
        discard="KH 5C 9D 2S",
        extra={"scatter": LAYOUT},
        **kwargs,
    )


def test_the_preset_is_playable_by_two_to_eight():
    rules = make_rules("throw-down")
    assert rules.scattered and rules.spec.min_players == 2 and rules.spec.max_players == 8
    assert new_hand(rules, 2, 0, seed=1).scatter == (0,)
    assert new_hand(make_rules("standard"), 2, 0, seed=1).scatter == ()


def test_each_discard_lands_over_one_to_a_few_earlier_cards_by_the_seed():
    for size in range(1, 12):
        for moves in range(20):
            mask = landing(99, moves, size)
            assert mask == landing(99, moves, size)
            assert 1 <= mask.bit_count() <= min(MAX_COVERED, size)
            assert mask >> size == 0
    assert landing(99, 0, 0) == 0
    assert len({landing(seed, 5, 10) for seed in range(40)}) > 5


def test_what_lies_over_a_card_is_found_directly_or_not():
    assert over(LAYOUT, 0) == [1, 2, 3]
    assert over(LAYOUT, 1) == [2]
    assert over(LAYOUT, 2) == []
    assert covered_by(LAYOUT, 2) == [1]
    assert covered_by(LAYOUT, 3) == [0]


def test_taking_a_buried_card_takes_every_card_lying_over_it_and_no_other():
    state = table()
    depth_of_5c = 2
    assert depth_of_5c in legal_actions_depths(state)
    after, events = apply(state, TakeDiscard(1, depth_of_5c))
    assert events[0].get("cards") == ("5C", "9D")
    assert after.discard == ("KH", "2S")
    assert after.scatter == (0, 0b1)
    assert sorted(after.hands[1]) == sorted(["5H", "5S", "9H", "9S", "3C", "4C", "QD", "5C", "9D"])
    assert after.obligation is not None and after.obligation.card == "5C"


def test_a_card_nothing_lies_over_is_taken_alone_however_deep():
    state = table()
    after, events = apply(state, TakeDiscard(1, 1))
    assert events[0].get("cards") == ("9D",)
    assert after.discard == ("KH", "5C", "2S")
    assert after.scatter == (0, 0b1, 0b1)


def test_the_oldest_card_brings_the_whole_heap_over_it():
    taken, rest, layout = take(["KH", "5C", "9D", "2S"], LAYOUT, 3)
    assert taken == ("KH", "5C", "9D", "2S")
    assert rest == () and layout == ()


def test_a_take_is_offered_only_when_the_chosen_card_can_be_used():
    # KH brings 5C 9D 2S but nothing makes a meld with KH; 2S (depth 0) neither.
    assert legal_actions_depths(table()) == [1, 2]


def test_a_take_is_described_with_the_cards_that_come_along():
    state = table()
    text = describe_action(TakeDiscard(1, 2), ["A", "B", "C"], state)
    assert text == "B took the 5♣ and 1 card above it from the pile"


def test_a_discard_lands_by_the_seed_and_is_shown_in_every_view():
    state = table()
    state = play(state, DrawStock(1))
    after, _events = apply(state, Discard(1, "QD"))
    assert after.discard[-1] == "QD"
    assert after.scatter[:4] == tuple(LAYOUT)
    assert after.scatter[4] == landing(state.seed, len(state.actions), 4)
    assert view(after, 0)["scatter"] == list(after.scatter)
    again, _events = apply(state, Discard(1, "QD"))
    assert again.scatter == after.scatter


def test_the_layout_is_stored_and_a_broken_one_is_refused():
    state = table()
    data = json.loads(json.dumps(state_to_json(state)))
    assert state_from_json(data) == state
    for bad in ([0, 0b1], [0, 0b10, 0, 0], [0, "1", 0, 0], "0"):
        broken = dict(data, scatter=bad)
        with pytest.raises(FormatError):
            state_from_json(broken)
    standard = state_to_json(new_hand(make_rules("standard"), 2, 0, seed=3))
    del standard["scatter"]
    assert state_from_json(standard).scatter == ()
    with pytest.raises(FormatError, match="only used by throw-down"):
        state_from_json(dict(standard, scatter=[0]))


def test_a_refilled_stock_starts_a_fresh_discard_area():
    state = arrange(
        "throw-down",
        2,
        hands={0: "2C 7D", 1: "3H 9S"},
        discard="KH 5C 9D 2S",
        stock="",
        to_move=0,
        phase="play",
        stock_refill=True,
    )
    after, events = apply(state, Discard(0, "7D"))
    assert "stock_refilled" in [event.kind for event in events]
    assert after.discard == ("7D",) and after.scatter == (0,)


def test_taking_out_of_turn_is_refused_and_changes_nothing():
    state = table()
    before = state_to_json(state)
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, TakeDiscard(2, 1))
    with pytest.raises(IllegalAction, match="could not"):
        apply(state, TakeDiscard(1, 3))
    assert state_to_json(state) == before


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"rummy_call": True},
        {"stock_refill": True, "boathouse": True},
        {"top_discard_free": True},
    ],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_hands_keep_the_invariants_with_a_scattered_pile(options, seed):
    rng = random.Random(seed)
    rules = make_rules("throw-down", **options)
    state = new_hand(rules, 2 + seed, 0, seed=seed)
    steps = 0
    while state.phase is not Phase.HAND_OVER:
        seat = rng.choice(movers(state))
        if steps % 5 == 0:
            check_exactness(state, seat, rng)
            check_takes(state, seat)
        if steps % 15 == 0:
            check_view(state, rng.randrange(state.num_seats), rng)
        state, _events = apply(state, rng.choice(legal_actions(state, seat)))
        assert len(state.scatter) == len(state.discard)
        steps += 1
    assert state_from_json(state_to_json(state), verify=True) == state


def legal_actions_depths(state):
    return sorted(
        action.depth for action in legal_actions(state, 1) if isinstance(action, TakeDiscard)
    )


@pytest.mark.parametrize("preset", ["throw-down", "michigan"])
@pytest.mark.parametrize("players", [1, 9])
def test_a_wrong_number_of_players_is_refused_with_the_range(preset, players):
    from games.engine import RulesError

    with pytest.raises(RulesError, match=f"2 to 8 players, not {players}"):
        new_hand(make_rules(preset), players, 0)
