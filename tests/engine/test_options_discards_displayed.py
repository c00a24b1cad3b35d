"""Option discards_displayed: taken cards stay on show until the taker's next turn (Ruling 13)."""

from games.engine import Discard, DrawStock, Meld, TakeDiscard, view
from tests.engine.helpers import arrange, play


def test_taken_cards_not_melded_stay_visible_to_everyone_until_the_next_turn():
    state = arrange(
        hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="4C 7H 2D 9S", discards_displayed=True
    )
    state = play(state, TakeDiscard(1, 2), Meld(1, ("5H", "6H", "7H")), Discard(1, "2C"))
    assert view(state, 3)["public_cards"]["displayed"][1] == ["2D", "9S"]
    state = play(state, DrawStock(2), Discard(2, state.hands[2][0]))
    state = play(state, DrawStock(3), Discard(3, state.hands[3][0]))
    state = play(state, DrawStock(0), Discard(0, state.hands[0][0]))
    assert view(state, 3)["public_cards"]["displayed"][1] == []


def test_a_displayed_card_that_is_discarded_leaves_the_display():
    state = arrange(
        hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="4C 7H 2D 9S", discards_displayed=True
    )
    state = play(state, TakeDiscard(1, 2), Meld(1, ("5H", "6H", "7H")), Discard(1, "9S"))
    assert state.displayed[1] == ("2D",)


def test_without_the_option_nothing_is_displayed():
    state = arrange(hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="4C 7H 2D 9S")
    state = play(state, TakeDiscard(1, 2))
    assert view(state, 3)["public_cards"]["displayed"][1] == []
    assert view(state, 3)["public_cards"]["known"][1] == ["7H", "2D", "9S"]


def test_every_seat_and_a_spectator_see_the_same_cards_on_show():
    state = arrange(
        hands={1: "5H 6H 2C 9D KS QD 3S"}, discard="4C 7H 2D 9S", discards_displayed=True
    )
    state = play(state, TakeDiscard(1, 2), Meld(1, ("5H", "6H", "7H")), Discard(1, "2C"))
    shown = [view(state, seat)["public_cards"]["displayed"] for seat in (0, 1, 2, 3, None)]
    assert all(seen == [[], ["2D", "9S"], [], []] for seen in shown)


def test_the_record_and_the_known_list_do_not_depend_on_the_option():
    """Ruling 13 decides what lies on the table; everyone keeps the same record either way."""
    seen = {}
    for displayed in (False, True):
        state = arrange(
            hands={1: "5H 6H 2C 9D KS QD 3S"},
            discard="4C 7H 2D 9S",
            discards_displayed=displayed,
        )
        state = play(state, TakeDiscard(1, 2), Meld(1, ("5H", "6H", "7H")), Discard(1, "2C"))
        shown = view(state, 3)
        seen[displayed] = (shown["history"], shown["public_cards"]["known"])
    assert seen[False] == seen[True]
    assert seen[False][1][1] == ["2D", "9S"]
