"""One load generator process: plays its share of the tables, hands back raw samples.

Why processes: one interpreter playing 250 tables needed more than a core at 5-9.5 ms of
processor time per move; it then fell behind (about 210 of 250 moves a second) and its own
queueing was counted in the server's round trips. bench/load/run.py starts several of these
(``--generator-processes``, one per Daphne port by default) and merges what they return.

Protocol, lines on stdin/stdout:
  parent -> job: {"tables": [...], "echo": bool, "seed": int}
  child  -> "ready" (imports done)
  parent -> {"start": monotonic time}: arrivals are timed from it
  child  -> "arrived <monotonic time>" once every table of this process is in (or gave up)
  parent -> {"measure_from": ..., "measure_to": ...}, once every process has arrived
  child  -> the result of ``players.run_load`` (raw samples, processor time), at the end.
The monotonic clock is the machine's (CLOCK_MONOTONIC), the same in every process, so every
process and the parent share one measured window.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys

from bench.load.players import run_load


def main() -> None:
    job = json.loads(sys.stdin.readline())
    # This process keeps every socket's latest frame and makes garbage at every frame: with
    # the collector's defaults its full passes paused all its sockets at once, and the pauses
    # showed up as server round trips (docs/performance.md).
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)
    print("ready", flush=True)
    start = json.loads(sys.stdin.readline())["start"]

    async def window(arrived_at: float) -> tuple[float, float]:
        print(f"arrived {arrived_at}", flush=True)
        clock = json.loads(await asyncio.to_thread(sys.stdin.readline))
        return clock["measure_from"], clock["measure_to"]

    result = asyncio.run(
        run_load(job["tables"], start=start, echo=job["echo"], seed=job["seed"], window=window)
    )
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
