"""The medium bot follows the strategy notes of the rule documents, in scripted hands."""

from __future__ import annotations

import random

from games import engine
from games.bots import choose_action, read_view
from games.bots.medium import DEFAULT_STYLE, feed_danger
from games.bots.prospects import outlook

LOW_HAND = ["2C", "3D", "4S", "5C", "6D", "7H", "8S", "TC", "2D", "3S", "4C"]
OTHER = ["KH", "KS", "QH", "QD", "JH", "JS", "TH", "TS", "5D", "6C", "7D", "8D", "2S"]


def _choose(level, state, seat=None, seed=1):
    seat = state.to_act[0] if seat is None else seat
    legal = engine.legal_actions(state, seat)
    return choose_action(level, engine.view(state, seat), legal, random.Random(seed))


def _play_turn(level, state, seed=1):
    """Play moves for the seat to act until its turn is over; returns the moves made."""
    seat = state.to_act[0]
    made = []
    while state.phase is not engine.Phase.HAND_OVER and state.to_act == (seat,):
        action = _choose(level, state, seat, seed)
        made.append(action)
        state, _ = engine.apply(state, action)
    return state, made


def test_it_digs_into_the_pile_for_a_rich_haul(scripted):
    state = scripted(
        hands={0: ["9H", "9S", *LOW_HAND], 1: OTHER},
        pile=["9C", "KD", "AC", "AD", "QS", "QC"],
        stock_count=20,
    )
    assert _choose("medium", state) == engine.TakeDiscard(0, 5)
    assert _choose("easy", state) == engine.DrawStock(0)


def test_it_leaves_a_junk_haul_when_the_hand_is_about_to_end(scripted):
    state = scripted(
        hands={0: ["9H", "9S", *LOW_HAND], 1: ["KH"]},
        pile=["9C", "KD", "AH", "QH", "JD", "8D", "6S"],
    )
    assert _choose("medium", state) == engine.DrawStock(0)


def test_it_lays_off_and_melds_what_scores(scripted):
    state = scripted(
        hands={0: ["8H", "KC", "KD", "KS", "2C", "5D", "9S"], 1: ["3H", "3S", "3D"]},
        pile=["4C"],
        melds=[(1, ["5H", "6H", "7H"])],
        stock_count=3,
    )
    state, _ = engine.apply(state, engine.DrawStock(0))
    state, made = _play_turn("medium", state)
    assert engine.LayOff(0, "8H", 1) in made
    assert any(isinstance(a, engine.Meld) and set(a.cards) == {"KC", "KD", "KS"} for a in made)
    assert isinstance(made[-1], engine.Discard)


def test_it_holds_a_high_meld_while_safe_and_melds_it_when_the_stock_runs_low(scripted):
    hand = ["AC", "AD", "AS", "2C", "4D", "6S", "8H", "TC", "JD", "3S", "5H", "7C", "9D"]
    early = scripted(hands={0: hand, 1: OTHER}, pile=["JC"], stock_count=25)
    early, _ = engine.apply(early, engine.DrawStock(0))
    _state, made = _play_turn("medium", early)
    assert not any(isinstance(action, engine.Meld) for action in made)
    late = scripted(hands={0: hand, 1: OTHER}, pile=["JC"], stock_count=4)
    late, _ = engine.apply(late, engine.DrawStock(0))
    _state, made = _play_turn("medium", late)
    assert any(isinstance(a, engine.Meld) and set(a.cards) == {"AC", "AD", "AS"} for a in made)


def test_it_goes_out_when_it_can(scripted):
    state = scripted(
        hands={0: ["KC", "KD", "KS", "4H", "5H", "6H"], 1: OTHER[2:9]},
        pile=["2D"],
        stock_count=30,
    )
    state, _ = engine.apply(state, engine.DrawStock(0))
    state, _made = _play_turn("medium", state)
    assert state.phase is engine.Phase.HAND_OVER
    assert state.end.reason == "went_out"


def test_it_breaks_no_pair_to_throw_a_lone_high_card(scripted):
    state = scripted(
        hands={0: ["9H", "9S", "5C", "6C", "KD", "2S", "3H"], 1: OTHER[:7]},
        pile=["4D"],
        stock_count=30,
    )
    state, _ = engine.apply(state, engine.DrawStock(0))
    drawn = state.hands[0][-1]
    state, made = _play_turn("medium", state)
    discarded = made[-1].card
    assert discarded not in ("9H", "9S", "5C", "6C") or discarded == drawn


def test_a_discard_that_pairs_with_a_deep_pile_card_counts_as_dangerous(scripted):
    state = scripted(
        hands={0: ["7D", "6C", "2H", "2S", "4H", "9C", "JD"], 1: OTHER[:7]},
        pile=["7S", "KC", "QC", "AD", "TS", "3C", "8H"],
    )
    seen = read_view(engine.view(state, 0))
    look = outlook(seen)
    assert feed_danger("7D", seen, look, DEFAULT_STYLE) > feed_danger(
        "6C", seen, look, DEFAULT_STYLE
    )


def test_a_discard_that_fits_a_table_meld_counts_as_dangerous(scripted):
    state = scripted(
        hands={0: ["8H", "8C", "2S"], 1: OTHER[:7]},
        pile=["3C"],
        melds=[(1, ["5H", "6H", "7H"])],
    )
    seen = read_view(engine.view(state, 0))
    look = outlook(seen)
    assert feed_danger("8H", seen, look, DEFAULT_STYLE) > feed_danger(
        "8C", seen, look, DEFAULT_STYLE
    )
