"""The medium bot's card prospects follow each preset's meld rules: wild ranks, aces, jokers."""

from __future__ import annotations

from games import engine
from games.bots import read_view
from games.bots.prospects import meld_chance, outlook
from tests.engine.helpers import arrange


def _look(state, seat=1):
    return outlook(read_view(engine.view(state, seat)))


def test_an_oklahoma_deuce_is_kept_as_a_wild_card_not_a_lone_two():
    look = _look(arrange("oklahoma", 2, hands={1: "2H 7C KD 9S 4D 5H TC JS 3C 8D 6S QH AC"}))
    assert meld_chance("2H", ["7C", "KD"], look) >= 0.85


def test_a_deuce_in_hand_makes_a_pair_as_good_as_a_meld_in_oklahoma():
    look = _look(arrange("oklahoma", 2, hands={1: "2H 7C 7D 9S 4D 5H TC JS 3C 8D 6S QH AC"}))
    assert meld_chance("7C", ["2H", "7D"], look) >= 0.85


def test_unseen_wild_cards_count_as_outs_for_every_card_in_oklahoma():
    """The same hand: a lone pair's chance is higher where eight deuces could complete it."""
    hand = "7C 7D KS 9S 4D 5H TC JS 3C 8D 6S QH AC"
    wild = _look(arrange("oklahoma", 2, hands={1: hand}))
    plain = _look(arrange("standard", 2, hands={1: "7C 7D KS 9S 4D 5H TC"}))
    assert wild.wild_outs == 8
    assert plain.wild_outs == 0
    assert meld_chance("7C", ["7D"], wild) > meld_chance("7C", ["7D"], plain)


def test_the_five_thousand_wild_rank_is_wild_for_the_bot_too():
    state = arrange("five-thousand", 2, hands={1: "9H 4C KD"}, filler=3, wild_rank="9")
    look = _look(state)
    assert look.wild_rank == "9"
    assert meld_chance("9H", ["4C", "KD"], look) >= 0.85


def test_a_persian_ace_sits_only_above_the_king():
    """Ace-two is a run start in standard, a dead pair of cards in persian (aces high only)."""
    persian = _look(arrange("persian", 4, hands={1: "AS 2S 9D JC TH 6C 5D"}))
    standard = _look(arrange("standard", 4, hands={1: "AS 2S 9D JC TH 6C 5D"}))
    assert not persian.aces_low
    assert meld_chance("AS", ["2S"], persian) < meld_chance("AS", ["2S"], standard)
    assert meld_chance("AS", ["KS"], persian) > meld_chance("AS", ["2S"], persian)


def test_a_persian_joker_is_worth_keeping_beside_another_joker():
    look = _look(arrange("persian", 4, hands={1: "JK JK 2C 7D 9H QS 4D"}))
    assert look.joker_group
    pair = meld_chance("JK", ["JK", "2C"], look)
    lone = meld_chance("JK", ["2C", "7D"], look)
    assert 0.0 < lone < pair
    assert meld_chance("JK", ["JK", "JK"], look) >= 0.9
