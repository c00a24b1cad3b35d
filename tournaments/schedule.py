"""The level schedule: checking what an organizer typed, and which level is in force.

Pure functions over (number, pcr, duration) triples, shared by the admin's inline formset and
the services that change level between rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Step(NamedTuple):
    number: int
    pcr: int
    duration: int


def problems(steps: Sequence[Step]) -> list[str]:
    """Why this schedule cannot be used (empty when it can)."""
    found: list[str] = []
    if not steps:
        return ["A multi-table tourney needs at least one level."]
    numbers = [s.number for s in steps]
    for step in steps:
        if step.pcr <= 0:
            found.append(f"Level {step.number}: the PCR must be a positive whole number.")
        if step.duration <= 0:
            found.append(f"Level {step.number}: the duration must be positive.")
    repeated = sorted({n for n in numbers if numbers.count(n) > 1})
    if repeated:
        found.append(f"Levels overlap: number {', '.join(map(str, repeated))} is used twice.")
    elif sorted(numbers) != list(range(1, len(numbers) + 1)):
        found.append("Levels must be numbered 1, 2, 3, ... without gaps.")
    return found


def flow_problems(steps: Sequence[Step], *, break_every: int, late_level: int) -> list[str]:
    """Multi-table settings this schedule would leave without effect (empty when none).

    The last level lasts to the end, so it never ends: a break after every N levels needs
    more than N levels, and late registration must close with a level before the last.
    """
    found: list[str] = []
    last = len(steps)
    if break_every and break_every >= last:
        found.append(
            f"A break after every {break_every} level{'s' if break_every != 1 else ''} never "
            f"comes: the last of the {last} levels lasts to the end. Add levels or take "
            "breaks more often."
        )
    if late_level and late_level >= last:
        found.append(
            f"Late registration until level {late_level} ends would stay open to the end: "
            f"level {last}, the last, never ends. Choose an earlier level."
        )
    return found


def level_at(steps: Sequence[Step], elapsed: float) -> Step:
    """The level in force after ``elapsed`` hands or minutes; the last one lasts for ever."""
    ordered = sorted(steps, key=lambda s: s.number)
    used = 0.0
    for step in ordered:
        used += step.duration
        if elapsed < used:
            return step
    return ordered[-1]


def until_next(steps: Sequence[Step], elapsed: float) -> int | None:
    """Hands (or minutes) left of the level in force after ``elapsed``; None in the last."""
    ordered = sorted(steps, key=lambda s: s.number)
    used = 0.0
    for step in ordered[:-1]:
        used += step.duration
        if elapsed < used:
            return int(-(-(used - elapsed) // 1))
    return None
