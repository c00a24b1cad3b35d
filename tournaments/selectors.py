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


@dataclass
class BotName:
    display_name: str


@dataclass
class BotPlacing:
    """A filler bot's seat in the final standings of a quick game or STT (not an entrant).

    Reads like an ``Entry`` where pages and the CSV read one, so a bot's win is shown.
    """

    place: int
    user: BotName
    score: int
    status: str
    chips: int = 0
    pk: None = None
    out_at: None = None
    out_round: None = None
    table: None = None
    is_bot_seat: bool = True

    def get_status_display(self) -> str:
        return "Winner (bot seat)" if self.place == 1 else "Bot seat"


def bot_placings(t: Tournament) -> list[BotPlacing]:
    return [
        BotPlacing(
            place=int(row.get("place", 0)),
            user=BotName(str(row.get("name", "Bot"))),
            score=int(row.get("score", 0)),
            status=Entry.Status.WINNER if row.get("place") == 1 else Entry.Status.OUT,
        )
        for row in t.bot_results or []
    ]


def standings(t: Tournament) -> list[Any]:
    """Players still in first (most chips, or best score), then by place; the disqualified last.

    A finished quick game or STT lists its filler bots' seats among the places too.
    """
    order = Case(
        When(status__in=(Entry.Status.PLAYING, Entry.Status.REGISTERED), then=Value(0)),
        When(status=Entry.Status.DISQUALIFIED, then=Value(2)),
        default=Value(1),
        output_field=IntegerField(),
    )
    entries: list[Any] = list(
        Entry.objects.filter(tournament=t)
        .select_related("user", "table")
        .annotate(group=order)
        .order_by("group", "place", "-chips", "-score", "registered_at")
    )
    bots = bot_placings(t)
    if not bots:
        return entries
    placed = [e for e in entries if e.place is not None] + bots
    placed.sort(key=lambda row: (row.place, -row.score))
    return (
        [e for e in entries if e.place is None and e.is_in]
        + placed
        + [e for e in entries if e.place is None and not e.is_in]
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
