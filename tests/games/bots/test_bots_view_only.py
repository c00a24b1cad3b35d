"""Bots see only their seat's view: by construction (the API takes a view) and by test."""

from __future__ import annotations

import inspect
import random

import pytest

from games import bots, engine
from games.bots import ViewError, choose_action


def _hand(preset: str = "standard", seats: int = 2, seed: int = 7) -> engine.HandState:
    return engine.new_hand(engine.make_rules(preset), seats, 0, seed=seed)


def test_it_takes_no_state_parameter():
    parameters = inspect.signature(choose_action).parameters
    assert list(parameters) == ["level", "view", "legal", "rng", "time_limit_s"]
    assert "state" not in " ".join(parameters)


@pytest.mark.parametrize("level", bots.LEVELS)
def test_it_refuses_a_hand_state(level):
    state = _hand()
    seat = state.to_act[0]
    with pytest.raises(ViewError, match="view"):
        choose_action(level, state, engine.legal_actions(state, seat), random.Random(1))


@pytest.mark.parametrize("missing", ["hand", "history", "discard", "public_cards", "rules"])
def test_it_refuses_a_view_stripped_of_a_field(missing):
    state = _hand()
    seat = state.to_act[0]
    seen = engine.view(state, seat)
    del seen[missing]
    with pytest.raises(ViewError, match=missing):
        choose_action("easy", seen, engine.legal_actions(state, seat), random.Random(1))


def test_it_refuses_a_spectator_view():
    state = _hand()
    seat = state.to_act[0]
    with pytest.raises(ViewError, match="spectator"):
        choose_action(
            "easy", engine.view(state, None), engine.legal_actions(state, seat), random.Random(1)
        )


def test_it_refuses_a_view_that_shows_every_hand():
    state = _hand()
    seat = state.to_act[0]
    seen = engine.view(state, seat)
    seen["hands"] = [list(hand) for hand in state.hands]
    with pytest.raises(ViewError, match="every hand"):
        choose_action("easy", seen, engine.legal_actions(state, seat), random.Random(1))


@pytest.mark.parametrize("level", bots.LEVELS)
def test_it_refuses_a_view_tampered_to_show_a_hidden_card(level):
    state = _hand()
    seat = state.to_act[0]
    seen = engine.view(state, seat)
    other_hand = state.hands[1 - seat]
    seen["hand"] = [*seen["hand"][:-1], other_hand[0]]
    seen["hand"].append(seen["discard"][-1])
    seen["hand_sizes"][seat] += 1
    with pytest.raises(ViewError, match="twice"):
        choose_action(level, seen, engine.legal_actions(state, seat), random.Random(1))


def test_it_refuses_a_view_whose_hand_does_not_match_its_size():
    state = _hand()
    seat = state.to_act[0]
    seen = engine.view(state, seat)
    seen["hand"].pop()
    with pytest.raises(ViewError, match="hand size"):
        choose_action("medium", seen, engine.legal_actions(state, seat), random.Random(1))


def test_it_refuses_another_seats_legal_actions():
    state = _hand()
    seat = state.to_act[0]
    other = engine.DrawStock(1 - seat)
    with pytest.raises(ValueError, match="legal actions"):
        choose_action("easy", engine.view(state, seat), [other], random.Random(1))


def test_it_refuses_an_unknown_level():
    state = _hand()
    seat = state.to_act[0]
    with pytest.raises(ValueError, match="Unknown bot level"):
        choose_action(
            "expert", engine.view(state, seat), engine.legal_actions(state, seat), random.Random(1)
        )


def _walk(state: engine.HandState, steps: int, seed: int) -> engine.HandState:
    """Play ``steps`` moves with the easy bot to reach a state with history and melds."""
    rng = random.Random(seed)
    for _ in range(steps):
        if state.phase is engine.Phase.HAND_OVER:
            break
        seat = state.to_act[0]
        action = choose_action(
            "easy", engine.view(state, seat), engine.legal_actions(state, seat), rng
        )
        state, _ = engine.apply(state, action)
    return state


@pytest.mark.parametrize("level", bots.LEVELS)
@pytest.mark.parametrize("preset", ["standard", "jokers"])
def test_its_move_does_not_depend_on_hidden_cards(level, preset):
    """Swap every hidden card (other hands, stock) for another guess: the move must not change."""
    for steps in (0, 9, 25):
        state = _walk(_hand(preset, seed=11 + steps), steps, seed=steps)
        if state.phase is engine.Phase.HAND_OVER:
            continue
        seat = state.to_act[0]
        seen = engine.view(state, seat)
        other = engine.deal_from_view(seen, random.Random(99))
        assert other.hands != state.hands or other.stock != state.stock
        other_seen = engine.view(other, seat)
        assert other_seen == seen
        legal = engine.legal_actions(state, seat)
        first = choose_action(level, seen, legal, random.Random(5))
        second = choose_action(
            level, other_seen, engine.legal_actions(other, seat), random.Random(5)
        )
        assert first == second
