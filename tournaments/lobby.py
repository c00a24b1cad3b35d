"""The tournaments lobby: upcoming events first, each with what a player decides on.

Read-only, like ``selectors``: seats taken and left, format, preset, starting stack, a
one-line schedule, the prize table, and the start (scheduled, or a full sit-and-go's
countdown); the running and finished events follow. Filters by format and preset are
applied here, on the server, from the page's GET parameters (``forms.LobbyFilterForm``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Count, Prefetch, QuerySet

from games.table import display
from tournaments import selectors
from tournaments.models import Level, Tournament


@dataclass
class LobbyRow:
    t: Tournament
    entrants: int
    seats: int
    preset_title: str
    stack: str
    schedule: str
    prizes: list[selectors.PrizeRow] = field(default_factory=list)

    @property
    def seats_left(self) -> int:
        return max(0, self.seats - self.entrants)

    @property
    def starts_at(self) -> datetime | None:
        """When it starts: a full sit-and-go's countdown end, else the scheduled time."""
        return self.t.sit_and_go_at or self.t.scheduled_start

    @property
    def prize_summary(self) -> str:
        shown = ", ".join(f"{p.place_text} {p.trophies}" for p in self.prizes[:3])
        more = len(self.prizes) - 3
        return shown + (f" and {more} more place{'s' if more > 1 else ''}" if more > 0 else "")


def seats(t: Tournament) -> int:
    """Seats on offer: one table's (quick game, STT) or the maximum entrants (MTT)."""
    return t.max_entrants if t.is_mtt else min(t.max_entrants, t.seats_per_table)


def stack_text(t: Tournament) -> str:
    return f"{t.starting_chips:,} chips" if t.is_mtt else "score from 0"


def schedule_text(t: Tournament, levels: list[Level]) -> str:
    """The schedule in one line: levels and PCRs for an MTT, the target or hands otherwise."""
    if t.format == Tournament.Format.QUICK:
        return f"{t.hands} hand{'s' if t.hands != 1 else ''}"
    if t.format == Tournament.Format.STT:
        return f"first to {t.target_score}"
    if not levels:
        return "levels not set yet"
    unit = "hand" if t.level_unit == Tournament.LevelUnit.HANDS else "minute"
    first, last = levels[0], levels[-1]
    span = f"PCR {first.pcr}" if len(levels) == 1 else f"PCR {first.pcr} to {last.pcr}"
    lasts = f"{first.duration} {unit}{'s' if first.duration != 1 else ''}"
    return f"{len(levels)} level{'s' if len(levels) != 1 else ''}, {span}, first lasts {lasts}"


def _rows(query: QuerySet[Tournament]) -> list[LobbyRow]:
    rows = []
    for t in query:
        levels = list(t.levels.all())
        rows.append(
            LobbyRow(
                t=t,
                entrants=t.entrants,  # type: ignore[attr-defined]
                seats=seats(t),
                preset_title=display.preset_title(t.preset),
                stack=stack_text(t),
                schedule=schedule_text(t, levels),
                prizes=selectors.prize_table(t),
            )
        )
    return rows


def lobby(*, format: str = "", preset: str = "", limit: int = 50) -> dict[str, list[LobbyRow]]:
    """Upcoming (soonest first, unscheduled last), running, then finished events."""
    base = (
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .annotate(entrants=Count("entries"))
        .prefetch_related(Prefetch("levels", queryset=Level.objects.order_by("number")))
    )
    if format:
        base = base.filter(format=format)
    if preset:
        base = base.filter(preset=preset)
    upcoming = list(base.filter(status__in=Tournament.UPCOMING)[: limit * 2])

    def soonest(t: Tournament) -> tuple[int, float, int]:
        when = t.sit_and_go_at or t.scheduled_start
        return (0, when.timestamp(), t.pk) if when else (1, 0.0, t.pk)

    upcoming.sort(key=soonest)
    return {
        "upcoming": _rows(upcoming[:limit]),
        "running": _rows(
            base.filter(status__in=Tournament.IN_PLAY).order_by("-started_at")[:limit]
        ),
        "finished": _rows(
            base.filter(status__in=Tournament.OVER).order_by("-finished_at", "-pk")[:limit]
        ),
    }
