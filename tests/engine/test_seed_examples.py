"""Every worked example of the rule documents that applies to this release's presets.

Each test's docstring names the document ([000] "Queen of Spades in Rummy 500", [001] "500 Rummy
Rules Strategy", [002] "Gamedesire Rummy 500", [003] "500 Rummy (Michigan Rummy)", [004] "Rummy
School", or a Ruling of RULINGS.md) and retells the example in our words. Hands are scripted with
an explicit deck, so each test reads like the example it pins: who holds what, who does what.

When the engine disagrees with a document or ruling, the test stays as the document says.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

import pytest

from games.engine import (
    RANKS,
    SUITS,
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    Discard,
    DrawStock,
    Float,
    HandState,
    IllegalAction,
    LayOff,
    Meld,
    PassClaim,
    Phase,
    RulesError,
    SwitchJoker,
    TakeDiscard,
    apply,
    first_dealer_draw,
    game_outcome,
    hand_result,
    legal_actions,
    make_rules,
    new_hand,
    next_dealer,
    state_to_json,
    view,
)

# ---------------------------------------------------------------------------------------------
# Scripting helpers
# ---------------------------------------------------------------------------------------------

JOKER_PRESETS = {"jokers", "rummy-school"}


def full_deck(preset: str, num_seats: int) -> Counter[str]:
    """The cards of the deck as the documents describe it (not read from the engine)."""
    packs = 2 if num_seats >= 5 and preset != "rummy-school" else 1
    one_pack = [rank + suit for suit in SUITS for rank in RANKS]
    if preset in JOKER_PRESETS:
        one_pack += ["JK", "JK"]
    return Counter(one_pack * packs)


def deal_size(preset: str, num_seats: int) -> int:
    """13 cards each for two players in standard and jokers, else 7 [000, 001, 003, 004]."""
    return 13 if num_seats == 2 and preset in ("standard", "jokers") else 7


def scripted(
    preset: str = "standard",
    hands: Sequence[Sequence[str] | None] = (),
    upcard: str = "",
    stock: Sequence[str] = (),
    *,
    dealer: int | None = None,
    totals: Sequence[int] | None = None,
    **options: object,
) -> HandState:
    """A hand dealt from a stacked deck: ``hands[s]`` is seat s's full hand (None: any cards).

    The dealer is the last seat, so seat 0 moves first. The deck order follows the contract of
    ``new_hand``: one card at a time clockwise from the dealer's left, the up-card, then the
    stock top first. Cards nobody named go to the bottom of the stock in a fixed order.
    """
    num_seats = len(hands)
    dealer = num_seats - 1 if dealer is None else dealer
    size = deal_size(preset, num_seats)
    for seat, hand in enumerate(hands):
        assert hand is None or len(hand) == size, f"seat {seat} must be dealt {size} cards"
    remaining = full_deck(preset, num_seats)
    named = [card for hand in hands for card in hand or ()] + [upcard, *stock]
    remaining.subtract(Counter(named))
    assert all(count >= 0 for count in remaining.values()), f"card used twice: {remaining}"
    rest = sorted(remaining.elements())
    random.Random(7).shuffle(rest)
    dealt = [
        list(hand) if hand is not None else [rest.pop() for _ in range(size)] for hand in hands
    ]
    order: list[str] = []
    for index in range(size):
        for offset in range(1, num_seats + 1):
            order.append(dealt[(dealer + offset) % num_seats][index])
    order += [upcard, *stock, *rest]
    rules = make_rules(preset, **options)
    state = new_hand(rules, num_seats, dealer, totals=totals, seed=1, deck=order)
    for seat, hand in enumerate(dealt):
        assert Counter(state.hands[seat]) == Counter(hand), "the deal did not follow the deck"
    assert state.discard == (upcard,)
    return state


def play(state: HandState, *actions: object) -> HandState:
    """Apply the moves in order (each must be legal) and return the final state."""
    for action in actions:
        state, _events = apply(state, action)  # type: ignore[arg-type]
    return state


def refused(state: HandState, action: object) -> str:
    """Apply a move that must be refused; check the state is untouched; return the reason."""
    before = state_to_json(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)  # type: ignore[arg-type]
    assert state_to_json(state) == before
    return caught.value.reason


def melds_offered(state: HandState, seat: int) -> list[Meld]:
    return [action for action in legal_actions(state, seat) if isinstance(action, Meld)]


def layoffs_offered(state: HandState, seat: int) -> list[LayOff]:
    return [action for action in legal_actions(state, seat) if isinstance(action, LayOff)]


def meld_reading(state: HandState, meld_id: int) -> tuple[str, ...]:
    return tuple(state.melds[meld_id - 1].reading)


def points_by_card(state: HandState, seat: int) -> dict[str, int]:
    """The per-card score lines of ``seat`` as {card: points} (cards assumed distinct)."""
    lines = hand_result(state).seats[seat].lines
    return {line.card: line.points for line in lines}


def draw_and_discard(state: HandState, seat: int, card: str) -> HandState:
    """A quiet turn: draw from the stock, throw ``card``."""
    return play(state, DrawStock(seat), Discard(seat, card))


def filler(exclude: Iterable[str], count: int) -> list[str]:
    """``count`` cards not in ``exclude``, spread over ranks and suits so they make no meld."""
    banned = set(exclude)
    spread = [
        "2C", "5D", "8H", "JS", "3D", "6H", "9S", "QC", "4H", "7S", "TC", "KD",
        "2S", "5C", "8D", "JH", "3H", "6S", "9C", "QD", "4S", "7C", "TD", "KH",
    ]  # fmt: skip
    cards = [card for card in spread if card not in banned]
    assert len(cards) >= count
    return cards[:count]


# ---------------------------------------------------------------------------------------------
# The deck and the deal
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("num_seats", range(2, 9))
def test_two_players_get_thirteen_cards_and_more_players_get_seven(num_seats: int) -> None:
    """[000], [001]: with two players each is dealt 13 cards, otherwise 7; the next card of the
    stock is turned face up to start the discard pile."""
    for preset in ("standard", "jokers"):
        state = new_hand(make_rules(preset), num_seats, dealer=0, seed=num_seats)
        expected = 13 if num_seats == 2 else 7
        assert [len(hand) for hand in state.hands] == [expected] * num_seats
        assert len(state.discard) == 1
        dealt = sum(len(hand) for hand in state.hands) + 1
        assert len(state.stock) == sum(full_deck(preset, num_seats).values()) - dealt


@pytest.mark.parametrize(("preset", "num_seats", "cards", "jokers"), [
    ("standard", 4, 52, 0),
    ("standard", 5, 104, 0),
    ("jokers", 4, 54, 2),
    ("jokers", 5, 108, 4),
    ("classic", 4, 52, 0),
    ("classic", 5, 104, 0),
])  # fmt: skip
def test_five_or_more_players_shuffle_two_packs_together(
    preset: str, num_seats: int, cards: int, jokers: int
) -> None:
    """[000], [001], [002], [003]: one pack (54 cards with the two jokers) up to four players;
    from five players two packs are shuffled together, 104 cards or 108 with jokers."""
    state = new_hand(make_rules(preset), num_seats, dealer=0, seed=3)
    everything = [*state.stock, *state.discard, *(card for hand in state.hands for card in hand)]
    assert len(everything) == cards
    assert everything.count("JK") == jokers
    assert Counter(everything) == full_deck(preset, num_seats)


def test_classic_is_for_three_to_eight_players_with_seven_cards_each() -> None:
    """[003]: three to eight players, seven cards each."""
    rules = make_rules("classic")
    with pytest.raises(RulesError):
        rules.validate_players(2)
    with pytest.raises(RulesError):
        rules.validate_players(9)
    for num_seats in range(3, 9):
        rules.validate_players(num_seats)
        state = new_hand(rules, num_seats, dealer=0, seed=num_seats)
        assert {len(hand) for hand in state.hands} == {7}


def test_rummy_school_deals_seven_cards_from_one_pack_with_jokers_to_up_to_four() -> None:
    """[004]: up to four players; one pack plus two jokers; seven cards whatever the number of
    players (two players included)."""
    rules = make_rules("rummy-school")
    with pytest.raises(RulesError):
        rules.validate_players(5)
    for num_seats in (2, 3, 4):
        state = new_hand(rules, num_seats, dealer=0, seed=num_seats)
        assert {len(hand) for hand in state.hands} == {7}
        everything = [*state.stock, *state.discard, *(c for hand in state.hands for c in hand)]
        assert Counter(everything) == full_deck("rummy-school", num_seats)


def test_the_deal_starts_left_of_the_dealer_who_also_moves_first() -> None:
    """[000]: the dealer gives one card at a time, clockwise, beginning on the left; the rest is
    the stock, whose top card is turned up as the first discard; the player on the dealer's left
    moves first and turns go clockwise."""
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    state = new_hand(make_rules("standard"), 4, dealer=1, seed=0, deck=deck)
    assert state.hands[2][0] == deck[0]  # the dealer's left gets the first card
    assert state.hands[3][0] == deck[1]
    assert state.hands[0][0] == deck[2]
    assert state.hands[1][0] == deck[3]  # the dealer gets the fourth
    assert state.discard == (deck[28],)
    assert state.stock[0] == deck[29]
    assert state.phase is Phase.DRAW and state.to_act == (2,)
    state = draw_and_discard(state, 2, deck[29])
    assert state.to_act == (3,)


def test_the_lowest_card_drawn_deals_first_with_aces_low() -> None:
    """[000], Ruling 15: each player draws a card; the lowest deals, the ace counting low; a tie
    for lowest draws again."""
    rank_order = {rank: index for index, rank in enumerate(RANKS)}  # A lowest
    for seed in range(40):
        draw = first_dealer_draw(make_rules("standard"), 4, seed=seed)
        last_round = draw.rounds[-1]
        lowest = min(rank_order[card[0]] for _seat, card in last_round)
        lowest_seats = [seat for seat, card in last_round if rank_order[card[0]] == lowest]
        assert lowest_seats == [draw.dealer]
        for earlier in draw.rounds[:-1]:
            low = min(rank_order[card[0]] for _seat, card in earlier)
            assert sum(1 for _seat, card in earlier if rank_order[card[0]] == low) > 1


def test_the_deal_passes_to_the_left_after_each_hand() -> None:
    """[000]: after the first hand the deal rotates clockwise, one seat at a time."""
    rules = make_rules("standard")
    assert [next_dealer(rules, dealer, 4) for dealer in range(4)] == [1, 2, 3, 0]


# ---------------------------------------------------------------------------------------------
# Melds and the ace
# ---------------------------------------------------------------------------------------------


def _one_turn_holding(
    cards: Sequence[str], preset: str = "standard", **options: object
) -> HandState:
    """Seat 0 holds ``cards`` (topped up to 7) and has just drawn: ready to meld."""
    hand = list(cards) + filler(cards, 7 - len(cards))
    spare = [card for card in ("AD", "KS", "QS", "AS", "JD") if card not in hand]
    state = scripted(preset, [hand, None, None], upcard=spare[0], stock=[spare[1]], **options)
    return play(state, DrawStock(0))


def test_five_six_seven_of_clubs_is_a_run() -> None:
    """[000], [001]: a sequence is three or more cards of one suit in a row, e.g. 5-6-7 of clubs."""
    state = _one_turn_holding(["5C", "6C", "7C"])
    assert Meld(0, ("5C", "6C", "7C"), None) in melds_offered(state, 0)
    state = play(state, Meld(0, ("5C", "6C", "7C")))
    assert state.melds[0].kind == "run"


def test_three_cards_of_one_rank_are_a_group() -> None:
    """[000]: a group is three or more cards of one rank in any suits, e.g. three jacks."""
    state = _one_turn_holding(["JC", "JD", "JH"])
    state = play(state, Meld(0, ("JC", "JD", "JH")))
    assert state.melds[0].kind == "group"


def test_king_ace_two_three_is_not_a_run() -> None:
    """[000]: the ace is high or low but never in the middle, so K-A-2-3 is not a meld."""
    state = _one_turn_holding(["KH", "AH", "2H", "3H"])
    assert "meld" in refused(state, Meld(0, ("KH", "AH", "2H", "3H"))).lower()
    assert "meld" in refused(state, Meld(0, ("KH", "AH", "2H"))).lower()
    for meld in melds_offered(state, 0):
        assert not {"KH", "2H"} <= set(meld.cards)


def test_queen_king_ace_two_three_does_not_turn_the_corner() -> None:
    """[000], [001]: a run may not go round the corner: Q-K-A-2-3 is invalid."""
    state = _one_turn_holding(["QH", "KH", "AH", "2H", "3H"])
    refused(state, Meld(0, ("QH", "KH", "AH", "2H", "3H")))
    offered = {meld.cards for meld in melds_offered(state, 0)}
    assert ("AH", "2H", "3H") in offered  # the ace low
    assert ("QH", "KH", "AH") in offered  # the ace high
    assert all(not {"KH", "2H"} <= set(cards) for cards in offered)


def test_an_ace_may_start_a_run_below_the_two_or_end_it_above_the_king() -> None:
    """[000], [001], [003]: the ace may be the lowest card of a run (A-2-3) or the highest
    (J-Q-K-A)."""
    low = play(_one_turn_holding(["AS", "2S", "3S"]), Meld(0, ("AS", "2S", "3S")))
    assert low.melds[0].kind == "run"
    high = play(_one_turn_holding(["JS", "QS", "KS", "AS"]), Meld(0, ("JS", "QS", "KS", "AS")))
    assert high.melds[0].kind == "run"


def test_a_group_needs_different_suits_even_with_two_packs() -> None:
    """[001], [002], Ruling 2: no two cards of a group may share a suit, not even when two
    packs are in play."""
    hands = [["KH", "KH", "KS", "KD", "2C", "5D", "8H"], None, None, None, None]
    state = play(scripted("standard", hands, upcard="9D", stock=["4C"]), DrawStock(0))
    refused(state, Meld(0, ("KH", "KH", "KS")))
    state = play(state, Meld(0, ("KH", "KS", "KD")))
    assert "KH" not in {spot.card for spot in layoffs_offered(state, 0)}


# ---------------------------------------------------------------------------------------------
# Laying off
# ---------------------------------------------------------------------------------------------


def test_a_run_may_be_extended_at_either_end_by_any_player() -> None:
    """[001], [002]: with 5-6-7 of hearts on the table, any player on their turn may add the
    4 or the 8 of hearts, or both."""
    state = scripted(
        "standard",
        [
            ["5H", "6H", "7H", "2C", "9D", "JS", "QC"],
            ["4H", "8H", "3C", "TD", "KS", "6D", "2S"],
            None,
        ],
        upcard="AD",
        stock=["9C", "5S"],
    )
    state = play(state, DrawStock(0), Meld(0, ("5H", "6H", "7H")), Discard(0, "9C"))
    state = play(state, DrawStock(1))
    offered = {(spot.card, spot.meld) for spot in layoffs_offered(state, 1)}
    assert {("4H", 1), ("8H", 1)} <= offered
    state = play(state, LayOff(1, "4H", 1), LayOff(1, "8H", 1))
    assert meld_reading(state, 1) == ("4H", "5H", "6H", "7H", "8H")
    assert state.melds[0].owners == (1, 0, 0, 0, 1)


def test_a_card_that_fits_two_melds_goes_where_the_player_chooses_for_good() -> None:
    """[001], [002]: with 7-8-9 of clubs and three tens (diamonds, hearts, spades) on the table,
    the 10 of clubs may extend either; once placed it cannot be moved."""
    state = scripted(
        "standard",
        [
            ["7C", "8C", "9C", "TD", "TH", "TS", "2H"],
            ["TC", "JC", "3D", "6S", "KH", "4C", "QD"],
            ["5S", "8D", "AH", "3S", "6C", "9H", "KC"],
        ],
        upcard="2D",
        stock=["5D", "4S"],
    )
    state = play(
        state,
        DrawStock(0),
        Meld(0, ("7C", "8C", "9C")),
        Meld(0, ("TD", "TH", "TS")),
        Discard(0, "2H"),
        DrawStock(1),
    )
    ten_spots = {spot.meld for spot in layoffs_offered(state, 1) if spot.card == "TC"}
    assert ten_spots == {1, 2}
    on_group = play(state, LayOff(1, "TC", 2))
    # Placed on the tens, the 10 of clubs no longer extends the run: the J of clubs cannot follow.
    assert "JC" not in {spot.card for spot in layoffs_offered(on_group, 1)}
    on_run = play(state, LayOff(1, "TC", 1))
    assert ("JC", 1) in {(spot.card, spot.meld) for spot in layoffs_offered(on_run, 1)}


def test_the_nine_of_hearts_example() -> None:
    """[001]: A melds 5-6-7 of hearts, B three nines (clubs, spades, diamonds). B lays the 8 of
    hearts off on A's run. C holds the 9 of hearts, which fits both, and must say which. If C puts
    it on the run, D may then add the 10 of hearts; if on the nines, the run still ends at the 8
    and the 10 of hearts does not fit it."""
    a_hand = ["5H", "6H", "7H", "2C", "4D", "JS", "QC"]
    b_hand = ["9C", "9S", "9D", "8H", "3C", "KD", "6S"]
    c_hand = ["9H", "2S", "5C", "TD", "KC", "3H", "7D"]
    d_hand = ["TH", "4S", "8C", "JD", "AC", "6D", "QS"]
    state = scripted(
        "standard", [a_hand, b_hand, c_hand, d_hand], upcard="AS", stock=["5D", "3S", "2D", "KH"]
    )
    state = play(
        state,
        DrawStock(0), Meld(0, ("5H", "6H", "7H")), Discard(0, "5D"),
        DrawStock(1), Meld(1, ("9C", "9S", "9D")), LayOff(1, "8H", 1), Discard(1, "3S"),
        DrawStock(2),
    )  # fmt: skip
    choices = {spot.meld for spot in layoffs_offered(state, 2) if spot.card == "9H"}
    assert choices == {1, 2}  # C must choose: the run or the nines

    to_run = play(state, LayOff(2, "9H", 1), Discard(2, "2D"), DrawStock(3))
    assert LayOff(3, "TH", 1, None) in layoffs_offered(to_run, 3)
    to_run = play(to_run, LayOff(3, "TH", 1))
    assert meld_reading(to_run, 1) == ("5H", "6H", "7H", "8H", "9H", "TH")
    assert to_run.melds[0].owners == (0, 0, 0, 1, 2, 3)

    to_nines = play(state, LayOff(2, "9H", 2), Discard(2, "2D"), DrawStock(3))
    assert "TH" not in {spot.card for spot in layoffs_offered(to_nines, 3)}
    assert "does not fit" in refused(to_nines, LayOff(3, "TH", 1))
    assert meld_reading(to_nines, 1) == ("5H", "6H", "7H", "8H")


def test_cards_laid_off_on_anothers_run_score_for_the_player_who_laid_them() -> None:
    """[003]: after 9-8-7 of clubs is melded, a second player may add the 10 of clubs, and
    later any player the jack; each keeps the credit for the cards they laid. [000]: the player
    extending someone's meld receives the points for the cards added."""
    state = scripted(
        "classic",
        [
            ["7C", "8C", "9C", "2D", "4H", "6S", "KD"],
            ["TC", "3D", "5H", "QS", "8D", "AH", "2S"],
            ["JC", "4D", "6H", "KS", "9D", "3S", "5S"],
        ],
        upcard="QH",
        stock=["7D", "TH", "4S", "2H"],
    )
    state = play(
        state,
        DrawStock(0), Meld(0, ("7C", "8C", "9C")), Discard(0, "7D"),
        DrawStock(1), LayOff(1, "TC", 1), Discard(1, "TH"),
        DrawStock(2), LayOff(2, "JC", 1), Discard(2, "4S"),
    )  # fmt: skip
    assert state.melds[0].owners == (0, 0, 0, 1, 2)
    assert points_by_card(state, 1)["TC"] == 10
    assert points_by_card(state, 2)["JC"] == 10
    assert "TC" not in points_by_card(state, 0) and "JC" not in points_by_card(state, 0)


# ---------------------------------------------------------------------------------------------
# Jokers
# ---------------------------------------------------------------------------------------------


def test_a_joker_laid_after_six_seven_of_clubs_is_the_eight_for_good() -> None:
    """[001], [002]: melding 6-7 of clubs and a joker in that order declares the joker the 8 of
    clubs. Later the 5 or the 9 of clubs may be laid off, but nobody may turn the joker into the
    5 to make room for the 4 of clubs."""
    state = scripted(
        "jokers",
        [
            ["6C", "7C", "JK", "2D", "4H", "TS", "KD"],
            ["5C", "9C", "4C", "3D", "8H", "QS", "AH"],
            ["2S", "5D", "9H", "JS", "6D", "3H", "KH"],
        ],
        upcard="QC",
        stock=["7S", "8D"],
    )
    state = play(state, DrawStock(0), Meld(0, ("6C", "7C", "JK")))
    assert meld_reading(state, 1) == ("6C", "7C", "8C")
    state = play(state, Discard(0, "7S"), DrawStock(1))
    offered = {spot.card for spot in layoffs_offered(state, 1) if spot.meld == 1}
    assert {"5C", "9C"} <= offered
    assert "4C" not in offered
    refused(state, LayOff(1, "4C", 1))
    state = play(state, LayOff(1, "5C", 1), LayOff(1, "9C", 1))
    assert meld_reading(state, 1) == ("5C", "6C", "7C", "8C", "9C")


def test_a_joker_laid_off_on_a_run_open_at_both_ends_must_say_which_card_it_is() -> None:
    """[001], [002]: whoever puts a joker down must make clear which card it stands for; on
    6-7-8 of clubs a joker could be the 5 or the 9, so the player must say which."""
    state = scripted(
        "jokers",
        [
            ["6C", "7C", "8C", "2D", "4H", "TS", "KD"],
            ["JK", "3D", "5H", "QS", "AH", "9D", "2S"],
            ["5D", "9H", "JS", "6D", "3H", "KH", "4S"],
        ],
        upcard="QC",
        stock=["7S", "8D"],
    )
    state = play(state, DrawStock(0), Meld(0, ("6C", "7C", "8C")), Discard(0, "7S"))
    state = play(state, DrawStock(1))
    assert "which end" in refused(state, LayOff(1, "JK", 1))
    joker_spots = {spot.reading for spot in layoffs_offered(state, 1) if spot.card == "JK"}
    assert joker_spots == {"5C", "9C"}
    state = play(state, LayOff(1, "JK", 1, "5C"))
    assert meld_reading(state, 1) == ("5C", "6C", "7C", "8C")


def test_a_nine_with_two_jokers_must_say_whether_it_is_a_group_or_which_run() -> None:
    """[001], [002]: 9 of diamonds and two jokers may be a group of nines, or the run 7 to 9,
    8 to 10 or 9 to jack; the player has to say which. Ruling 20: the player is asked only
    because the meld can be read more than one way."""
    state = scripted(
        "jokers",
        [
            ["9D", "JK", "JK", "2C", "4H", "6S", "KC"],
            ["9C", "3D", "8H", "QS", "AH", "5C", "TS"],
            ["2S", "5D", "9H", "JS", "6D", "3H", "KH"],
        ],
        upcard="QC",
        stock=["7S", "8C"],
    )
    state = play(state, DrawStock(0))
    reason = refused(state, Meld(0, ("9D", "JK", "JK")))
    assert "more than one way" in reason
    readings = {
        tuple(sorted(meld.reading or ()))
        for meld in melds_offered(state, 0)
        if sorted(meld.cards) == ["9D", "JK", "JK"]
    }
    assert readings == {
        tuple(sorted(("9D", "9*", "9*"))),
        tuple(sorted(("7D", "8D", "9D"))),
        tuple(sorted(("8D", "9D", "TD"))),
        tuple(sorted(("9D", "TD", "JD"))),
    }
    as_group = play(state, Meld(0, ("9D", "JK", "JK"), ("9D", "9*", "9*")), Discard(0, "7S"))
    assert as_group.melds[0].kind == "group"
    # As a group the jokers' suits are not named: another nine may still join it.
    as_group = play(as_group, DrawStock(1))
    assert ("9C", 1) in {(spot.card, spot.meld) for spot in layoffs_offered(as_group, 1)}
    as_run = play(state, Meld(0, ("JK", "9D", "JK"), ("8D", "9D", "TD")))
    assert meld_reading(as_run, 1) == ("8D", "9D", "TD")


def test_four_kings_and_a_joker_is_refused_because_there_is_no_fifth_king() -> None:
    """[001], [002]: a joker must stand for a real card, so four kings and a joker cannot be
    melded: there is no fifth king, even with two packs, where a group still needs distinct
    suits."""
    kings = ["KC", "KD", "KH", "KS"]
    one_pack = scripted(
        "jokers", [[*kings, "JK", "2C", "5D"], None, None], upcard="9S", stock=["4H"]
    )
    one_pack = play(one_pack, DrawStock(0))
    refused(one_pack, Meld(0, (*kings, "JK")))
    refused(one_pack, Meld(0, (*kings, "JK"), ("KC", "KD", "KH", "KS", "K*")))
    assert all(len(meld.cards) <= 4 for meld in melds_offered(one_pack, 0))
    # The four kings on the table: a joker cannot be laid off on them either.
    one_pack = play(one_pack, Meld(0, tuple(kings)))
    assert not any(spot.card == "JK" for spot in layoffs_offered(one_pack, 0))
    refused(one_pack, LayOff(0, "JK", 1))

    two_packs = scripted(
        "jokers", [[*kings, "KH", "JK", "2C"], None, None, None, None], upcard="9S", stock=["4H"]
    )
    two_packs = play(two_packs, DrawStock(0))
    refused(two_packs, Meld(0, (*kings, "KH")))
    refused(two_packs, Meld(0, (*kings, "JK")))


def test_a_joker_may_stand_for_a_card_already_on_the_table() -> None:
    """[001], [002]: a joker may stand for any card, even one that is already melded."""
    state = scripted(
        "jokers",
        [
            ["8C", "9C", "TC", "2D", "4H", "6S", "KD"],
            ["6C", "7C", "JK", "3D", "5H", "QS", "AH"],
            ["2S", "5D", "9H", "JS", "6D", "3H", "KH"],
        ],
        upcard="QC",
        stock=["7S", "8D"],
    )
    state = play(state, DrawStock(0), Meld(0, ("8C", "9C", "TC")), Discard(0, "7S"), DrawStock(1))
    state = play(state, Meld(1, ("6C", "7C", "JK")))
    assert meld_reading(state, 2) == ("6C", "7C", "8C")


def test_rummy_school_lets_a_player_switch_a_joker_for_the_card_it_stands_for() -> None:
    """[004], Ruling 4: in Rummy School jokers may be switched: a player holding the card a joker
    stands for puts it in the joker's place, on any meld, and takes the joker; the natural card
    scores for the switcher."""

    def joker_on_table(preset: str) -> HandState:
        hands = [
            ["6C", "7C", "JK", "2D", "4H", "TS", "KD"],
            ["8C", "3D", "5H", "QS", "AH", "9D", "2S"],
            ["5D", "9H", "JS", "6D", "3H", "KH", "4S"],
        ]
        state = scripted(preset, hands, upcard="QC", stock=["7S", "8D"])
        state = play(state, DrawStock(0), Meld(0, ("6C", "7C", "JK")), Discard(0, "7S"))
        return play(state, DrawStock(1))

    state = joker_on_table("rummy-school")
    assert SwitchJoker(1, "8C", 1) in legal_actions(state, 1)
    state = play(state, SwitchJoker(1, "8C", 1))
    assert state.melds[0].cards == ("6C", "7C", "8C")
    assert state.melds[0].owners == (0, 0, 1)
    assert "JK" in state.hands[1]
    # Only Rummy School switches jokers: in the jokers preset a joker stays where it was laid.
    refused(joker_on_table("jokers"), SwitchJoker(1, "8C", 1))


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------


def _melds_then_other_goes_out(
    preset: str, melder_cards: Sequence[str], melds: Sequence[Sequence[str]], **options: object
) -> HandState:
    """Seat 0 draws, melds ``melds`` and throws the card drawn; seat 1 then goes out with a group
    of four and a run; the hand is over. Seat 0 ends holding the rest of ``melder_cards``."""
    assert len(melder_cards) == 7
    held = set(melder_cards)
    four_rank = next(r for r in "QJT8765" if not held & {r + suit for suit in SUITS})
    four = tuple(four_rank + suit for suit in SUITS)
    run = next(
        cards
        for suit in SUITS
        for start in range(1, 11)
        if not held & set(cards := tuple(RANKS[start + i] + suit for i in range(3)))
        and not set(cards) & set(four)
    )
    spare = [
        card
        for card in ("2C", "9S", "4D", "3S", "5C", "6H", "8D", "TS", "KH")
        if card not in held and card not in four and card not in run
    ]
    state = scripted(
        preset,
        [list(melder_cards), [*four, *run], None],
        upcard=spare[2],
        stock=spare[:2],
        **options,
    )
    state = play(state, DrawStock(0))
    for cards in melds:
        state = play(state, Meld(0, tuple(cards)))
    state = play(state, Discard(0, spare[0]))
    state = play(state, DrawStock(1), Meld(1, four), Meld(1, run), Discard(1, spare[1]))
    assert state.phase is Phase.HAND_OVER
    return state


def test_nine_ten_jack_is_worth_twenty_nine() -> None:
    """[000]: a meld of 9, 10 and jack scores 9 + 10 + 10 = 29 for the player who laid it."""
    state = _melds_then_other_goes_out(
        "standard", ["9H", "TH", "JH", "2S", "4C", "6D", "8S"], [("9H", "TH", "JH")]
    )
    result = hand_result(state).seats[0]
    assert result.melded == 29
    assert {line.card: line.points for line in result.lines if line.points > 0} == {
        "9H": 9,
        "TH": 10,
        "JH": 10,
    }


def test_melds_worth_58_with_a_king_and_five_left_score_43() -> None:
    """[000]: a player has melded 8-9-10-J, three fours and laid off the 9 of spades on another
    player's meld (58 points) and still holds a king and a five (15) when someone goes out: the
    hand scores 58 - 15 = 43."""
    bob = ["6S", "7S", "8S", "QC", "QD", "QS", "QH"]
    cat = ["TD", "2C", "5D", "7H", "9C", "JC", "KH"]
    ann = ["8D", "9D", "4C", "4D", "9S", "KC", "5H"]
    state = scripted(
        "standard", [bob, cat, ann], upcard="6C", stock=["2D", "3C", "3H", "JD", "4H", "5C"]
    )
    state = play(
        state,
        DrawStock(0), Meld(0, ("6S", "7S", "8S")), Discard(0, "2D"),
        DrawStock(1), Discard(1, "TD"),
        DrawStock(2), Discard(2, "3H"),
        DrawStock(0), Discard(0, "JD"),
        DrawStock(1), Discard(1, "4H"),
        # The pile is now 6C 2D TD 3H JD 4H: Ann digs down to the 10 of diamonds.
        TakeDiscard(2, 3),
        Meld(2, ("8D", "9D", "TD", "JD")), Meld(2, ("4C", "4D", "4H")), LayOff(2, "9S", 1),
        Discard(2, "3H"),
        DrawStock(0), Meld(0, ("QC", "QD", "QH", "QS")), Discard(0, "5C"),
    )  # fmt: skip
    assert state.phase is Phase.HAND_OVER
    ann_score = hand_result(state).seats[2]
    assert (ann_score.melded, ann_score.in_hand, ann_score.score) == (58, 15, 43)


def test_ace_scores_one_low_fifteen_high_fifteen_in_a_group_and_costs_fifteen_in_hand() -> None:
    """[000], [001], [003]: an ace in a low run (A-2-3) scores 1; in a high run (J-Q-K-A) or a
    group of aces 15; left in hand it costs 15. Pictures score 10, other cards their face."""
    low = _melds_then_other_goes_out(
        "standard", ["AH", "2H", "3H", "AS", "6C", "8D", "TS"], [("AH", "2H", "3H")]
    )
    low_lines = points_by_card(low, 0)
    assert (low_lines["AH"], low_lines["2H"], low_lines["3H"]) == (1, 2, 3)
    assert low_lines["AS"] == -15
    assert hand_result(low).seats[0].melded == 6

    high = _melds_then_other_goes_out(
        "standard", ["JC", "QC", "KC", "AC", "AD", "AH", "AS"], [("JC", "QC", "KC", "AC")]
    )
    assert hand_result(high).seats[0].melded == 45
    assert points_by_card(high, 0)["AD"] == -15

    group = _melds_then_other_goes_out(
        "standard", ["AC", "AD", "AH", "7S", "8H", "TC", "KD"], [("AC", "AD", "AH")]
    )
    assert hand_result(group).seats[0].melded == 45


def test_cards_left_in_hand_count_against_even_if_they_would_meld() -> None:
    """[000], [001]: once the hand ends nothing more can be melded; cards still held count
    against their holder even when they form a meld, and a hand score may be negative."""
    state = _melds_then_other_goes_out("standard", ["KC", "KD", "KH", "9S", "9D", "9H", "JS"], [])
    seat0 = hand_result(state).seats[0]
    assert seat0.melded == 0
    assert seat0.in_hand == 10 + 10 + 10 + 9 + 9 + 9 + 10
    assert seat0.score == -seat0.in_hand


def test_jokers_score_fifteen_melded_or_left_in_hand() -> None:
    """[001]: a joker is worth 15 points, in a meld and (against you) in hand."""
    state = _melds_then_other_goes_out(
        "jokers", ["6C", "7C", "JK", "JK", "4H", "TS", "KD"], [("6C", "7C", "JK")]
    )
    lines = hand_result(state).seats[0].lines
    assert sorted(line.points for line in lines if line.card == "JK") == [-15, 15]
    assert hand_result(state).seats[0].melded == 6 + 7 + 15


def test_a_low_ace_scores_one_when_a_joker_stands_for_the_two() -> None:
    """Ruling 1 (from [001]'s low-ace exception): the ace at the bottom of a run scores 1 also
    when a joker stands for the 2 or the 3 beside it."""
    state = _melds_then_other_goes_out(
        "jokers", ["AH", "JK", "3H", "5C", "7D", "9S", "KC"], [("AH", "JK", "3H")]
    )
    assert points_by_card(state, 0)["AH"] == 1


def test_rummy_school_values_aces_one_or_eleven_and_jokers_as_the_card_they_replace() -> None:
    """[004]: numbers score their face, pictures 10, the ace 1 or 11 by where it sits in
    the run, a melded joker the value of the card it replaces; left in hand, an ace or a joker
    costs 15."""
    low = _melds_then_other_goes_out(
        "rummy-school", ["AS", "2S", "3S", "JK", "AD", "9C", "TH"], [("AS", "2S", "3S")]
    )
    lines = points_by_card(low, 0)
    assert (lines["AS"], lines["2S"], lines["3S"]) == (1, 2, 3)
    assert lines["JK"] == -15 and lines["AD"] == -15

    high = _melds_then_other_goes_out(
        "rummy-school", ["QS", "KS", "AS", "9H", "JK", "JH", "4C"],
        [("QS", "KS", "AS"), ("9H", "JK", "JH")],
    )  # fmt: skip
    result = hand_result(high).seats[0]
    assert points_by_card(high, 0)["AS"] == 11
    assert [line.points for line in result.lines if line.card == "JK"] == [10]
    assert result.melded == 10 + 10 + 11 + 9 + 10 + 10


def test_pip_five_scoring_counts_low_cards_five_and_high_cards_ten() -> None:
    """[002]: some players count 2 to 9 as 5 points each, tens and pictures 10, jokers 15, and a
    low ace (A-2-3) 5 instead of 15. Ruling 21: an ace elsewhere is still 15."""
    state = _melds_then_other_goes_out(
        "jokers",
        ["7D", "8D", "9D", "AH", "2H", "3H", "JK"],
        [("7D", "8D", "9D"), ("AH", "2H", "3H")],
        pip5_scoring=True,
    )
    lines = points_by_card(state, 0)
    assert (lines["7D"], lines["8D"], lines["9D"]) == (5, 5, 5)
    assert (lines["AH"], lines["2H"], lines["3H"]) == (5, 5, 5)
    assert lines["JK"] == -15
    tens = _melds_then_other_goes_out(
        "standard", ["TC", "JC", "QC", "KC", "AC", "AD", "4S"],
        [("TC", "JC", "QC", "KC", "AC")], pip5_scoring=True,
    )  # fmt: skip
    assert hand_result(tens).seats[0].melded == 10 * 4 + 15
    assert points_by_card(tens, 0)["AD"] == -15


def test_thirty_point_rule_counts_scores_from_the_first_hand_worth_thirty() -> None:
    """[001], Ruling 12: a player's scores start to count from the first hand in which they make
    30 or more (that hand included); before that nothing counts, good or bad."""
    small = _melds_then_other_goes_out(
        "standard", ["9H", "TH", "JH", "2S", "4C", "6D", "8S"], [("9H", "TH", "JH")],
        thirty_point_rule=True,
    )  # fmt: skip
    seat0 = hand_result(small).seats[0]
    assert seat0.score == 29 - (2 + 4 + 6 + 8)
    assert (seat0.counted, seat0.on_board, seat0.total_after) == (0, False, 0)
    seat2 = hand_result(small).seats[2]
    assert seat2.score < 0 and seat2.counted == 0  # a bad hand does not count either

    big = _melds_then_other_goes_out(
        "standard", ["JC", "QC", "KC", "AC", "2D", "3S", "4H"], [("JC", "QC", "KC", "AC")],
        thirty_point_rule=True,
    )  # fmt: skip
    seat0 = hand_result(big).seats[0]
    assert seat0.score == 45 - 9
    assert (seat0.counted, seat0.on_board, seat0.total_after) == (36, True, 36)
    seat1 = hand_result(big).seats[1]
    assert seat1.score >= 30 and seat1.counted == seat1.score


# ---------------------------------------------------------------------------------------------
# The discard pile
# ---------------------------------------------------------------------------------------------


def test_taking_the_king_also_takes_the_ten_and_five_above_it() -> None:
    """[000]: whoever takes a card from the pile takes every card above it: with K, 10, 5 in the
    pile (5 on top) the king comes with the 10 and the 5."""
    state = scripted(
        "standard",
        [
            ["2C", "4S", "6D", "8H", "QC", "3H", "7C"],
            ["3D", "7D", "9S", "JD", "AH", "2H", "4C"],
            ["KD", "KH", "5S", "9C", "JH", "AS", "6S"],
        ],
        upcard="KS",
        stock=["TD", "5C"],
    )
    state = play(state, DrawStock(0), Discard(0, "TD"), DrawStock(1), Discard(1, "5C"))
    assert state.discard == ("KS", "TD", "5C")
    # The pile is spread so every card shows: each seat and spectators see it in order.
    assert all(view(state, seat)["discard"] == ["KS", "TD", "5C"] for seat in (0, 1, 2, None))
    state, events = apply(state, TakeDiscard(2, 2))
    assert state.discard == ()
    assert Counter(state.hands[2]) >= Counter(["KS", "TD", "5C"])
    assert events[0].to_json()["cards"] == ["KS", "TD", "5C"]
    state = play(state, Meld(2, ("KD", "KH", "KS")))
    assert {"TD", "5C"} <= set(state.hands[2])  # the cards above need not be played


def test_standard_any_card_taken_even_the_top_one_must_be_used_at_once() -> None:
    """[000], and [002] citing most card game books: the card chosen from the pile must be played
    straight away, in a new meld or on an existing one, even when it is the top card; a take with
    no such use is not allowed."""
    state = scripted(
        "standard",
        [
            ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
            ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
            ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
        ],
        upcard="9H",
        stock=["KC"],
    )
    assert TakeDiscard(0, 0) in legal_actions(state, 0)
    taken = play(state, TakeDiscard(0, 0))
    reason = refused(taken, Discard(0, "2C"))
    assert "9♥" in reason and "meld it or lay it off" in reason
    refused(taken, Discard(0, "9H"))
    taken = play(taken, Meld(0, ("7H", "8H", "9H")))
    assert taken.obligation is None

    useless = scripted(
        "standard",
        [
            ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
            ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
            ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
        ],
        upcard="5S",
        stock=["KC"],
    )
    assert TakeDiscard(0, 0) not in legal_actions(useless, 0)
    refused(useless, TakeDiscard(0, 0))


def test_optional_top_discard_rule_lets_a_lone_top_card_be_kept() -> None:
    """[000] optional top-discard rule: the top card alone may be taken without melding it; a
    card from deeper in the pile must still be used at once. [001], [004]: a lone top card so
    taken may not be thrown back the same turn."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    state = scripted("standard", hands, upcard="5S", stock=["KC", "7D"], top_discard_free=True)
    assert TakeDiscard(0, 0) in legal_actions(state, 0)
    kept = play(state, TakeDiscard(0, 0))
    assert kept.obligation is None
    assert "5S" not in {
        action.card for action in legal_actions(kept, 0) if isinstance(action, Discard)
    }
    refused(kept, Discard(0, "5S"))
    kept = play(kept, Discard(0, "2C"))
    assert "5S" in kept.hands[0]

    # Deeper: the 9H under three other cards must go into a meld or on one at once.
    deeper = scripted("standard", hands, upcard="9H", stock=["KC", "7D"], top_discard_free=True)
    deeper = play(deeper, DrawStock(0), Discard(0, "KC"), DrawStock(1), Discard(1, "7D"))
    deeper = play(deeper, DrawStock(2), Discard(2, "3C"))
    assert deeper.discard == ("9H", "KC", "7D", "3C")
    deeper = play(deeper, TakeDiscard(0, 3))
    refused(deeper, Discard(0, "2C"))
    deeper = play(deeper, Meld(0, ("7H", "8H", "9H")))
    assert deeper.obligation is None


@pytest.mark.parametrize("preset", ["jokers", "classic", "rummy-school"])
def test_jokers_classic_and_rummy_school_let_a_lone_top_card_be_kept(preset: str) -> None:
    """[001] (taking the pile's top card is always allowed), [003], [004]
    pickup rule 2: in these games the top discard may be taken alone and kept unused."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    state = scripted(preset, hands, upcard="5S", stock=["KC"])
    assert TakeDiscard(0, 0) in legal_actions(state, 0)
    state = play(state, TakeDiscard(0, 0), Discard(0, "2C"))
    assert "5S" in state.hands[0]


def test_with_two_packs_the_other_copy_of_a_card_just_taken_may_be_discarded() -> None:
    """Ruling 18 (on [001]'s no-discard-back rule): the lone top card taken may not go straight
    back, but with two packs the player may discard the other copy of that card."""
    hands = [["9H", "7H", "2C", "4S", "6D", "JC", "KD"], None, None, None, None]
    state = scripted("jokers", hands, upcard="9H", stock=["KC"])
    state = play(state, TakeDiscard(0, 0))
    assert state.hands[0].count("9H") == 2
    assert Discard(0, "9H") in legal_actions(state, 0)
    state = play(state, Discard(0, "9H"))
    assert state.hands[0].count("9H") == 1 and state.discard[-1] == "9H"


def test_after_taking_several_the_former_top_card_may_be_discarded() -> None:
    """[001]: a player who took only the top card must discard a different card, but one who took
    several cards may, after melding, discard the card that had been on top."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    top_only = play(scripted("jokers", hands, upcard="9H", stock=["KC"]), TakeDiscard(0, 0))
    assert Discard(0, "9H") not in legal_actions(top_only, 0)
    refused(top_only, Discard(0, "9H"))

    several = scripted("jokers", hands, upcard="9H", stock=["KC", "5D", "7S"])
    several = play(several, DrawStock(0), Discard(0, "KC"), DrawStock(1), Discard(1, "5D"))
    several = play(several, DrawStock(2), Discard(2, "7S"))
    several = play(several, TakeDiscard(0, 3), Meld(0, ("7H", "8H", "9H")))
    assert Discard(0, "7S") in legal_actions(several, 0)  # the 7S was on top of the pile
    several = play(several, Discard(0, "7S"))
    assert several.discard[-1] == "7S"


def test_rummy_school_bottom_card_of_several_must_be_used_before_the_discard() -> None:
    """[004]: whoever picks up several cards must use the bottom one in the same turn (meld,
    lay-off or joker switch) and may then discard any card but that one; a single card picked up
    may be kept but not discarded the same turn."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    state = scripted("rummy-school", hands, upcard="9H", stock=["KC", "5D", "7S"])
    state = play(state, DrawStock(0), Discard(0, "KC"), DrawStock(1), Discard(1, "5D"))
    state = play(state, DrawStock(2), Discard(2, "7S"))
    taken = play(state, TakeDiscard(0, 3))
    # The duty is for this turn: other plays may come first, but not the discard.
    reason = refused(taken, Discard(0, "2C"))
    assert "9♥" in reason
    taken = play(taken, Meld(0, ("7H", "8H", "9H")))
    discards = {action.card for action in legal_actions(taken, 0) if isinstance(action, Discard)}
    assert {"KC", "5D", "7S", "2C"} <= discards

    single = scripted("rummy-school", hands, upcard="5S", stock=["KC"])
    single = play(single, TakeDiscard(0, 0))
    refused(single, Discard(0, "5S"))
    single = play(single, Discard(0, "2C"))
    assert "5S" in single.hands[0]


def test_deepest_card_new_meld_refuses_a_lay_off_as_the_use_of_the_taken_card() -> None:
    """[002] variant: the deepest card taken must start a new run or group; laying it
    off on a meld already on the table does not count."""
    hands = [
        ["5H", "6H", "7H", "2C", "4S", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6D", "8C", "TS", "QD", "AS", "3C"],
    ]
    stock = ["9D", "KC", "5D", "8D"]

    def with_eight_on_pile(**options: object) -> HandState:
        state = scripted("standard", hands, upcard="8H", stock=stock, **options)
        # Seat 0 melds the hearts run; then the 8H (the up-card) lies under three discards.
        state = play(state, DrawStock(0), Meld(0, ("5H", "6H", "7H")), Discard(0, "9D"))
        state = play(state, DrawStock(1), Discard(1, "KC"), DrawStock(2), Discard(2, "5D"))
        return play(state, DrawStock(0), Discard(0, "8D"))

    plain = with_eight_on_pile()
    assert TakeDiscard(1, 4) in legal_actions(plain, 1)
    plain = play(plain, TakeDiscard(1, 4), LayOff(1, "8H", 1))
    assert plain.obligation is None

    strict = with_eight_on_pile(deepest_card_new_meld=True)
    assert TakeDiscard(1, 4) not in legal_actions(strict, 1)
    refused(strict, TakeDiscard(1, 4))


# ---------------------------------------------------------------------------------------------
# Going out
# ---------------------------------------------------------------------------------------------


def test_melding_the_last_cards_ends_the_hand_at_once() -> None:
    """[000], [001], [003]: a player who melds all their cards has gone out, with no final
    discard needed; the hand ends immediately."""
    for preset in ("standard", "classic"):
        state = scripted(
            preset,
            [
                ["5H", "6H", "7H", "QC", "QD", "QS", "8H"],
                filler(["5H", "6H", "7H", "QC", "QD", "QS", "8H", "9H"], 7),
                filler(["5H", "6H", "7H", "QC", "QD", "QS", "8H", "9H"], 14)[7:],
            ],
            upcard="2D",
            stock=["9H"],
        )
        state = play(state, DrawStock(0), Meld(0, ("5H", "6H", "7H", "8H", "9H")))
        state = play(state, Meld(0, ("QC", "QD", "QS")))
        assert state.phase is Phase.HAND_OVER
        assert state.to_act == ()
        assert hand_result(state).went_out == 0
        refused(state, DrawStock(1))


def test_discarding_the_last_card_ends_the_hand() -> None:
    """[000]: a player who discards the last card in hand has gone out and the hand ends."""
    state = scripted(
        "standard",
        [["5H", "6H", "7H", "QC", "QD", "QS", "QH"], None, None],
        upcard="2D",
        stock=["9C"],
    )
    state = play(
        state, DrawStock(0), Meld(0, ("5H", "6H", "7H")), Meld(0, ("QC", "QD", "QH", "QS"))
    )
    assert state.phase is Phase.PLAY and state.hands[0] == ("9C",)
    state = play(state, Discard(0, "9C"))
    assert state.phase is Phase.HAND_OVER
    assert state.hands[0] == ()


def test_boathouse_rule_means_going_out_needs_a_discard() -> None:
    """[001] boathouse rule, [002]: a player must discard on every turn, the last one included,
    so melding every card is not allowed."""
    hands = [
        ["5H", "6H", "7H", "QC", "QD", "QS", "8H"],
        None,
        None,
    ]
    state = scripted("standard", hands, upcard="2D", stock=["9H"], boathouse=True)
    state = play(state, DrawStock(0), Meld(0, ("5H", "6H", "7H", "8H", "9H")))
    reason = refused(state, Meld(0, ("QC", "QD", "QS")))
    assert "discard" in reason
    assert Meld(0, ("QC", "QD", "QS"), None) not in legal_actions(state, 0)


def test_nobody_may_call_rummy_on_the_discard_that_goes_out() -> None:
    """[000], [002]: once a player gets rid of the last card the hand is over; a playable card
    left on the pile by that final discard can no longer be claimed."""
    state = scripted(
        "standard",
        [["5H", "6H", "7H", "QC", "QD", "QS", "QH"], None, None],
        upcard="2D",
        stock=["8H"],
        rummy_call=True,
    )
    state = play(
        state, DrawStock(0), Meld(0, ("5H", "6H", "7H")), Meld(0, ("QC", "QD", "QH", "QS"))
    )
    state = play(state, Discard(0, "8H"))  # the 8H would fit the run, but the hand is over
    assert state.phase is Phase.HAND_OVER
    refused(state, ClaimRummy(1, 0))


# ---------------------------------------------------------------------------------------------
# When the stock runs out
# ---------------------------------------------------------------------------------------------


def _run_down_stock(state: HandState) -> HandState:
    """Every player draws and throws the drawn card until the stock is empty."""
    while state.stock:
        seat = state.to_act[0]
        drawn = state.stock[0]
        state = play(state, DrawStock(seat), Discard(seat, drawn))
    return state


def test_with_an_empty_stock_play_goes_on_from_the_pile_until_someone_will_not_take() -> None:
    """[000], [003]: when the stock is used up, play continues while each player in turn takes
    from the discard pile; the hand ends as soon as the player to draw cannot or chooses not
    to."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    for preset in ("standard", "classic"):
        state = _run_down_stock(scripted(preset, hands, upcard="9H"))
        seat = state.to_act[0]
        assert state.phase is Phase.DRAW and not state.stock
        options = legal_actions(state, seat)
        assert DeclineDraw(seat) in options
        assert not any(isinstance(action, DrawStock) for action in options)
        assert any(isinstance(action, TakeDiscard) for action in options)  # the 9H is under it
        over = play(state, DeclineDraw(seat))
        assert over.phase is Phase.HAND_OVER
        assert hand_result(over).reason == "declined"


def test_with_an_empty_stock_every_card_taken_from_the_pile_must_be_used_at_once() -> None:
    """Ruling 9: with the stock gone, whatever is taken from the pile must be used at once, even
    in games where the top card is otherwise free, so that every hand ends."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    state = _run_down_stock(scripted("standard", hands, upcard="9H", top_discard_free=True))
    seat = state.to_act[0]
    assert seat == 0
    takes = [action for action in legal_actions(state, seat) if isinstance(action, TakeDiscard)]
    assert takes  # at least the 9H, which seat 0 can meld with 7-8 of hearts
    for take in takes:
        taken = play(state, take)
        assert taken.obligation is not None and taken.locked is None
        refused(taken, Discard(seat, "2C"))


def test_stock_refill_rule_reshuffles_the_pile_into_a_new_stock() -> None:
    """[001] stock pile re-fill rule, Ruling 19: instead of ending, the discards (all but the top
    card) are shuffled into a new stock and play goes on."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    state = scripted("standard", hands, upcard="9H", stock_refill=True)
    dealt_stock = len(state.stock)
    while not any(event.kind == "stock_refilled" for event in state.history):
        seat = state.to_act[0]
        drawn = state.stock[0]
        state = play(state, DrawStock(seat), Discard(seat, drawn))
    assert state.phase is Phase.DRAW and len(state.discard) == 1
    assert len(state.stock) == dealt_stock  # the up-card and every discard but the top one
    assert DrawStock(state.to_act[0]) in legal_actions(state, state.to_act[0])
    # Ruling 19: with nothing melded since, the stock is not rebuilt a second time.
    state = _run_down_stock(state)
    assert not state.stock
    assert sum(event.kind == "stock_refilled" for event in state.history) == 1


def test_rummy_school_round_ends_when_the_stock_runs_out() -> None:
    """[004], Ruling 9: the round is over once the stock is empty (after the turn in
    which the last card was drawn)."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    state = scripted("rummy-school", hands, upcard="9C")
    while len(state.stock) > 1:
        seat = state.to_act[0]
        state = play(state, DrawStock(seat), Discard(seat, state.stock[0]))
    seat = state.to_act[0]
    state = play(state, DrawStock(seat))
    assert state.phase is Phase.PLAY  # the drawer still finishes the turn
    state = play(state, Discard(seat, state.hands[seat][-1]))
    assert state.phase is Phase.HAND_OVER


# ---------------------------------------------------------------------------------------------
# Rummy call, floating
# ---------------------------------------------------------------------------------------------


def _discard_playable_eight(**options: object) -> HandState:
    """Seat 0 melds 5-6-7 of hearts and discards the 8 of hearts, which fits the run."""
    state = scripted(
        "standard",
        [
            ["5H", "6H", "7H", "8H", "2C", "4S", "KD"],
            ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
            ["4D", "6D", "8C", "TS", "QD", "AS", "3C"],
            ["7C", "9D", "JS", "KC", "2D", "4C", "6S"],
        ],
        upcard="JH",
        stock=["KS", "5D", "7S"],
        rummy_call=True,
        **options,
    )
    return play(state, DrawStock(0), Meld(0, ("5H", "6H", "7H")), Discard(0, "8H"))


def test_others_may_call_rummy_on_a_playable_discard_but_not_the_discarder() -> None:
    """[000], [001], [002]: when a discard could be played on a meld, any other player may call
    Rummy and take it; the player who discarded it may not."""
    state = _discard_playable_eight()
    assert state.phase is Phase.CLAIM
    assert set(state.to_act) == {1, 2, 3}
    assert ClaimRummy(2, 0) in legal_actions(state, 2)
    assert legal_actions(state, 0) == []
    refused(state, ClaimRummy(0, 0))


def test_after_a_rummy_call_the_caller_plays_a_turn_and_play_passes_to_their_left() -> None:
    """[002], Ruling 11: the caller takes the card, melds it, may meld more, discards, and the
    turn passes to the caller's left."""
    state = _discard_playable_eight()
    state = play(state, ClaimRummy(2, 0))
    refused(state, ClaimRummy(3, 0))  # [001]: the first call wins
    state = play(state, LayOff(2, "8H", 1), Discard(2, "3C"))
    assert state.melds[0].owners[-1] == 2
    while state.phase is Phase.CLAIM:
        state = play(state, PassClaim(state.to_act[0]))
    assert state.phase is Phase.DRAW and state.to_act == (3,)


def test_rummy_on_the_last_discard_only_returns_play_to_whoever_was_next() -> None:
    """[002] variant: only the latest discard may be claimed, as a lay-off; the caller lays it off
    and play goes on with the player whose turn it was."""
    state = _discard_playable_eight(rummy_last_discard_only=True)
    assert state.claim is not None and state.claim.depths == (0,)
    state = play(state, ClaimRummy(2, 0), LayOff(2, "8H", 1))
    assert state.phase is Phase.DRAW and state.to_act == (1,)
    assert "3C" in state.hands[2]


def test_a_floater_draws_and_must_play_a_playable_card() -> None:
    """[002] floating: a player may meld every card and float; on the next turn the floater
    draws from the stock and must play the card if it fits, floating on."""
    hands = [
        ["5H", "6H", "7H", "QC", "QD", "QS", "8H"],
        ["3D", "5C", "9S", "2H", "AH", "TC", "2S"],
        ["4D", "6D", "8C", "TS", "3H", "AS", "3C"],
    ]
    state = scripted("standard", hands, upcard="KD", stock=["9H", "4C", "6C", "TH"], floating=True)
    state = play(state, DrawStock(0), Meld(0, ("5H", "6H", "7H", "8H", "9H")))
    state = play(state, Meld(0, ("QC", "QD", "QS")))
    assert state.phase is Phase.PLAY and state.hands[0] == ()
    assert legal_actions(state, 0) == [Float(0)]
    state = play(state, Float(0))
    state = play(state, DrawStock(1), Discard(1, "4C"), DrawStock(2), Discard(2, "6C"))
    # The floater's turn: only the stock, never the previous player's discard.
    assert legal_actions(state, 0) == [DrawStock(0)]
    state = play(state, DrawStock(0))  # the 10 of hearts fits the run
    assert legal_actions(state, 0) == [LayOff(0, "TH", 1, None)]
    refused(state, Discard(0, "TH"))


def test_a_floater_who_draws_an_unplayable_card_discards_it_and_goes_out() -> None:
    """[002] floating, Ruling 8: when the card the floater draws fits nowhere, the floater
    discards it and so goes out."""
    hands = [
        ["5H", "6H", "7H", "QC", "QD", "QS", "8H"],
        ["3D", "5C", "9S", "2H", "AH", "TC", "2S"],
        ["4D", "6D", "8C", "TS", "3H", "AS", "3C"],
    ]
    state = scripted("standard", hands, upcard="KD", stock=["9H", "4C", "6C", "2D"], floating=True)
    state = play(state, DrawStock(0), Meld(0, ("5H", "6H", "7H", "8H", "9H")))
    state = play(state, Meld(0, ("QC", "QD", "QS")), Float(0))
    state = play(state, DrawStock(1), Discard(1, "4C"), DrawStock(2), Discard(2, "6C"))
    state = play(state, DrawStock(0))
    assert legal_actions(state, 0) == [Discard(0, "2D")]
    state = play(state, Discard(0, "2D"))
    assert state.phase is Phase.HAND_OVER and hand_result(state).went_out == 0


def test_rummy_may_be_called_on_top_cards_that_make_a_meld_by_themselves() -> None:
    """[000], [002]: Rummy may also be called when the cards at the top of the pile make a meld
    with no card from anyone's hand; the caller takes the pile down to the card needed."""
    state = scripted(
        "standard",
        [
            ["6C", "2D", "4S", "9H", "JD", "KS", "3H"],
            ["7C", "3D", "5S", "TH", "QD", "AS", "4H"],
            None,
            None,
        ],
        upcard="5C",
        stock=["8D", "8S"],
        rummy_call=True,
    )
    state = play(state, DrawStock(0), Discard(0, "6C"))
    assert state.phase is Phase.DRAW  # 5-6 of clubs is no meld yet: no call
    state = play(state, DrawStock(1), Discard(1, "7C"))
    assert state.phase is Phase.CLAIM and state.claim is not None
    assert 2 in state.claim.depths  # the 5C, under the 6C and 7C
    state = play(state, ClaimRummy(3, 2), Meld(3, ("5C", "6C", "7C")))
    assert state.melds[0].owners == (3, 3, 3)


def test_rummy_must_be_called_before_the_next_player_draws() -> None:
    """[000]: a call must come before the next player draws; once the window has closed (the
    table clock closes it) the next player draws and the discard can no longer be claimed."""
    state = _discard_playable_eight()
    state = play(state, CloseClaims())
    assert state.phase is Phase.DRAW and state.to_act == (1,)
    refused(state, ClaimRummy(2, 0))


# ---------------------------------------------------------------------------------------------
# The end of the game
# ---------------------------------------------------------------------------------------------


def test_when_two_players_pass_500_the_higher_total_wins() -> None:
    """[000]: if two or more players have 500 or more after a hand, the highest total wins."""
    outcome = game_outcome(make_rules("standard"), (510, 530, 200))
    assert outcome.over and outcome.winners == (1,)


def test_a_tie_for_the_highest_total_means_another_hand() -> None:
    """[001]: when the top totals are equal, more hands are dealt until one player leads alone."""
    outcome = game_outcome(make_rules("standard"), (520, 520, 100))
    assert not outcome.over and outcome.winners == ()


def test_reaching_the_target_exactly_ends_the_game() -> None:
    """[000] ("500 or more"), Ruling 10: a total at the target counts, although [001] and [002]
    say "exceed"."""
    assert game_outcome(make_rules("standard"), (500, 20)).winners == (0,)
    assert not game_outcome(make_rules("standard"), (499, 20)).over
    assert game_outcome(make_rules("standard", target=300), (300, 20)).over


def test_a_running_total_may_go_below_zero() -> None:
    """[001]: a cumulative score may be negative, e.g. after a bad first hand."""
    state = _melds_then_other_goes_out("standard", ["KC", "KD", "KH", "9S", "9D", "9H", "JS"], [])
    assert hand_result(state).seats[0].total_after < 0


# ---------------------------------------------------------------------------------------------
# Discards displayed
# ---------------------------------------------------------------------------------------------


def test_cards_taken_from_the_pile_and_kept_stay_on_show_until_the_takers_next_turn() -> None:
    """[000] discards displayed: whoever takes cards from the pile leaves those not melded face up
    in front of them until their next turn, so the others can remember them."""
    hands = [
        ["7H", "8H", "2C", "4S", "6D", "JC", "KD"],
        ["3D", "5C", "9S", "QH", "AH", "TC", "2S"],
        ["4D", "6H", "8C", "TS", "QD", "AS", "3C"],
    ]
    state = scripted(
        "standard", hands, upcard="9H", stock=["KC", "5D", "7S", "2H", "4H", "6S"],
        discards_displayed=True,
    )  # fmt: skip
    state = play(state, DrawStock(0), Discard(0, "KC"), DrawStock(1), Discard(1, "5D"))
    state = play(state, DrawStock(2), Discard(2, "7S"))
    state = play(state, TakeDiscard(0, 3), Meld(0, ("7H", "8H", "9H")), Discard(0, "2C"))

    def shown_to_seat_1(state: HandState) -> list[str]:
        return sorted(view(state, 1)["public_cards"]["displayed"][0])

    assert shown_to_seat_1(state) == sorted(["KC", "5D", "7S"])
    state = play(state, DrawStock(1), Discard(1, "2H"), DrawStock(2))
    assert shown_to_seat_1(state) == sorted(["KC", "5D", "7S"])
    state = play(state, Discard(2, "4H"))  # the taker's next turn begins
    assert state.to_act == (0,)
    assert shown_to_seat_1(state) == []
