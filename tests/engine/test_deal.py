"""Dealing: deck, hand sizes, order, up-card, first player, seeds, first dealer, rotation."""

import secrets
from collections import Counter

import pytest

from games.engine import (
    Phase,
    RulesError,
    first_dealer_draw,
    make_rules,
    new_hand,
    next_dealer,
    stack_deck,
    view,
)
from tests.engine.helpers import all_cards


@pytest.mark.parametrize(
    ("preset", "players", "dealt"),
    [
        ("standard", 2, 13),
        ("standard", 4, 7),
        ("standard", 8, 7),
        ("jokers", 2, 13),
        ("jokers", 6, 7),
        ("classic", 3, 7),
        ("rummy-school", 2, 7),
        ("rummy-school", 4, 7),
    ],
)
def test_hand_size_depends_on_preset_and_players(preset, players, dealt):
    rules = make_rules(preset)
    state = new_hand(rules, players, 0, seed=11)
    assert [len(hand) for hand in state.hands] == [dealt] * players
    assert len(state.discard) == 1
    assert all_cards(state) == Counter(rules.deck(players))


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left():
    rules = make_rules()
    deck = list(rules.deck(4))
    state = new_hand(rules, 4, dealer=2, seed=1, deck=deck)
    # seat 3 (dealer's left) gets deck[0], deck[4], ...; the dealer gets every fourth from deck[3]
    assert state.hands[3] == tuple(deck[0:28:4])
    assert state.hands[0] == tuple(deck[1:28:4])
    assert state.hands[2] == tuple(deck[3:28:4])
    assert state.discard == (deck[28],)
    assert state.stock == tuple(deck[29:])


def test_the_player_left_of_the_dealer_moves_first():
    state = new_hand(make_rules(), 5, dealer=4, seed=3)
    assert state.phase is Phase.DRAW
    assert state.to_act == (0,) and state.current == 0


def test_stack_deck_deals_the_wanted_hands_upcard_and_stock():
    rules = make_rules()
    deck = stack_deck(rules, 3, 0, hands={1: ["5H", "6H", "7H"]}, upcard="KS", stock=["2C", "3C"])
    state = new_hand(rules, 3, 0, seed=1, deck=deck)
    assert state.hands[1][:3] == ("5H", "6H", "7H")
    assert state.discard == ("KS",)
    assert state.stock[:2] == ("2C", "3C")


def test_stack_deck_refuses_cards_the_deck_does_not_hold():
    with pytest.raises(RulesError, match="does not hold"):
        stack_deck(make_rules(), 3, 0, hands={0: ["JK"]})
    with pytest.raises(RulesError, match="at most 7"):
        stack_deck(make_rules(), 3, 0, hands={0: ["2C"] * 8})


def test_the_same_seed_deals_the_same_hand_and_another_seed_another():
    rules = make_rules()
    assert new_hand(rules, 4, 0, seed=42) == new_hand(rules, 4, 0, seed=42)
    assert new_hand(rules, 4, 0, seed=42).hands != new_hand(rules, 4, 0, seed=43).hands


def test_every_hand_draws_its_own_seed_from_secrets(monkeypatch):
    drawn = []

    def fake_randbits(bits):
        drawn.append(bits)
        return 1234 + len(drawn)

    monkeypatch.setattr(secrets, "randbits", fake_randbits)
    first = new_hand(make_rules(), 4, 0)
    second = new_hand(make_rules(), 4, 1)
    assert drawn == [64, 64]
    assert (first.seed, second.seed) == (1235, 1236)


def test_the_seed_stays_secret_until_the_hand_is_over():
    state = new_hand(make_rules(), 3, 0, seed=99)
    assert "seed" not in view(state, 0)
    assert "seed" not in view(state, None)


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ({"dealer": 4}, "dealer"),
        ({"dealer": True}, "dealer"),
        ({"totals": [0, 0]}, "Totals"),
        ({"on_board": [1, 0, 0, 0]}, "on_board"),
        ({"seed": "x"}, "seed"),
        ({"deck": ["2C"] * 52}, "explicit deck"),
        ({"deck": ["XX"] * 52}, "explicit deck"),
    ],
)
def test_bad_setup_is_refused_with_a_reason(setup, reason):
    arguments = {"dealer": 0, "seed": 1} | setup
    with pytest.raises(RulesError, match=reason):
        new_hand(make_rules(), 4, **arguments)


def test_a_hand_needs_a_rules_object():
    with pytest.raises(RulesError, match="Rules object"):
        new_hand("standard", 4, 0)  # type: ignore[arg-type]


def test_totals_and_on_board_flags_are_kept_for_scoring():
    state = new_hand(make_rules(), 3, 0, totals=[40, 0, -5], seed=1)
    assert state.totals == (40, 0, -5)
    assert state.on_board == (True, False, True)


def test_the_deal_passes_to_the_left():
    rules = make_rules()
    assert next_dealer(rules, 0, 4) == 1
    assert next_dealer(rules, 3, 4) == 0


def test_first_dealer_is_the_lowest_card_with_aces_low_and_ties_drawing_again():
    for seed in range(200):
        draw = first_dealer_draw(make_rules("jokers"), 6, seed)
        last = draw.rounds[-1]
        ranks = {seat: "A23456789TJQK".index(card[0]) for seat, card in last}
        assert draw.dealer == min(ranks, key=ranks.get)
        assert list(ranks.values()).count(ranks[draw.dealer]) == 1
        for earlier in draw.rounds[:-1]:
            low = min("A23456789TJQK".index(card[0]) for _seat, card in earlier)
            tied = [seat for seat, card in earlier if "A23456789TJQK".index(card[0]) == low]
            assert len(tied) > 1
        assert all(card != "JK" for round_ in draw.rounds for _seat, card in round_)


def test_first_dealer_draw_is_reproducible_from_its_seed_and_shown():
    one = first_dealer_draw(make_rules(), 4, 5)
    assert one == first_dealer_draw(make_rules(), 4, 5)
    assert one.to_json()["dealer"] == one.dealer
    assert first_dealer_draw(make_rules(), 4).dealer in range(4)


def test_some_first_dealer_draws_need_a_second_round():
    assert any(len(first_dealer_draw(make_rules(), 8, seed).rounds) > 1 for seed in range(50))
