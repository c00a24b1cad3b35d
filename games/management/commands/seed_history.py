"""Generate a large, realistic finished-game history and rate it (benchmarks, demos)."""

from __future__ import annotations

import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.management.progress import Progress
from games.ratings import history_seed, ratings


class Command(BaseCommand):
    help = (
        "Create --players accounts and --games finished games among them (per-hand scores, "
        "no move rows) with bulk inserts, then rebuild ratings and leaderboards."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=1000)
        parser.add_argument("--games", type=int, default=10000)
        parser.add_argument("--days", type=int, default=120, help="Spread games over this many.")
        parser.add_argument("--seed", type=int, default=1, help="Random seed (repeatable data).")

    def handle(self, *args: Any, **options: Any) -> None:
        players, games = options["players"], options["games"]
        if players < 8 or games < 0 or options["days"] < 1:
            raise CommandError("Give at least 8 players, 0 or more games and 1 or more days.")
        quiet = options["verbosity"] == 0
        started = time.monotonic()
        bar = Progress("games", games, stream=self.stderr._out, quiet=quiet)
        history_seed.seed(
            players=players,
            games=games,
            days=options["days"],
            rng=random.Random(options["seed"]),
            progress=lambda _what, n: bar.update(n),
        )
        bar.close()
        from games.models import Game

        total = Game.objects.filter(status=Game.Status.FINISHED).count()
        bar = Progress("rating", total, stream=self.stderr._out, quiet=quiet)
        summary = ratings.replay_all(progress=bar.update)
        bar.close()
        self.stdout.write(
            f"Seeded {players} players and {games} games; rated {summary['games']} games "
            f"in {time.monotonic() - started:.0f} s."
        )
