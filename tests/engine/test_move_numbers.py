"""Which move left each event of a hand's history: what the table's log needs to say which
moves the turn clock made (the Move rows record who made each move; the history does not)."""

from __future__ import annotations

import random

from hypothesis import given, settings

from games.engine import Phase, apply, legal_actions, move_numbers, new_hand
from tests.engine.test_properties import MAX_STEPS, tables


@settings(deadline=None, max_examples=60)
@given(tables())
def test_every_event_is_numbered_with_the_move_that_left_it(table) -> None:
    rules, players, seed = table
    rng = random.Random(seed)
    state = new_hand(rules, players, seed % players, seed=seed)
    expected = [0] * len(state.history)  # the deal comes before any move
    for number in range(1, MAX_STEPS):
        if state.phase is Phase.HAND_OVER:
            break
        seat = state.to_act[0] if state.to_act else -1
        options = legal_actions(state, seat)
        state, events = apply(state, rng.choice(options))
        expected += [number] * len(events)
    assert state.phase is Phase.HAND_OVER
    assert move_numbers(state.history) == expected
