"""The pure halves of a tournament round at 1,000 entrants: PCR settlement and rebalancing.

``python bench/tournaments/bench_pure.py [--entrants 1000] [--reps 200]``

Times ``settlement.settle`` on random 4-player hands and ``balancing.rebalance`` on a field of
``--entrants`` players at 4-seat tables after a round of random eliminations, and prints
medians and p95 in microseconds. The database half is measured by
``python manage.py simulate_tournament`` (docs/performance-tournaments.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.balancing import rebalance, seat
from tournaments.settlement import SeatHand, settle


def timed(fn, reps: int) -> list[float]:
    times = []
    for _ in range(reps):
        began = time.perf_counter()
        fn()
        times.append((time.perf_counter() - began) * 1e6)
    return times


def summary(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"{name}: median {statistics.median(times):.1f} µs, p95 {p95:.1f} µs ({len(times)} runs)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    def one_settlement() -> None:
        hands = []
        for s in range(4):
            melded, in_hand = rng.randint(0, 150), rng.randint(0, 80)
            hands.append(SeatHand(s, melded - in_hand, melded, in_hand, rng.randint(0, 5000)))
        settle(hands, pcr=rng.choice((1, 2, 5, 10)), dealer=rng.randrange(4))

    tables = {i + 1: t for i, t in enumerate(seat(list(range(args.entrants)), 4))}

    fields = [
        {k: [p for p in v if rng.random() > 0.2] for k, v in tables.items()}
        for _ in range(args.reps)
    ]
    fields_iter = iter(fields)

    def one_rebalance() -> None:
        rebalance(next(fields_iter), 4)

    print(summary("settle one 4-player hand", timed(one_settlement, args.reps * 10)))
    print(summary(f"rebalance {args.entrants} entrants", timed(one_rebalance, args.reps)))


if __name__ == "__main__":
    main()
