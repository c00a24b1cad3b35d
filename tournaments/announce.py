"""What the tournament services tell players, in words: each function writes its notices
through ``tournaments.notices.notify`` inside the caller's transaction (so a rolled-back
start or rebalance tells nobody anything).

Bots get no notices: nobody reads them, and a simulated event of a thousand bot entrants
must not write a thousand rows per rebalance.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db.models import Q
from django.urls import reverse

from accounts import notices as account_notices
from accounts.models import Notice
from tournaments import notices
from tournaments.models import Entry, Tournament, TournamentTable

STARTING_SOON = timedelta(minutes=2)


def _humans(entries: Iterable[Entry]) -> list[Entry]:
    return [e for e in entries if not e.user.is_bot]


def _table_url(t: Tournament, table: TournamentTable | None) -> str:
    if table is not None and table.table_id is not None:
        return reverse("table_detail", args=[table.table_id])
    return reverse("tournaments:lobby", args=[t.pk])


def starting_soon(now: datetime) -> int:
    """Tell the entrants of every event due to start within two minutes (once each: the
    sweep that calls this runs again and again). Returns the notices sent."""
    sent = 0
    due = Tournament.objects.filter(
        status__in=(Tournament.Status.REGISTRATION, Tournament.Status.CLOSED),
        scheduled_start__gt=now,
        scheduled_start__lte=now + STARTING_SOON,
    )
    for t in due:
        users = Entry.objects.filter(tournament=t, user__is_bot=False).values_list(
            "user_id", flat=True
        )
        minutes = max(1, round((t.scheduled_start - now).total_seconds() / 60))
        text = f"{t.name} starts in {minutes} minute{'s' if minutes != 1 else ''}."
        url = reverse("tournaments:lobby", args=[t.pk])
        sent += len(
            notices.notify_many(
                [(user_id, text, url) for user_id in users],
                notices.STARTING,
                tournament_id=t.pk,
                key=f"t{t.pk}-starting",
            )
        )
    return sent


def _where(t: Tournament, entries: Iterable[Entry], words: str) -> list[tuple[int, str, str]]:
    """(user id, "<event>: you <words> table N.", the table's URL) for each person."""
    urls: dict[int | None, str] = {}
    notes = []
    for e in _humans(entries):
        table = e.table
        if e.table_id not in urls:
            urls[e.table_id] = _table_url(t, table)
        number = table.number if table is not None else "?"
        notes.append((e.user_id, f"{t.name}: you {words} table {number}.", urls[e.table_id]))
    return notes


def seated(t: Tournament, entries: Iterable[Entry]) -> None:
    """At the start: where each player sits (``entries`` with their table set)."""
    notices.notify_many(_where(t, entries, "are seated at"), notices.SEATED, tournament_id=t.pk)


def seats_changed(
    t: Tournament, playing: Iterable[Entry], previous_table: dict[int, int | None]
) -> None:
    """After a round's seating: players who had no table are seated, those whose table
    changed were moved (``previous_table`` is each entry's table id before)."""
    changed = [e for e in playing if previous_table.get(e.pk) != e.table_id]
    seated(t, [e for e in changed if previous_table.get(e.pk) is None])
    moved(t, [e for e in changed if previous_table.get(e.pk) is not None])


def moved(t: Tournament, entries: Iterable[Entry]) -> None:
    """After a rebalance or a broken table: the new table of each player moved."""
    notices.notify_many(_where(t, entries, "were moved to"), notices.MOVED, tournament_id=t.pk)


def moved_at_boundary(t: Tournament, entry_ids: Iterable[int], *, live: bool) -> None:
    """Independent tables: players seated at or moved to another table at a hand boundary
    (their lobby and table pages follow the notice). A late entrant who waited for a seat
    and was never told of one is seated, not moved. A headless simulation tells nobody."""
    if not live:
        return
    entries = list(Entry.objects.filter(pk__in=list(entry_ids)).select_related("user", "table"))
    told = set(
        Notice.objects.filter(
            topic=notices.topic(t.pk),
            kind=notices.SEATED,
            user_id__in=[e.user_id for e in entries if e.late],
        ).values_list("user_id", flat=True)
    )
    first = [e for e in entries if e.late and e.user_id not in told]
    seated(t, first)
    moved(t, [e for e in entries if e not in first])


def on_break(t: Tournament, table: TournamentTable | None) -> None:
    """The players of ``table`` (None: of the whole event) start a break; the pages count
    it down."""
    until = table.break_until if table is not None else t.break_until
    if until is None:
        return
    where = Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING, user__is_bot=False)
    if table is not None:
        where = where.filter(table=table)
    minutes = max(1, round(t.break_minutes))
    text = f"{t.name}: break for {minutes} minute{'s' if minutes != 1 else ''}."
    url = reverse("tournaments:lobby", args=[t.pk])
    key = f"t{t.pk}-break-{until.isoformat()}-{table.pk if table is not None else 0}"
    notices.notify_many(
        [(user_id, text, url) for user_id in where.values_list("user_id", flat=True)],
        notices.BREAK,
        tournament_id=t.pk,
        key=key,
    )


def finished(t: Tournament) -> None:
    """At the end: each placed player's place and the trophies it won (once per player)."""
    placed = (
        Entry.objects.filter(tournament=t, user__is_bot=False)
        .filter(Q(place__isnull=False) | Q(status=Entry.Status.DISQUALIFIED))
        .select_related("user")
    )
    url = reverse("tournaments:detail", args=[t.pk])
    notices.notify_many(
        [(e.user_id, result_text(t, e), url) for e in placed],
        notices.FINISHED,
        tournament_id=t.pk,
        key=f"t{t.pk}-finished",
    )


def cancelled(t: Tournament) -> None:
    """Its entrants learn it will not take place (or go on), and why: the page's notice."""
    users = Entry.objects.filter(tournament=t, user__is_bot=False).values_list("user_id", flat=True)
    text = f"{t.name} is cancelled. {t.notice}".strip()
    if len(text) > account_notices.TEXT_MAX:
        text = f"{t.name} is cancelled."
    url = reverse("tournaments:detail", args=[t.pk])
    notices.notify_many(
        [(user_id, text, url) for user_id in users],
        notices.CANCELLED,
        tournament_id=t.pk,
        key=f"t{t.pk}-cancelled",
    )


def result_text(t: Tournament, e: Entry) -> str:
    if e.status == Entry.Status.DISQUALIFIED or not e.place:
        return f"{t.name} is over; you were disqualified."
    won = f" and won {e.trophies} troph{'ies' if e.trophies != 1 else 'y'}" if e.trophies else ""
    if e.place == 1:
        return f"You won {t.name}{won}!"
    return f"You finished {ordinal(e.place)} in {t.name}{won}."


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
