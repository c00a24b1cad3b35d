"""Reads for the tournament pages: lists, standings, the ledger by hand, leaderboards."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby
from typing import Any

from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When
from django.utils import timezone

from tournaments.models import ChipLedger, Entry, Tournament, TournamentTable

PERIODS = {"week": 7, "month": 30, "all": None}


def lists(limit: int = 50) -> dict[str, list[Tournament]]:
    base = Tournament.objects.exclude(status=Tournament.Status.DRAFT).annotate(
        entrants=Count("entries")
    )
    return {
        "upcoming": list(
            base.filter(status__in=Tournament.UPCOMING).order_by("scheduled_start", "pk")[:limit]
        ),
        "running": list(base.filter(status__in=Tournament.IN_PLAY).order_by("-started_at")[:limit]),
        "finished": list(
            base.filter(status__in=Tournament.OVER).order_by("-finished_at", "-pk")[:limit]
        ),
    }


def standings(t: Tournament) -> list[Entry]:
    """Players still in first (most chips, or best score), then by place; the disqualified last."""
    order = Case(
        When(status__in=(Entry.Status.PLAYING, Entry.Status.REGISTERED), then=Value(0)),
        When(status=Entry.Status.DISQUALIFIED, then=Value(2)),
        default=Value(1),
        output_field=IntegerField(),
    )
    return list(
        Entry.objects.filter(tournament=t)
        .select_related("user", "table")
        .annotate(group=order)
        .order_by("group", "place", "-chips", "-score", "registered_at")
    )


def tables(t: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(tournament=t, status=TournamentTable.Status.OPEN)
        .select_related("table")
        .annotate(players=Count("entries", filter=Q(entries__status=Entry.Status.PLAYING)))
    )


@dataclass
class HandLedger:
    round: int
    table: int | None
    hand_id: int | None
    kind: str
    rows: list[ChipLedger]


def ledger(t: Tournament, *, round_from: int = 0, limit: int = 500) -> list[HandLedger]:
    """The chip ledger grouped per hand (newest first); starting stacks form one group."""
    rows = list(
        ChipLedger.objects.filter(tournament=t, round__gte=round_from)
        .select_related("payer__user", "payee__user", "table")
        .order_by("-round", "table__number", "hand_id", "pk")[:limit]
    )

    def key(row: ChipLedger) -> tuple[Any, ...]:
        return (row.round, row.table.number if row.table else None, row.hand_id, row.kind)

    return [HandLedger(k[0], k[1], k[2], k[3], list(group)) for k, group in groupby(rows, key)]


def my_entry(t: Tournament, user: Any) -> Entry | None:
    if not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament=t, user=user).select_related("table__table").first()


def since(period: str, now: datetime | None = None) -> datetime | None:
    days = PERIODS.get(period)
    if days is None:
        return None
    return (now or timezone.now()) - timedelta(days=days)


def leaderboard(period: str = "all", limit: int = 50) -> list[dict[str, Any]]:
    """Per player over finished tournaments: wins, top-three places, net chips won (MTT)."""
    entries = Entry.objects.filter(
        tournament__status=Tournament.Status.FINISHED, user__is_bot=False
    )
    start = since(period)
    if start is not None:
        entries = entries.filter(tournament__finished_at__gte=start)
    mtt = Q(tournament__format=Tournament.Format.MTT)
    return list(
        entries.values("user__display_name")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=Q(place=1)),
            podiums=Count("pk", filter=Q(place__lte=3)),
            chips_won=Sum(F("chips") - F("tournament__starting_chips"), filter=mtt, default=0),
        )
        .order_by("-wins", "-podiums", "-chips_won", "user__display_name")[:limit]
    )


def player_results(user: Any, limit: int = 20) -> list[Entry]:
    return list(
        Entry.objects.filter(user=user, tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament")
        .order_by("-tournament__finished_at")[:limit]
    )


# A bot account entered in a tournament is played like a person's seat on autoplay, and
# games.bot_turns plays a seat without a bot level of its own at this level.
ENTRANT_BOT_LEVEL = "easy"


def player_kind(user: Any) -> str:
    """ "bot, easy" for a bot entrant (the level it plays at), "person" for everyone else."""
    return f"bot, {ENTRANT_BOT_LEVEL}" if user.is_bot else "person"


def house_rules(t: Tournament) -> list[tuple[str, str]]:
    """The house rules that differ from the preset's defaults, as (description, value)."""
    from games import engine

    found = []
    for name, value in sorted((t.options or {}).items()):
        info = engine.OPTIONS.get(name)
        if info is None or value == info.default_for(t.preset):
            continue
        shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        found.append((info.description, shown))
    return found
