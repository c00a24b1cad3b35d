"""Option pip5_scoring: 2-9 score 5, tens and pictures 10, jokers 15, a low ace 5 (Ruling 21)."""

from games.engine import hand_result
from tests.engine.helpers import arrange


def seat(preset="standard", **kwargs):
    return hand_result(arrange(preset, pip5_scoring=True, **kwargs)).seats[1]


def test_pip_cards_score_five_and_picture_cards_ten():
    assert seat(melds=[(1, "7D 8D 9D TD JD")]).melded == 5 + 5 + 5 + 10 + 10


def test_the_ace_is_five_low_and_fifteen_high_in_a_group_or_in_hand():
    assert seat(melds=[(1, "AH 2H 3H")]).melded == 15
    assert seat(melds=[(1, "QH KH AH")]).melded == 35
    assert seat(melds=[(1, "AC AD AS")]).melded == 45
    assert seat(hands={1: "AS 4C"}).in_hand == 20


def test_jokers_score_fifteen():
    assert seat("jokers", melds=[(1, "7D JK 9D", "7D 8D 9D")]).melded == 25
