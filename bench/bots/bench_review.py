"""Game review (games.review): time per decision and per game, and verdict agreement.

Why: issue 22 asks that a 4-player game to 500 be reviewed in under 2 minutes of one core at
the default budget, that verdicts agree between two review seeds on at least 90% of moves,
and that the reviewer measure skill: over bot games, the easy bot's decisions must lose more
points on average than the medium bot's, and the medium bot's more than the hard bot's.

Run (from the repository root, one process: the figures are of one core)::

    .venv/bin/python bench/bots/bench_review.py speed                  # a 4-player game to 500
    .venv/bin/python bench/bots/bench_review.py speed --deals 64
    .venv/bin/python bench/bots/bench_review.py skill --games 40 --log review-skill.jsonl
    .venv/bin/python bench/bots/bench_review.py skill --players 4 --shard 1/2 --log x.jsonl

``skill`` is resumable: each finished game appends a line to ``--log``; a new run skips the
games already there and prints the table over every logged game. ``--shard k/n`` plays only
the games whose number is k-1 modulo n, so n processes can share one log (each line is one
appending write); ``--table`` prints the table of the log without playing.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from games import engine  # noqa: E402
from games.bots import choose_action  # noqa: E402
from games.review import DEFAULT_DEALS, Budget, review_game  # noqa: E402
from games.review.hands import DEFAULT_CONFIRM_DEALS  # noqa: E402

SKILL_LEVELS = ("easy", "medium", "hard")


def seat_levels(index: int, players: int) -> tuple[str, ...]:
    """Levels seated in turn; with 4 players the fourth seat repeats a level, rotating which."""
    n = len(SKILL_LEVELS)
    if players == n:
        return tuple(SKILL_LEVELS[(seat + index) % n] for seat in range(n))
    return (
        tuple(SKILL_LEVELS[(seat + index) % n] for seat in range(n))
        + (SKILL_LEVELS[(index // n) % n],)[: players - n]
    )


def play_game(
    levels: tuple[str, ...], seed: int, preset: str = "standard", **options: Any
) -> list[engine.HandState]:
    """A bot game to its end; the finished hands in order (deterministic for ``seed``)."""
    rules = engine.make_rules(preset, **options)
    n = len(levels)
    deals = random.Random(f"bench-review/{seed}")
    rngs = [random.Random(f"bench-review/{seed}/{seat}") for seat in range(n)]
    dealer = engine.first_dealer_draw(rules, n, deals.getrandbits(64)).dealer
    game = engine.new_game(rules, n, dealer)
    hands = []
    while not game.outcome.over and len(hands) < 200:
        state = engine.start_hand(game, seed=deals.getrandbits(64))
        while state.phase is not engine.Phase.HAND_OVER:
            seat = state.to_act[0]
            legal = engine.legal_actions(state, seat)
            action = choose_action(levels[seat], engine.view(state, seat), legal, rngs[seat])
            state, _events = engine.apply(state, action)
        hands.append(state)
        game = engine.finish_hand(game, state)
    return hands


def _decisions(review: dict[str, Any]) -> list[dict[str, Any]]:
    return [decision for hand in review["hands"] for decision in hand["decisions"]]


def speed(args: argparse.Namespace) -> None:
    budget = Budget(deals=args.deals, confirm_deals=args.confirm_deals)
    hands = play_game(("medium",) * 4, args.seed)
    moves = sum(len(hand.actions) for hand in hands)
    print(
        f"4-player standard game to 500 by medium bots (seed {args.seed}): {len(hands)} hands, "
        f"{moves} moves; every seat reviewed; budget {budget.deals}+{budget.confirm_deals} "
        f"deals; Python {platform.python_version()}, one process",
        flush=True,
    )
    reviews = []
    for seed in (args.review_seed, args.review_seed + 1):
        began = time.process_time()
        review = review_game(hands, range(4), seed, budget)
        cpu = time.process_time() - began
        decisions = _decisions(review)
        weighed = [d for d in decisions if d["verdict"] != "forced"]
        marks = {
            mark: sum(1 for d in decisions if d["verdict"] == mark)
            for mark in ("forced", "good", "inaccuracy", "mistake", "blunder")
        }
        print(
            f"review seed {seed}: {cpu:.1f} s of CPU for the game; {len(decisions)} decisions "
            f"({len(weighed)} weighed): {1000 * cpu / len(decisions):.0f} ms per decision, "
            f"{1000 * cpu / max(1, len(weighed)):.0f} ms per weighed decision; {marks}",
            flush=True,
        )
        reviews.append(decisions)
    first, second = reviews
    same = sum(1 for a, b in zip(first, second, strict=True) if a["verdict"] == b["verdict"])
    weighed_pairs = [(a, b) for a, b in zip(first, second, strict=True) if a["verdict"] != "forced"]
    same_weighed = sum(1 for a, b in weighed_pairs if a["verdict"] == b["verdict"])
    print(
        f"verdict agreement between the two seeds: {same}/{len(first)} moves "
        f"({same / len(first):.1%}); weighed moves only: {same_weighed}/{len(weighed_pairs)} "
        f"({same_weighed / max(1, len(weighed_pairs)):.1%})"
    )


def skill(args: argparse.Namespace) -> None:
    budget = Budget(deals=args.deals, confirm_deals=args.confirm_deals)
    log_path: Path = args.log
    done: dict[int, dict[str, Any]] = {}
    if log_path.exists():
        for line in log_path.read_text().splitlines():
            if line.strip():
                item = json.loads(line)
                done[item["game"]] = item
    if args.table:
        print_skill_table(done.values())
        return
    shard, shards = (int(part) for part in args.shard.split("/"))
    print(
        f"{args.games} {args.players}-player games to {args.target} (easy, medium, hard, "
        f"seats rotated), every seat reviewed; budget {budget.deals}+{budget.confirm_deals} "
        f"deals; {len(done)} games already in {log_path}; shard {shard}/{shards}",
        flush=True,
    )
    for index in range(args.games):
        if index in done or index % shards != shard - 1:
            continue
        n = args.players
        levels = seat_levels(index, n)
        began = time.process_time()
        hands = play_game(levels, args.seed + index, target=args.target)
        review = review_game(hands, range(n), f"skill/{index}", budget)
        losses: dict[str, list[float]] = defaultdict(list)
        for decision in _decisions(review):
            if decision["verdict"] != "forced":
                losses[levels[decision["seat"]]].append(decision["loss"])
        accuracies: dict[str, list[float]] = defaultdict(list)
        for player in review["players"]:
            if player["accuracy"] is not None:
                accuracies[levels[player["seat"]]].append(player["accuracy"])
        item = {
            "game": index,
            "levels": levels,
            "hands": len(hands),
            "cpu_s": round(time.process_time() - began, 1),
            "losses": {level: [round(v, 2) for v in values] for level, values in losses.items()},
            "accuracy": {level: sum(v) / len(v) for level, v in accuracies.items()},
        }
        # One write on an appending descriptor: lines of processes sharing the log never mix.
        fd = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (json.dumps(item) + "\n").encode())
        finally:
            os.close(fd)
        done[index] = item
        print(f"game {index}: {len(hands)} hands, {item['cpu_s']} s", flush=True)
    print_skill_table(done.values())


def print_skill_table(items: Any) -> None:
    items = list(items)
    print(f"{'level':<8} {'decisions':>9} {'mean loss':>10} {'95% CI':>15} {'accuracy':>9}")
    for level in SKILL_LEVELS:
        losses = [v for item in items for v in item["losses"].get(level, [])]
        accuracies = [item["accuracy"][level] for item in items if item["accuracy"].get(level)]
        if not losses:
            continue
        mean = sum(losses) / len(losses)
        # Interval over games (decisions of one game are not independent).
        per_game = [
            sum(item["losses"][level]) / len(item["losses"][level])
            for item in items
            if item["losses"].get(level)
        ]
        m = sum(per_game) / len(per_game)
        sd = (sum((x - m) ** 2 for x in per_game) / max(1, len(per_game) - 1)) ** 0.5
        half = 1.96 * sd / max(1, len(per_game)) ** 0.5
        print(
            f"{level:<8} {len(losses):>9} {mean:>10.2f} {f'{m - half:.2f}-{m + half:.2f}':>15} "
            f"{sum(accuracies) / len(accuracies):>8.1f}%"
        )
    print(f"{len(items)} games")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["speed", "skill"])
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS)
    parser.add_argument("--confirm-deals", type=int, default=DEFAULT_CONFIRM_DEALS)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--review-seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--target", type=int, default=500)
    parser.add_argument("--log", type=Path, default=Path("review-skill.jsonl"))
    parser.add_argument("--players", type=int, choices=[3, 4], default=3)
    parser.add_argument("--shard", default="1/1", help="k/n: play games k-1 modulo n")
    parser.add_argument("--table", action="store_true", help="print the log's table only")
    args = parser.parse_args()
    (speed if args.mode == "speed" else skill)(args)


if __name__ == "__main__":
    main()
