"""Option thirty_point_rule: scores count from a player's first hand of 30 or more (Ruling 12)."""

from games.engine import hand_result
from tests.engine.helpers import arrange


def result(totals=(0, 0, 0, 0), on_board=None, melds=(), hand="", **options):
    state = arrange(hands={1: hand}, melds=melds, totals=totals, on_board=on_board, **options)
    return hand_result(state).seats[1]


def test_a_hand_under_thirty_does_not_count_before_the_player_is_on_the_board():
    seat = result(melds=[(1, "7S 8S 9S")], thirty_point_rule=True)
    assert seat.score == 24 and seat.counted == 0
    assert not seat.on_board and seat.total_after == 0


def test_negative_hands_do_not_count_either_before_the_first_thirty():
    seat = result(hand="KS QS", thirty_point_rule=True)
    assert seat.score == -20 and seat.counted == 0


def test_the_first_hand_of_thirty_or_more_counts_and_puts_the_player_on_the_board():
    seat = result(melds=[(1, "9S TS JS")], thirty_point_rule=True)
    assert seat.score == 29 and seat.counted == 0
    seat = result(melds=[(1, "9S TS JS QS")], thirty_point_rule=True)
    assert seat.counted == 39 and seat.on_board


def test_once_on_the_board_every_score_counts():
    seat = result(
        totals=(0, 45, 0, 0),
        on_board=(False, True, False, False),
        hand="KS",
        thirty_point_rule=True,
    )
    assert seat.counted == -10 and seat.total_after == 35


def test_without_the_option_every_hand_counts():
    assert result(melds=[(1, "7S 8S 9S")]).counted == 24
