"""Independent tables: each multi-table table deals again as soon as its own hand is settled.

The default flow of an MTT (``Tournament.hand_for_hand`` off). A table's ``round`` counts its
own hands and ``settled_round`` the ones settled, so it is between hands ("at a boundary")
when the two are equal. After the between-hands pause (``games.services.clock``: it ends early when
every connected person said Ready) and any break, the free tables are rebalanced together
(``boundary_plan``: a table in play is never touched) and each deals its next hand.

Levels by hands count each table's own hands (its ``level`` and ``pcr`` are the ones of its
hand); levels by minutes follow the event's clock. Players out at different tables are placed
by the moment they went out (the end of the hand that took their last chip); out at the same
moment, by their chips before that hand.

The organizer may ask for hand-for-hand from the start, from a number of tables left, or from
the prize bubble: once due, no table deals again until every table is between hands; then the
tables are put on one round number and the lock-step flow of ``services`` (``round_start`` /
``hand_settle`` / ``round_finish``) takes over for the rest of the event.

A boundary runs under the tournament's row lock once per table per hand, so it reads only what
it involves: the tables between hands, the players of the free ones and of no table, and the
sizes of the shortest tables in play with a count per size of the others (``boundaries``);
nothing it reads grows with the field (docs/performance-tournaments.md).

The same calls drive live tables (``advance``, from ``services.advance``) and the headless
simulation (``settle`` and ``boundaries(live=False)``, with a virtual clock).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from datetime import datetime

from django.db import connection
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Game, Hand, Seat
from games.services import managed
from tournaments import announce, boundary_plan, breaks, prizes, schedule, settlement
from tournaments.models import Entry, Tournament, TournamentTable

Open = TournamentTable.Status.OPEN


def drives(t: Tournament) -> bool:
    """Whether this flow runs the event now (else the lock-step rounds of ``services``).
    A duplicate event always plays in rounds: every table must hold the same deal at once."""
    if not t.is_mtt or t.hand_for_hand or t.duplicate:
        return False
    if not t.lock_step:
        return True
    # switching to hand-for-hand: until every open table is on the event's round
    return TournamentTable.objects.filter(tournament=t, status=Open).exclude(round=t.round).exists()


def hand_for_hand_due(t: Tournament, tables: int, players_left: int) -> bool:
    """The organizer's point for hand-for-hand: a number of tables, or the prize bubble."""
    if t.hand_for_hand or (t.hand_for_hand_tables and tables <= t.hand_for_hand_tables):
        return True
    if t.hand_for_hand_bubble:
        field = Entry.objects.filter(tournament=t).count()
        paid = sum(1 for p in prizes.table_for(t.prizes, field) if p > 0)
        return players_left <= paid + 1
    return False


# --- settling one table's hand ---------------------------------------------------------------


def settle(
    t: Tournament,
    table: TournamentTable,
    played: Sequence[object],
    dealer: int,
    at: datetime,
    hand: Hand | None = None,
) -> list[settlement.Transfer]:
    """Settle one table's hand with that table's level and hand number (``services.hand_settle``
    reads them from the tournament, so it is given a copy carrying the table's)."""
    from tournaments import services

    view = copy.copy(t)
    view.round = table.round
    if table.pcr:
        view.level, view.pcr = table.level, table.pcr
    transfers = services.hand_settle(
        tournament=view,
        table=table,
        played=played,
        dealer=dealer,
        hand=hand,
        now=at,  # type: ignore[arg-type]
    )
    table.settled_at = at
    TournamentTable.objects.filter(pk=table.pk).update(settled_at=at)
    return transfers


def place_the_out(t: Tournament) -> int:
    """Give a place to everyone out and not yet placed: those out later rank better; out at
    the same moment, more chips before that hand rank better (equal: the same place).

    Players already placed who went out at the same moment (another table's hand ending at
    the same instant, settled just before) are placed again with them.
    """
    fresh = list(Entry.objects.filter(tournament=t, status=Entry.Status.OUT, place__isnull=True))
    if not fresh:
        return 0
    moments = {e.out_at for e in fresh if e.out_at is not None}
    same = Entry.objects.filter(
        tournament=t, status=Entry.Status.OUT, place__isnull=False, out_at__in=moments
    )
    group = fresh + list(same)
    remaining = Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING).count()
    for e in group:
        place = remaining + 1 + sum(1 for o in group if _better(o, e))
        Entry.objects.filter(pk=e.pk).update(place=place, table=None)
    return len(fresh)


def _better(a: Entry, b: Entry) -> bool:
    if a.out_at != b.out_at:
        return a.out_at is not None and (b.out_at is None or a.out_at > b.out_at)
    return a.chips_before_out > b.chips_before_out


def end_if_over(t: Tournament, now: datetime) -> bool:
    """Too few left for a table, and no hand in play: place the rest by chips, finish."""
    from tournaments import services

    remaining = Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING).count()
    if remaining >= max(2, services.preset_seats(t)[0]):
        return False
    if _in_play(t).exists():
        return False
    services._end_mtt(t, now)
    return True


def _in_play(t: Tournament):  # type: ignore[no-untyped-def]
    return TournamentTable.objects.filter(tournament=t, status=Open, round__gt=F("settled_round"))


# --- live tables -----------------------------------------------------------------------------


def advance(t: Tournament, now: datetime) -> bool:
    """Live: settle every table whose game ended, then deal where the table is free."""
    from tournaments import services

    changed = False
    finished: list[tuple[datetime, TournamentTable, Game, Hand]] = []
    for table in _hands_over(t):
        game = Game.objects.filter(table_id=table.table_id).order_by("-number").first()
        if game is None or game.status == Game.Status.PLAYING:
            continue
        hand = Hand.objects.filter(game=game).order_by("-number").first()
        if game.status != Game.Status.FINISHED or hand is None or not hand.result:
            # Stopped by staff: no chips move, the table closes, its players wait for a seat.
            table.settled_round = table.round
            table.status = TournamentTable.Status.BROKEN
            table.save(update_fields=["settled_round", "status"])
            Entry.objects.filter(table=table, status=Entry.Status.PLAYING).update(
                table=None, seat=None
            )
            changed = True
            continue
        finished.append((hand.finished_at or now, table, game, hand))
    finished.sort(key=lambda f: (f[0], f[1].number))
    for at, table, game, hand in finished:
        settle(t, table, services._played(t, table, game, hand), hand.dealer, at, hand=hand)
        changed = True
    if finished:
        place_the_out(t)
    if end_if_over(t, now):
        return True
    dealt, wait = boundaries(t, now, live=True)
    if wait > 0:
        services._arm(t.pk, countdown=wait)
    return changed or bool(dealt)


def _hands_over(t: Tournament):  # type: ignore[no-untyped-def]
    """Live tables in play whose latest game is no longer being played (or have none): one
    query, so the tournament's lock is not held for a look at every table in play."""
    latest = Game.objects.filter(table_id=OuterRef("table_id")).order_by("-number")
    return (
        _in_play(t)
        .filter(table__isnull=False)
        .annotate(game_status=Subquery(latest.values("status")[:1]))
        .filter(Q(game_status__isnull=True) | ~Q(game_status=Game.Status.PLAYING))
    )


def _pauses(
    tables: Sequence[TournamentTable],
    now: datetime,
    pause_left: Callable[[TournamentTable, datetime], float] | None,
) -> dict[int, float]:
    """Each table's between-hands pause still to run (live: ``games.services.clock``, asked
    for all the tables at once)."""
    if pause_left is not None:
        return {tt.pk: pause_left(tt, now) for tt in tables}
    from games.services import clock

    ids = [tt.table_id for tt in tables if tt.table_id is not None]
    left = clock.tables_pause_left(ids, now) if ids else {}
    return {tt.pk: left.get(tt.table_id, 0.0) for tt in tables}  # type: ignore[arg-type]


# --- between hands ---------------------------------------------------------------------------


def boundaries(
    t: Tournament,
    now: datetime,
    *,
    live: bool,
    pause_left: Callable[[TournamentTable, datetime], float] | None = None,
    rng: random.Random | None = None,
) -> tuple[list[TournamentTable], float]:
    """Rebalance the free tables and deal their next hands.

    Returns the tables dealt (headless: the caller plays them) and the seconds until the
    next table is due to be free again (a pause or break ending; 0: none). ``pause_left``
    tells the between-hands pause of a table (live: ``games.services.clock``; the headless
    simulation passes its virtual clock's).

    It runs under the tournament's row lock once per table per hand, so it reads what the
    boundary involves, in a fixed number of queries whatever the field: the tables between
    hands, the players of the free ones and those without a table, and the sizes of the
    shortest tables in play (``boundary_plan.movable`` of them: the only ones a player can be
    sent to) with a count per size of the others.
    """
    from tournaments import services

    steps = services.steps(t)
    fields: list[str] = []
    if t.level_unit == Tournament.LevelUnit.MINUTES and breaks.event_break_tick(
        t, steps, breaks.clock_minutes(t, now), now
    ):
        fields += ["break_until", "break_seconds", "breaks_taken"]
        if t.break_until is not None:
            _tell_break(t, None)
    at_boundary = list(
        TournamentTable.objects.filter(tournament=t, status=Open, round=F("settled_round"))
    )
    if not t.lock_step and hand_for_hand_due(t, _open_tables(t), _players_left(t)):
        t.lock_step = True
        fields.append("lock_step")
    if fields:
        t.save(update_fields=fields)
    if t.lock_step:
        if not _in_play(t).exists():  # everyone between hands: one round number
            top = max((tt.round for tt in at_boundary), default=t.round)
            t.round = max(t.round, top)
            t.save(update_fields=["round"])
            TournamentTable.objects.filter(pk__in=[tt.pk for tt in at_boundary]).update(
                round=t.round, settled_round=t.round
            )
            if live:
                services._arm(t.pk)
        return [], 0.0
    wait = 0.0
    ready: list[TournamentTable] = []
    pauses = _pauses(at_boundary, now, pause_left)
    for table in at_boundary:
        if t.level_unit == Tournament.LevelUnit.HANDS and breaks.table_break_tick(
            t, table, steps, now
        ):
            table.save(update_fields=["break_until", "breaks_taken"])
            _tell_break(t, table)
        rest = breaks.table_break_left(t, table, now)
        pause = pauses[table.pk]
        if rest > 0 or pause > 0:
            wait = max(rest, pause) if not wait else min(wait, max(rest, pause))
            continue
        ready.append(table)
    if not ready and (at_boundary or _in_play(t).exists()):
        return [], wait  # (with no open table at all, the players waiting open one now)
    return _rebalance_and_deal(t, ready, steps, now, live=live, rng=rng), wait


def _open_tables(t: Tournament) -> int:
    if not t.hand_for_hand_tables:
        return 0  # not needed: only hand-for-hand from a number of tables counts them
    return TournamentTable.objects.filter(tournament=t, status=Open).count()


def _players_left(t: Tournament) -> int:
    if not t.hand_for_hand_bubble:
        return 0  # not needed: only the bubble counts players
    return Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING).count()


PLAN_FIELDS = ("id", "tournament_id", "user_id", "table_id", "seat", "registered_at", "status")
"""What the plan reads of an entry (the users are read for the tables dealt only)."""


def with_sizes(tables: QuerySet[TournamentTable]) -> QuerySet[TournamentTable]:
    """``tables`` with ``size``: their players still in, seated or joining (counted by the
    database, table by table, so nobody's row comes back)."""
    players = (
        Entry.objects.filter(table=OuterRef("pk"), status=Entry.Status.PLAYING)
        .order_by()
        .values("table")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return tables.annotate(size=Coalesce(Subquery(players), Value(0)))


def _not_free_sizes(
    t: Tournament, free: Sequence[int], limit: int
) -> tuple[dict[int, int], dict[int, int]]:
    """The open tables other than ``free``: the ``limit`` shortest as {id: players} (by
    players, then id: ``boundary_plan``'s order), and how many others have each size.

    One statement, each row a table or a size; the database counts each table's players
    (seated and joining) once. Written out because it runs at every boundary under the
    tournament's lock, where the ORM's version (two queries with a correlated count) cost
    more to build in Python than to run."""
    quote = connection.ops.quote_name
    tables, entries = quote(TournamentTable._meta.db_table), quote(Entry._meta.db_table)
    skip = f" AND t.id NOT IN ({', '.join(['%s'] * len(free))})" if free else ""
    sql = (
        f"WITH sizes AS (SELECT t.id AS id, COUNT(e.id) AS size FROM {tables} t "
        f"LEFT JOIN {entries} e ON e.table_id = t.id AND e.status = %s "
        f"WHERE t.tournament_id = %s AND t.status = %s{skip} GROUP BY t.id) "
        "SELECT 0, id, size FROM (SELECT id, size FROM sizes ORDER BY size, id LIMIT %s) n "
        "UNION ALL SELECT 1, COUNT(*), size FROM sizes GROUP BY size"
    )
    params = [Entry.Status.PLAYING.value, t.pk, Open.value, *free, limit]
    nearest: dict[int, int] = {}
    farther: dict[int, int] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for kind, value, size in cursor.fetchall():
            if kind == 0:
                nearest[value] = size
            else:
                farther[size] = value
    for size in nearest.values():
        farther[size] -= 1
    return nearest, farther


def _rebalance_and_deal(
    t: Tournament,
    ready: list[TournamentTable],
    steps: Sequence[schedule.Step],
    now: datetime,
    *,
    live: bool,
    rng: random.Random | None,
) -> list[TournamentTable]:
    from tournaments import services

    by_table: dict[int, TournamentTable] = {tt.pk: tt for tt in ready}
    involved = (  # the free tables' players, and those of no open table (first come first)
        Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING)
        .filter(Q(table__in=list(by_table)) | Q(table__isnull=True) | ~Q(table__status=Open))
        .only(*PLAN_FIELDS)
        .order_by("registered_at", "pk")
    )
    seated_here: list[Entry] = []
    unseated: list[Entry] = []
    for e in involved:
        (seated_here if e.table_id in by_table else unseated).append(e)
    order = services._seating_from_the_dealers_left(
        by_table, [e for e in seated_here if e.seat is not None]
    )
    joining: dict[int, list[int]] = {pk: [] for pk in by_table}
    for e in seated_here:
        if e.seat is None:
            joining[e.table_id].append(e.pk)  # type: ignore[index]
    waiting = [e.pk for e in unseated]
    free = [boundary_plan.TableNow(pk, order[pk], joining[pk], True) for pk in by_table]
    busy, farther = _not_free_sizes(t, list(by_table), boundary_plan.movable(free, waiting))
    minimum, maximum = services.preset_seats(t)
    plan = boundary_plan.plan(
        free, waiting, t.seats_per_table, minimum, maximum, busy=busy, farther=farther
    )
    if plan.broken:
        TournamentTable.objects.filter(pk__in=plan.broken).update(
            status=TournamentTable.Status.BROKEN
        )
    fresh = sorted((k for k in plan.seating if k < 0), reverse=True)
    number = TournamentTable.objects.filter(tournament=t).count() if fresh else 0
    for key in fresh:
        number += 1
        made = services._new_table(t, number, max(2, len(plan.seating[key])), live=live)
        by_table[key] = made
    by_id = {e.pk: e for e in (*seated_here, *unseated)}
    before = {pk: e.table_id for pk, e in by_id.items()}
    for key, members in plan.joining.items():  # tables in play: they sit down at its end
        Entry.objects.filter(pk__in=members).update(table_id=key, seat=None)
        for pk in members:
            by_id[pk].table_id = key
    if plan.waiting:
        Entry.objects.filter(pk__in=plan.waiting).update(table=None, seat=None)
    moved_in: list[Entry] = []
    reseated: list[Entry] = []
    for key, members in plan.seating.items():
        table = by_table[key]
        for seat, pk in enumerate(members):
            e = by_id[pk]
            if e.table_id != table.pk:
                e.table_id = table.pk
                moved_in.append(e)
            if e.seat != seat:
                e.seat = seat
                reseated.append(e)
    services._write_seats(moved_in, reseated)  # one statement
    dealt: list[TournamentTable] = []
    for key, members in plan.seating.items():
        if len(members) < minimum:
            continue  # short: waits for players
        table = by_table[key]
        _deal(t, table, members, steps, now, live=live)
        dealt.append(table)
    top = max((tt.round for tt in dealt), default=0)
    levels = [tt.level for tt in dealt if tt.level]
    if top > t.round or (levels and max(levels) > t.level):
        t.round = max(t.round, top)
        best = max(dealt, key=lambda tt: tt.level)
        if best.level > t.level:
            t.level, t.pcr = best.level, best.pcr
        t.save(update_fields=["round", "level", "pcr"])
    moved = [pk for pk, e in by_id.items() if e.table_id and e.table_id != before[pk]]
    if moved:
        announce.moved_at_boundary(t, moved, live=live)
    return dealt


def level_for(
    t: Tournament, table: TournamentTable, steps: Sequence[schedule.Step], now: datetime
) -> schedule.Step:
    """The level of the table's next hand: its own hands played, or the event's clock."""
    if t.level_unit == Tournament.LevelUnit.HANDS:
        return schedule.level_at(steps, float(table.round))
    return schedule.level_at(steps, breaks.clock_minutes(t, now))


def _deal(
    t: Tournament,
    table: TournamentTable,
    members: list[int],
    steps: Sequence[schedule.Step],
    now: datetime,
    *,
    live: bool,
) -> None:
    """Deal the table's next hand to ``members`` (entry ids, in seat order)."""
    from tournaments import services

    step = level_for(t, table, steps, now)
    table.round += 1
    table.level, table.pcr = step.number, step.pcr
    table.break_until = None
    TournamentTable.objects.filter(pk=table.pk).update(
        round=table.round, level=table.level, pcr=table.pcr, break_until=None
    )
    if live and table.table_id is not None:
        entries = Entry.objects.select_related("user").in_bulk(members)
        seated = [entries[pk] for pk in members]
        managed.managed_game_start(
            table_id=table.table_id,
            players=[e.user for e in seated],
            hands_per_game=1,
            autoplay=covered_users(t, seated),
            dealer=services.DEALER_SEAT,
        )


def covered_users(t: Tournament, seated: list[Entry]) -> frozenset[int]:
    """Bot accounts, and people a bot covered for at their last table who are not online.

    Why not ``services._autoplay_users``: that reads the entry's table, which is the last
    table in lock-step rounds, but here a player may have been moved, or sent to wait when
    their table broke, before this deal. A person's seats at the event's open tables say how
    their last hand went (a table's next game reassigns its seats); with none, the seats at
    its broken tables do."""
    bots = {e.user_id for e in seated if e.user.is_bot}
    people = [e.user_id for e in seated if not e.user.is_bot]
    if not people:
        return frozenset(bots)
    event_tables = TournamentTable.objects.filter(tournament=t, table__isnull=False)
    rows = list(
        Seat.objects.filter(
            user_id__in=people, table_id__in=event_tables.values("table_id")
        ).values_list("user_id", "table_id", "autoplay", "present_until")
    )
    status = dict(
        event_tables.filter(table_id__in={row[1] for row in rows}).values_list("table_id", "status")
    )
    seats: dict[int, dict[bool, list[bool]]] = {}
    online: set[int] = set()
    now = timezone.now()
    for user, table_id, autoplay, present_until in rows:
        if present_until is not None and present_until > now:
            online.add(user)
        seats.setdefault(user, {}).setdefault(status[table_id] == Open, []).append(autoplay)
    covered = set()
    for user, found in seats.items():
        last = found.get(True) or found.get(False) or []
        if user not in online and any(last):
            covered.add(user)
    return frozenset(bots | covered)


def _tell_break(t: Tournament, table: TournamentTable | None) -> None:
    announce.on_break(t, table)


def hands_to_next_level(t: Tournament, table: TournamentTable) -> int | None:
    """Levels by hands: how many hands this table plays at its PCR from now, the one in play
    included (None: levels by minutes, or the last level)."""
    from tournaments import services

    if t.level_unit != Tournament.LevelUnit.HANDS:
        return None
    return schedule.until_next(services.steps(t), float(table.settled_round))
