"""How much stronger each bot level is than the one below it: 2-player games to 500.

Why: issue 5 asks that hard beat medium in at least 60% of games and medium beat easy in at
least 70%, with 95% confidence intervals narrow enough to show it (about 200 games per pairing),
and that the whole run finish within an hour on 2 cores. Seats are swapped every game (the
levels alternate seats and so who deals first), every game's cards and every bot's choices
derive from the run's seed, so the run is repeatable. Figures go to docs/bots.md.

Run (from the repository root)::

    .venv/bin/python bench/bots/bench_strength.py                        # 200 games per pairing
    .venv/bin/python bench/bots/bench_strength.py --games 40 --processes 2
    .venv/bin/python bench/bots/bench_strength.py --playouts 64 --json strength.json
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from games.bots import hard as hard_bot  # noqa: E402
from games.bots.simulate import SimConfig, format_table, simulate  # noqa: E402

PAIRINGS = (("hard", "medium", 0.60), ("medium", "easy", 0.70))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--playouts", type=int, default=hard_bot.STRENGTH_PLAYOUTS)
    parser.add_argument("--only", choices=["hard", "medium"], help="run one pairing")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    began = time.perf_counter()
    print(
        f"{args.games} games per pairing of {args.preset}, 2 players, target 500, seats swapped "
        f"every game; hard bot budget {args.playouts} playouts per decision; seed {args.seed}; "
        f"{args.processes} processes; Python {platform.python_version()}",
        flush=True,
    )
    results = {}
    for stronger, weaker, goal in PAIRINGS:
        if args.only and args.only != stronger:
            continue
        config = SimConfig(
            preset=args.preset,
            levels=(stronger, weaker),
            games=args.games,
            seed=args.seed,
            hard_playouts=args.playouts if "hard" in (stronger, weaker) else None,
        )

        label = f"{stronger} v {weaker}"

        def progress(done: int, total: int, label: str = label) -> None:
            if done % 10 == 0 or done == total:
                print(f"  {label}: {done}/{total} games", flush=True)

        report = simulate(config, processes=args.processes, progress=progress)
        stats = {item.level: item for item in report.by_level()}
        rate = stats[stronger].win_rate
        low, high = stats[stronger].interval()
        verdict = "meets" if low >= goal else ("misses" if high < goal else "inconclusive for")
        print(f"\n{stronger} v {weaker}:\n{format_table(report)}")
        print(
            f"processor time {report.cpu_seconds / 60:.1f} min ({report.seconds / 60:.1f} min wall)"
        )
        print(
            f"{stronger} won {rate:.1%} (95% CI {low:.1%}-{high:.1%}): {verdict} the "
            f"{goal:.0%} goal\n",
            flush=True,
        )
        results[f"{stronger}_v_{weaker}"] = {
            "games": len(report.games),
            "win_rate": rate,
            "ci95": [low, high],
            "goal": goal,
            "mean_hand_score": {level: item.mean_hand_score for level, item in stats.items()},
            "ms_per_decision": {
                level: 1000 * item.think_s / max(1, item.decisions) for level, item in stats.items()
            },
            "hands": report.hands,
            "seconds": report.seconds,
            "cpu_seconds": report.cpu_seconds,
        }
    total = time.perf_counter() - began
    cpu = sum(item["cpu_seconds"] for item in results.values())
    print(
        f"whole run: {total / 60:.1f} minutes wall; {cpu / 60:.1f} processor-minutes, "
        f"{cpu / 120:.1f} minutes on 2 otherwise idle cores"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "args": {**vars(args), "json": str(args.json)},
                    "results": results,
                    "minutes": total / 60,
                },
                indent=2,
            )
        )


if __name__ == "__main__":
    main()
