"""Oklahoma (seed 000): deuces wild, the offered up-card, the whole-pile take, own melds only,
the queen of spades, going out with a discard, the 100/250 bonuses, the value table, the block.
"""

import pytest

from games.engine import (
    Discard,
    DrawStock,
    GameState,
    IllegalAction,
    LayOff,
    Meld,
    PassUpcard,
    Phase,
    RulesError,
    SwitchJoker,
    TakeDiscard,
    apply,
    describe_action,
    finish_hand,
    game_outcome,
    hand_result,
    legal_actions,
    make_rules,
    new_game,
    new_hand,
    settle_game,
    stack_deck,
    state_to_json,
)
from tests.engine.helpers import arrange, play


def drawn(**kwargs):
    """An oklahoma table (two players by default) where seat 1 has just drawn from the stock."""
    kwargs.setdefault("num_seats", 2)
    return play(arrange("oklahoma", **kwargs), DrawStock(kwargs.get("to_move", 1)))


def line_points(state, seat):
    return [(line.card, line.points) for line in hand_result(state).seats[seat].lines]


# The value table -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("meld", "reading", "points"),
    [
        ("QH KH AH", None, [10, 10, 20]),  # ace 20; king, queen (not spades) 10
        ("8C 9C TC JC", None, [10, 10, 10, 10]),  # 8, 9, 10, jack 10
        ("3D 4D 5D 6D 7D", None, [5, 5, 5, 5, 5]),  # 7 down to 3: 5
        ("JS QS KS", None, [10, 50, 10]),  # the queen of spades 50
        ("JS 2C KS", "JS QS KS", [10, 10, 10]),  # a deuce for the queen of spades: 10
        ("2H 3H 4H", "2H 3H 4H", [5, 5, 5]),  # a natural deuce: 5
        ("QD KD 2S", "QD KD AD", [10, 10, 20]),  # a deuce is worth the card it stands for
        ("9C 9D 2H", "9C 9D 9*", [10, 10, 10]),
        ("5S 2D 7S", "5S 6S 7S", [5, 5, 5]),
    ],
)
def test_melded_cards_score_the_value_table(meld, reading, points):
    state = arrange("oklahoma", num_seats=2, melds=[(0, meld, reading) if reading else (0, meld)])
    assert [value for _card, value in line_points(state, 0)[: len(points)]] == points


@pytest.mark.parametrize(
    ("card", "cost"),
    [
        ("AS", -20),
        ("KH", -10),
        ("JD", -10),
        ("TC", -10),
        ("9S", -10),
        ("8H", -10),
        ("QD", -10),
        ("QH", -10),
        ("QC", -10),
        ("QS", -100),
        ("7C", -5),
        ("6D", -5),
        ("5H", -5),
        ("4S", -5),
        ("3C", -5),
        ("2D", -20),
    ],
)
def test_cards_left_in_hand_cost_the_value_table(card, cost):
    state = arrange("oklahoma", num_seats=2, hands={0: card})
    assert line_points(state, 0) == [(card, cost)]


# Deuces wild -------------------------------------------------------------------------------------


def test_a_deuce_stands_for_the_card_its_place_declares():
    state = drawn(hands={1: "6C 7C 2D KS QD 4H 5H"})
    state = play(state, Meld(1, ("6C", "7C", "2D")))
    assert state.melds[0].cards == ("6C", "7C", "2D")
    assert state.melds[0].reading == ("6C", "7C", "8C")


def test_a_deuce_that_can_be_read_two_ways_must_be_declared():
    state = drawn(hands={1: "9D 2S 2C KS QD 4H 5H"})
    with pytest.raises(IllegalAction, match="say which card each wild card stands for"):
        apply(state, Meld(1, ("9D", "2S", "2C")))
    offered = {a.reading for a in legal_actions(state, 1) if isinstance(a, Meld)}
    assert {("9D", "9*", "9*"), ("7D", "8D", "9D"), ("9D", "TD", "JD")} <= offered
    state = play(state, Meld(1, ("9D", "2S", "2C"), ("9D", "9*", "9*")))
    assert state.melds[0].kind == "group"
    assert sorted(state.melds[0].cards) == ["2C", "2S", "9D"]


def test_a_deuce_in_its_own_place_is_a_natural_two():
    state = drawn(hands={1: "AH 2H 3H KS QD 4C 5C"})
    state = play(state, Meld(1, ("AH", "2H", "3H")))
    assert state.melds[0].reading == ("AH", "2H", "3H")
    assert [points for _card, points in line_points(state, 1)[:3]] == [20, 5, 5]


def test_a_meld_of_deuces_alone_is_refused():
    state = drawn(hands={1: "2H 2C 2D KS QD 4C 5C"})
    with pytest.raises(IllegalAction, match="at least one card that is not wild"):
        apply(state, Meld(1, ("2H", "2C", "2D")))


def test_a_deuce_lays_off_as_itself_or_as_the_card_it_is_declared():
    state = drawn(hands={1: "2H 9S KS QD"}, melds=[(1, "3H 4H 5H")], filler=7)
    options = set(legal_actions(state, 1))
    assert LayOff(1, "2H", 1) in options  # as itself, at the low end
    assert LayOff(1, "2H", 1, "6H") in options  # wild, at the high end
    state = play(state, LayOff(1, "2H", 1, "6H"))
    assert state.melds[0].reading == ("3H", "4H", "5H", "6H")


def test_changing_a_deuces_meaning_is_refused_and_changes_nothing():
    state = drawn(hands={1: "8C 9S KS QD"}, melds=[(1, "6C 7C 2D", "6C 7C 8C")], filler=7)
    before = state_to_json(state)
    with pytest.raises(IllegalAction, match="keeps the meaning declared"):
        apply(state, SwitchJoker(1, "8C", 1))
    with pytest.raises(IllegalAction, match="does not fit"):
        apply(state, LayOff(1, "8C", 1))
    assert state_to_json(state) == before


# The offered up-card ---------------------------------------------------------------------------


def offer_deck(upcard, hands):
    rules = make_rules("oklahoma")
    split = {seat: text.split() for seat, text in hands.items()}
    return rules, stack_deck(rules, 3, 0, hands=split, upcard=upcard)


def test_the_up_card_is_offered_from_the_dealers_left_before_anyone_draws():
    rules, deck = offer_deck("9H", {1: "9C 9D 5S", 2: "9S 9D 4C", 0: "3C 4D 8S"})
    state = new_hand(rules, 3, 0, deck=deck)
    assert state.phase is Phase.OFFER and state.to_act == (1,)
    assert set(legal_actions(state, 1)) == {TakeDiscard(1, 0), PassUpcard(1)}
    state = play(state, PassUpcard(1))
    assert state.phase is Phase.OFFER and state.to_act == (2,)
    state = play(state, TakeDiscard(2, 0))
    assert state.phase is Phase.PLAY and state.current == 2
    assert state.obligation is not None and state.obligation.card == "9H"
    state = play(state, Meld(2, ("9H", "9S", "9D")), Discard(2, "4C"))
    assert state.to_act == (0,)  # play goes on to the taker's left


def test_when_everyone_passes_the_player_left_of_the_dealer_draws_from_the_stock():
    rules, deck = offer_deck("9H", {1: "9C 9D 5S", 2: "9S 9D 4C", 0: "9C 9S 8S"})
    state = new_hand(rules, 3, 0, deck=deck)
    state = play(state, PassUpcard(1), PassUpcard(2), PassUpcard(0))
    assert state.phase is Phase.DRAW and state.to_act == (1,)
    assert legal_actions(state, 1) == [DrawStock(1)]
    with pytest.raises(IllegalAction, match="Everyone passed on the up-card"):
        apply(state, TakeDiscard(1, 0))


def test_the_up_card_is_offered_only_to_a_player_who_can_use_it():
    rules, deck = offer_deck("9H", {1: "3C 5D 7S 3D 5S 7C KC JD 4S 6C QD 8C TS"})
    state = new_hand(rules, 3, 0, deck=deck)
    assert legal_actions(state, 1) == [PassUpcard(1)]
    with pytest.raises(IllegalAction, match="could not use the 9♥ at once"):
        apply(state, TakeDiscard(1, 0))
    with pytest.raises(IllegalAction, match="take it or pass"):
        apply(state, DrawStock(1))


# Taking the pile -----------------------------------------------------------------------------


def test_taking_the_top_discard_takes_the_whole_pile_and_the_top_card_is_used_at_once():
    state = arrange("oklahoma", num_seats=2, hands={1: "9C 9D 4S 5S KD"}, discard="3S 7D JH 9H")
    assert [a for a in legal_actions(state, 1) if isinstance(a, TakeDiscard)] == [TakeDiscard(1, 0)]
    state = play(state, TakeDiscard(1, 0))
    assert state.discard == ()
    assert sorted(state.hands[1]) == sorted(["9C", "9D", "4S", "5S", "KD", "3S", "7D", "JH", "9H"])
    with pytest.raises(IllegalAction, match="must meld it or lay it off first"):
        apply(state, Discard(1, "7D"))
    with pytest.raises(IllegalAction, match="must meld it or lay it off first"):
        apply(state, Meld(1, ("3S", "4S", "5S")))
    state = play(state, Meld(1, ("9C", "9D", "9H")))
    assert state.obligation is None


def test_a_deeper_card_cannot_be_chosen_from_the_pile():
    state = arrange("oklahoma", num_seats=2, hands={1: "9C 9D 4S 5S KD"}, discard="3C 9H")
    with pytest.raises(IllegalAction, match="whole pile comes with it"):
        apply(state, TakeDiscard(1, 1))


# Lay-offs, groups, the queen of spades, going out ------------------------------------------------


def test_laying_off_on_someone_elses_meld_is_refused():
    state = drawn(hands={1: "8H 4C KS QD"}, melds=[(0, "5H 6H 7H"), (1, "4S 5S 6S")], filler=7)
    before = state_to_json(state)
    assert LayOff(1, "8H", 1) not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="only on your own melds"):
        apply(state, LayOff(1, "8H", 1))
    assert state_to_json(state) == before


def test_a_group_never_takes_a_fifth_card():
    state = drawn(hands={1: "7D 2C KS QD"}, melds=[(1, "7H 7H 7S 7C")], filler=7)
    with pytest.raises(IllegalAction, match="never takes a fifth"):
        apply(state, LayOff(1, "7D", 1))
    with pytest.raises(IllegalAction, match="does not fit"):
        apply(state, LayOff(1, "2C", 1))
    with pytest.raises(IllegalAction, match="at most four cards"):
        apply(drawn(hands={1: "7D 7H 7S 7C 7C KS QD"}), Meld(1, ("7D", "7H", "7S", "7C", "7C")))


def test_the_queen_of_spades_is_discarded_only_as_the_last_card():
    state = drawn(hands={1: "QS 4C KD"}, filler=7)
    before = state_to_json(state)
    assert Discard(1, "QS") not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="only as your last card"):
        apply(state, Discard(1, "QS"))
    assert state_to_json(state) == before
    last = drawn(hands={1: "5H 6H"}, melds=[(1, "7H 8H 9H")], filler=7, stock="QS")
    last = play(last, LayOff(1, "6H", 1), LayOff(1, "5H", 1), Discard(1, "QS"))
    assert last.is_over and last.end.reason == "went_out" and last.end.seat == 1


def test_a_hand_of_queens_of_spades_alone_may_discard_one():
    state = drawn(hands={1: "QS"}, filler=7, stock="QS")
    assert legal_actions(state, 1) == [Discard(1, "QS")]


def test_going_out_must_end_with_a_discard():
    state = drawn(hands={1: "5H 6H"}, melds=[(1, "7H 8H 9H")], filler=7, stock="4H")
    state = play(state, LayOff(1, "6H", 1), LayOff(1, "5H", 1))
    with pytest.raises(IllegalAction, match="keep a card to discard"):
        apply(state, LayOff(1, "4H", 1))


# Bonuses and the target ----------------------------------------------------------------------


def test_going_out_scores_a_100_bonus():
    state = drawn(hands={1: "5H 6H"}, melds=[(1, "7H 8H 9H")], filler=7, stock="3C")
    state = play(state, LayOff(1, "6H", 1), LayOff(1, "5H", 1), Discard(1, "3C"))
    seat = hand_result(state).seats[1]
    assert (seat.melded, seat.in_hand, seat.bonus, seat.excluded) == (35, 0, 100, 0)
    assert seat.score == 135


def test_going_out_concealed_scores_250_that_do_not_count_toward_the_target():
    state = drawn(hands={1: "5H 6H 7H KC KD KS"}, filler=7, stock="3C")
    state = play(state, Meld(1, ("5H", "6H", "7H")), Meld(1, ("KC", "KD", "KS")), Discard(1, "3C"))
    seat = hand_result(state).seats[1]
    assert (seat.melded, seat.bonus, seat.excluded, seat.score) == (45, 250, 250, 295)


def test_the_250_bonus_is_left_out_when_deciding_who_reached_1000():
    rules = make_rules("oklahoma")
    assert not game_outcome(rules, (1100, 400), excluded=(250, 0)).over
    assert game_outcome(rules, (1100, 400)).over
    outcome = game_outcome(rules, (1300, 1050), excluded=(250, 0))
    assert outcome.over and outcome.winners == (0,)
    outcome = game_outcome(rules, (1200, 1050), excluded=(250, 0))
    assert outcome.over and outcome.winners == (1,)  # only seat 1 reached 1000 without it


def test_the_winner_of_the_game_gets_200():
    rules = make_rules("oklahoma")
    outcome, totals = settle_game(rules, (1010, 700))
    assert outcome.winners == (0,) and totals == (1210, 700)
    assert settle_game(rules, (990, 700))[1] == (990, 700)


def test_a_whole_game_carries_the_excluded_bonus_from_hand_to_hand():
    game = new_game(make_rules("oklahoma"), 2, 0)
    game = GameState(game.rules, 2, 0, (900, 0), (True, False))
    hand = drawn(hands={1: "5H 6H 7H KC KD KS"}, filler=7, stock="3C", dealer=0, totals=(0, 900))
    hand = play(hand, Meld(1, ("5H", "6H", "7H")), Meld(1, ("KC", "KD", "KS")), Discard(1, "3C"))
    game = GameState(game.rules, 2, 0, (0, 900), (False, True))
    after = finish_hand(game, hand)
    assert after.excluded == (0, 250)
    assert after.totals[1] == 900 + 295 - 0  # 1195, but only 945 count toward 1000
    assert not after.outcome.over


# The block --------------------------------------------------------------------------------------


def test_the_hand_ends_in_a_block_when_the_last_stock_cards_taker_does_not_go_out():
    state = arrange("oklahoma", num_seats=2, hands={1: "4C 9D KS"}, stock="8H", exact_stock=True)
    state = play(state, DrawStock(1))
    assert not state.stock and state.last_stock_drawn
    state = play(state, Discard(1, "4C"))
    assert state.is_over and state.end.reason == "block"
    assert hand_result(state).seats[1].bonus == 0


# Bad setups --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 5, 8])
def test_oklahoma_is_refused_for_the_wrong_number_of_players(players):
    with pytest.raises(RulesError, match="2 to 4 players"):
        new_hand(make_rules("oklahoma"), players, 0)


@pytest.mark.parametrize(
    ("option", "value", "reason"),
    [
        ("boathouse", False, "ends with a discard"),
        ("floating", True, "nobody can float"),
        ("top_discard_free", True, "used at once"),
        ("stock_refill", True, "block"),
        ("rummy_call", True, "own melds"),
        ("pip5_scoring", True, "own card values"),
    ],
)
def test_options_that_contradict_oklahoma_are_refused(option, value, reason):
    with pytest.raises(RulesError, match=reason):
        make_rules("oklahoma", **{option: value})


def test_oklahoma_deals_13_cards_from_two_packs_to_up_to_four_players():
    rules = make_rules("oklahoma")
    state = new_hand(rules, 4, 0, seed=1)
    assert [len(hand) for hand in state.hands] == [13] * 4
    assert len(rules.deck(4)) == 104 and len(state.stock) == 104 - 52 - 1
    assert rules.target == 1000 and rules.wild_rank == "2"


def test_the_log_says_the_whole_pile_came_with_the_top_card():
    state = arrange("oklahoma", num_seats=2, hands={1: "9C 9D 4S 5S KD"}, discard="3S 7D JH 9H")
    assert describe_action(TakeDiscard(1, 0), ["Ann", "Bob"], state) == (
        "Bob took the 9♥ and the whole pile with it"
    )
    _state, events = apply(state, TakeDiscard(1, 0))
    assert events[0].text(["Ann", "Bob"]) == (
        "Bob took the 9♥ and the whole pile with it (3 cards below it)"
    )
