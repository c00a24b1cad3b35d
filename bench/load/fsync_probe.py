"""Probe the disk under the database: how long does a small synced write take, right now?

A commit waits for its WAL to reach the disk. When every table's moves stall at the same
instant, this tells a slow disk apart from our code: run it beside a load run, pointed at a
file on PostgreSQL's disk, and compare its stalls with the moves' slowest round trips.

    .venv/bin/python -m bench.load.fsync_probe /var/lib/postgresql/probe 85
"""

from __future__ import annotations

import argparse
import os
import time


def probe(path: str, seconds: float, every_s: float = 0.02, report_ms: float = 20.0) -> list[float]:
    """Write 8 KB and fdatasync every ``every_s``; print each write slower than ``report_ms``."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    latencies: list[float] = []
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            start = time.perf_counter()
            os.write(fd, b"x" * 8192)
            os.fdatasync(fd)
            took = (time.perf_counter() - start) * 1000
            latencies.append(took)
            if took > report_ms:
                now = time.time()
                millis = int(now * 1000) % 1000
                stamp = time.strftime("%H:%M:%S", time.gmtime(now))
                print(f"{stamp}.{millis:03d} UTC fsync {took:.0f} ms", flush=True)
            time.sleep(every_s)
    finally:
        os.close(fd)
        os.unlink(path)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("path", help="a scratch file on the disk to probe (deleted afterwards)")
    parser.add_argument("seconds", type=float)
    args = parser.parse_args()
    latencies = sorted(probe(args.path, args.seconds))
    n = len(latencies)
    print(
        f"writes {n} p50 {latencies[n // 2]:.2f} ms p99 {latencies[int(n * 0.99)]:.2f} ms "
        f"max {latencies[-1]:.1f} ms over 100 ms {sum(1 for x in latencies if x > 100)}"
    )


if __name__ == "__main__":
    main()
