"""Persian Rummy [000]: partnerships, non-wild jokers, aces high, double groups of four.

Seats 0 and 2 play against seats 1 and 3; the arranged tables below give seat 1 the move.
"""

from __future__ import annotations

import pytest

from games.engine import (
    IllegalAction,
    LayOff,
    Meld,
    RulesError,
    TakeDiscard,
    apply,
    game_outcome,
    hand_result,
    legal_actions,
    make_rules,
    new_hand,
    partnership_draw,
    side_of,
    state_from_json,
    state_to_json,
    view,
)
from games.engine.partnerships import side_scores
from tests.engine.helpers import arrange, play


def persian(**kwargs):
    kwargs.setdefault("phase", "play")
    return arrange("persian", 4, **kwargs)


def score(state, seat=1):
    return hand_result(state).seats[seat]


# The preset -------------------------------------------------------------------------------------


def test_persian_is_four_players_with_four_jokers_in_one_pack_of_fifty_six():
    rules = make_rules("persian")
    assert len(rules.deck(4)) == 56 and rules.deck(4).count("JK") == 4
    assert rules.deal_size(4) == 7
    assert rules.partners_by_draw and rules.target == 500
    for players in (2, 3, 5, 8):
        with pytest.raises(RulesError, match="4 to 4 players"):
            new_hand(rules, players, 0)


def test_partners_sit_opposite_so_turns_alternate_between_the_sides():
    rules = make_rules("persian")
    assert side_of(rules, 0) == side_of(rules, 2) == (0, 2)
    assert side_of(rules, 1) == side_of(rules, 3) == (1, 3)


def test_thirty_point_rule_and_pip5_scoring_do_not_fit_persian():
    with pytest.raises(RulesError, match="partnership"):
        make_rules("persian", thirty_point_rule=True)
    with pytest.raises(RulesError, match="own card values"):
        make_rules("persian", pip5_scoring=True)


# Melds ------------------------------------------------------------------------------------------


def test_four_fives_melded_at_once_score_forty():
    state = persian(hands={1: "5C 5D 5H 5S 9C"})
    state = play(state, Meld(1, ("5C", "5D", "5H", "5S")))
    assert score(state).melded == 40


def test_a_fourth_card_added_to_a_group_of_three_scores_as_usual():
    state = persian(hands={1: "5C 5D 5H 5S 9C"})
    state = play(state, Meld(1, ("5C", "5D", "5H")), LayOff(1, "5S", 1))
    assert score(state).melded == 20


def test_a_group_of_four_melded_at_once_stays_double_in_the_stored_hand():
    state = persian(hands={1: "KC KD KH KS 9C"})
    state = play(state, Meld(1, ("KC", "KD", "KH", "KS")))
    assert score(state).melded == 80
    assert hand_result(state_from_json(state_to_json(state))).seats[1].melded == 80
    lines = score(state).lines
    assert all("four at once: double" in line.reason for line in lines if line.points > 0)


def test_jokers_are_not_wild_and_meld_only_in_a_group_of_jokers():
    state = persian(hands={1: "7H 8H JK JK JK 2C"})
    with pytest.raises(IllegalAction, match="not wild in Persian"):
        apply(state, Meld(1, ("7H", "8H", "JK")))
    with pytest.raises(IllegalAction, match="three or four jokers"):
        apply(state, Meld(1, ("JK", "JK")))
    assert Meld(1, ("JK", "JK", "JK")) in legal_actions(state, 1)
    assert not any(
        isinstance(a, Meld) and "JK" in a.cards and len(set(a.cards)) > 1
        for a in legal_actions(state, 1)
    )
    state = play(state, Meld(1, ("JK", "JK", "JK")))
    assert state.melds[0].kind == "jokers"
    assert score(state).melded == 60


def test_four_jokers_melded_at_once_count_double():
    at_once = play(persian(hands={1: "JK JK JK JK 2C"}), Meld(1, ("JK",) * 4))
    assert score(at_once).melded == 160


def test_a_joker_is_laid_off_on_a_group_of_jokers_without_a_reading():
    state = persian(hands={1: "JK JK JK JK 2C 3D"})
    state = play(state, Meld(1, ("JK",) * 3))
    assert LayOff(1, "JK", 1) in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="needs no reading"):
        apply(state, LayOff(1, "JK", 1, "9*"))
    state = play(state, LayOff(1, "JK", 1))
    assert score(state).melded == 80  # three then a fourth: not doubled
    restored = state_from_json(state_to_json(state))
    assert restored == state
    assert view(restored, 0)["melds"][0]["kind"] == "jokers"


def test_aces_are_high_only_and_always_fifteen():
    state = persian(hands={1: "AH 2H 3H QS KS AS AC AD 4C"})
    with pytest.raises(IllegalAction, match="Aces are high"):
        apply(state, Meld(1, ("AH", "2H", "3H")))
    assert not any(
        isinstance(a, Meld) and a.cards[:2] == ("AH", "2H") for a in legal_actions(state, 1)
    )
    state = play(state, Meld(1, ("QS", "KS", "AS")))
    assert score(state).melded == 35
    assert score(state).in_hand == 15 * 3 + 2 + 3 + 4  # AH AC AD 2H 3H 4C


def test_an_ace_cannot_be_laid_off_below_a_two():
    state = persian(hands={1: "AH 9C"}, melds=[(0, "2H 3H 4H")])
    assert not any(isinstance(a, LayOff) and a.card == "AH" for a in legal_actions(state, 1))
    with pytest.raises(IllegalAction, match="does not fit"):
        apply(state, LayOff(1, "AH", 1))


def test_a_discard_is_offered_only_when_it_can_really_be_used():
    # The 2H would make A-2-3 with aces low: in persian it cannot be used, so it is not offered.
    state = persian(hands={1: "AH 3H 9C 9D KS"}, discard="7C 2H", phase="draw")
    depths = [a.depth for a in legal_actions(state, 1) if isinstance(a, TakeDiscard)]
    assert 0 not in depths
    with pytest.raises(IllegalAction, match="could not"):
        apply(state, TakeDiscard(1, 0))


def test_a_joker_on_the_pile_can_be_taken_to_meld_with_two_jokers_in_hand():
    state = persian(hands={1: "JK JK 9C 9D KS"}, discard="7C JK", phase="draw")
    assert TakeDiscard(1, 0) in legal_actions(state, 1)
    state = play(state, TakeDiscard(1, 0), Meld(1, ("JK",) * 3))
    assert score(state).melded == 60


def test_jokers_left_in_hand_cost_twenty():
    assert score(persian(hands={1: "JK 9C"})).in_hand == 29


# Scoring by partnership ------------------------------------------------------------------------


def test_partners_scores_are_combined_and_going_out_earns_twenty_five():
    state = persian(
        hands={0: "2C", 1: "8S 9S TS", 2: "KD", 3: "4H 4S"},
        melds=[(0, "5C 5D 5H")],
        totals=[100, 40, 100, 40],
    )
    state = play(state, Meld(1, ("8S", "9S", "TS")))
    result = hand_result(state)
    assert result.went_out == 1
    seat1 = result.seats[1]
    assert (seat1.melded, seat1.bonus, seat1.score) == (27, 25, 52)
    assert result.seats[3].score == -8
    sides = {side.seats: side for side in result.sides}
    assert sides[(1, 3)].score == 44 and sides[(1, 3)].total_after == 84
    assert sides[(0, 2)].score == 15 - 2 - 10 and sides[(0, 2)].total_after == 103
    assert result.totals == (103, 84, 103, 84)


def test_the_side_that_reaches_five_hundred_wins_and_scores_fifty_more():
    rules = make_rules("persian")
    sides = side_scores(rules, [480, 300, 480, 300], [10, 0, 15, 0], final=True)
    assert sides[0].total_after == 480 + 25 + 50 and sides[0].game_bonus == 50
    assert sides[1].game_bonus == 0
    outcome = game_outcome(rules, [555, 300, 555, 300])
    assert outcome.over and outcome.winners == (0, 2)


def test_when_both_sides_pass_five_hundred_the_higher_wins_and_a_tie_plays_on():
    rules = make_rules("persian")
    sides = side_scores(rules, [490, 495, 490, 495], [20, 20, 0, 10], final=True)
    assert [side.game_bonus for side in sides] == [0, 50]
    assert game_outcome(rules, [560, 575, 560, 575]).winners == (1, 3)
    tie = game_outcome(rules, [520, 520, 520, 520])
    assert not tie.over and "tie" in tie.reason
    assert not game_outcome(rules, [499, 10, 499, 10]).over


def test_no_game_bonus_before_the_hand_is_over():
    rules = make_rules("persian")
    assert side_scores(rules, [490, 0, 490, 0], [20, 0, 0, 0], final=False)[0].game_bonus == 0


# The draw for partners and dealer ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_the_two_highest_cards_play_against_the_two_lowest_and_the_lowest_deals(seed):
    rules = make_rules("persian")
    draw = partnership_draw(rules, 4, seed)
    assert sorted(draw.order) == [0, 1, 2, 3]
    rank = {}
    for round_ in draw.rounds:
        for player, card in round_:
            assert card != "JK"
            rank[player] = (*rank.get(player, ()), "23456789TJQKA".index(card[0]))
    high = {draw.order[0], draw.order[2]}
    low = {draw.order[1], draw.order[3]}
    assert min(rank[p] for p in high) > max(rank[p] for p in low)
    assert rank[draw.order[draw.dealer]] == min(rank.values())
    assert list(rank.values()).count(min(rank.values())) == 1
    assert draw == partnership_draw(rules, 4, seed)
    seated = draw.seated_rounds()
    assert sorted(seat for seat, _card in seated[0]) == [0, 1, 2, 3]


def test_a_full_random_hand_scores_sides_consistently():
    from tests.engine.helpers import play_out

    for seed in range(4):
        state = play_out("persian", 4, seed)
        result = hand_result(state)
        for side in result.sides:
            assert side.score == sum(result.seats[seat].counted for seat in side.seats)
        assert state.end is not None
