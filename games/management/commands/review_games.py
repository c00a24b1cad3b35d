"""``python manage.py review_games``: (re)review finished games, with a progress bar.

Deterministic for a seed: the same game, seed and budget give the same stored review.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import game_reviews, review_requests
from games.models import Game, GameReview
from games.review import DEFAULT_DEALS

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Review finished games with a human seat (games.review) and store the reviews."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="games to review (default: all)")
        parser.add_argument("--seed", default=game_reviews.DEFAULT_SEED, help="review seed")
        parser.add_argument("--deals", type=int, default=DEFAULT_DEALS, help="deals per decision")
        parser.add_argument(
            "--force", action="store_true", help="review again games already reviewed"
        )
        parser.add_argument(
            "--all-seats", action="store_true", help="review bot seats too (and bot-only games)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["deals"] < 2:
            raise CommandError("A review needs at least 2 deals per decision.")
        games = Game.objects.filter(status=Game.Status.FINISHED).select_related("table")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
            missing = set(options["game_ids"]) - set(games.values_list("pk", flat=True))
            if missing:
                raise CommandError(
                    f"No finished game with id {', '.join(map(str, sorted(missing)))}."
                )
        chosen = [
            game
            for game in games.order_by("pk")
            if options["all_seats"] or review_requests.human_seats(game)
        ]
        done = 0
        for number, game in enumerate(chosen, start=1):
            seats = list(range(len(game.players))) if options["all_seats"] else None
            if options["force"] or not GameReview.objects.filter(game=game).exists():
                GameReview.objects.filter(game=game).delete()
                game_reviews.request_review(
                    game, seed=f"{options['seed']}/{game.pk}", deals=options["deals"]
                )

            def bar(
                hands_done: int, hands_total: int, number: int = number, game: Game = game
            ) -> None:
                self._bar(number, len(chosen), game.pk, hands_done, hands_total)

            review = game_reviews.run_review(game.pk, seats=seats, progress=bar)
            if review is not None and review.status == GameReview.Status.DONE:
                done += 1
        self.stderr.write("")
        self.stdout.write(f"{done} of {len(chosen)} games reviewed.")

    def _bar(self, number: int, games: int, game_id: int, hands_done: int, hands: int) -> None:
        share = (number - 1 + (hands_done / hands if hands else 1)) / games
        filled = round(BAR_WIDTH * share)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        self.stderr.write(
            f"\r[{bar}] game {number}/{games} (id {game_id}): hand {hands_done}/{hands}", ending=""
        )
        if hasattr(self.stderr, "flush"):
            self.stderr.flush()
        elif sys.stderr:
            sys.stderr.flush()
