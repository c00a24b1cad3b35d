"""Card codes, labels and decks."""

from collections import Counter

import pytest

from games.engine import JOKER, RANKS, SUIT_SYMBOLS, SUITS, card_label, card_name, make_rules
from games.engine.cards import is_reading, labels, sort_cards


@pytest.mark.parametrize(
    ("code", "label", "name"),
    [
        ("7H", "7♥", "seven of hearts"),
        ("TS", "10♠", "ten of spades"),
        ("AC", "A♣", "ace of clubs"),
        ("QD", "Q♦", "queen of diamonds"),
        ("JK", "Joker", "joker"),
        ("9*", "any 9", "any nine"),
    ],
)
def test_each_code_has_a_label_and_a_spoken_name(code, label, name):
    assert card_label(code) == label
    assert card_name(code) == name


def test_ranks_suits_and_symbols_cover_the_pack():
    assert RANKS == "A23456789TJQK"
    assert SUITS == "CDHS"
    assert set(SUIT_SYMBOLS) == set(SUITS)


def test_an_unknown_code_is_shown_quoted_rather_than_guessed():
    assert card_label("ZZ") == "'ZZ'"
    assert card_name("ZZ") == "'ZZ'"


def test_a_joker_is_not_a_reading_but_a_rank_with_any_suit_is():
    assert is_reading("8C") and is_reading("9*")
    assert not is_reading(JOKER) and not is_reading("X*") and not is_reading(7)


def test_lists_of_cards_read_as_a_sentence():
    assert labels([]) == "no cards"
    assert labels(["7H"]) == "7♥"
    assert labels(["7H", "8H", "9H"]) == "7♥, 8♥ and 9♥"


def test_cards_sort_by_suit_then_rank_with_jokers_last():
    assert sort_cards(["JK", "2S", "AC", "KC"]) == ["AC", "KC", "2S", "JK"]


@pytest.mark.parametrize(
    ("preset", "players", "size", "jokers"),
    [
        ("standard", 4, 52, 0),
        ("standard", 5, 104, 0),
        ("jokers", 4, 54, 2),
        ("jokers", 5, 108, 4),
        ("classic", 8, 104, 0),
        ("rummy-school", 4, 54, 2),
    ],
)
def test_the_deck_depends_on_preset_and_player_count(preset, players, size, jokers):
    deck = make_rules(preset).deck(players)
    assert len(deck) == size
    assert Counter(deck)[JOKER] == jokers
