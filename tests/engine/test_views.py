"""What each seat may see, and rebuilding a full state from a view (hidden information)."""

import json
import random
from collections import Counter

import pytest

from games.engine import (
    DrawStock,
    FormatError,
    Meld,
    TakeDiscard,
    deal_from_view,
    view,
    view_for_seat,
)
from games.engine.cards import ALL_CODES
from tests.engine.helpers import arrange, play, play_out, random_states


def card_strings(data):
    """Every card code anywhere in a JSON value."""
    found = Counter()
    if isinstance(data, str):
        if data in ALL_CODES:
            found[data] += 1
    elif isinstance(data, dict):
        for value in data.values():
            found.update(card_strings(value))
    elif isinstance(data, list):
        for value in data:
            found.update(card_strings(value))
    return found


def test_a_seat_sees_its_own_hand_and_only_the_sizes_of_the_others():
    state = arrange(hands={1: "5H 6H 2C 9D KS QD 3S"})
    shown = view(state, 1)
    assert shown["hand"] == ["5H", "6H", "2C", "9D", "KS", "QD", "3S"]
    assert shown["hand_sizes"] == [7, 7, 7, 7]
    assert shown["stock_count"] == len(state.stock)
    assert "hands" not in shown and "stock" not in shown and "seed" not in shown
    json.dumps(shown)


def test_a_spectator_sees_no_hand():
    shown = view(arrange(), None)
    assert "hand" not in shown and shown["seat"] is None


def test_a_view_holds_no_card_of_another_hand_or_of_the_stock():
    for step, (state, _action) in enumerate(random_states("jokers", 4, seed=5)):
        if state.phase.value == "hand_over":
            break
        for seat in range(step % 2, 4, 2):
            shown = view(state, seat)
            public = set(state.hands[seat]) | set(state.discard)
            for meld in state.melds:
                public.update(meld.cards)
            for event in state.history:
                public.update(card_strings(event.to_json()))
            leaked = set(card_strings(shown)) - public
            assert not leaked, leaked


@pytest.mark.parametrize(
    ("preset", "seats"), [("standard", 4), ("oklahoma", 2), ("michigan", 3), ("five-thousand", 3)]
)
def test_a_seat_view_built_from_the_spectator_view_is_the_seat_view(preset, seats):
    """view_for_seat copies the spectator's view and adds the seat's cards: it must equal the
    seat's own view at every step of a hand, the finished hand included."""
    for state, _action in random_states(preset, seats, seed=11):
        public = view(state, None)
        for seat in range(seats):
            assert view_for_seat(public, state, seat) == view(state, seat)


def test_a_seat_view_is_built_only_from_the_spectator_view():
    state = arrange()
    with pytest.raises(ValueError):
        view_for_seat(view(state, 1), state, 2)
    with pytest.raises(ValueError):
        view_for_seat(view(state, None), state, 4)


def test_everything_is_shown_once_the_hand_is_over():
    state = play_out("standard", 3, seed=2)
    shown = view(state, 0)
    assert shown["hands"] == [list(hand) for hand in state.hands]
    assert shown["seed"] == state.seed
    assert shown["result"]["final"] is True
    assert len(shown["result"]["seats"]) == 3


def test_duties_and_kept_cards_are_public():
    state = play(arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="8C 7H"), TakeDiscard(1, 0))
    shown = view(state, 2)
    assert shown["obligation"]["card"] == "7H"
    assert shown["public_cards"]["known"][1] == ["7H"]


def test_dealing_from_a_view_gives_a_state_with_the_same_view():
    for state, _action in random_states("standard", 4, seed=9):
        for seat in range(4):
            shown = view(state, seat)
            rebuilt = deal_from_view(shown, random.Random(seat))
            assert view(rebuilt, seat) == shown


def test_a_guess_of_the_hidden_hands_is_used_as_given():
    state = play(arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="8C 7H"), TakeDiscard(1, 0))
    state = play(state, Meld(1, ("5H", "6H", "7H")))
    shown = view(state, 2)
    hidden = sorted(set(state.stock) | set(state.hands[0]) | set(state.hands[3]))
    guess = {0: hidden[:7], 3: hidden[7:14], 1: ["2C", "9D", "KS", "QD", "3S"]}
    rebuilt = deal_from_view(shown, guess)
    assert rebuilt.hands[0] == tuple(hidden[:7])
    assert view(rebuilt, 2) == shown
    stock = hidden[14:]
    with_stock = deal_from_view(shown, {**guess, -1: stock})
    assert with_stock.stock == tuple(stock)


@pytest.mark.parametrize(
    ("guess", "reason"),
    [
        ({0: ["2C"]}, "must be 7 cards"),
        ({0: ["7H", "AD", "AC", "AS", "2D", "3D", "4D"]}, "not hidden"),
        ({-1: ["AD"]}, "stock must hold"),
    ],
)
def test_an_impossible_guess_is_refused(guess, reason):
    state = play(arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="8C 7H"), TakeDiscard(1, 0))
    state = play(state, Meld(1, ("5H", "6H", "7H")))
    with pytest.raises(FormatError, match=reason):
        deal_from_view(view(state, 2), guess)


def test_a_guess_must_keep_the_cards_a_seat_is_known_to_hold():
    state = play(arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="8C 7H"), TakeDiscard(1, 0))
    shown = view(state, 2)
    assert shown["public_cards"]["known"][1] == ["7H"]
    with pytest.raises(FormatError, match="leaves out cards"):
        deal_from_view(shown, {1: ["5H", "6H", "2C", "9D", "KS", "QD", "3S", "4S"]})


def test_a_view_that_does_not_add_up_is_refused():
    shown = view(arrange(), 1)
    with pytest.raises(FormatError):
        deal_from_view({**shown, "stock_count": 3}, random.Random(1))
    with pytest.raises(FormatError):
        deal_from_view({**shown, "format": 99})
    with pytest.raises(FormatError):
        deal_from_view({**shown, "discard": ["AS"] * 9})


def test_a_spectator_view_can_be_dealt_out():
    state = play(arrange(), DrawStock(1))
    shown = view(state, None)
    assert view(deal_from_view(shown, random.Random(3)), None) == shown


def test_a_view_of_a_seat_that_is_not_at_the_table_is_refused():
    with pytest.raises(ValueError, match="no seat"):
        view(arrange(), 4)
