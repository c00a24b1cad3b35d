"""Reads for the tournament pages: lists, standings, the ledger by hand, leaderboards."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby
from typing import Any

from django.db.models import Case, Count, F, IntegerField, Q, Sum, Value, When
from django.utils import timezone

from tournaments import breaks, prizes, schedule
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
    is_bot: bool = True


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

    @property
    def shown_status(self) -> str:
        return self.get_status_display()


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
    live = live_scores(t)
    if live:
        for e in entries:
            e.score = live.get(e.user_id, e.score)
        entries.sort(key=lambda e: (e.group, e.place or 0, -e.score))  # type: ignore[attr-defined]
    for e in entries:
        e.shown_status = status_text(t, e)  # type: ignore[attr-defined]
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
    """Open tables; ``seated`` counts everyone at a live table, the bots filling seats too."""
    found = list(
        TournamentTable.objects.filter(tournament=t, status=TournamentTable.Status.OPEN)
        .select_related("table")
        .annotate(players=Count("entries", filter=Q(entries__status=Entry.Status.PLAYING)))
    )
    now = timezone.now()
    for tt in found:
        tt.seated = tt.table.num_seats if tt.table is not None else tt.players  # type: ignore[attr-defined]
        tt.break_ends = break_ends(t, tt, now)  # type: ignore[attr-defined]
        tt.progress = table_progress(t, tt)  # type: ignore[attr-defined]
    return found


def break_ends(t: Tournament, table: TournamentTable | None, now: datetime | None = None) -> Any:
    """When the break in force ends (the table's own, or the event's); None when playing."""
    from tournaments import breaks

    now = now or timezone.now()
    if table is None:
        return t.break_until if breaks.event_break_left(t, now) > 0 else None
    if breaks.table_break_left(t, table, now) <= 0:
        return None
    return max(b for b in (table.break_until, t.break_until) if b is not None and b > now)


def table_progress(t: Tournament, table: TournamentTable) -> Progress | None:
    """Independent tables with levels by hands: the table's own level and hands to its next
    PCR (each table counts its own hands). Otherwise the event's (``progress``)."""
    from tournaments import independent

    if not table.level or t.level_unit != Tournament.LevelUnit.HANDS or not independent.drives(t):
        return None
    steps = _steps(t)
    numbers = [n for n, _p, _d in steps]
    level, pcr = table.level, table.pcr
    between = table.round <= table.settled_round
    if between:
        # Between hands (on a break, say): the table's level is the hand it played; what it
        # plays next may be the next level's, and the hands left are counted from there.
        step = schedule.level_at([schedule.Step(*s) for s in steps], float(table.settled_round))
        level, pcr = step.number, step.pcr
    following = None
    if level in numbers and numbers.index(level) + 1 < len(steps):
        following = steps[numbers.index(level) + 1][1]
    left = independent.hands_to_next_level(t, table)
    return Progress(level, pcr, following, left, t.level_unit, between)


def late_registration_open(t: Tournament) -> bool:
    from tournaments import late_registration

    return late_registration.is_open(t)


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
    rows = list(
        entries.values("user__display_name")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=Q(place=1)),
            podiums=Count("pk", filter=Q(place__lte=3)),
            chips_won=Sum(F("chips") - F("tournament__starting_chips"), filter=mtt, default=0),
        )
        .order_by("-wins", "-podiums", "-chips_won", "user__display_name")[:limit]
    )
    # Equal records share a rank (1, 1, 3), as places do; the name only orders the rows.
    for i, row in enumerate(rows):
        same = i and _record(rows[i - 1]) == _record(row)
        row["rank"] = rows[i - 1]["rank"] if same else i + 1
    return rows


def _record(row: dict[str, Any]) -> tuple[int, int, int]:
    return row["wins"], row["podiums"], row["chips_won"]


@dataclass(frozen=True)
class PrizeRow:
    place: int
    trophies: int

    @property
    def place_text(self) -> str:
        return ordinal(self.place)


def expected_field(t: Tournament) -> int:
    """The field the default prize table is worked out for before the end: a single table's
    seats when bots fill them, else the entrants so far (at least the minimum to start)."""
    if t.status == Tournament.Status.FINISHED:
        return field_size(t)
    entrants = getattr(t, "entrants", None)
    if entrants is None:
        entrants = Entry.objects.filter(tournament=t).count()
    if not t.is_mtt and t.bots_allowed:
        return t.seats_per_table
    return max(entrants, t.min_entrants, 2)


def prize_table(t: Tournament) -> list[PrizeRow]:
    """The trophies each place pays, as shown before the start and in the results."""
    table = prizes.table_for(t.prizes, expected_field(t))
    return [PrizeRow(place, trophies) for place, trophies in enumerate(table, 1) if trophies]


def prizes_are_default(t: Tournament) -> bool:
    return not t.prizes


def player_prizes(user: Any) -> tuple[list[Entry], int]:
    """A player's prizes, newest first, and their total in trophies."""
    won = Entry.objects.filter(user=user, trophies__gt=0, tournament__status="finished")
    total = won.aggregate(total=Sum("trophies"))["total"] or 0
    return list(won.select_related("tournament").order_by("-tournament__finished_at")[:50]), total


def player_results(user: Any, limit: int = 20) -> list[Entry]:
    return list(
        Entry.objects.filter(user=user, tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament")
        .order_by("-tournament__finished_at")[:limit]
    )


# A bot account entered in a tournament is played like a person's seat on autoplay, and
# games.services.bot_turns plays a seat without a bot level of its own at this level.
ENTRANT_BOT_LEVEL = "easy"


def player_kind(user: Any) -> str:
    """ "bot, easy" for a bot entrant (the level it plays at), "person" for everyone else."""
    if isinstance(user, BotName):
        return "bot (filler seat)"
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
        found.append((info.description.rstrip("."), shown))
    return found


# --- what players and visitors see during an event -------------------------------------------


@dataclass
class LevelRow:
    number: int
    pcr: int
    duration: int
    starts: int  # the hand (round) or minute it starts at
    current: bool


@dataclass
class Progress:
    """Where the schedule stands: the level and PCR in force, and when the next PCR comes."""

    level: int
    pcr: int
    next_pcr: int | None
    left: int | None  # hands (counting the one in play) or whole minutes until the next PCR
    unit: str  # "hands" or "minutes"
    between: bool = False  # no hand in play: ``left`` counts from the next one

    @property
    def next_text(self) -> str:
        if self.next_pcr is None or self.left is None:
            return "last level"
        if self.unit == Tournament.LevelUnit.HANDS:
            if self.left <= 1:
                when = "after" if self.between else "from"
                return f"PCR {self.next_pcr} {when} the next hand"
            return f"PCR {self.next_pcr} in {self.left} hands"
        if self.left <= 1:
            return f"PCR {self.next_pcr} in about a minute"
        return f"PCR {self.next_pcr} in about {self.left} minutes"


def _steps(t: Tournament) -> list[tuple[int, int, int]]:
    return list(t.levels.order_by("number").values_list("number", "pcr", "duration"))


def level_schedule(t: Tournament) -> list[LevelRow]:
    """The whole schedule for the public page, the level in force marked."""
    rows, start = [], 1 if t.level_unit == Tournament.LevelUnit.HANDS else 0
    for number, pcr, duration in _steps(t):
        current = t.status in Tournament.IN_PLAY and number == t.level
        rows.append(LevelRow(number, pcr, duration, start, current))
        start += duration
    return rows


def minutes_played(t: Tournament, now: datetime | None = None) -> float:
    """Minutes on the level clock so far: pauses (a pause in progress too) and breaks do not
    count, as for the clock that changes the level (``breaks.clock_minutes``)."""
    if t.started_at is None:
        return 0.0
    return breaks.clock_minutes(t, t.paused_at or now or timezone.now())


def progress(t: Tournament, now: datetime | None = None) -> Progress | None:
    """MTT in play: the level in force and the next PCR (None before the first round)."""
    if not t.is_mtt or t.status not in Tournament.IN_PLAY or not t.level:
        return None
    steps = _steps(t)
    end = 0
    for i, (number, _pcr, duration) in enumerate(steps):
        end += duration
        if number != t.level:
            continue
        following = steps[i + 1][1] if i + 1 < len(steps) else None
        if following is None:
            return Progress(t.level, t.pcr, None, None, t.level_unit)
        if t.level_unit == Tournament.LevelUnit.HANDS:
            left = max(1, end - t.round + 1)
        else:
            left = max(1, math.ceil(end - minutes_played(t, now)))
        return Progress(t.level, t.pcr, following, left, t.level_unit)
    return Progress(t.level, t.pcr, None, None, t.level_unit)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def field_size(t: Tournament) -> int:
    """How many finish in this event: its entrants, or a single table's seats with bots."""
    entrants = Entry.objects.filter(tournament=t).count()
    if t.is_mtt:
        return entrants
    seats = (
        TournamentTable.objects.filter(tournament=t, table__isnull=False)
        .values_list("table__num_seats", flat=True)
        .first()
    )
    return max(entrants, seats or 0)


def status_text(t: Tournament, entry: Entry) -> str:
    """An entrant's status in the words of the format: nobody is "eliminated" from a quick
    game or a single table tourney, they finish it."""
    if entry.status == Entry.Status.OUT:
        return "Out" if t.is_mtt else "Finished"
    if t.is_mtt and entry.status == Entry.Status.PLAYING and entry.table_id is None:
        return "Waiting for a seat"  # a late entrant while every table is full
    return entry.get_status_display()


def my_outcome(t: Tournament, entry: Entry | None) -> str | None:
    """The line a player reads once their event is over for them; None while they play."""
    if entry is None:
        return None
    if entry.status == Entry.Status.DISQUALIFIED:
        return "You were disqualified."
    if entry.place is None:
        return None
    if entry.place == 1 and entry.status == Entry.Status.WINNER:
        shared = Entry.objects.filter(tournament=t, place=1).exclude(pk=entry.pk).count()
        if shared:
            return f"You won (tied with {shared} other{'s' if shared > 1 else ''})."
        return "You won!"
    where = f"{ordinal(entry.place)} of {field_size(t)}"
    if t.is_mtt and entry.status == Entry.Status.OUT:
        return f"You are out: {where}."
    return f"You finished {where}."


def live_scores(t: Tournament) -> dict[int, int]:
    """Quick game or STT in play: each entrant's running total from the game at the table, so
    standings move hand by hand (the entries' score column is written at the end)."""
    if t.is_mtt or t.status not in Tournament.IN_PLAY or t.round != 1:
        return {}
    from games.models import Game

    table_id = (
        TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True).first()
    )
    game = Game.objects.filter(table_id=table_id).order_by("-number").first()
    if game is None or not game.totals:
        return {}
    seat_of = {p.get("user"): i for i, p in enumerate(game.players or []) if p.get("user")}
    totals = list(game.totals)
    return {
        user_id: totals[seat]
        for user_id, seat in seat_of.items()
        if seat < len(totals) and totals[seat] is not None
    }


def banner(link: TournamentTable, user: Any) -> dict[str, Any]:
    """The context of a tournament table's banner (its page, and its refetched fragment)."""
    t = link.tournament
    mine = my_entry(t, user)
    if mine is not None and mine.table_id != link.pk and mine.is_in:
        mine = None  # watching another table of the event: this one's banner is not theirs
    score = None
    if mine is not None and not t.is_mtt:
        score = live_scores(t).get(mine.user_id, mine.score)
    return {
        "t": t,
        "tournament_table": link,
        "progress": table_progress(t, link) or progress(t),
        "break_ends": break_ends(t, link),
        "mine": mine,
        "my_score": score,
        "outcome": my_outcome(t, mine),
        "follow": mine is not None and mine.status == Entry.Status.PLAYING,
    }
