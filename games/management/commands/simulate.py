"""``python manage.py simulate``: headless bot-only games, with a progress bar and a results table.

Example::

    python manage.py simulate --preset standard --levels hard,medium --games 40 --seed 7 \\
        --processes 2 --option target=500

The games are played by ``games.bots.simulate`` (pure, no database). A run is deterministic for
a given seed: the same command prints the same wins and scores (only the timings differ).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import engine
from games.bots.simulate import (
    SimConfig,
    describe,
    format_table,
    parse_levels,
    parse_options,
    simulate,
)

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Play bot-only games headlessly and print wins per bot level with 95% intervals."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--preset", default="standard", help="a playable preset")
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a house rule, e.g. rummy_call=true or target=300 (repeatable)",
        )
        parser.add_argument(
            "--players", type=int, help="number of players (default: one per level given)"
        )
        parser.add_argument(
            "--levels",
            default="medium,easy",
            help="bot level per seat, comma-separated (easy, medium, hard); with --players "
            "the list repeats to fill the seats",
        )
        parser.add_argument("--games", type=int, default=20)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--processes", type=int, default=1)
        parser.add_argument(
            "--no-rotate",
            action="store_true",
            help="keep each level in its seat (default: rotate seats every game)",
        )
        parser.add_argument("--playouts", type=int, help="the hard bot's playout budget")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            config = self._config(options)
            config.check()
        except (ValueError, engine.RulesError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(describe(config))
        report = simulate(config, processes=max(1, options["processes"]), progress=self._bar)
        self.stderr.write("")
        self.stdout.write(format_table(report))

    def _config(self, options: dict[str, Any]) -> SimConfig:
        levels = parse_levels(options["levels"])
        if not levels:
            raise ValueError("Give at least one bot level.")
        players = options["players"]
        if players is not None:
            if players < 1:
                raise ValueError("The number of players must be at least 1.")
            levels = tuple(levels[seat % len(levels)] for seat in range(players))
        if options["games"] < 1:
            raise ValueError("Play at least one game.")
        playouts = options["playouts"]
        if playouts is not None and playouts < 1:
            raise ValueError("The hard bot needs at least one playout.")
        return SimConfig(
            preset=options["preset"],
            options=parse_options(options["option"]),
            levels=levels,
            games=options["games"],
            seed=options["seed"],
            rotate=not options["no_rotate"],
            hard_playouts=playouts,
        )

    def _bar(self, done: int, total: int) -> None:
        filled = round(BAR_WIDTH * done / total)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        end = "\n" if done == total else ""
        self.stderr.write(f"\r[{bar}] {done}/{total} games", ending=end)
        if hasattr(self.stderr, "flush"):
            self.stderr.flush()
        elif sys.stderr:
            sys.stderr.flush()
