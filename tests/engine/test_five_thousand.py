"""5000 Rummy (seed 000): the face-up deal, the dealer's wild rank, naturals played in front,
the meld value chart, floating, the winner scoring the other hands, Rummy after a meld of one's
own, and the hand that ends with the stock."""

import pytest

from games.engine import (
    ClaimRummy,
    Discard,
    DrawStock,
    Float,
    IllegalAction,
    LayOff,
    Meld,
    Phase,
    PlayNatural,
    RulesError,
    apply,
    hand_result,
    legal_actions,
    make_rules,
    new_hand,
    stack_deck,
    state_to_json,
    view,
)
from tests.engine.helpers import arrange, play

RULES = make_rules("five-thousand")


def drawn(**kwargs):
    kwargs.setdefault("num_seats", 3)
    kwargs.setdefault("wild_rank", "7")
    return play(arrange("five-thousand", **kwargs), DrawStock(kwargs.get("to_move", 1)))


# The deal -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face_up", "more"),
    [
        ("2H", 2),
        ("3H", 3),
        ("4H", 4),
        ("5H", 5),
        ("6H", 6),
        ("7H", 7),
        ("8H", 8),
        ("9H", 9),
        ("TH", 10),
        ("JH", 10),
        ("QH", 10),
        ("KH", 10),
        ("AH", 11),
    ],
)
def test_the_face_up_card_says_how_many_more_cards_follow(face_up, more):
    deck = stack_deck(RULES, 3, 0, hands={1: [face_up, *_filler(face_up, more)]})
    state = new_hand(RULES, 3, 0, deck=deck)
    assert len(state.hands[1]) == 1 + more
    assert state.hands[1][0] == face_up
    assert state.history[0].get("face_up")[1] == face_up


def _filler(face_up, count):
    spare = [rank + suit for suit in "CDS" for rank in "3456789TJQK" if rank + suit != face_up]
    return spare[:count]


def test_the_dealers_face_up_rank_is_wild_for_the_hand():
    deck = stack_deck(RULES, 3, 0, hands={0: ["9S", *_filler("9S", 9)]})
    state = new_hand(RULES, 3, 0, deck=deck)
    assert state.wild == "9"
    assert "every 9 is wild" in state.history[0].text()


def test_the_face_up_cards_are_public():
    state = new_hand(RULES, 4, 1, seed=5)
    shown = state.history[0].get("face_up")
    seen = view(state, 0)["public_cards"]["known"]
    assert [cards[0] for cards in seen] == list(shown)
    assert [hand[0] for hand in state.hands] == list(shown)


@pytest.mark.parametrize("players", [1, 9])
def test_five_thousand_is_refused_for_the_wrong_number_of_players(players):
    with pytest.raises(RulesError, match="2 to 8 players"):
        new_hand(RULES, players, 0)


# Wild cards and naturals in front ---------------------------------------------------------------


def test_a_card_of_the_wild_rank_stands_for_the_card_its_place_declares():
    state = drawn(hands={1: "5H 6H 7C KS QD 4C"})
    state = play(state, Meld(1, ("5H", "6H", "7C")))
    assert state.melds[0].reading == ("5H", "6H", "7H")
    state = play(drawn(hands={1: "8H 9H 7C KS QD 4C"}), Meld(1, ("7C", "8H", "9H")))
    assert state.melds[0].reading == ("7H", "8H", "9H")


def test_the_natural_card_of_a_melded_wild_card_is_played_in_front_and_scores():
    state = drawn(
        hands={1: "8H 4C KS QD"}, melds=[(0, "6H 7H 9C", "6H 7H 8H")], wild_rank="9", filler=7
    )
    assert PlayNatural(1, "8H", 1) in legal_actions(state, 1)
    state = play(state, PlayNatural(1, "8H", 1))
    assert state.fronts == ((1, "8H", 1),)
    assert state.melds[0].cards == ("6H", "7H", "9C")  # the wild card stays
    line = hand_result(state).seats[1].lines[0]
    assert (line.card, line.points) == ("8H", 5)


def test_a_card_of_the_wild_rank_is_no_natural_card():
    state = drawn(hands={1: "7H 4C KS QD"}, melds=[(0, "5H 6H 7C", "5H 6H 7H")], filler=7)
    assert PlayNatural(1, "7H", 1) not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="wild this hand"):
        apply(state, PlayNatural(1, "7H", 1))


def test_a_wild_cards_natural_is_played_only_once():
    state = drawn(
        num_seats=5,
        hands={1: "8H 8H 4C KS"},
        melds=[(0, "6H 7H 9C", "6H 7H 8H")],
        wild_rank="9",
        filler=7,
    )
    state = play(state, PlayNatural(1, "8H", 1))
    before = state_to_json(state)
    with pytest.raises(IllegalAction, match="still waiting for its natural card"):
        apply(state, PlayNatural(1, "8H", 1))
    assert state_to_json(state) == before


# The meld value chart ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wild", "meld", "reading", "points"),
    [
        ("K", "2C 3C 4C 5C 6C 7C 8C 9C", None, [5] * 8),  # 2-9 (not wild): 5
        ("2", "TD JD QD KD", None, [10, 10, 10, 10]),  # 10-K (not wild): 10
        ("2", "AS AH AD", None, [100, 100, 100]),  # ace (not wild): 100
        ("A", "5S 6S AC", "5S 6S 7S", [5, 5, 200]),  # a wild ace: 200
        ("4", "TS JS 4C", "TS JS QS", [10, 10, 100]),  # any other wild card: 100
    ],
)
def test_melds_score_the_value_chart(wild, meld, reading, points):
    spec = (0, meld, reading) if reading else (0, meld)
    state = arrange("five-thousand", num_seats=3, melds=[spec], wild_rank=wild)
    assert [line.points for line in hand_result(state).seats[0].lines[: len(points)]] == points


# Going out, floating, the winner's count -----------------------------------------------------


def test_going_out_needs_a_discard_else_the_player_floats():
    state = drawn(hands={1: "5H 6H"}, melds=[(1, "2H 3H 4H")], stock="7D")
    state = play(state, LayOff(1, "5H", 1), LayOff(1, "6H", 1), LayOff(1, "7D", 1, "7H"))
    assert state.hands[1] == () and not state.is_over
    assert legal_actions(state, 1) == [Float(1)]


def test_the_player_who_goes_out_scores_the_cards_left_in_the_other_hands():
    state = drawn(
        hands={1: "5H 6H", 0: "AS KD 7C 4S", 2: "QC 3D"},
        melds=[(1, "2H 3H 4H")],
        stock="9C",
        filler=7,
    )
    state = play(state, LayOff(1, "5H", 1), LayOff(1, "6H", 1), Discard(1, "9C"))
    assert state.is_over and state.end.reason == "went_out"
    result = hand_result(state)
    winner = result.seats[1]
    # others' hands: ace 100, king 10, a wild 7 100, four 5; queen 10, three 5
    assert winner.bonus == 100 + 10 + 100 + 5 + 10 + 5
    assert winner.score == 5 * 5 + winner.bonus
    assert (result.seats[0].in_hand, result.seats[0].score) == (0, 0)


def test_when_the_stock_runs_out_only_melds_count():
    state = arrange(
        "five-thousand",
        num_seats=3,
        hands={1: "4C 9D KS"},
        melds=[(1, "TS JS QS")],
        stock="8H",
        exact_stock=True,
        wild_rank="7",
    )
    state = play(state, DrawStock(1))
    assert state.stock == () and not state.is_over  # the taker of the last card plays on
    state = play(state, Discard(1, "4C"))
    assert state.is_over and state.end.reason == "stock_out"
    result = hand_result(state)
    assert [seat.bonus for seat in result.seats] == [0, 0, 0]
    assert result.seats[1].score == 30


# The Rummy call -------------------------------------------------------------------------------


def test_only_a_player_with_a_meld_down_may_call_rummy_and_play_returns_to_the_next_player():
    state = drawn(
        num_seats=3,
        to_move=1,
        hands={1: "8D 4C KS", 2: "QH JC", 0: "9H 3S"},
        melds=[(0, "5D 6D 7D", "5D 6D 7D")],
        filler=7,
        wild_rank="K",
    )
    state = play(state, Discard(1, "8D"))
    assert state.phase is Phase.CLAIM and state.to_act == (0,)  # seat 2 has no meld down
    with pytest.raises(IllegalAction, match="only once you have a meld of your own"):
        apply(state, ClaimRummy(2, 0))
    state = play(state, ClaimRummy(0, 0), LayOff(0, "8D", 1))
    assert state.phase is Phase.DRAW and state.to_act == (2,)


def test_a_player_who_only_laid_off_at_a_runs_low_end_may_not_call_rummy():
    # The 4♦ laid off below seat 0's 5-6-7♦ becomes the run's first card, credited to seat 2;
    # seat 2 still has no meld of its own, so it is not among those who may call on the 8♦.
    state = drawn(
        num_seats=3,
        to_move=1,
        hands={1: "5D 6D 7D 2C", 2: "4D QH JC", 0: "8D 9H 3S"},
        filler=7,
        wild_rank="K",
        stock="TC JS QC",
    )
    state = play(state, Meld(1, ("5D", "6D", "7D")), Discard(1, "2C"))
    state = play(state, DrawStock(2), LayOff(2, "4D", 1), Discard(2, "QH"))
    assert state.melds[0].owners[0] == 2  # the low lay-off leads the run
    state = play(state, DrawStock(0), Discard(0, "8D"))
    assert state.phase is Phase.CLAIM and state.to_act == (1,)  # seat 1 melded; seat 2 did not
    with pytest.raises(IllegalAction):
        apply(state, ClaimRummy(2, 0))


def test_five_thousand_settles_its_own_house_rules():
    assert RULES.target == 5000 and RULES.floating and RULES.rummy_call
    for option, value in (("floating", False), ("stock_refill", True), ("rummy_call", False)):
        with pytest.raises(RulesError):
            make_rules("five-thousand", **{option: value})
