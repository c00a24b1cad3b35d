"""Scoring a hand: melded cards for their owner, cards in hand against the holder (000-004)."""

from games.engine import DrawStock, LayOff, Meld, hand_result
from tests.engine.helpers import arrange, play


def seat_score(preset="standard", melds=(), hand="", seat=1, **options):
    state = arrange(preset, hands={seat: hand}, melds=melds, **options)
    return hand_result(state).seats[seat]


def test_nine_ten_jack_scores_twenty_nine():
    assert seat_score(melds=[(1, "9S TS JS")]).melded == 29


def test_fifty_eight_melded_with_a_king_and_five_in_hand_scores_forty_three():
    state = arrange(
        hands={1: "9S KC 5H"},
        melds=[(1, "8D 9D TD JD"), (1, "4C 4D 4H"), (0, "6S 7S 8S")],
        phase="play",
    )
    state = play(state, LayOff(1, "9S", 3))
    seat = hand_result(state).seats[1]
    assert (seat.melded, seat.in_hand, seat.score) == (58, 15, 43)


def test_the_ace_is_one_low_and_fifteen_high_in_a_group_or_in_hand():
    assert seat_score(melds=[(1, "AC 2C 3C")]).melded == 6
    assert seat_score(melds=[(1, "JC QC KC AC")]).melded == 45
    assert seat_score(melds=[(1, "AC AD AH")]).melded == 45
    assert seat_score(hand="AS").in_hand == 15


def test_a_low_ace_stays_one_when_jokers_stand_for_the_two_and_three():
    score = seat_score("jokers", melds=[(1, "AC JK JK", "AC 2C 3C")])
    assert score.melded == 1 + 15 + 15


def test_pip_five_counts_two_to_nine_as_five_and_a_low_ace_as_five():
    assert seat_score(melds=[(1, "7D 8D 9D")], pip5_scoring=True).melded == 15
    assert seat_score(melds=[(1, "AH 2H 3H")], pip5_scoring=True).melded == 15
    assert seat_score(melds=[(1, "QH KH AH")], pip5_scoring=True).melded == 35
    assert seat_score("jokers", hand="JK TD", pip5_scoring=True).in_hand == 25


def test_rummy_school_values_aces_one_or_eleven_and_fifteen_in_hand():
    assert seat_score("rummy-school", melds=[(1, "AS 2S 3S")]).melded == 6
    assert seat_score("rummy-school", melds=[(1, "QS KS AS")]).melded == 31
    assert seat_score("rummy-school", melds=[(1, "AS AD AH")]).melded == 33
    assert seat_score("rummy-school", hand="AS JK").in_hand == 30


def test_rummy_school_jokers_are_worth_what_they_stand_for():
    assert seat_score("rummy-school", melds=[(1, "9H JK JH", "9H TH JH")]).melded == 29
    assert seat_score("rummy-school", melds=[(1, "JK 2H 3H", "AH 2H 3H")]).melded == 6
    assert seat_score("rummy-school", melds=[(1, "5S 5D JK", "5S 5D 5*")]).melded == 15


def test_each_card_has_a_line_with_its_reason():
    score = seat_score("jokers", melds=[(1, "AC 2C JK", "AC 2C 3C")], hand="KD")
    assert [(line.card, line.points, line.reason) for line in score.lines] == [
        ("AC", 1, "low ace in a run"),
        ("2C", 2, "2♣ in a run"),
        ("JK", 15, "joker as 3♣"),
        ("KD", -10, "left in hand"),
    ]


def test_a_hand_can_score_below_zero():
    assert seat_score(hand="KS QS AS").score == -35


def test_scoring_before_the_end_is_a_projection_and_after_it_final():
    state = arrange(hands={1: "5H 6H"}, stock="7H")
    assert not hand_result(state).final
    state = play(state, DrawStock(1), Meld(1, ("5H", "6H", "7H")))
    result = hand_result(state)
    assert result.final and result.reason == "went_out" and result.went_out == 1
    assert result.to_json()["seats"][1]["melded"] == 18


def test_totals_after_the_hand_add_each_score():
    state = arrange(hands={1: "KS"}, melds=[(0, "9S TS JS")], totals=[100, 20, 0, -5])
    result = hand_result(state)
    assert result.totals == tuple(
        before + seat.score for before, seat in zip((100, 20, 0, -5), result.seats, strict=True)
    )
    assert result.seats[1].score == -10
