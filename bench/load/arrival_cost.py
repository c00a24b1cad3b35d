"""What a table socket's arrival costs the server: handshake and first frame, no moves.

    .venv/bin/python -m bench.load.arrival_cost --tables 50 --per-s 20 --reps 2

Starts the load benchmark's stack with one web process (bench/load/run.py's ``Stack``),
prepares ``--tables`` 4-seat tables, then opens every seat's socket at ``--per-s`` a second
(JSON sockets, then the page's html sockets, in turn, ``--reps`` times) and waits for each
one's first state frame. Prints per socket: the web process's and PostgreSQL's processor
time, and the handshake's and first frame's median and longest wall time. Daphne drops a
handshake not done within 5 s (docs/performance.md, "The load generator"): this tells how
many arrivals a second a web process can take.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from contextlib import ExitStack
from typing import Any

from bench.load.players import Socket, connect_socket
from bench.load.run import Stack, _spent
from bench.load.stats import Stats


async def arrive(
    stack: Stack, tables: list[dict[str, Any]], html: bool, per_s: float
) -> dict[str, Any]:
    stats = Stats()
    port = stack.ports[0]
    rng = random.Random(1)
    sockets: list[Socket] = []
    readers: list[asyncio.Task[None]] = []
    firsts: list[float] = []
    before = stack.usage()
    began_all = time.monotonic()

    async def one(number: int, table: dict[str, Any], cookie: str) -> None:
        await asyncio.sleep(max(0.0, began_all + number / per_s - time.monotonic()))
        url = f"ws://127.0.0.1:{port}/ws/tables/{table['id']}/" + ("" if html else "?format=json")
        began = time.monotonic()
        ws = await connect_socket(url, cookie, stats, origin=f"http://127.0.0.1:{port}", rng=rng)
        socket = Socket(ws, stats, html=html)
        sockets.append(socket)
        readers.append(asyncio.create_task(socket.read()))
        await socket.wait_version(0, 60)
        firsts.append((time.monotonic() - began) * 1000)

    seats = [(t, cookie) for t in tables for cookie in t["cookies"]]
    await asyncio.gather(*(one(n, t, cookie) for n, (t, cookie) in enumerate(seats)))
    await asyncio.sleep(1.0)  # the last frames' work done
    after = stack.usage()
    for reader in readers:
        reader.cancel()
    for socket in sockets:
        await socket.ws.close()
    count = len(sockets)
    return {
        "kind": "html" if html else "json",
        "sockets": count,
        "per_s": per_s,
        "web_cpu_ms_per_socket": round(
            1000 * _spent(before["cpu"]["daphne"], after["cpu"]["daphne"]) / count, 2
        ),
        "postgres_cpu_ms_per_socket": round(
            1000 * _spent(before["cpu"]["postgres"], after["cpu"]["postgres"]) / count, 2
        ),
        "handshake_p50_ms": round(statistics.median(stats.connect_ms), 1),
        "handshake_max_ms": round(max(stats.connect_ms), 1),
        "first_frame_p50_ms": round(statistics.median(firsts), 1),
        "retries": stats.connect_retries,
        "load_average": round(after["load"], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--per-s", type=float, default=20)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    parser.add_argument("--db-name", default="rummy_bench_arrivals")
    args = parser.parse_args()
    args.daphnes, args.workers, args.target = 1, 1, 100
    with ExitStack() as exits:
        stack = Stack(args, exits)
        tables = stack.prepare(args.tables)
        for _ in range(args.reps):
            for html in (False, True):
                row = asyncio.run(arrive(stack, tables, html, args.per_s))
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
