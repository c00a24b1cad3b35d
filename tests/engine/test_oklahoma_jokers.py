"""Oklahoma with jokers (seed 000): one to four wild jokers on top of the wild deuces, taken back
by the player who melded them, +100 melded / -200 in hand, lowest in the draw for dealer."""

import pytest

from games.engine import (
    JOKER,
    DrawStock,
    IllegalAction,
    Meld,
    RulesError,
    SwitchJoker,
    TakeDiscard,
    apply,
    first_dealer_draw,
    hand_result,
    legal_actions,
    make_rules,
    state_to_json,
)
from tests.engine.helpers import arrange, play


def drawn(**kwargs):
    kwargs.setdefault("num_seats", 2)
    return play(arrange("oklahoma-jokers", **kwargs), DrawStock(kwargs.get("to_move", 1)))


@pytest.mark.parametrize("jokers", [1, 2, 3, 4])
def test_one_to_four_jokers_join_the_two_packs(jokers):
    rules = make_rules("oklahoma-jokers", jokers=jokers)
    deck = rules.deck(3)
    assert len(deck) == 104 + jokers and deck.count(JOKER) == jokers


def test_two_jokers_by_default_and_other_counts_are_refused():
    assert make_rules("oklahoma-jokers").jokers == 2
    for wrong in (0, 5):
        with pytest.raises(RulesError, match="between 1 and 4"):
            make_rules("oklahoma-jokers", jokers=wrong)
    with pytest.raises(RulesError, match="only for oklahoma-jokers"):
        make_rules("oklahoma", jokers=3)


def test_a_melded_joker_scores_100_and_one_left_in_hand_costs_200():
    state = arrange(
        "oklahoma-jokers",
        num_seats=2,
        hands={0: "JK 5C"},
        melds=[(0, "6H JK 8H", "6H 7H 8H"), (0, "9S 2D JS", "9S TS JS")],
    )
    lines = [(line.card, line.points) for line in hand_result(state).seats[0].lines]
    assert lines == [
        ("6H", 5),
        ("JK", 100),
        ("8H", 10),
        ("9S", 10),
        ("2D", 10),  # a deuce is still worth the card it stands for
        ("JS", 10),
        ("JK", -200),
        ("5C", -5),
    ]


def test_a_joker_and_a_deuce_in_one_meld_are_placed_as_the_player_lays_them():
    state = drawn(hands={1: "6H JK 2C 9H KS QD 4C"})
    options = {a for a in legal_actions(state, 1) if isinstance(a, Meld)}
    joker_first = Meld(1, ("6H", "JK", "2C", "9H"), ("6H", "7H", "8H", "9H"))
    deuce_first = Meld(1, ("6H", "2C", "JK", "9H"), ("6H", "7H", "8H", "9H"))
    assert {joker_first, deuce_first} <= options
    state = play(state, deuce_first)
    assert state.melds[0].cards == ("6H", "2C", "JK", "9H")


def test_the_player_who_melded_a_joker_takes_it_back_with_the_natural_card():
    state = drawn(hands={1: "7H 4C KS QD"}, melds=[(1, "6H JK 8H", "6H 7H 8H")], filler=7)
    assert SwitchJoker(1, "7H", 1) in legal_actions(state, 1)
    state = play(state, SwitchJoker(1, "7H", 1))
    assert state.melds[0].cards == ("6H", "7H", "8H")
    assert JOKER in state.hands[1]


def test_nobody_else_may_take_a_joker_back():
    state = drawn(hands={1: "7H 4C KS QD"}, melds=[(0, "6H JK 8H", "6H 7H 8H")], filler=7)
    before = state_to_json(state)
    assert SwitchJoker(1, "7H", 1) not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="Only the player who melded a joker"):
        apply(state, SwitchJoker(1, "7H", 1))
    assert state_to_json(state) == before


def test_a_deuce_is_never_taken_back():
    state = drawn(hands={1: "7H 4C KS QD"}, melds=[(1, "6H 2C 8H", "6H 7H 8H")], filler=7)
    with pytest.raises(IllegalAction, match="no joker that the 7♥ can replace"):
        apply(state, SwitchJoker(1, "7H", 1))


def test_the_top_discard_may_be_taken_to_replace_ones_own_joker():
    state = arrange(
        "oklahoma-jokers",
        num_seats=2,
        hands={1: "4C 9D KS"},
        melds=[(1, "6H JK 8H", "6H 7H 8H")],
        discard="3S 7H",
    )
    assert TakeDiscard(1, 0) in legal_actions(state, 1)
    state = play(state, TakeDiscard(1, 0))
    assert legal_actions(state, 1) == [SwitchJoker(1, "7H", 1)]
    state = play(state, SwitchJoker(1, "7H", 1))
    assert state.obligation is None


def test_a_joker_drawn_for_first_dealer_is_the_lowest_card():
    rules = make_rules("oklahoma-jokers", jokers=4)
    seen = 0
    for seed in range(200):
        draw = first_dealer_draw(rules, 4, seed=seed)
        first = draw.rounds[0]
        jokers = [seat for seat, card in first if card == JOKER]
        if len(jokers) == 1:
            seen += 1
            assert draw.dealer == jokers[0]
            assert len(draw.rounds) == 1
    assert seen  # the jokers do turn up in the draw
