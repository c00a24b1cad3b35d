"""How long each bot level takes to choose a move, on the same positions, on one core.

Why: issue 5 asks for the hard bot's decision time at its live budget (p95 at most 1 s on one
core) and for easy and medium under 10 ms. Positions come from bot games (a mix of levels, so
hands see pile digging, held melds and long piles); every level is timed on every position,
interleaved position by position so that a noisy machine slows all levels alike. Figures go to
docs/bots.md.

Run (from the repository root)::

    .venv/bin/python bench/bots/bench_decisions.py                       # standard, 2 players
    .venv/bin/python bench/bots/bench_decisions.py --preset jokers --seats 3
    .venv/bin/python bench/bots/bench_decisions.py --json out.json

Only decisions with more than one legal action are timed (with one, every level returns it at
once). Wall time is what a player waits; processor time (``time.process_time``) is shown too,
because on a shared machine other processes' load inflates wall time. The bots' cache of hand
splits is emptied before every timed call, so no level profits from the work of the one timed
before it on the same position. The hard bot runs at its live budget (``hard.DEFAULT_PLAYOUTS``)
without a clock cap, so the figure is the budget's own cost; ``--cap`` times it with the live
1 s cap as well.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from games import engine  # noqa: E402
from games.bots import LEVELS, choose_action  # noqa: E402
from games.bots import hard as hard_bot  # noqa: E402
from games.bots.partition import clear_cache  # noqa: E402


def pin_to_one_core() -> int | None:
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = sorted(os.sched_getaffinity(0))[-1]
    os.sched_setaffinity(0, {cpu})
    return cpu


def collect_positions(
    preset: str, seats: int, count: int, seed: int
) -> list[tuple[dict, list[engine.Action]]]:
    """Views and legal lists of positions met in games between mixed bot levels."""
    rules = engine.make_rules(preset)
    rng = random.Random(seed)
    players = ["medium", "easy", "medium", "easy"][:seats]
    positions: list[tuple[dict, list[engine.Action]]] = []
    hand_number = 0
    while len(positions) < count:
        state = engine.new_hand(rules, seats, hand_number % seats, seed=seed * 1000 + hand_number)
        hand_number += 1
        while state.phase is not engine.Phase.HAND_OVER:
            seat = state.to_act[0]
            legal = engine.legal_actions(state, seat)
            seen = engine.view(state, seat)
            if len(legal) > 1:
                positions.append((seen, legal))
            level = players[(seat + hand_number) % seats]
            state, _ = engine.apply(state, choose_action(level, seen, legal, rng))
    rng.shuffle(positions)
    return positions[:count]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--playouts", type=int, default=hard_bot.DEFAULT_PLAYOUTS)
    parser.add_argument("--cap", action="store_true", help="also time hard with the 1 s cap")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    cpu = pin_to_one_core()
    positions = collect_positions(args.preset, args.seats, args.positions, args.seed)
    runs: dict[str, list[float]] = {level: [] for level in LEVELS}
    if args.cap:
        runs["hard (1 s cap)"] = []
    cpu_runs: dict[str, list[float]] = {name: [] for name in runs}
    for index, (seen, legal) in enumerate(positions):
        for name in runs:
            clear_cache()
            rng = random.Random(index)
            cpu_began = time.process_time()
            began = time.perf_counter()
            if name == "hard":
                hard_bot.choose_with_budget(seen, legal, rng, playouts=args.playouts)
            elif name.startswith("hard"):
                choose_action("hard", seen, legal, rng, time_limit_s=1.0)
            else:
                choose_action(name, seen, legal, rng)
            runs[name].append(time.perf_counter() - began)
            cpu_runs[name].append(time.process_time() - cpu_began)
    print(
        f"{len(positions)} positions of {args.preset}, {args.seats} players, seed {args.seed}; "
        f"hard budget {args.playouts} playouts; pinned to cpu {cpu}; Python "
        f"{platform.python_version()}"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.2f} (wall times suffer from load)")
    print(
        f"{'level':<16} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}"
        f" {'cpu median':>11} {'cpu p95':>10} {'cpu max':>10}"
    )
    figures = {}
    for name, times in runs.items():
        ms = [1000 * value for value in times]
        cpu = [1000 * value for value in cpu_runs[name]]
        item = figures[name] = {
            "median_ms": statistics.median(ms),
            "p95_ms": percentile(ms, 0.95),
            "max_ms": max(ms),
            "cpu_median_ms": statistics.median(cpu),
            "cpu_p95_ms": percentile(cpu, 0.95),
            "cpu_max_ms": max(cpu),
        }
        wall = f"{item['median_ms']:>10.2f} {item['p95_ms']:>10.2f} {item['max_ms']:>10.2f}"
        processor = (
            f"{item['cpu_median_ms']:>11.2f} {item['cpu_p95_ms']:>10.2f} "
            f"{item['cpu_max_ms']:>10.2f}"
        )
        print(f"{name:<16} {wall} {processor}")
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)}, **figures}))


if __name__ == "__main__":
    main()
