"""The PCR rule (seed 004 and RULINGS.md, Tournaments), pinned without a database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.settlement import SeatHand, SettlementError, Transfer, apply, settle, winners


def hand(seat: int, score: int, *, melded: int | None = None, in_hand: int = 0, chips: int = 1000):
    return SeatHand(
        seat=seat,
        score=score,
        melded=score + in_hand if melded is None else melded,
        in_hand=in_hand,
        chips=chips,
    )


def paid(transfers: list[Transfer]) -> dict[tuple[int, int], int]:
    return {(t.payer, t.payee): t.amount for t in transfers}


def test_seed_example_one_pcr_2_pays_40_and_60():
    # Jesse 50, Terry 30, Tallie 20 at PCR 2: Terry pays 40, Tallie pays 60.
    jesse, terry, tallie = hand(0, 50), hand(1, 30), hand(2, 20)
    transfers = settle([jesse, terry, tallie], pcr=2, dealer=2)
    assert paid(transfers) == {(1, 0): 40, (2, 0): 60}


def test_seed_example_two_pcr_3_pays_300_and_360():
    # Andrea 100, Ron 0, Sean -20 at PCR 3: Ron pays 300, Sean pays 360.
    andrea, ron, sean = hand(0, 100), hand(1, 0), hand(2, -20, melded=0, in_hand=20)
    transfers = settle([andrea, ron, sean], pcr=3, dealer=0)
    assert paid(transfers) == {(1, 0): 300, (2, 0): 360}
    assert apply([andrea, ron, sean], transfers) == {0: 1660, 1: 700, 2: 640}


def test_a_score_tie_goes_to_the_higher_melded_score():
    a = hand(0, 40, melded=60, in_hand=20)
    b = hand(1, 40, melded=45, in_hand=5)
    c = hand(2, 10)
    assert winners([a, b, c], dealer=2) == [0]
    assert paid(settle([a, b, c], pcr=1, dealer=2)) == {(2, 0): 30}


def test_a_melded_tie_goes_to_the_lower_penalty():
    # With score = melded - in hand this third key never decides alone; it is the ruling's
    # last word all the same, so pin the order on its own.
    a = SeatHand(seat=0, score=30, melded=50, in_hand=20, chips=100)
    b = SeatHand(seat=1, score=30, melded=50, in_hand=10, chips=100)
    assert winners([a, b], dealer=1) == [1]


def test_full_ties_share_each_payment_with_the_odd_chip_left_of_the_dealer():
    a, b, c = hand(0, 50), hand(1, 50), hand(2, 45)
    # 5 x 1 = 5 chips: 3 to the first tied player left of dealer 0 (seat 1), 2 to seat 0.
    transfers = settle([a, b, c], pcr=1, dealer=0)
    assert paid(transfers) == {(2, 1): 3, (2, 0): 2}


def test_a_short_stacked_loser_pays_all_they_have():
    winner, short = hand(0, 80), hand(1, 0, chips=25)
    transfers = settle([winner, short], pcr=2, dealer=1)
    assert transfers == [Transfer(payer=1, payee=0, amount=25, owed=160)]
    assert apply([winner, short], transfers)[1] == 0


def test_a_loser_on_the_tie_break_pays_nothing():
    a = hand(0, 40, melded=60, in_hand=20)
    b = hand(1, 40, melded=45, in_hand=5)
    assert settle([a, b], pcr=5, dealer=0) == []


def test_a_non_positive_pcr_is_refused():
    with pytest.raises(SettlementError):
        settle([hand(0, 1), hand(1, 0)], pcr=0, dealer=0)


def test_a_seat_twice_is_refused():
    with pytest.raises(SettlementError):
        settle([hand(0, 1), hand(0, 0)], pcr=1, dealer=0)


seat_hands = st.lists(
    st.tuples(
        st.integers(-200, 300),  # melded
        st.integers(0, 150),  # in hand
        st.integers(0, 5000),  # chips
    ),
    min_size=2,
    max_size=4,
)


@given(seat_hands, st.integers(1, 50), st.integers(0, 3))
def test_settlement_conserves_chips_and_never_goes_negative(rows, pcr, dealer):
    hands = [
        SeatHand(seat=i, score=m - h, melded=m, in_hand=h, chips=c)
        for i, (m, h, c) in enumerate(rows)
    ]
    dealer %= len(hands)
    transfers = settle(hands, pcr=pcr, dealer=dealer)
    after = apply(hands, transfers)
    assert sum(after.values()) == sum(h.chips for h in hands)
    assert all(v >= 0 for v in after.values())
    won = set(winners(hands, dealer))
    assert all(t.payee in won and t.payer not in won and t.amount > 0 for t in transfers)
    for h in hands:
        if h.seat not in won:
            top = hands[next(iter(won))].score
            assert h.chips - after[h.seat] == min((top - h.score) * pcr, h.chips)
