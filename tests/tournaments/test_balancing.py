"""Table balancing: sizes within one, nobody lost or seated twice, as few tables as possible."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.balancing import BalancingError, rebalance, seat, table_count


def test_the_first_seating_uses_the_fewest_tables_of_even_size():
    tables = seat(list(range(10)), 4)
    assert sorted(len(t) for t in tables) == [3, 3, 4]


def test_a_table_is_broken_when_the_players_fit_in_one_fewer():
    plan = rebalance({1: [1, 2, 3], 2: [4, 5], 3: [6, 7, 8]}, 4)
    assert plan.broken == [2]
    assert sorted(len(p) for p in plan.layout.values()) == [4, 4]
    assert {m.player for m in plan.moves} == {4, 5}


def test_uneven_tables_are_evened_out_from_the_last_seated():
    plan = rebalance({1: [1, 2, 3, 4], 2: [5, 6]}, 4)
    assert plan.broken == []
    assert plan.layout == {1: [1, 2, 3], 2: [5, 6, 4]}
    assert [(m.player, m.source, m.target) for m in plan.moves] == [(4, 1, 2)]


def test_balanced_tables_stay_as_they_are():
    plan = rebalance({1: [1, 2, 3], 2: [4, 5, 6]}, 4)
    assert plan.moves == [] and plan.broken == []


def test_two_seat_tables_with_an_odd_count_seat_three_together():
    assert table_count(5, 2) == 2
    plan = rebalance({1: [1, 2], 2: [3, 4], 3: [5]}, 2)
    assert sorted(len(p) for p in plan.layout.values()) == [2, 3]


def test_the_final_table_gathers_everyone():
    plan = rebalance({1: [1, 2], 2: [3], 3: [4]}, 4)
    assert list(plan.layout.values()) == [[1, 2, 3, 4]]


def test_a_player_at_two_tables_is_refused():
    with pytest.raises(BalancingError):
        rebalance({1: [1, 2], 2: [2, 3]}, 4)


def test_a_table_size_outside_two_to_four_is_refused():
    with pytest.raises(BalancingError):
        table_count(10, 5)


def test_a_three_player_preset_never_gets_a_two_seat_table():
    # 5 players at 4-seat tables would be 3 + 2; classic needs 3 at every table
    assert table_count(5, 4) == 2
    assert table_count(5, 4, minimum=3) == 1
    plan = rebalance({1: [1, 2, 3], 2: [4, 5]}, 4, minimum=3, maximum=8)
    assert plan.broken == [2] and plan.layout == {1: [1, 2, 3, 4, 5]}


def test_extra_players_sit_past_the_organizers_size_up_to_the_presets_maximum():
    # 7 at three-seat tables of a three-player game: 3 + 4, not 3 + 3 + 1
    assert sorted(len(t) for t in seat(list(range(7)), 3, minimum=3)) == [3, 4]


def test_fewer_players_than_the_presets_minimum_get_no_table():
    assert table_count(2, 3, minimum=3) == 0
    assert rebalance({1: [1], 2: [2]}, 3, minimum=3).layout == {}


def test_a_table_size_below_the_presets_minimum_is_refused():
    with pytest.raises(BalancingError, match="do not suit"):
        table_count(10, 2, minimum=3)


def test_players_from_a_stopped_table_are_seated_with_the_others():
    plan = rebalance({1: [1, 2], 2: [3, 4]}, 4, unseated=[5, 6])
    assert sorted(p for ps in plan.layout.values() for p in ps) == [1, 2, 3, 4, 5, 6]
    assert sorted(len(ps) for ps in plan.layout.values()) == [3, 3]


@st.composite
def seatings(draw):
    seats = draw(st.integers(2, 4))
    minimum = draw(st.integers(2, seats))
    count = draw(st.integers(1, 12))
    next_id = iter(range(1, 10_000))
    tables = {}
    for t in range(1, count + 1):
        tables[t * 7] = [next(next_id) for _ in range(draw(st.integers(0, seats)))]
    return tables, seats, minimum


@given(seatings())
def test_rebalancing_keeps_everyone_once_within_one_seat_on_the_fewest_tables(case):
    tables, seats, minimum = case
    everyone = sorted(p for ps in tables.values() for p in ps)
    plan = rebalance(tables, seats, minimum, 8)
    seated = sorted(p for ps in plan.layout.values() for p in ps)
    sizes = [len(ps) for ps in plan.layout.values()]
    assert len(sizes) == table_count(len(everyone), seats, minimum, 8)
    if len(everyone) < minimum:
        assert sizes == []
        return
    assert seated == everyone
    assert max(sizes) - min(sizes) <= 1
    assert min(sizes) >= minimum
    # past the organizer's size only when one table more would leave a table short
    assert max(sizes) <= seats or len(everyone) // (len(sizes) + 1) < minimum
    assert not set(plan.broken) & set(plan.layout)
    for move in plan.moves:
        assert move.player in plan.layout[move.target]
        assert move.player in tables[move.source]
