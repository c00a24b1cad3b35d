"""The ace of a run that holds every rank: the player says which end (Ruling 1).

An ace, or a joker standing for one, laid off on a 2..K run fits both ends: the two ends are
two legal moves, told apart by ``ace_end``. A move without the field is the high end, as
every move stored before the field existed was played.
"""

import pytest

from games.engine import (
    DrawStock,
    IllegalAction,
    LayOff,
    action_from_json,
    action_to_json,
    apply,
    describe_action,
    hand_record,
    hand_result,
    legal_actions,
    state_from_json,
    state_to_json,
)
from games.engine.records import parse_record
from games.engine.views import actions_from_history
from tests.engine.helpers import arrange, play

TWELVE_CLUBS = "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"


def _full_run_table(preset: str = "standard", hand: str = "AC 2D 5S", **options):
    state = arrange(preset, 2, hands={1: hand}, melds=[(0, TWELVE_CLUBS)], filler=13, **options)
    return play(state, DrawStock(1))


def _layoffs(state, seat=1):
    return [action for action in legal_actions(state, seat) if isinstance(action, LayOff)]


def test_a_natural_ace_on_a_two_to_king_run_is_offered_at_both_ends():
    state = _full_run_table()
    assert _layoffs(state) == [LayOff(1, "AC", 1), LayOff(1, "AC", 1, None, "low")]


def test_the_ace_laid_off_low_scores_one_and_high_fifteen():
    state = _full_run_table()
    low = play(state, LayOff(1, "AC", 1, ace_end="low"))
    assert low.melds[0].lo == 1 and low.melds[0].cards[0] == "AC"
    assert hand_result(low).seats[1].melded == 1
    high = play(state, LayOff(1, "AC", 1))
    assert high.melds[0].hi == 14 and high.melds[0].cards[-1] == "AC"
    assert hand_result(high).seats[1].melded == 15


def test_pip5_scoring_makes_the_low_ace_five():
    state = _full_run_table(pip5_scoring=True)
    low = play(state, LayOff(1, "AC", 1, ace_end="low"))
    high = play(state, LayOff(1, "AC", 1, ace_end="high"))
    assert hand_result(low).seats[1].melded == 5
    assert hand_result(high).seats[1].melded == 15


def test_a_joker_standing_for_the_ace_is_offered_at_both_ends():
    state = _full_run_table("jokers", hand="JK 2D 5S")
    assert _layoffs(state) == [
        LayOff(1, "JK", 1, "AC"),
        LayOff(1, "JK", 1, "AC", "low"),
    ]
    low = play(state, LayOff(1, "JK", 1, "AC", "low"))
    assert low.melds[0].cards[0] == "JK" and low.melds[0].reading[0] == "AC"
    assert low.melds[0].lo == 1


def test_without_ace_end_the_ace_goes_high_as_stored_moves_were_played():
    state = _full_run_table()
    stored = {"type": "lay_off", "card": "AC", "meld": 1}
    after, _events = apply(state, action_from_json(stored, 1))
    assert after.melds[0].hi == 14
    assert after.actions[-1] == LayOff(1, "AC", 1)


def test_ace_end_high_is_recorded_in_the_canonical_form_without_the_field():
    state = _full_run_table()
    after = play(state, LayOff(1, "AC", 1, ace_end="high"))
    assert after.actions[-1] == LayOff(1, "AC", 1)


def test_the_json_form_carries_ace_end_only_for_the_low_end():
    low = LayOff(1, "AC", 1, None, "low")
    assert action_to_json(low) == {"type": "lay_off", "card": "AC", "meld": 1, "ace_end": "low"}
    assert action_from_json(action_to_json(low), 1) == low
    assert "ace_end" not in action_to_json(LayOff(1, "AC", 1))


def test_a_bad_ace_end_is_refused_with_a_reason():
    with pytest.raises(IllegalAction, match="'ace_end' must be"):
        action_from_json({"type": "lay_off", "card": "AC", "meld": 1, "ace_end": "top"}, 1)
    state = _full_run_table()
    with pytest.raises(IllegalAction, match="'ace_end' must be"):
        apply(state, LayOff(1, "AC", 1, ace_end="middle"))


def test_ace_end_on_a_card_that_is_not_an_ace_is_refused_and_changes_nothing():
    state = arrange(hands={1: "8H 2C 4D"}, melds=[(0, "5H 6H 7H")])
    state = play(state, DrawStock(1))
    before = state_to_json(state)
    with pytest.raises(IllegalAction, match="cannot go at the low end"):
        apply(state, LayOff(1, "8H", 1, ace_end="low"))
    assert state_to_json(state) == before


def test_an_ace_with_only_one_open_end_needs_no_ace_end():
    state = arrange(hands={1: "AH 2C 4D 8S QD 3S"}, melds=[(0, "2H 3H 4H")])
    state = play(state, DrawStock(1))
    assert [a for a in _layoffs(state) if a.card == "AH"] == [LayOff(1, "AH", 1)]
    assert play(state, LayOff(1, "AH", 1, ace_end="low")).actions[-1] == LayOff(1, "AH", 1)
    with pytest.raises(IllegalAction, match="cannot go at the high end"):
        apply(state, LayOff(1, "AH", 1, ace_end="high"))


def test_the_low_ace_survives_storage_the_hand_record_and_the_history():
    state = play(_full_run_table(), LayOff(1, "AC", 1, ace_end="low"))
    assert state_from_json(state_to_json(state)) == state
    assert parse_record(hand_record(state))[1][-1] == LayOff(1, "AC", 1, None, "low")
    assert actions_from_history(state.history)[-1] == LayOff(1, "AC", 1, None, "low")
    assert "at the low end" in state.history[-1].text()
    assert describe_action(state.actions[-1]).endswith("at the low end")
