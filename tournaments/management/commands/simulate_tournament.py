"""``python manage.py simulate_tournament --entrants 1000 --format mtt``: a bot MTT, headless.

Hands are played in this process by the engine with easy bots (no games tables, no per-move
rows); seating, settlement, the chip ledger and rebalancing go through the real tournament
services and the database. A steep PCR schedule ends it in reasonable time. Prints a progress
bar, then wall time, settlement and rebalancing time per hand and per round (median, p95, max),
the floor (an empty transaction with the same row lock), the machine's load average before and
after, and how much the database grew. The deal passes on as in live play (seat 0 deals).

``--duplicate``: a duplicate event (tournaments.duplicate): every table of a size is dealt the
round's seed, the round end compares the deals; the report adds the duplicate scores' spread.

``--independent`` runs the same field twice in one go, hand-for-hand (lock-step rounds) and
with independent tables (``tournaments.independent``), on a virtual clock: each hand lasts as
long as a live bot table takes to play it (its number of moves times the bot's move delay,
``BOT_MOVE_DELAY_SECONDS``, 1.2 s in production; the distribution is printed), and a table's
next hand waits for the between-hands pause (``HAND_PAUSE_SECONDS``, 8 s: bot tables wait it
all). Idle time is a table's wait beyond that pause before its next hand (lock-step: for the
slowest table of the round). Modes are entries of ``MODES``; another flow (duplicate deals)
adds its own runner there.
"""

from __future__ import annotations

import heapq
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games import bots, engine
from tournaments import duplicate, independent, services
from tournaments.models import (
    ChipLedger,
    DuplicateDeal,
    Entry,
    Level,
    Tournament,
    TournamentTable,
)

STEEP = ((1, 1), (2, 2), (3, 5), (4, 10), (5, 25), (6, 50), (7, 100), (8, 250), (9, 1000))
"""(level, PCR): one round each; 1,000 starting chips are gone within a few levels."""


def play_hand(
    rules: engine.Rules, players: int, dealer: int, rng: random.Random, seed: int | None = None
) -> Any:
    """One hand to its end by easy bots, in memory: the engine's hand result.

    ``seed``: the deal (a duplicate round's, the same at every table of the size)."""
    return play_hand_counted(rules, players, dealer, rng, seed)[0]


def play_hand_counted(
    rules: engine.Rules, players: int, dealer: int, rng: random.Random, seed: int | None = None
) -> tuple[Any, int]:
    """One hand by easy bots, and the number of moves it took (its live duration's measure)."""
    state = engine.new_hand(
        rules, players, dealer, seed=rng.getrandbits(64) if seed is None else seed
    )
    moves = 0
    while state.phase is not engine.Phase.HAND_OVER:
        seat = state.to_act[0]
        legal = engine.legal_actions(state, seat)
        action = bots.choose_action("easy", engine.view(state, seat), legal, rng)
        state, _events = engine.apply(state, action)
        moves += 1
    return engine.hand_result(state), moves


PRODUCTION_BOT_DELAY_S = 1.2
"""config/settings.py: BOT_MOVE_DELAY_MS defaults to 1200 outside tests."""
PRODUCTION_PAUSE_S = 8.0
"""config/settings.py: HAND_PAUSE_SECONDS defaults to 8 outside tests."""


@dataclass
class Figures:
    """What one mode's run measured (milliseconds of wall time, seconds of virtual time)."""

    mode: str
    wall: float = 0.0
    hands: int = 0
    settle_ms: list[float] = field(default_factory=list)
    rebalance_ms: list[float] = field(default_factory=list)
    rebalance_statements: list[int] = field(default_factory=list)
    idle_s: list[float] = field(default_factory=list)
    hand_s: list[float] = field(default_factory=list)
    event_s: float = 0.0
    rounds: int = 0


@contextmanager
def counting() -> Iterator[list[int]]:
    """Count the statements sent (BEGIN and COMMIT are not statements Django logs)."""
    count = [0]

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        count[0] += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield count


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Command(BaseCommand):
    help = "Run a headless bot multi-table tourney through the real services and time it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--entrants", type=int, default=1000)
        parser.add_argument("--format", default="mtt", choices=["mtt"])
        parser.add_argument("--seats", type=int, default=4, help="seats per table, 2 to 4")
        parser.add_argument("--chips", type=int, default=1000, help="starting chips")
        parser.add_argument("--preset", default="standard")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--duplicate", action="store_true", help="deal duplicate (the same cards per size)"
        )
        parser.add_argument(
            "--independent",
            action="store_true",
            help="run hand-for-hand and independent tables on a virtual clock, and compare",
        )
        parser.add_argument(
            "--bot-delay", type=float, default=PRODUCTION_BOT_DELAY_S, help="seconds per move"
        )
        parser.add_argument(
            "--pause", type=float, default=PRODUCTION_PAUSE_S, help="between-hands pause, s"
        )

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["entrants"] < 2:
            raise CommandError("A tournament needs at least two entrants.")
        if opts["independent"] and opts["duplicate"]:
            raise CommandError("A duplicate event always plays hand-for-hand: no --independent.")
        if opts["independent"]:
            self.compare(opts)
            return
        rng = random.Random(opts["seed"])
        load_before = os.getloadavg()
        size_before, rows_before = self.db_size(), self.row_count()
        began = time.perf_counter()
        # this loop plays rounds itself (round_finish / round_start): the lock-step flow
        t = self.create(opts, rng, hand_for_hand=True)
        rules = engine.make_rules(t.preset)
        try:
            services.start(tournament_id=t.pk, rng=rng, live=False)
        except services.TournamentError as exc:
            raise CommandError(exc.message) from None
        t.refresh_from_db()  # start dealt round 1: play it, not an empty round 0
        settle_ms: list[float] = []
        settle_queries: list[int] = []
        floor_ms: list[float] = []
        round_queries: list[int] = []
        round_ms: list[float] = []
        hands = 0
        while True:
            tables = list(
                TournamentTable.objects.filter(
                    tournament=t, status=TournamentTable.Status.OPEN, round=t.round
                )
            )
            for table in tables:
                seated = list(
                    Entry.objects.filter(table=table, status=Entry.Status.PLAYING).order_by("seat")
                )
                dealer = services.DEALER_SEAT  # the deal passes on: round_start seats for it
                seed = duplicate.seed_for(t, t.round, len(seated)) if t.duplicate else None
                result = play_hand(rules, len(seated), dealer, rng, seed)
                played = [
                    services.Played(e.pk, i, s.score, s.melded, s.in_hand)
                    for i, (e, s) in enumerate(zip(seated, result.seats, strict=True))
                ]
                clock = time.perf_counter()
                with counting() as queries, transaction.atomic():
                    t = Tournament.objects.select_for_update().get(pk=t.pk)
                    services.hand_settle(tournament=t, table=table, played=played, dealer=dealer)
                settle_ms.append((time.perf_counter() - clock) * 1000)
                settle_queries.append(queries[0])
                clock = time.perf_counter()
                with transaction.atomic():  # the floor: the same lock and commit, no work
                    Tournament.objects.select_for_update().filter(pk=t.pk).exists()
                floor_ms.append((time.perf_counter() - clock) * 1000)
                hands += 1
            clock = time.perf_counter()
            with counting() as queries, transaction.atomic():
                t = Tournament.objects.select_for_update().get(pk=t.pk)
                over = services.round_finish(tournament=t)
                if not over:
                    services.round_start(tournament=t, live=False, rng=rng)
            round_ms.append((time.perf_counter() - clock) * 1000)
            round_queries.append(queries[0])
            left = Entry.objects.filter(
                tournament=t, status__in=(Entry.Status.PLAYING, Entry.Status.WINNER)
            ).count()
            self.progress(opts["entrants"], left, t.round, t.pcr)
            if over:
                break
        wall = time.perf_counter() - began
        sys.stderr.write("\n")
        self.report(t, wall, hands, settle_ms, round_ms, size_before, rows_before)
        self.stdout.write(
            f"floor (an empty transaction taking the same row lock, after each hand): "
            f"median {statistics.median(floor_ms):.2f} ms, p95 {percentile(floor_ms, 0.95):.2f} ms"
        )
        load_after = os.getloadavg()
        self.stdout.write(
            f"load average (1, 5, 15 min): before {self.loads(load_before)}, "
            f"after {self.loads(load_after)}"
        )
        self.stdout.write(
            f"queries: settlement {min(settle_queries)}-{max(settle_queries)} per hand, "
            f"round end + rebalancing {min(round_queries)}-{max(round_queries)} per round "
            f"(each with the tournament's row lock; BEGIN/COMMIT not counted)"
        )

    @staticmethod
    def loads(values: tuple[float, float, float]) -> str:
        return " / ".join(f"{v:.2f}" for v in values)

    # --- the virtual-clock comparison (--independent) ------------------------------------

    def compare(self, opts: dict[str, Any]) -> None:
        load_before = os.getloadavg()
        figures = [run(self, opts, random.Random(opts["seed"])) for run in MODES.values()]
        out = self.stdout.write
        durations = [d for f in figures for d in f.hand_s]
        out(
            f"hand durations (moves x {opts['bot_delay']} s, easy bots, {opts['preset']}, "
            f"{len(durations)} hands): median {statistics.median(durations):.1f} s, "
            f"p5 {percentile(durations, 0.05):.1f} s, p95 {percentile(durations, 0.95):.1f} s, "
            f"max {max(durations):.1f} s; between-hands pause {opts['pause']} s"
        )
        for f in figures:
            hands = max(1, f.hands)
            out(
                f"{f.mode}: wall {f.wall:.1f} s, {f.hands} hands, {f.rounds} rebalancing calls, "
                f"event {f.event_s / 3600:.2f} h of virtual time"
            )
            out(
                f"  settlement per hand: median {statistics.median(f.settle_ms):.2f} ms, "
                f"p95 {percentile(f.settle_ms, 0.95):.2f} ms"
            )
            out(
                f"  rebalancing + dealing per call: median "
                f"{statistics.median(f.rebalance_ms):.2f} ms, "
                f"p95 {percentile(f.rebalance_ms, 0.95):.2f} ms; per hand "
                f"{sum(f.rebalance_ms) / hands:.2f} ms; statements per call median "
                f"{statistics.median(f.rebalance_statements):.0f}, "
                f"{min(f.rebalance_statements)}-{max(f.rebalance_statements)}"
            )
            idle = f.idle_s or [0.0]
            out(
                f"  idle per table per hand (beyond the pause): median "
                f"{statistics.median(idle):.2f} s, mean {statistics.mean(idle):.2f} s, "
                f"p95 {percentile(idle, 0.95):.2f} s, max {max(idle):.2f} s "
                f"({len(f.idle_s)} waits)"
            )
        out(
            f"load average (1, 5, 15 min): before {self.loads(load_before)}, "
            f"after {self.loads(os.getloadavg())}"
        )

    def run_lock_step(self, opts: dict[str, Any], rng: random.Random) -> Figures:
        """Hand-for-hand: every table's hand, then the round's end once the slowest is over."""
        f = Figures("hand-for-hand")
        began = time.perf_counter()
        t = self.create(opts, rng, hand_for_hand=True)
        rules = engine.make_rules(t.preset)
        services.start(tournament_id=t.pk, rng=rng, live=False)
        clock = 0.0
        while True:
            t.refresh_from_db()
            ends = []
            for table in TournamentTable.objects.filter(
                tournament=t, status=TournamentTable.Status.OPEN, round=t.round
            ):
                seated = list(
                    Entry.objects.filter(table=table, status=Entry.Status.PLAYING).order_by("seat")
                )
                result, moves = play_hand_counted(rules, len(seated), services.DEALER_SEAT, rng)
                ends.append(moves * opts["bot_delay"])
                played = [
                    services.Played(e.pk, i, x.score, x.melded, x.in_hand)
                    for i, (e, x) in enumerate(zip(seated, result.seats, strict=True))
                ]
                mark = time.perf_counter()
                with transaction.atomic():
                    t = Tournament.objects.select_for_update().get(pk=t.pk)
                    services.hand_settle(
                        tournament=t, table=table, played=played, dealer=services.DEALER_SEAT
                    )
                f.settle_ms.append((time.perf_counter() - mark) * 1000)
            f.hand_s += ends
            f.hands += len(ends)
            f.idle_s += [max(ends) - d for d in ends]  # waiting for the slowest table
            clock += max(ends) + opts["pause"]
            mark = time.perf_counter()
            with counting() as statements, transaction.atomic():
                t = Tournament.objects.select_for_update().get(pk=t.pk)
                over = services.round_finish(tournament=t)
                if not over:
                    services.round_start(tournament=t, live=False, rng=rng)
            f.rebalance_ms.append((time.perf_counter() - mark) * 1000)
            f.rebalance_statements.append(statements[0])
            f.rounds += 1
            if over:
                break
        f.event_s = clock - opts["pause"]
        f.wall = time.perf_counter() - began
        self.check_chips(t)
        return f

    def run_independent(self, opts: dict[str, Any], rng: random.Random) -> Figures:
        """Independent tables on a virtual clock: events are hands ending and pauses ending."""
        f = Figures("independent tables")
        began = time.perf_counter()
        t = self.create(opts, rng)
        rules = engine.make_rules(t.preset)
        services.start(tournament_id=t.pk, rng=rng, live=False)
        base = timezone.now()
        pause, delay = opts["pause"], opts["bot_delay"]

        def at(seconds: float) -> datetime:
            return base + timedelta(seconds=seconds)

        settled_at: dict[int, float] = {}
        pending: dict[int, tuple[TournamentTable, list[services.Played]]] = {}
        queue: list[tuple[float, int, int]] = []  # (virtual second, order, table or 0: a wake)
        order = [0]
        wakes: set[float] = set()

        def wake(moment: float) -> None:
            """One wake-up per moment, however many tables become free then."""
            if round(moment, 6) not in wakes:
                wakes.add(round(moment, 6))
                order[0] += 1
                heapq.heappush(queue, (moment, order[0], 0))

        def pause_left(table: TournamentTable, now: datetime) -> float:
            if table.pk not in settled_at:
                return 0.0
            elapsed = (now - at(settled_at[table.pk])).total_seconds()
            return max(0.0, round(pause - elapsed, 6))

        def deal(tables: list[TournamentTable], now: float) -> None:
            for table in tables:
                seated = list(
                    Entry.objects.filter(
                        table=table, status=Entry.Status.PLAYING, seat__isnull=False
                    ).order_by("seat")
                )
                result, moves = play_hand_counted(rules, len(seated), services.DEALER_SEAT, rng)
                pending[table.pk] = (
                    table,
                    [
                        services.Played(e.pk, e.seat or 0, x.score, x.melded, x.in_hand)
                        for e, x in zip(seated, result.seats, strict=True)
                    ],
                )
                f.hand_s.append(moves * delay)
                if table.pk in settled_at:
                    f.idle_s.append(max(0.0, now - settled_at[table.pk] - pause))
                order[0] += 1
                heapq.heappush(queue, (now + moves * delay, order[0], table.pk))

        deal(list(TournamentTable.objects.filter(tournament=t, status="open")), 0.0)
        now = 0.0
        while queue:
            now, _order, pk = heapq.heappop(queue)
            if pk:
                table, played = pending.pop(pk)
                mark = time.perf_counter()
                with transaction.atomic():
                    t = Tournament.objects.select_for_update().get(pk=t.pk)
                    independent.settle(t, table, played, services.DEALER_SEAT, at(now))
                    independent.place_the_out(t)
                    over = independent.end_if_over(t, at(now))
                f.settle_ms.append((time.perf_counter() - mark) * 1000)
                f.hands += 1
                settled_at[pk] = now
                if over:
                    break
                if pause > 0:  # nothing is free before its pause ends: wake up then
                    wake(now + pause)
                    continue
            mark = time.perf_counter()
            with counting() as statements, transaction.atomic():
                t = Tournament.objects.select_for_update().get(pk=t.pk)
                dealt, wait = independent.boundaries(
                    t, at(now), live=False, pause_left=pause_left, rng=rng
                )
            f.rebalance_ms.append((time.perf_counter() - mark) * 1000)
            f.rebalance_statements.append(statements[0])
            f.rounds += 1
            deal(dealt, now)
            if wait > 0:
                wake(now + wait)
        t.refresh_from_db()
        if t.status != Tournament.Status.FINISHED:
            raise CommandError("The independent-tables run stopped before the end.")
        f.event_s = now
        f.wall = time.perf_counter() - began
        self.check_chips(t)
        return f

    def check_chips(self, t: Tournament) -> None:
        entries = Entry.objects.filter(tournament=t)
        if sum(entries.values_list("chips", flat=True)) != t.starting_chips * entries.count():
            raise CommandError("Chips were not conserved.")
        if entries.filter(place=1).count() != 1:
            raise CommandError("The event has no single winner.")

    def create(
        self, opts: dict[str, Any], rng: random.Random, *, hand_for_hand: bool = False
    ) -> Tournament:
        # the modes of one comparison share a seed (and maybe a second): tell their bots apart
        run = f"{int(time.time())}{rng.randrange(1000):03d}{'h' if hand_for_hand else ''}"
        password = make_password(None)
        users = User.objects.bulk_create(
            User(
                username=f"sim{run}-{i}",
                display_name=f"Sim {run}-{i}",
                email=f"sim{run}-{i}@example.invalid",
                password=password,
                is_bot=True,
            )
            for i in range(opts["entrants"])
        )
        t = Tournament.objects.create(
            name=f"Simulation {run}",
            format=Tournament.Format.MTT,
            status=Tournament.Status.REGISTRATION,
            preset=opts["preset"],
            seats_per_table=opts["seats"],
            starting_chips=opts["chips"],
            max_entrants=opts["entrants"],
            min_entrants=2,
            duplicate=opts.get("duplicate", False),
            hand_for_hand=hand_for_hand,
        )
        Level.objects.bulk_create(
            Level(tournament=t, number=n, pcr=pcr, duration=1) for n, pcr in STEEP
        )
        for user in User.objects.filter(pk__in=[u.pk for u in users]):
            services.entrant_add(tournament_id=t.pk, user=user)
        return t

    def progress(self, total: int, left: int, rnd: int, pcr: int) -> None:
        done = (total - left) / max(1, total - 1)
        bar = "#" * int(done * 30)
        sys.stderr.write(f"\r[{bar:<30}] round {rnd:>3}  PCR {pcr:>5}  {left:>5} players left")
        sys.stderr.flush()

    def report(
        self,
        t: Tournament,
        wall: float,
        hands: int,
        settle_ms: list[float],
        round_ms: list[float],
        size_before: int | None,
        rows_before: int,
    ) -> None:
        entries = Entry.objects.filter(tournament=t)
        total = sum(entries.values_list("chips", flat=True))
        winner = entries.get(place=1)
        size_after = self.db_size()
        out = self.stdout.write
        out(f"entrants {entries.count()}, rounds {t.round}, hands {hands}, wall {wall:.1f} s")
        out(f"winner {winner.user.display_name} with {winner.chips} chips (total {total})")
        out(
            f"settlement per hand: median {statistics.median(settle_ms):.2f} ms, "
            f"p95 {percentile(settle_ms, 0.95):.2f} ms, max {max(settle_ms):.2f} ms"
        )
        out(
            f"round end + rebalancing per round: median {statistics.median(round_ms):.2f} ms, "
            f"p95 {percentile(round_ms, 0.95):.2f} ms, max {max(round_ms):.2f} ms; "
            f"per hand {sum(round_ms) / hands:.2f} ms"
        )
        rows = self.row_count() - rows_before
        growth = (
            ""
            if size_after is None or size_before is None
            else (f", {(size_after - size_before) / 1e6:.1f} MB")
        )
        if t.duplicate:
            spread = sorted(entries.values_list("duplicate_score", flat=True))
            deals = DuplicateDeal.objects.filter(tournament=t).count()
            out(
                f"duplicate: {deals} table deals compared; scores from {spread[0]:.2f} to "
                f"{spread[-1]:.2f} (sum {sum(spread):.2f}: each deal's add up to 0 before "
                f"rounding to hundredths)"
            )
        ledger = ChipLedger.objects.filter(tournament=t).count()
        out(f"database growth: {rows} tournament rows ({ledger} ledger rows){growth}")
        if total != t.starting_chips * entries.count():
            raise CommandError("Chips were not conserved.")

    def row_count(self) -> int:
        return sum(
            model.objects.count()
            for model in (
                Tournament,
                Level,
                Entry,
                TournamentTable,
                ChipLedger,
                DuplicateDeal,
                User,
            )
        )

    def db_size(self) -> int | None:
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SELECT pg_database_size(current_database())")
                return int(cursor.fetchone()[0])
            if connection.vendor == "sqlite":
                cursor.execute("PRAGMA page_count")
                pages = cursor.fetchone()[0]
                cursor.execute("PRAGMA page_size")
                return int(pages * cursor.fetchone()[0])
        return None


MODES: dict[str, Callable[[Command, dict[str, Any], random.Random], Figures]] = {
    "hand-for-hand": Command.run_lock_step,
    "independent": Command.run_independent,
}
"""The flows ``--independent`` compares, run one after the other on the same seed."""
