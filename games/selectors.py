"""Reads for pages and sockets. A table's snapshot is cached per version in the process:
every socket at the table renders from the same snapshot after a move, so a move costs one
set of queries per process, not one per socket."""

from __future__ import annotations

from collections import OrderedDict
from copy import copy
from dataclasses import dataclass, replace
from datetime import datetime
from threading import Lock
from typing import Any

from django.conf import settings
from django.db.models import Count, F, TextField, Value, Window
from django.db.models.functions import Cast, Coalesce, RowNumber
from django.utils import timezone

from games import engine
from games.models import Game, Hand, Move, Seat, Table

_CACHE_SIZE = 1024
_cache: OrderedDict[tuple[int, int], TableSnapshot] = OrderedDict()
_cache_lock = Lock()


@dataclass(frozen=True)
class SeatInfo:
    index: int
    user_id: int | None
    name: str
    bot_level: str
    autoplay: bool
    left: bool
    connected: bool
    timeouts: int = 0
    account_bot: bool = False  # a bot account (tournaments) sits here, not a person

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level) or self.account_bot

    @property
    def presence(self) -> str:
        """What every page shows for the seat: "bot", "online" or "away"."""
        if self.is_bot:
            return "bot"
        return "online" if self.connected else "away"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def bot_plays(self) -> bool:
        return self.is_bot or self.autoplay


@dataclass(frozen=True)
class TableSnapshot:
    """Everything needed to show a table at one version, to any seat or a spectator."""

    table: Table
    seats: tuple[SeatInfo, ...]
    game: Game | None
    hand: Hand | None
    state: Any  # engine.HandState | None
    past_hands: tuple[Hand, ...]  # finished hands of the current game, oldest first
    # ``hand.state`` (the stored JSON) is not kept: ``state`` is the parsed form.
    clock_moves: frozenset[int] = frozenset()
    """The ``Move.seq`` of every move of the current hand that the turn clock made (its
    ``actor``), so the log can say so: the stored state holds no such mark, since the hand
    must replay from its move log exactly (games.table.display.clock_marks)."""
    earlier_hand: Hand | None = None
    """At a managed table whose current game has no finished hand yet, the last hand of the
    game before (with its game): a tournament deals its next round as a new game right
    after the pause, and the hand's summary stays on its players' screens until closed."""

    @property
    def version(self) -> int:
        return self.table.version

    def seat_of(self, user_id: int | None) -> int | None:
        if user_id is None:
            return None
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat.index
        return None

    def names(self) -> list[str]:
        return [s.name for s in self.seats]


def _seat_info(seat: Seat) -> SeatInfo:
    if seat.user_id:
        name = seat.user.display_name
    elif seat.bot_level:
        name = f"{seat.bot_level.title()} bot {seat.index + 1}"
    else:
        name = f"Seat {seat.index + 1}"
    return SeatInfo(
        index=seat.index,
        user_id=seat.user_id,
        name=name,
        bot_level=seat.bot_level,
        autoplay=seat.autoplay,
        left=seat.left,
        connected=seat_online(seat),
        timeouts=seat.timeouts,
        account_bot=bool(seat.user_id and seat.user.is_bot),
    )


def seat_online(seat: Seat, now: Any = None) -> bool:
    """A person is online while a heartbeat of one of their sockets is fresh (see
    games.models.SeatSocket): a socket lost without a clean close stops counting by itself."""
    until = seat.present_until
    return bool(seat.user_id) and until is not None and until > (now or timezone.now())


def load_snapshot(table_id: int, version: int | None = None) -> TableSnapshot:
    """The table as of its current version (or of ``version``, when that one is cached).

    Reads are not in one transaction, so a move may commit between them; the version is read
    again afterwards and the snapshot is only cached when it did not move, so a cached
    snapshot always shows exactly one version.
    """
    if version is not None:
        cached = _cached(table_id, version)
        if cached is not None:
            return cached
    for _attempt in range(5):
        table = Table.objects.get(pk=table_id)
        cached = _cached(table_id, table.version)
        if cached is not None:
            return cached
        snapshot = read_snapshot(table)
        now = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
        if now == table.version:
            _store(snapshot)
            return snapshot
    return snapshot  # the table is changing fast; this one is used once and not cached


def read_snapshot(table: Table) -> TableSnapshot:
    """The table's rows as they are now, uncached (inside a write, after its changes)."""
    seats = tuple(_seat_info(s) for s in Seat.objects.filter(table=table).select_related("user"))
    game = Game.objects.filter(table=table).order_by("-number").first()
    hand = None
    state = None
    past: tuple[Hand, ...] = ()
    clock_moves: frozenset[int] = frozenset()
    if game is not None:
        hands = list(Hand.objects.filter(game=game).defer("state").order_by("number"))
        if hands:
            hand = hands[-1]
            raw = Hand.objects.filter(pk=hand.pk).values_list("state", flat=True).get()
            state = engine.state_from_json(raw)
            hand.state = None  # loaded, not deferred: reading it must never query
            if hand.moves_count:
                clock_moves = frozenset(
                    Move.objects.filter(hand=hand, actor=Move.Actor.CLOCK).values_list(
                        "seq", flat=True
                    )
                )
        past = tuple(h for h in hands if h.status == Hand.Status.OVER)
    earlier = None
    if table.managed and game is not None and game.number > 1 and not past:
        earlier = (
            Hand.objects.filter(
                game__table=table, game__number=game.number - 1, status=Hand.Status.OVER
            )
            .defer("state")
            .select_related("game")
            .order_by("-number")
            .first()
        )
    return TableSnapshot(
        table=table,
        seats=seats,
        game=game,
        hand=hand,
        state=state,
        past_hands=past,
        clock_moves=clock_moves,
        earlier_hand=earlier,
    )


def table_version(table_id: int) -> int | None:
    """The table's current version, from the database (None: no such table)."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


def cached_snapshot(table_id: int, version: int | None) -> TableSnapshot | None:
    """The snapshot of ``version`` if this process has it, without touching the database
    (so an event loop may call it)."""
    return None if version is None else _cached(table_id, version)


def remember(snapshot: TableSnapshot) -> None:
    """Cache a snapshot the caller built from a committed write (the move service does)."""
    _store(snapshot)


def _cached(table_id: int, version: int) -> TableSnapshot | None:
    with _cache_lock:
        snap = _cache.get((table_id, version))
        if snap is not None:
            _cache.move_to_end((table_id, version))
        return snap


def _store(snapshot: TableSnapshot) -> None:
    hand = snapshot.hand
    if hand is not None and hand.state is not None:
        # The parsed state is the snapshot's ``state``; its JSON form (kept by the move service
        # to save it) would double what every cached table costs a socket server.
        hand = copy(hand)
        hand.state = None
        snapshot = replace(snapshot, hand=hand)
    with _cache_lock:
        _cache[(snapshot.table.pk, snapshot.version)] = snapshot
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


@dataclass(frozen=True)
class PendingWork:
    bot_seats: tuple[int, ...]
    next_hand_due: bool
    clock_at: datetime | None = None


def pending_work(table_id: int, version: int) -> PendingWork | None:
    """What must happen at this table without a person, if it is still at ``version``."""
    try:
        snap = load_snapshot(table_id)
    except Table.DoesNotExist:
        return None
    if snap.version != version:
        return None
    return work_for(snap)


def work_for(snap: TableSnapshot) -> PendingWork | None:
    if snap.table.status != Table.Status.PLAYING or snap.state is None:
        return None
    if snap.table.paused_at is not None:
        return None
    if snap.hand is not None and snap.hand.status == Hand.Status.OVER:
        return PendingWork(bot_seats=(), next_hand_due=not snap.table.managed)
    seats = snap.seats
    bots = tuple(i for i in snap.state.to_act if 0 <= i < len(seats) and seats[i].bot_plays)
    table = snap.table
    clock_at = table.due_at if table.due_kind == "clock" else None
    return PendingWork(bot_seats=bots, next_hand_due=False, clock_at=clock_at)


@dataclass(frozen=True)
class LobbySeat:
    user_id: int | None
    display_name: str | None
    bot_level: str

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level


@dataclass(frozen=True)
class LobbyTable:
    """What the lobby shows of a table: plain values, no model objects (see public_tables)."""

    id: int
    name: str
    preset: str
    status: str
    num_seats: int
    turn_seconds: int | None
    spectators_allowed: bool
    chat_enabled: bool
    host_id: int | None
    rules_text: str
    """The rules as the database holds them (JSON text): the lobby decodes each distinct one
    once per process (presenters.lobby_rows)."""
    abort_reason: str
    seats: tuple[LobbySeat, ...]
    more_from_host: int = 0
    """On a host's last listed row: how many more open tables of theirs the lobby leaves
    out (LOBBY_ROWS_PER_HOST), reached by "more from this host"."""


_LOBBY_FIELDS = (
    "id", "name", "preset", "status", "num_seats", "turn_seconds", "spectators_allowed",
    "chat_enabled", "host_id", "rules_text", "abort_reason",
)  # fmt: skip


def public_tables(limit: int = 100, *, host_id: int | None = None) -> list[LobbyTable]:
    """The lobby list: open public tables, newest first, with who sits where.

    At most LOBBY_ROWS_PER_HOST rows per host, so that one account cannot push everyone
    else's tables out of the newest ``limit`` (issue 18: a hundred tables in 14 s did); the
    host's last row says how many more there are. ``host_id`` lists one host's tables, all
    of them (where "more from this host" leads). Tables without a host (managed by a
    tournament) each count as their own.

    Two queries of plain values. With the ORM's model objects (a table, its seats and their
    users: about 400 objects for 80 tables) this was most of what a lobby page cost, and the
    lobby is the page every visitor reads (docs/performance.md, "Page visitors").
    """
    tables = Table.objects.filter(status__in=Table.OPEN_STATUSES, is_private=False)
    per_host = settings.LOBBY_ROWS_PER_HOST
    if host_id is not None:
        tables = tables.filter(host_id=host_id).annotate(host_rank=Value(0), host_count=Value(0))
    else:
        host = Coalesce(F("host_id"), -F("id"))
        tables = tables.annotate(
            host_rank=Window(
                RowNumber(), partition_by=[host], order_by=[F("created_at").desc(), F("id").desc()]
            ),
            host_count=Window(Count("id"), partition_by=[host]),
        ).filter(host_rank__lte=per_host)
    rows = list(
        tables.annotate(rules_text=Cast("rules", output_field=TextField()))
        .order_by("-created_at", "-id")
        .values_list(*_LOBBY_FIELDS, "host_rank", "host_count")[:limit]
    )
    seats: dict[int, list[LobbySeat]] = {}
    occupants = (
        Seat.objects.filter(table_id__in=[row[0] for row in rows])
        .order_by("table_id", "index")
        .values_list("table_id", "user_id", "user__display_name", "bot_level")
    )
    for table_id, user_id, display_name, bot_level in occupants:
        seats.setdefault(table_id, []).append(LobbySeat(user_id, display_name, bot_level))
    listed = []
    for *row, rank, count in rows:
        more = count - per_host if rank == per_host and count > per_host else 0
        listed.append(LobbyTable(*row, seats=tuple(seats.get(row[0], ())), more_from_host=more))
    return listed
