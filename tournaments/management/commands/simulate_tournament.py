"""``python manage.py simulate_tournament --entrants 1000 --format mtt``: a bot MTT, headless.

Hands are played in this process by the engine with easy bots (no games tables, no per-move
rows); seating, settlement, the chip ledger and rebalancing go through the real tournament
services and the database. A steep PCR schedule ends it in reasonable time. Prints a progress
bar, then wall time, settlement and rebalancing time per hand and per round (median, p95, max),
the floor (an empty transaction with the same row lock), the machine's load average before and
after, and how much the database grew. The deal passes on as in live play (seat 0 deals).

``--duplicate``: a duplicate event (tournaments.duplicate): every table of a size is dealt the
round's seed, the round end compares the deals; the report adds the duplicate scores' spread.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from accounts.models import User
from games import bots, engine
from tournaments import duplicate, services
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
    state = engine.new_hand(
        rules, players, dealer, seed=rng.getrandbits(64) if seed is None else seed
    )
    while state.phase is not engine.Phase.HAND_OVER:
        seat = state.to_act[0]
        legal = engine.legal_actions(state, seat)
        action = bots.choose_action("easy", engine.view(state, seat), legal, rng)
        state, _events = engine.apply(state, action)
    return engine.hand_result(state)


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

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["entrants"] < 2:
            raise CommandError("A tournament needs at least two entrants.")
        rng = random.Random(opts["seed"])
        load_before = os.getloadavg()
        size_before, rows_before = self.db_size(), self.row_count()
        began = time.perf_counter()
        t = self.create(opts, rng)
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

    def create(self, opts: dict[str, Any], rng: random.Random) -> Tournament:
        run = f"{int(time.time())}{rng.randrange(1000):03d}"
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
            duplicate=opts["duplicate"],
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
