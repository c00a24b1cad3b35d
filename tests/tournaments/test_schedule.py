"""The level schedule: what an organizer may not type, and which level is in force."""

from __future__ import annotations

from tournaments.schedule import Step, level_at, problems


def test_a_sound_schedule_has_no_problems():
    assert problems([Step(1, 2, 10), Step(2, 5, 10)]) == []


def test_overlapping_levels_are_refused():
    assert any("overlap" in p for p in problems([Step(1, 2, 10), Step(1, 3, 10)]))


def test_a_non_positive_pcr_is_refused():
    assert any("PCR" in p for p in problems([Step(1, 0, 10)]))
    assert any("PCR" in p for p in problems([Step(1, -1, 10)]))


def test_the_level_follows_elapsed_hands_and_the_last_one_stays():
    schedule = [Step(1, 2, 3), Step(2, 5, 2)]
    assert [level_at(schedule, n).pcr for n in range(7)] == [2, 2, 2, 5, 5, 5, 5]
