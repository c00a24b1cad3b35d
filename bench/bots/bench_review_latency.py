"""Bot-move latency with game reviews running against without, side by side in one run.

Why: issue 22 puts reviews on a queue of their own, served by a separate worker at concurrency
1, so that bot moves never wait behind a review; the review still takes a core while it runs.
This measures what bot moves feel of it: p95 with reviews running must stay within 20% of p95
without.

The stack is the site's: the ``worker`` and ``review`` lines of ``config/Procfile.dev``
(exactly as ``bin/run`` starts them), on a fresh PostgreSQL database and Redis. Bot-only tables
(managed tables, every seat a bot, a new game as soon as one ends) play all the time. Windows
alternate: *without* (the review worker idle) and *with* (the harness keeps one review queued or
running at every moment: one-hand games with a person's seat, reviewed at the default budget).
A bot move's latency is the time from the previous move's write to its own (the task armed
after the commit, the broker, the worker, the bot's choice, the write), from the ``Move`` rows.

Run (from the repository root)::

    .venv/bin/python bench/bots/bench_review_latency.py --rounds 3 --seconds 90
    .venv/bin/python bench/bots/bench_review_latency.py --json result.json

Needs a PostgreSQL server (``--pg``, default postgres://postgres@127.0.0.1:5432) and a Redis
(``--redis``, default redis://127.0.0.1:6379/7, emptied first).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PY = sys.executable
CLK = os.sysconf("SC_CLK_TCK")
BOT_LEVELS = ("easy", "medium", "hard")


def fresh_database(server_url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(f"{server_url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url}/{name}"


def cpu_seconds(pid: int) -> float:
    """Processor time of a process and its (prefork) children."""
    total = 0.0
    for task in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{task}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLK
    return total


def children(pid: int) -> list[int]:
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except FileNotFoundError:
        return []
    return [int(child) for child in found]


def procfile_commands() -> dict[str, list[str]]:
    """The Procfile.dev lines bin/run supervises, with ``python`` as this interpreter."""
    sys.path.insert(0, str(ROOT / "bin"))
    import supervision

    commands = {}
    for program in supervision.read_procfile({}):
        argv = shlex.split(program.command)
        commands[program.name] = [PY if arg == "python" else arg for arg in argv]
    return commands


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def finished_review_games(count: int, seed: int) -> list[int]:
    """``count`` finished one-hand 4-seat games, seat 0 a person, stored as the site stores
    them (played here by medium bots): the review worker's work."""
    from django.utils import timezone

    from accounts.models import User
    from games import engine
    from games.bots import choose_action
    from games.models import Game, Hand, Table

    host, _ = User.objects.get_or_create(
        username="reviewed", defaults={"display_name": "reviewed", "email": "r@example.com"}
    )
    rules = engine.make_rules("standard")
    ids = []
    for index in range(count):
        table = Table.objects.create(
            name=f"Reviewed {index}",
            host=host,
            preset="standard",
            rules=rules.to_json(),
            num_seats=4,
            status=Table.Status.FINISHED,
        )
        players = [{"user": host.pk, "name": "reviewed", "bot": ""}] + [
            {"user": None, "name": "Medium bot", "bot": "medium"} for _ in range(3)
        ]
        game = Game.objects.create(
            table=table,
            number=1,
            rules=rules.to_json(),
            players=players,
            first_dealer=0,
            totals=[0, 0, 0, 0],
            status=Game.Status.FINISHED,
            finished_at=timezone.now(),
        )
        rngs = [random.Random(f"{seed}/{index}/{seat}") for seat in range(4)]
        state = engine.new_hand(rules, 4, index % 4, seed=seed * 1000 + index)
        while state.phase is not engine.Phase.HAND_OVER:
            seat = state.to_act[0]
            legal = engine.legal_actions(state, seat)
            action = choose_action("medium", engine.view(state, seat), legal, rngs[seat])
            state, _events = engine.apply(state, action)
        Hand.objects.create(
            game=game,
            number=1,
            dealer=state.dealer,
            status=Hand.Status.OVER,
            state=engine.state_to_json(state),
        )
        ids.append(game.pk)
    return ids


def bot_tables(count: int, target: int) -> list[int]:
    """Managed tables whose every seat is a bot (levels in turn), each game started."""
    from games.services import managed

    ids = []
    for index in range(count):
        table = managed.managed_table_create(
            name=f"Bots {index}",
            preset="standard",
            options={"target": target},
            num_seats=4,
            turn_seconds=60,
            bot_level=BOT_LEVELS[index % len(BOT_LEVELS)],
            rated=False,
        )
        managed.managed_game_start(table_id=table.pk, players=[None] * 4)
        ids.append(table.pk)
    return ids


def restart_finished(table_ids: list[int]) -> None:
    """Act as the tables' manager: deal the next hand once one is over (managed tables wait
    for theirs) and start a new game once one is finished."""
    from django.db.models import OuterRef, Subquery

    from games.models import Hand, Table
    from games.services import managed, tables

    latest = Hand.objects.filter(game__table_id=OuterRef("pk")).order_by("-game_id", "-number")
    rows = Table.objects.filter(pk__in=table_ids).annotate(
        hand_status=Subquery(latest.values("status")[:1])
    )
    for table_id, status, hand_status in rows.values_list("pk", "status", "hand_status"):
        if status == Table.Status.FINISHED:
            managed.managed_game_start(table_id=table_id, players=[None] * 4)
        elif status == Table.Status.PLAYING and hand_status == Hand.Status.OVER:
            tables.hand_next(table_id=table_id)


def latencies(table_ids: list[int], begin: float, end: float) -> list[float]:
    """Seconds from the previous move's write to each bot move written in [begin, end)."""
    from datetime import UTC, datetime

    from games.models import Move

    rows = (
        Move.objects.filter(hand__game__table_id__in=table_ids)
        .filter(created_at__gte=datetime.fromtimestamp(begin - 120, UTC))
        .filter(created_at__lt=datetime.fromtimestamp(end, UTC))
        .order_by("hand_id", "seq")
        .values_list("hand_id", "seq", "actor", "created_at")
    )
    found = []
    previous: tuple[int, int, Any] | None = None
    for hand_id, seq, actor, created in rows:
        if (
            previous is not None
            and previous[0] == hand_id
            and previous[1] == seq - 1
            and actor == Move.Actor.BOT
            and created.timestamp() >= begin
        ):
            found.append((created - previous[2]).total_seconds())
        previous = (hand_id, seq, created)
    return found


def reviews_busy() -> bool:
    from games.models import GameReview

    return GameReview.objects.filter(
        status__in=[GameReview.Status.PENDING, GameReview.Status.RUNNING]
    ).exists()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--db-name", default="rummy_review22_latency")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--target", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=90)
    parser.add_argument("--warmup", type=float, default=20)
    parser.add_argument("--review-games", type=int, default=60)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    # A SIGTERM ends the run through ``finally``, which stops the workers it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    env = {
        **os.environ,
        "DATABASE_URL": fresh_database(args.pg, args.db_name),
        "REDIS_URL": args.redis,
        "DJANGO_SETTINGS_MODULE": "bench.load.settings",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        "RUMMY_PRIVATE_REDIS": "off",
    }
    os.environ.update(env)
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    subprocess.run([PY, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    from games import tasks

    commands = procfile_commands()
    review_games = finished_review_games(args.review_games, seed=22)
    logs = Path(tempfile.mkdtemp(prefix="review-latency-"))
    procs: dict[str, subprocess.Popen[bytes]] = {}
    for name in ("worker", "review"):
        out = open(logs / f"{name}.log", "wb")  # noqa: SIM115
        procs[name] = subprocess.Popen(commands[name], cwd=ROOT, env=env, stdout=out, stderr=out)
    print(
        f"{args.tables} bot tables (4 seats, levels {', '.join(BOT_LEVELS)} in turn, target "
        f"{args.target}); worker: {shlex.join(commands['worker'])}; review: "
        f"{shlex.join(commands['review'])}; {args.rounds} rounds of {args.seconds:.0f} s "
        f"without then with; Python {platform.python_version()}; logs in {logs}",
        flush=True,
    )
    windows: list[dict[str, Any]] = []
    try:
        time.sleep(5)
        tables = bot_tables(args.tables, args.target)
        pending = list(review_games)

        def run_window(kind: str) -> None:
            cpu_before = {name: cpu_seconds(proc.pid) for name, proc in procs.items()}
            begin = time.time()
            reviewed = 0
            while time.time() - begin < args.seconds:
                restart_finished(tables)
                if kind == "with" and pending and not reviews_busy():
                    game_id = pending.pop(0)
                    from games import game_reviews
                    from games.models import Game

                    game_reviews.request_review(Game.objects.get(pk=game_id))
                    tasks.review_game.apply_async((game_id,), queue="review")
                    reviewed += 1
                time.sleep(0.2)
            end = time.time()
            cpu = {name: cpu_seconds(proc.pid) - cpu_before[name] for name, proc in procs.items()}
            if kind == "with":  # the review under way finishes outside every window
                while reviews_busy():
                    restart_finished(tables)
                    time.sleep(0.2)
            found = latencies(tables, begin, end)
            window = {
                "kind": kind,
                "seconds": round(end - begin, 1),
                "bot_moves": len(found),
                "p50_ms": round(1000 * percentile(found, 0.5), 1),
                "p95_ms": round(1000 * percentile(found, 0.95), 1),
                "reviews_started": reviewed,
                "cpu_s": {name: round(value, 1) for name, value in cpu.items()},
                "load1": round(os.getloadavg()[0], 2),
                "latencies": found,
            }
            windows.append(window)
            print(
                f"{kind:<7} {window['bot_moves']:>5} bot moves  p50 {window['p50_ms']:>7.1f} ms"
                f"  p95 {window['p95_ms']:>7.1f} ms  reviews {reviewed:>2}  CPU worker "
                f"{cpu['worker']:.1f} s review {cpu['review']:.1f} s  load {window['load1']}",
                flush=True,
            )

        warm = time.time()
        while time.time() - warm < args.warmup:
            restart_finished(tables)
            time.sleep(0.2)
        for _round in range(args.rounds):
            run_window("without")
            run_window("with")
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
    summary = {}
    for kind in ("without", "with"):
        values = [v for w in windows if w["kind"] == kind for v in w["latencies"]]
        summary[kind] = {
            "bot_moves": len(values),
            "p50_ms": round(1000 * percentile(values, 0.5), 1),
            "p95_ms": round(1000 * percentile(values, 0.95), 1),
            "review_cpu_s": round(
                sum(w["cpu_s"]["review"] for w in windows if w["kind"] == kind), 1
            ),
        }
    ratio = summary["with"]["p95_ms"] / summary["without"]["p95_ms"]
    print(
        f"all windows: without p95 {summary['without']['p95_ms']} ms "
        f"({summary['without']['bot_moves']} moves), with p95 {summary['with']['p95_ms']} ms "
        f"({summary['with']['bot_moves']} moves): with/without {ratio:.2f}"
    )
    if args.json:
        for window in windows:
            window.pop("latencies")
        args.json.write_text(
            json.dumps({"windows": windows, "summary": summary, "p95_ratio": ratio}, indent=1)
        )


if __name__ == "__main__":
    main()
