"""Moves as JSON and in words; events in words."""

import pytest

from games.engine import (
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    Discard,
    DrawStock,
    Event,
    Float,
    IllegalAction,
    LayOff,
    Meld,
    PassClaim,
    SwitchJoker,
    TakeDiscard,
    action_from_json,
    action_to_json,
    describe_action,
)
from tests.engine.helpers import arrange, play_out

EVERY_MOVE = [
    DrawStock(1),
    TakeDiscard(1, 2),
    Meld(1, ("5H", "6H", "7H")),
    Meld(1, ("9D", "JK", "JK"), ("9D", "9*", "9*")),
    LayOff(1, "8H", 2),
    LayOff(1, "JK", 2, "4H"),
    SwitchJoker(1, "8C", 1),
    Discard(1, "9C"),
    ClaimRummy(1, 0),
    PassClaim(1),
    DeclineDraw(1),
    Float(1),
]


@pytest.mark.parametrize("action", EVERY_MOVE)
def test_every_move_round_trips_through_json_without_its_seat(action):
    data = action_to_json(action)
    assert "seat" not in data
    assert action_from_json(data, 1) == action


def test_the_clock_move_keeps_the_seat_it_is_given():
    assert action_to_json(CloseClaims()) == {"type": "close_claims"}
    assert action_from_json({"type": "close_claims"}, -1) == CloseClaims()


def test_json_forms_are_small_and_named():
    assert action_to_json(TakeDiscard(1, 2)) == {"type": "take_discard", "depth": 2}
    assert action_to_json(Meld(1, ("5H", "6H", "7H"))) == {
        "type": "meld",
        "cards": ["5H", "6H", "7H"],
    }


def test_a_list_of_cards_becomes_a_tuple():
    assert Meld(1, ["5H", "6H", "7H"], ["5H", "6H", "7H"]).cards == ("5H", "6H", "7H")


def test_only_actions_have_a_json_form():
    with pytest.raises(IllegalAction):
        action_to_json("draw")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (DrawStock(0), "Alice drew from the stock"),
        (TakeDiscard(0, 2), "Alice took the 7♥ and 2 cards above it from the pile"),
        (TakeDiscard(0, 0), "Alice took the 9♠ from the pile"),
        (ClaimRummy(1, 1), "Bob called Rummy and took the 2♦ and 1 card above it from the pile"),
        (Meld(0, ("5H", "6H", "7H")), "Alice melded 5♥, 6♥ and 7♥"),
        (Meld(0, ("6C", "7C", "JK"), ("6C", "7C", "8C")), "Alice melded 6♣, 7♣ and Joker as 8♣"),
        (LayOff(1, "JK", 2, "4H"), "Bob laid off the Joker on meld 2 as 4♥"),
        (LayOff(1, "8H", 2), "Bob laid off the 8♥ on meld 2"),
        (SwitchJoker(1, "8C", 1), "Bob put the 8♣ in place of a joker in meld 1"),
        (Discard(5, "9C"), "Seat 5 discarded the 9♣"),
        (PassClaim(1), "Bob did not call Rummy"),
        (CloseClaims(), "The time to call Rummy ran out"),
        (DeclineDraw(0), "Alice chose not to take from the pile, which ends the hand"),
        (Float(1), "Bob floats with an empty hand"),
    ],
)
def test_every_move_reads_as_a_sentence(action, text):
    state = arrange(discard="7H 2D 9S")
    assert describe_action(action, ["Alice", "Bob"], state).startswith(text)


def test_without_a_state_a_pile_move_counts_the_cards():
    assert describe_action(TakeDiscard(0, 1)) == (
        "Seat 0 took the card at depth 1 and 1 card above it from the pile"
    )


def test_every_event_of_a_hand_reads_as_a_sentence():
    state = play_out("jokers", 4, seed=30, rummy_call=True, stock_refill=True, floating=True)
    for event in state.history:
        text = event.text(["A", "B", "C", "D"])
        assert text and "(" not in text.split()[0]
        assert Event.from_json(event.to_json()) == event


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (Event("claim_window", 1), "Rummy may be called on the pile"),
        (Event("pass_claim", 2), "Seat 2 did not call Rummy"),
        (Event("close_claims", -1), "The time to call Rummy ran out"),
        (Event("stock_refilled", 1, (("cards", 12),)), "(12 cards) became the stock"),
        (Event("decline_draw", 0), "did not take from the pile"),
        (Event("float", 0), "floats"),
        (Event("switch_joker", 0, (("card", "8C"), ("meld", 2))), "in place of the joker"),
        (Event("lay_off", 0, (("card", "JK"), ("meld", 2), ("reading", "4H"))), "as 4♥"),
        (  # each wild card with its stand-in, not every card twice
            Event(
                "meld",
                0,
                (
                    ("meld", 1),
                    ("cards", ("8H", "2H", "2S", "JH")),
                    ("reading", ("8H", "9H", "TH", "JH")),
                ),
            ),
            "melded 8♥, 2♥ as 9♥, 2♠ as 10♥ and J♥ (meld 1)",
        ),
        (Event("hand_over", 0, (("reason", "went_out"),)), "went out"),
        (Event("hand_over", -1, (("reason", "last_stock_card"),)), "last card of the stock"),
        (Event("hand_over", 0, (("reason", "declined"),)), "did not take"),
        (Event("hand_over", 0, (("reason", "cannot_draw"),)), "cannot take"),
        (Event("mystery", 3), "mystery (Seat 3)"),
    ],
)
def test_rare_events_read_as_sentences(event, text):
    assert text in event.text()
