"""Runs and groups: what is a meld, the ace at either end, and the list of melds in a hand."""

import pytest

from games.engine import DrawStock, IllegalAction, Meld, apply, legal_actions
from games.engine.melds import enumerate_melds, resolve_meld
from tests.engine.helpers import arrange, play


def shape(text, reading=None, wild=False, distinct=True):
    read = tuple(reading.split()) if reading else None
    return resolve_meld(tuple(text.split()), read, wild, distinct)


@pytest.mark.parametrize(
    ("cards", "kind"),
    [
        ("5C 6C 7C", "run"),
        ("AH 2H 3H", "run"),
        ("QS KS AS", "run"),
        ("9D TD JD QD KD", "run"),
        ("4C 4D 4S", "group"),
        ("AC AD AH AS", "group"),
    ],
)
def test_runs_and_groups_are_melds(cards, kind):
    assert shape(cards).kind == kind


@pytest.mark.parametrize(
    "cards",
    [
        "KC AC 2C",
        "KC AC 2C 3C",
        "QC KC AC 2C 3C",
        "5C 6C 8C",
        "5C 6D 7C",
        "4C 4D",
        "4C 4D 5S",
        "4C 4C 4D",
    ],
)
def test_non_melds_are_refused_with_a_reason(cards):
    with pytest.raises(IllegalAction) as refused:
        shape(cards)
    assert refused.value.reason


def test_a_group_holds_distinct_suits_and_at_most_four_cards():
    with pytest.raises(IllegalAction, match="different suits"):
        shape("4C 4C 4D")
    assert shape("4C 4C 4D", distinct=False).kind == "group"
    with pytest.raises(IllegalAction, match="at most four"):
        shape("4C 4C 4D 4H 4S", distinct=False)


def test_natural_cards_given_out_of_order_are_put_in_order():
    assert shape("7C 5C 6C").cards == ("5C", "6C", "7C")
    assert shape("AS KS QS").cards == ("QS", "KS", "AS")
    assert shape("4S 4C 4D").cards == ("4C", "4D", "4S")


def test_a_run_of_every_rank_keeps_the_ace_where_it_was_laid():
    low = shape("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    high = shape("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")
    assert (low.lo, low.hi) == (1, 13)
    assert (high.lo, high.hi) == (2, 14)
    with pytest.raises(IllegalAction, match="more than one way"):
        shape("KH AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")


def test_a_run_may_not_reach_past_thirteen_cards():
    with pytest.raises(IllegalAction):
        shape("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH")


def test_every_meld_in_a_hand_is_listed_with_each_sub_run():
    melds = {
        m.cards for m in enumerate_melds(["5H", "6H", "7H", "8H", "9C", "9D", "9S"], False, True)
    }
    assert melds == {
        ("5H", "6H", "7H"),
        ("6H", "7H", "8H"),
        ("5H", "6H", "7H", "8H"),
        ("9C", "9D", "9S"),
    }


def test_aces_make_low_and_high_runs_but_never_both():
    melds = {m.cards for m in enumerate_melds(["AS", "2S", "3S", "QS", "KS"], False, True)}
    assert melds == {("AS", "2S", "3S"), ("QS", "KS", "AS")}


def test_with_two_packs_a_repeated_card_makes_no_extra_meld():
    melds = enumerate_melds(["5H", "5H", "6H", "7H"], False, True)
    assert [m.cards for m in melds] == [("5H", "6H", "7H")]
    groups = enumerate_melds(["5H", "5H", "5D"], False, False)
    assert [m.cards for m in groups] == [("5D", "5H", "5H")]


def test_melding_puts_the_meld_on_the_table_credited_to_the_player():
    state = play(arrange(hands={1: "5H 6H 7H 2C 9D KS QD"}), DrawStock(1))
    state, events = apply(state, Meld(1, ("5H", "6H", "7H")))
    meld = state.melds[0]
    assert (meld.id, meld.kind, meld.cards, meld.owners) == (
        1,
        "run",
        ("5H", "6H", "7H"),
        (1, 1, 1),
    )
    assert events[0].kind == "meld" and events[0].get("meld") == 1
    assert "5H" not in state.hands[1]


def test_legal_actions_list_every_meld_of_the_hand():
    state = play(arrange(hands={1: "5H 6H 7H 8H 9C 9D 9S"}, stock="2C"), DrawStock(1))
    listed = {a.cards for a in legal_actions(state, 1) if isinstance(a, Meld)}
    assert listed == {
        ("5H", "6H", "7H"),
        ("6H", "7H", "8H"),
        ("5H", "6H", "7H", "8H"),
        ("9C", "9D", "9S"),
    }


def test_a_meld_of_cards_not_held_is_refused():
    state = play(arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}), DrawStock(1))
    with pytest.raises(IllegalAction, match="You do not hold the 7♥"):
        apply(state, Meld(1, ("5H", "6H", "7H")))
    with pytest.raises(IllegalAction, match="only 1 x"):
        apply(state, Meld(1, ("5H", "5H", "5H")))


def test_a_meld_needs_three_cards():
    state = play(arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}), DrawStock(1))
    with pytest.raises(IllegalAction, match="at least three"):
        apply(state, Meld(1, ("5H", "6H")))
