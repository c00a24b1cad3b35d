"""One bot level against the same level as an earlier commit left it: is a change stronger?

Why: a bot change is only kept when it wins. Against a weaker level a change hides in the
noise (the medium bot already beats easy 99% of the time at five-thousand); against its own
earlier self, on the same deals with seats swapped every game, a gain shows. The earlier
``games/bots/`` package is read from git into a temporary package (``earlier_bots``) whose
engine is today's, and seated as the level ``earlier``.

Run (from the repository root)::

    .venv/bin/python bench/bots/bench_versions.py --against 98be12b --preset oklahoma
    .venv/bin/python bench/bots/bench_versions.py --against 98be12b --preset persian \
        --players 4 --games 100
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from games import bots  # noqa: E402
from games.bots import simulate as sim  # noqa: E402

EARLIER = "earlier"


def load_earlier(commit: str, into: Path) -> object:
    """Import ``games/bots/`` as it was at ``commit`` under the name ``earlier_bots``."""
    package = into / "earlier_bots"
    package.mkdir()
    listing = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{commit}:games/bots"],
        cwd=REPO_ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    for name in listing:
        if name.endswith(".py"):
            source = subprocess.run(
                ["git", "show", f"{commit}:games/bots/{name}"],
                cwd=REPO_ROOT, check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            (package / name).write_text(source)
    sys.path.insert(0, str(into))
    return importlib.import_module("earlier_bots")


def seat_earlier(level: str, earlier: object) -> None:
    """Let the simulator seat ``earlier``: that commit's ``level`` bot."""
    today = sim.choose_action

    def choose(name: str, view: dict, legal: list, rng: object, **kwargs: object) -> object:
        if name == EARLIER:
            return earlier.choose_action(level, view, legal, rng, **kwargs)  # type: ignore[attr-defined]
        return today(name, view, legal, rng, **kwargs)

    sim.choose_action = choose  # type: ignore[assignment]
    sim.LEVELS = (*bots.LEVELS, EARLIER)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", required=True, help="the earlier commit")
    parser.add_argument("--level", default="medium", choices=bots.LEVELS)
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        seat_earlier(args.level, load_earlier(args.against, Path(folder)))
        levels = tuple(args.level if seat % 2 == 0 else EARLIER for seat in range(args.players))
        config = sim.SimConfig(preset=args.preset, levels=levels, games=args.games, seed=args.seed)
        print(f"{sim.describe(config)}; {EARLIER} = {args.level} at {args.against}", flush=True)
        began = time.perf_counter()
        report = sim.simulate(config, processes=1)  # one process: the patch is this process's
        print(sim.format_table(report))
        print(f"{time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
