"""Rebuild every rating, game result and leaderboard total from the finished games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.management.progress import Progress
from games.ratings import ratings


class Command(BaseCommand):
    help = (
        "Replay every finished game in finish order and rebuild ratings and leaderboards; "
        "the result equals what the rate_game task computed game by game."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--missing",
            action="store_true",
            help="Only rate finished games that no task has rated yet (after a lost task).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        from games.models import Game

        if options["missing"]:
            self.stdout.write(f"Rated {ratings.rate_missing()} games that had been missed.")
            return

        total = Game.objects.filter(status=Game.Status.FINISHED).count()
        bar = Progress("rating", total, stream=self.stderr._out, quiet=options["verbosity"] == 0)
        summary = ratings.replay_all(progress=bar.update)
        bar.close()
        self.stdout.write(
            f"Rated {summary['games']} games: {summary['ratings']} ratings, "
            f"{summary['periods']} leaderboard periods."
        )
