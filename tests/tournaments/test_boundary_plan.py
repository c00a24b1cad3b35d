"""Rebalancing at hand boundaries given the tables in play by their sizes alone: the plan is the
one the whole field gives, so a boundary need not read every table (tournaments.boundary_plan)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments import balancing, boundary_plan
from tournaments.boundary_plan import TableNow


@st.composite
def fields(draw):
    """Tables (size, free) with ids 1..n, players numbered on from 100, and the waiting."""
    seats = draw(st.integers(2, 4))
    minimum = draw(st.integers(2, seats))
    tables = draw(st.lists(st.tuples(st.integers(0, seats + 1), st.booleans()), max_size=14))
    waiting = draw(st.integers(0, 6))
    next_player = iter(range(100, 10_000))
    listed = []
    for i, (size, free) in enumerate(tables, start=1):
        joining = draw(st.integers(0, size))
        players = [next(next_player) for _ in range(size)]
        listed.append(TableNow(i, players[joining:], players[:joining], free))
    return listed, [next(next_player) for _ in range(waiting)], seats, minimum


def outcome(tables, waiting, seats, minimum, **sizes):
    try:
        p = boundary_plan.plan(tables, waiting, seats, minimum, **sizes)
    except balancing.BalancingError as exc:
        return str(exc)
    return p.seating, p.joining, p.broken, p.waiting, p.moves


@given(fields())
def test_the_shortest_tables_in_play_and_a_count_of_the_others_give_the_whole_fields_plan(field):
    tables, waiting, seats, minimum = field
    free = [t for t in tables if t.free]
    in_play = sorted(
        ((len(t.players) + len(t.joining), t.id) for t in tables if not t.free),
        key=lambda pair: pair,
    )
    reach = boundary_plan.movable(free, waiting)
    busy = {k: size for size, k in in_play[:reach]}
    farther: dict[int, int] = {}
    for size, _k in in_play[reach:]:
        farther[size] = farther.get(size, 0) + 1
    whole = outcome(tables, waiting, seats, minimum)
    assert outcome(free, waiting, seats, minimum, busy=busy, farther=farther) == whole


def test_a_plan_refuses_too_few_tables_in_play_for_the_players_it_may_move():
    free = [TableNow(1, [1, 2, 3, 4], free=True)]
    with pytest.raises(balancing.BalancingError):
        boundary_plan.plan(free, [], 4, busy={2: 2}, farther={2: 1, 4: 3})


def test_a_player_goes_to_the_shortest_table_in_play_known_by_its_size():
    plan = boundary_plan.plan(
        [TableNow(5, [50, 51, 52, 53], free=True)],
        [],
        4,
        busy={7: 2, 3: 3, 2: 3, 9: 3},
        farther={3: 10, 4: 20},
    )
    assert plan.joining == {7: [50]} and plan.seating == {5: [51, 52, 53]}
