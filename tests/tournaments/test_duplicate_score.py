"""The worked example of docs/tournaments.md ("Duplicate deals") is the computation's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tournaments.duplicate import SeatScore, compare

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"
ROW = re.compile(r"^\| *(\d+) \| *(\d+) \| *(\w+) \| *(-?\d+) \| *(-?[\d.]+) \| *(-?[\d.]+) \|$")


def _example() -> list[tuple[int, int, str, int, float, float]]:
    section = DOC.read_text().split("## Duplicate deals", 1)[1].split("\n## ", 1)[0]
    rows = [ROW.match(line) for line in section.splitlines()]
    found = [m.groups() for m in rows if m]
    return [(int(t), int(s), p, int(h), float(a), float(d)) for t, s, p, h, a, d in found]


def test_the_documented_example_is_what_compare_computes():
    rows = _example()
    assert len(rows) == 9
    ids = {player: i for i, (_t, _s, player, *_rest) in enumerate(rows)}
    tables: dict[int, list[SeatScore]] = {}
    for table, seat, player, score, _average, _dup in rows:
        tables.setdefault(table, []).append(SeatScore(seat, ids[player], score))
    computed = compare(list(tables.values()))
    for _table, _seat, player, score, average, dup in rows:
        assert computed[ids[player]] == pytest.approx(dup)
        assert score - average == pytest.approx(dup)
    for seat in {row[1] for row in rows}:
        assert sum(computed[ids[r[2]]] for r in rows if r[1] == seat) == pytest.approx(0)


def test_a_seat_position_held_at_one_table_only_scores_zero():
    assert compare([[SeatScore(0, 1, 55), SeatScore(1, 2, -20)]]) == {1: 0.0, 2: 0.0}


def test_fractional_averages_are_rounded_to_hundredths():
    found = compare([[SeatScore(0, 1, 10)], [SeatScore(0, 2, 0)], [SeatScore(0, 3, 0)]])
    assert found == {1: 6.67, 2: -3.33, 3: -3.33}
