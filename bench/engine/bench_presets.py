"""Per-step speed of random legal play, preset by preset, in one process, interleaved.

Why beside ``bench_engine.py``: that benchmark pins the ``standard`` figure the engine is held
to; this one shows what the presets with their own rules cost per step next to it (throw-down
and persian take the exact, slower pile check of ``games/engine/exact_takes.py``).

    .venv/bin/python bench/engine/bench_presets.py --reps 3 --hands 150
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import Phase, apply, legal_actions, make_rules, new_hand

PRESETS = (("standard", 4), ("throw-down", 4), ("persian", 4), ("michigan", 4))


def play(preset: str, seats: int, hands: int, seed: int) -> list[float]:
    """Microseconds per step (legal_actions + apply) over ``hands`` hands of random play."""
    rules = make_rules(preset)
    rng = random.Random(seed)
    timings: list[float] = []
    clock = time.perf_counter_ns
    for index in range(hands):
        state = new_hand(rules, seats, index % seats, seed=rng.getrandbits(64))
        while state.phase is not Phase.HAND_OVER:
            movers = list(state.to_act) + ([-1] if state.phase is Phase.CLAIM else [])
            seat = rng.choice(movers)
            start = clock()
            options = legal_actions(state, seat)
            state, _events = apply(state, rng.choice(options))
            timings.append((clock() - start) / 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=(os.cpu_count() or 1) - 1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    medians: dict[str, list[float]] = {name: [] for name, _ in PRESETS}
    means: dict[str, list[float]] = {name: [] for name, _ in PRESETS}
    for rep in range(args.reps):
        for name, seats in PRESETS:
            steps = play(name, seats, args.hands, args.seed + rep)
            medians[name].append(statistics.median(steps))
            means[name].append(statistics.fmean(steps))
        print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)
    print(
        f"machine: {platform.processor() or platform.machine()}, pinned to cpu {args.cpu}, "
        f"Python {platform.python_version()}"
    )
    print(f"command: python bench/engine/bench_presets.py --reps {args.reps} --hands {args.hands}")
    print(f"{'preset':<12} {'step med µs':>12} {'step mean µs':>13} {'x standard (med)':>17}")
    base = statistics.median(medians["standard"])
    for name, _seats in PRESETS:
        med = statistics.median(medians[name])
        mean = statistics.median(means[name])
        print(f"{name:<12} {med:>12.2f} {mean:>13.2f} {med / base:>17.2f}")


if __name__ == "__main__":
    main()
