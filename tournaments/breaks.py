"""Breaks on a multi-table schedule: every ``break_every`` levels, ``break_minutes`` long.

A break never interrupts a hand: a table starts it at its next hand boundary, and no clock runs
during it (no hand is dealt, so no turn clock; the level clock of levels by minutes stops).

Which clock decides when a break is due depends on the levels:
- levels by minutes follow the event's clock, so the break is the event's: it starts when the
  clock reaches the end of level N, 2N, ...; every table joins it at its next hand boundary
  and all of them deal again at the same moment, when it ends (a table whose hand ran on
  into the break gets a shorter break, as at a card room). The level clock is frozen from the
  break's start to its end (``Tournament.break_seconds``).
- levels by hands count each table's own hands, so each table takes its own break, of the
  full length, once its own hands have completed level N, 2N, ...
- hand-for-hand (lock-step) rounds are the event's hands: the event's break, between rounds.

Functions here decide; the flow modules (``independent``, ``services``) write.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from tournaments import schedule
from tournaments.models import Tournament, TournamentTable


def levels_done(steps: Sequence[schedule.Step], elapsed: float) -> int:
    """How many levels are over after ``elapsed`` hands or minutes (the last never ends)."""
    ordered = sorted(steps, key=lambda s: s.number)
    used, done = 0.0, 0
    for step in ordered[:-1]:
        used += step.duration
        if elapsed < used:
            break
        done += 1
    return done


def due(every: int, done: int, taken: int) -> bool:
    """A break is owed once ``done`` levels cover one more block of ``every`` than taken."""
    return every > 0 and done // every > taken


def length(t: Tournament) -> timedelta:
    return timedelta(minutes=t.break_minutes)


def clock_minutes(t: Tournament, now: datetime) -> float:
    """The event's level clock: minutes since the start, less pauses and breaks.

    Frozen during the event's break, at the moment it began.
    """
    started = t.started_at or now
    at = now
    if t.break_until is not None and now < t.break_until:
        at = t.break_until - length(t)
    seconds = (at - started).total_seconds() - t.paused_seconds - t.break_seconds
    return max(0.0, seconds) / 60


def event_break_tick(
    t: Tournament, steps: Sequence[schedule.Step], elapsed: float, now: datetime
) -> bool:
    """End the event's break when over, start one when due; True if ``t`` changed (unsaved).

    ``elapsed``: minutes on the level clock, or hands played in lock-step.
    """
    changed = False
    if t.break_until is not None and now >= t.break_until:
        t.break_seconds += int(length(t).total_seconds())
        t.break_until = None
        changed = True
    if t.break_until is None and due(t.break_every, levels_done(steps, elapsed), t.breaks_taken):
        t.break_until = now + length(t)
        t.breaks_taken += 1
        changed = True
    return changed


def event_break_left(t: Tournament, now: datetime) -> float:
    if t.break_until is None or now >= t.break_until:
        return 0.0
    return (t.break_until - now).total_seconds()


def table_break_tick(
    t: Tournament, table: TournamentTable, steps: Sequence[schedule.Step], now: datetime
) -> bool:
    """Levels by hands: start this table's own break at its hand boundary when owed."""
    if table.break_until is not None and now < table.break_until:
        return False
    if due(t.break_every, levels_done(steps, table.round), table.breaks_taken):
        table.break_until = now + length(t)
        table.breaks_taken += 1
        return True
    return False


def table_break_left(t: Tournament, table: TournamentTable, now: datetime) -> float:
    """Seconds this table still rests: its own break, or the event's."""
    ends = [b for b in (table.break_until, t.break_until) if b is not None and b > now]
    return max(((b - now).total_seconds() for b in ends), default=0.0)
