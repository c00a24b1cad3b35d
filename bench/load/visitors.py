"""Anonymous visitors reading public pages, in a process of their own.

Why a process of its own: the players' sockets and these requests used to share the load
generator's interpreter. Each page read (a urllib request in a thread, its parsing, its
70 KB body) then held the generator's GIL while a thousand sockets waited to have their
frames read, and that wait was counted as the server's move round trip. Real visitors are
other machines; here they are at least another process on the same cores.

    python -m bench.load.visitors --ports 8001,8002 --paths /,/leaderboards/ --per-s 5 \
        --seconds 40 --warmup 10

prints one JSON object: the latency (ms) of every page read started after the warm-up,
and the count of failed reads. Requests go to the ports in turn, as a balancer would send
them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return 599


def visit(
    ports: list[int],
    paths: list[str],
    per_s: float,
    seconds: float,
    warmup: float,
    start_at: float | None = None,
) -> dict[str, object]:
    """Read ``paths`` in turn at ``per_s`` for ``warmup + seconds`` from ``start_at`` (the
    monotonic clock, shared with the load generators; now if not given); time those read
    after the warm-up."""
    times: list[float] = []
    errors = 0
    lock = threading.Lock()
    started = time.monotonic() if start_at is None else start_at
    measure_from = started + warmup
    end = measure_from + seconds

    def one(url: str) -> None:
        nonlocal errors
        begun = time.monotonic()
        status = _get(url)
        took = (time.monotonic() - begun) * 1000
        if begun < measure_from:
            return
        with lock:
            if status >= 400:
                errors += 1
            else:
                times.append(round(took, 2))

    targets = itertools.cycle(f"http://127.0.0.1:{port}{path}" for path in paths for port in ports)
    with ThreadPoolExecutor(max_workers=16) as pool:
        for n in itertools.count():
            due = started + n / per_s
            if due >= end:
                break
            time.sleep(max(0.0, due - time.monotonic()))
            pool.submit(one, next(targets))
    return {"times": times, "errors": errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ports", required=True)
    parser.add_argument("--paths", default="/,/leaderboards/")
    parser.add_argument("--per-s", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--start-at", type=float, default=None, help="monotonic clock time")
    args = parser.parse_args()
    result = visit(
        [int(p) for p in args.ports.split(",") if p],
        [p for p in args.paths.split(",") if p],
        args.per_s,
        args.seconds,
        args.warmup,
        args.start_at,
    )
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
