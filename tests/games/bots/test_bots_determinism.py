"""Bot play is a pure function of the seed: same seed, same games, however many processes."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import bots, engine
from games.bots import choose_action
from games.bots.simulate import SimConfig, play_game, seat_levels, simulate


def _without_timings(result):
    return replace(result, think_s=(), cpu_s=0.0)


@pytest.mark.parametrize("level", bots.LEVELS)
def test_a_game_replays_identically_from_its_seed(level):
    config = SimConfig(
        preset="jokers",
        options=(("target", 150),),
        levels=(level, "medium"),
        games=1,
        seed=42,
        hard_playouts=8,
    )
    first = play_game(config, 0)
    second = play_game(config, 0)
    assert _without_timings(first) == _without_timings(second)


def test_another_seed_plays_other_games():
    config = SimConfig(levels=("easy", "medium"), games=1, seed=1)
    other = replace(config, seed=2)
    assert play_game(config, 0).hand_scores != play_game(other, 0).hand_scores


def test_two_processes_play_the_same_games_as_one():
    config = SimConfig(levels=("easy", "medium"), games=4, seed=9, options=(("target", 200),))
    alone = simulate(config, processes=1)
    shared = simulate(config, processes=2)
    assert [_without_timings(g) for g in alone.games] == [_without_timings(g) for g in shared.games]


def test_seats_rotate_between_games():
    config = SimConfig(levels=("hard", "medium"), games=2)
    assert seat_levels(config, 0) == ("hard", "medium")
    assert seat_levels(config, 1) == ("medium", "hard")
    assert seat_levels(replace(config, rotate=False), 1) == ("hard", "medium")


@pytest.mark.parametrize("level", bots.LEVELS)
def test_the_same_generator_state_gives_the_same_move(level):
    state = engine.new_hand(engine.make_rules("jokers"), 3, 0, seed=5)
    rng = random.Random(0)
    for _ in range(30):
        if state.phase is engine.Phase.HAND_OVER:
            break
        seat = state.to_act[0]
        seen = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        seed = rng.getrandbits(32)
        first = choose_action(level, seen, legal, random.Random(seed))
        again = choose_action(level, seen, legal, random.Random(seed))
        assert first == again
        state, _ = engine.apply(state, first)


def test_the_hard_bot_under_a_zero_clock_still_moves_legally():
    state = engine.new_hand(engine.make_rules("standard"), 2, 0, seed=3)
    rng = random.Random(1)
    for _ in range(40):
        if state.phase is engine.Phase.HAND_OVER:
            break
        seat = state.to_act[0]
        legal = engine.legal_actions(state, seat)
        action = choose_action("hard", engine.view(state, seat), legal, rng, time_limit_s=0.0)
        assert action in legal
        state, _ = engine.apply(state, action)
