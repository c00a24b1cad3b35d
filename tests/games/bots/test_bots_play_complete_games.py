"""Every bot level plays complete games of every playable preset without an illegal move.

``play_game`` checks each chosen action against the engine's legal list and raises
``IllegalBotMove`` otherwise, so a game that finishes is a game of legal moves. Counts are small
to keep CI fast; the strength runs in bench/bots play thousands more.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games import bots, engine
from games.bots.simulate import SimConfig, play_game

HARD_PLAYOUTS = 8
"""The hard bot searches with a small budget here: the same code, a fraction of the time."""

PRESET_SEATS = {
    "standard": 2,
    "jokers": 3,
    "classic": 3,
    "rummy-school": 4,
    "throw-down": 3,
    "persian": 4,
    "michigan": 3,
    "oklahoma": 3,
    "oklahoma-jokers": 4,
    "five-thousand": 5,
}
OPTION_SETS = [
    (("rummy_call", True),),
    (("rummy_call", True), ("rummy_last_discard_only", True)),
    (("floating", True),),
    (("boathouse", True),),
    (("boathouse", True), ("floating", True)),
    (("stock_refill", True), ("deepest_card_new_meld", True)),
    (("discards_displayed", True), ("thirty_point_rule", True)),
    (("pip5_scoring", True), ("group_suits_distinct", False)),
]


def _assert_finished(result, seats, winners=1):
    assert len(result.winners) == winners
    assert max(result.totals) >= 100
    assert len(result.totals) == seats
    assert result.moves > 0


def test_every_playable_preset_is_covered():
    assert set(PRESET_SEATS) == set(engine.PRESETS)


@pytest.mark.parametrize("level", bots.LEVELS)
@pytest.mark.parametrize("preset", sorted(PRESET_SEATS))
def test_each_level_finishes_a_game_of_each_preset(level, preset):
    seats = PRESET_SEATS[preset]
    if preset == "michigan":
        config = SimConfig(preset=preset, levels=(level,) * seats, games=1, seed=21)
        result = play_game(replace(config, hard_playouts=HARD_PLAYOUTS), 0)
        assert result.moves > 0 and len(result.totals) == seats and result.winners
        assert max(result.totals) == max(result.totals[s] for s in result.winners)
        return
    config = SimConfig(
        preset=preset,
        options=(("target", 100),),
        levels=(level,) * seats,
        games=1,
        seed=21,
        hard_playouts=HARD_PLAYOUTS,
    )
    winners = len(engine.PRESETS[preset].partnerships[0]) if preset == "persian" else 1
    _assert_finished(play_game(config, 0), seats, winners)


@pytest.mark.parametrize("level", bots.LEVELS)
@pytest.mark.parametrize(
    "options", OPTION_SETS, ids=lambda options: "+".join(o for o, _ in options)
)
def test_each_level_finishes_a_game_under_each_option(level, options):
    names = {name for name, _value in options}
    third = "jokers" if names & {"stock_refill", "pip5_scoring"} else "rummy-school"
    for preset in (third, "standard"):
        config = SimConfig(
            preset=preset,
            options=(*options, ("target", 100)),
            levels=(level, "easy", "medium"),
            games=1,
            seed=5,
            hard_playouts=HARD_PLAYOUTS,
        )
        _assert_finished(play_game(config, 0), 3)


def test_mixed_levels_finish_two_player_games_to_500():
    config = SimConfig(levels=("easy", "medium"), games=2, seed=2)
    for index in range(2):
        _assert_finished(play_game(config, index), 2)


@pytest.mark.parametrize("level", bots.LEVELS)
@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("persian", (("rummy_call", True), ("boathouse", True))),
        ("persian", (("stock_refill", True), ("top_discard_free", True))),
        ("throw-down", (("rummy_call", True), ("stock_refill", True))),
        ("throw-down", (("floating", True), ("discards_displayed", True))),
        ("michigan", (("boathouse", True), ("stock_refill", True))),
        ("michigan", (("floating", True), ("top_discard_free", True))),
    ],
)
def test_each_level_finishes_the_new_presets_under_options(level, preset, options):
    seats = PRESET_SEATS[preset]
    config = SimConfig(
        preset=preset,
        options=(*options, ("target", 100)),
        levels=(level, "easy", "medium", "hard")[:seats],
        games=1,
        seed=9,
        hard_playouts=HARD_PLAYOUTS,
    )
    if preset == "michigan":
        config = replace(config, options=options)  # one hand: no target
    result = play_game(config, 0)
    if preset == "michigan":
        assert result.moves > 0 and len(result.totals) == seats and result.winners
        return
    _assert_finished(result, seats, 2 if preset == "persian" else 1)


@pytest.mark.parametrize(("preset", "seats"), [("oklahoma", 2), ("oklahoma-jokers", 4)])
def test_mixed_levels_finish_oklahoma_games_to_1000(preset, seats):
    levels = ("easy", "medium", "hard", "medium")[:seats]
    config = SimConfig(preset=preset, levels=levels, games=1, seed=9, hard_playouts=HARD_PLAYOUTS)
    result = play_game(config, 0)
    _assert_finished(result, seats)
    assert max(result.totals) >= 1000 + 200  # the target, and the winner's game bonus


def test_mixed_levels_finish_a_five_thousand_game_of_eight():
    levels = ("easy", "medium", "hard", "medium", "easy", "medium", "easy", "hard")
    config = SimConfig(
        preset="five-thousand",
        options=(("target", 2000),),
        levels=levels,
        games=1,
        seed=4,
        hard_playouts=HARD_PLAYOUTS,
    )
    _assert_finished(play_game(config, 0), 8)
