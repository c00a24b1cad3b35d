"""Random legal play of Rummy 500 hands, timed beside RLCard's gin-rummy environment.

Why this exists: issue 3 sets a speed target for the rules engine (``legal_actions`` + ``apply``
under 40 µs median per step, 4x faster than RLCard). Speed claims in this project come only from a
benchmark that runs both sides in one process, on one pinned core, in interleaved repetitions, so
that a noisy machine hurts both sides alike. Figures go to docs/performance.md.

Run (from the repository root)::

    .venv/bin/python bench/engine/bench_engine.py                 # both sides, 5 repetitions
    .venv/bin/python bench/engine/bench_engine.py --profile       # where the engine's time goes
    .venv/bin/python bench/engine/bench_engine.py --json out.json # machine-readable figures

What counts as a step: one decision of one seat. For the engine a step is ``legal_actions(state,
seat)`` followed by ``apply(state, action)``; the random choice between them is not timed. For
RLCard a step is ``env.step(action)``, which applies the action and computes the next player's
state with its legal actions (RLCard does both in one call); the random agent's choice is not
timed either. Hands per second time everything: the deal, the choices and the scoring.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

MAX_STEPS_PER_HAND = 100_000
"""A random hand that has not ended after this many steps means the engine loops: fail loudly."""


@dataclass
class Sample:
    """Timings of one side in one repetition (nanoseconds per call, seconds for the block)."""

    hands: int = 0
    steps: int = 0
    wall_s: float = 0.0
    legal_ns: list[int] = field(default_factory=list)
    apply_ns: list[int] = field(default_factory=list)
    step_ns: list[int] = field(default_factory=list)
    step_ns_by_phase: dict[str, list[int]] = field(default_factory=dict)
    """Engine only: step times split by the phase the step was taken in (draw, play, claim)."""

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.wall_s if self.wall_s else 0.0

    @property
    def steps_per_hand(self) -> float:
        return self.steps / self.hands if self.hands else 0.0


def pin_to_one_core(cpu: int | None) -> int | None:
    """Pin this process to one CPU so the figures are single-core figures, as the issue asks."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    available = sorted(os.sched_getaffinity(0))
    chosen = available[-1] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return chosen


def percentile(values: list[int], fraction: float) -> float:
    """Nearest-rank percentile; enough for p95 of tens of thousands of samples."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return float(ordered[index])


# --------------------------------------------------------------------------------------------
# Our engine
# --------------------------------------------------------------------------------------------


def engine_available() -> str | None:
    """None when games.engine imports, else why not (the harness still runs RLCard)."""
    try:
        import games.engine  # noqa: F401
    except Exception as error:  # the engine may be mid-development in the shared checkout
        return f"{type(error).__name__}: {error}"
    return None


def play_engine_hands(
    hands: int, seed: int, *, players: int = 4, preset: str = "standard"
) -> Sample:
    """Play ``hands`` complete hands with uniformly random legal actions; time each call."""
    from games.engine import HandState, Phase, apply, legal_actions, make_rules, new_hand

    rules = make_rules(preset)
    chooser = random.Random(seed)
    sample = Sample()
    by_phase = sample.step_ns_by_phase
    clock = time.perf_counter_ns
    started = time.perf_counter()
    for hand_number in range(hands):
        state: HandState = new_hand(
            rules, players, dealer=hand_number % players, seed=chooser.getrandbits(64)
        )
        steps = 0
        while (phase := state.phase) is not Phase.HAND_OVER:
            seat = state.to_act[0]
            t0 = clock()
            options = legal_actions(state, seat)
            t1 = clock()
            action = options[chooser.randrange(len(options))]
            t2 = clock()
            state, _events = apply(state, action)
            t3 = clock()
            sample.legal_ns.append(t1 - t0)
            sample.apply_ns.append(t3 - t2)
            step = (t1 - t0) + (t3 - t2)
            sample.step_ns.append(step)
            by_phase.setdefault(phase.value, []).append(step)
            steps += 1
            if steps > MAX_STEPS_PER_HAND:
                raise RuntimeError(f"hand {hand_number} did not end after {steps} steps")
        sample.steps += steps
        sample.hands += 1
    sample.wall_s = time.perf_counter() - started
    return sample


# --------------------------------------------------------------------------------------------
# RLCard's gin rummy
# --------------------------------------------------------------------------------------------


def rlcard_available() -> str | None:
    try:
        import rlcard  # noqa: F401
    except Exception as error:
        return f"{type(error).__name__}: {error} (install the bench extra: pip install -e .[bench])"
    return None


def make_rlcard_env(seed: int) -> Any:
    import numpy as np
    import rlcard

    np.random.seed(seed)  # RLCard's RandomAgent draws from numpy's global generator
    return rlcard.make("gin-rummy", config={"seed": seed})


def play_rlcard_hands(hands: int, seed: int, env: Any | None = None) -> Sample:
    """Same loop shape as the engine's: reset, then step until over, choices untimed."""
    import numpy as np

    env = env or make_rlcard_env(seed)
    rng = np.random.default_rng(seed)
    sample = Sample()
    clock = time.perf_counter_ns
    started = time.perf_counter()
    for hand_number in range(hands):
        state, _player = env.reset()
        steps = 0
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            action = legal[int(rng.integers(len(legal)))]
            t0 = clock()
            state, _player = env.step(action)
            t1 = clock()
            sample.step_ns.append(t1 - t0)
            steps += 1
            if steps > MAX_STEPS_PER_HAND:
                raise RuntimeError(f"RLCard hand {hand_number} did not end after {steps} steps")
        env.get_payoffs()
        sample.steps += steps
        sample.hands += 1
    sample.wall_s = time.perf_counter() - started
    return sample


# --------------------------------------------------------------------------------------------
# Repetitions, summary, profile
# --------------------------------------------------------------------------------------------


def summarise(samples: list[Sample]) -> dict[str, Any]:
    """Medians over repetitions of each repetition's median (and p95) per call, in microseconds."""

    def per_rep(values_of: Callable[[Sample], list[int]], fraction: float) -> float | None:
        figures = [percentile(values_of(s), fraction) / 1000 for s in samples if values_of(s)]
        return round(statistics.median(figures), 2) if figures else None

    phases = sorted({phase for s in samples for phase in s.step_ns_by_phase})
    by_phase = {
        phase: {
            "share_of_steps": round(
                sum(len(s.step_ns_by_phase.get(phase, [])) for s in samples)
                / max(1, sum(s.steps for s in samples)),
                3,
            ),
            "step_median_us": per_rep(lambda s, p=phase: s.step_ns_by_phase.get(p, []), 0.5),
        }
        for phase in phases
    }
    total_steps = sum(s.steps for s in samples)
    total_ns = sum(sum(s.step_ns) for s in samples)
    return {
        "repetitions": len(samples),
        "hands_per_rep": samples[0].hands if samples else 0,
        "hands_per_s": round(statistics.median(s.hands_per_s for s in samples), 1),
        "steps_per_hand": round(statistics.median(s.steps_per_hand for s in samples), 1),
        "legal_median_us": per_rep(lambda s: s.legal_ns, 0.5),
        "legal_p95_us": per_rep(lambda s: s.legal_ns, 0.95),
        "apply_median_us": per_rep(lambda s: s.apply_ns, 0.5),
        "apply_p95_us": per_rep(lambda s: s.apply_ns, 0.95),
        "step_median_us": per_rep(lambda s: s.step_ns, 0.5),
        "step_p95_us": per_rep(lambda s: s.step_ns, 0.95),
        "step_mean_us": round(total_ns / total_steps / 1000, 2) if total_steps else None,
        "wall_us_per_step": round(1e6 * sum(s.wall_s for s in samples) / total_steps, 2)
        if total_steps
        else None,
        **({"by_phase": by_phase} if by_phase else {}),
    }


def profile_engine(hands: int, seed: int, top: int) -> str:
    """cProfile summary of the engine loop, sorted by own time and by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    play_engine_hands(hands, seed)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs()
    out.write(f"== engine profile: {hands} hands, sorted by own time (tottime) ==\n")
    stats.sort_stats("tottime").print_stats(top)
    out.write("== sorted by cumulative time ==\n")
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def describe_machine(cpu: int | None) -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model or platform.processor(),
        "cpus": os.cpu_count(),
        "pinned_cpu": cpu,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def format_report(result: dict[str, Any]) -> str:
    lines = [
        f"machine: {result['machine']['cpu']} ({result['machine']['cpus']} cpus), "
        f"pinned to cpu {result['machine']['pinned_cpu']}, Python {result['machine']['python']}, "
        f"{result['machine']['date']}",
        f"command: {result['command']}",
        "",
    ]
    header = (
        f"{'side':<22}{'hands/s':>9}{'steps/hand':>12}{'legal med':>11}{'legal p95':>11}"
        f"{'apply med':>11}{'apply p95':>11}{'step med':>10}{'step p95':>10}{'step mean':>11}"
        f"{'wall/step':>11}"
    )
    lines.append(header + "   (µs; medians over repetitions)")
    for name in ("engine", "rlcard"):
        side = result.get(name)
        if not isinstance(side, dict):
            lines.append(f"{name:<22}{result.get(name + '_skipped', 'not run')}")
            continue

        def cell(key: str, width: int, side: dict[str, Any] = side) -> str:
            value = side.get(key)
            return f"{'-' if value is None else value:>{width}}"

        label = "engine standard 4p" if name == "engine" else "rlcard gin-rummy 2p"
        lines.append(
            f"{label:<22}{cell('hands_per_s', 9)}{cell('steps_per_hand', 12)}"
            f"{cell('legal_median_us', 11)}{cell('legal_p95_us', 11)}"
            f"{cell('apply_median_us', 11)}{cell('apply_p95_us', 11)}"
            f"{cell('step_median_us', 10)}{cell('step_p95_us', 10)}{cell('step_mean_us', 11)}"
            f"{cell('wall_us_per_step', 11)}"
        )
    for phase, figures in result.get("engine", {}).get("by_phase", {}).items():
        lines.append(
            f"  engine steps in phase {phase}: {figures['share_of_steps']:.0%} of steps, "
            f"median {figures['step_median_us']} µs"
        )
    if "ratios" in result:
        r = result["ratios"]
        lines += [
            "",
            f"RLCard / engine, median µs per step: {r['step_median']}x; "
            f"mean µs per step: {r['step_mean']}x; hands/s engine / RLCard: {r['hands_per_s']}x",
            f"target (legal_actions + apply median < 40 µs): "
            f"{'met' if result['engine']['step_median_us'] < 40 else 'MISSED'}",
        ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> dict[str, Any]:
    cpu = pin_to_one_core(args.cpu)
    result: dict[str, Any] = {
        "machine": describe_machine(cpu),
        "command": " ".join(["python", *sys.argv]),
        "settings": {
            "repetitions": args.reps,
            "engine_hands": args.hands,
            "rlcard_hands": args.rlcard_hands,
            "seed": args.seed,
        },
    }
    engine_missing = None if args.skip_engine else engine_available()
    rlcard_missing = None if args.skip_rlcard else rlcard_available()
    run_engine = not args.skip_engine and engine_missing is None
    run_rlcard = not args.skip_rlcard and rlcard_missing is None
    if engine_missing:
        result["engine_skipped"] = f"engine not importable: {engine_missing}"
    if rlcard_missing:
        result["rlcard_skipped"] = f"RLCard not importable: {rlcard_missing}"

    # Warm-up: import costs, first-call caches and RLCard's lazy set-up stay out of the figures.
    env = make_rlcard_env(args.seed) if run_rlcard else None
    if run_engine:
        play_engine_hands(3, args.seed)
    if run_rlcard:
        play_rlcard_hands(3, args.seed, env)

    engine_samples: list[Sample] = []
    rlcard_samples: list[Sample] = []
    gc.collect()
    for rep in range(args.reps):
        # Interleave the two sides so that a slow patch of the machine hits both.
        if run_engine:
            engine_samples.append(play_engine_hands(args.hands, args.seed + 1000 + rep))
        if run_rlcard:
            rlcard_samples.append(play_rlcard_hands(args.rlcard_hands, args.seed + 2000 + rep, env))
        print(f"repetition {rep + 1}/{args.reps} done", file=sys.stderr)

    if engine_samples:
        result["engine"] = summarise(engine_samples)
    if rlcard_samples:
        result["rlcard"] = summarise(rlcard_samples)
    if engine_samples and rlcard_samples:
        e, r = result["engine"], result["rlcard"]
        result["ratios"] = {
            "step_median": round(r["step_median_us"] / e["step_median_us"], 1),
            "step_mean": round(r["step_mean_us"] / e["step_mean_us"], 1),
            "hands_per_s": round(e["hands_per_s"] / r["hands_per_s"], 2),
        }
    return result


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions (default 5)")
    parser.add_argument("--hands", type=int, default=200, help="engine hands per repetition")
    parser.add_argument("--rlcard-hands", type=int, default=100, help="RLCard hands per repetition")
    parser.add_argument("--seed", type=int, default=500, help="seed of the random choices")
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: last one)")
    parser.add_argument("--skip-engine", action="store_true")
    parser.add_argument("--skip-rlcard", action="store_true")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the engine")
    parser.add_argument("--profile-hands", type=int, default=100)
    parser.add_argument("--top", type=int, default=25, help="rows in each profile listing")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    for name in ("reps", "hands", "rlcard_hands", "profile_hands", "top"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    result = run(args)
    print(format_report(result))
    if args.profile:
        if "engine_skipped" in result or args.skip_engine:
            print("\n(no profile: the engine did not run)")
        else:
            print()
            print(profile_engine(args.profile_hands, args.seed, args.top))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
