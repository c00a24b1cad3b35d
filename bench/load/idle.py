"""Idle sockets: how much memory a Daphne process needs to hold many quiet table sockets.

    .venv/bin/python -m bench.load.idle --sockets 2000

Starts the same stack as ``bench.load.run`` (private Redis, fresh PostgreSQL database, one
Daphne, one Celery worker), seats ``sockets / 4`` started tables of scripted players,
connects every seat, waits until each socket has its first view, holds them open, and reports
Daphne's resident memory before and after, per connection, and whether a move still makes its
round trip with every socket connected.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import time
from contextlib import ExitStack
from typing import Any

from bench.load.players import Socket, Stats, _connect_seats, _one_move
from bench.load.run import Stack, rss_mb


async def _hold(stack: Stack, tables: list[dict[str, Any]], hold_s: float) -> dict[str, Any]:
    stats = Stats()
    port = stack.ports[0]
    origin = f"http://127.0.0.1:{port}"
    before = rss_mb(stack.servers[0].pid)
    started = time.monotonic()
    seats: list[list[Socket]] = []
    # Connect in batches, as players arrive, rather than 2,000 handshakes at one instant.
    for i in range(0, len(tables), 25):
        batch = tables[i : i + 25]
        seats += await asyncio.gather(
            *(
                _connect_seats(
                    f"ws://127.0.0.1:{port}/ws/tables/{t['id']}/?format=json",
                    t,
                    stats,
                    origin=origin,
                )
                for t in batch
            )
        )
    readers = [asyncio.create_task(s.read()) for group in seats for s in group]
    await asyncio.gather(*(s.wait_version(0, 120) for group in seats for s in group))
    connected_s = time.monotonic() - started
    await asyncio.sleep(hold_s)
    after = rss_mb(stack.servers[0].pid)
    if os.environ.get("BENCH_TRACEMALLOC"):
        os.kill(stack.servers[0].pid, signal.SIGUSR1)
        await asyncio.sleep(20)
    # With every socket still open, a few tables play one move each.
    rng = random.Random(1)
    sample = rng.sample(seats, min(20, len(seats)))
    await asyncio.gather(*(_one_move(group, stats, rng) for group in sample))
    sockets = sum(len(group) for group in seats)
    for r in readers:  # stop reading first: our own closing is not a dropped connection
        r.cancel()
    for group in seats:
        for s in group:
            await s.ws.close()
    return {
        "sockets": sockets,
        "connect_all_s": round(connected_s, 1),
        "daphne_rss_before_mb": round(before, 1),
        "daphne_rss_after_mb": round(after, 1),
        "kb_per_socket": round(1024 * (after - before) / max(sockets, 1), 1),
        "sample_moves": stats.moves,
        "sample_p50_ms": stats.summary(1)["p50_ms"],
        "errors": sum(stats.errors.values()) + stats.timeouts,
        "error_codes": stats.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--hold", type=float, default=10)
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    args = parser.parse_args()
    args.daphnes, args.workers = 1, 1
    with ExitStack() as exits:
        stack = Stack(args, exits)
        tables = stack.prepare(args.sockets // 4)
        row = asyncio.run(_hold(stack, tables, args.hold))
    print(json.dumps(row))


if __name__ == "__main__":
    main()
