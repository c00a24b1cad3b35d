"""Synthetic game history for ``seed_history`` (benchmarks, demos) and the rating tests.

Finished games are written the way the live site leaves them (rules, players, totals,
winners, each hand's scores in ``hands_summary``) but without hands or moves: leaderboards
and player pages never read those. Players have a hidden strength, so the ratings that
``games.ratings.ratings.replay_all`` computes afterwards spread out as on a real site.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

from django.utils import timezone

from games import engine
from games.bulk import insert_rows
from games.models import Game, Table

SEED_PREFIX = "seed-"
BOT_LEVELS = ("easy", "medium", "hard")
_RULES: dict[str, dict[str, Any]] = {}


def rules_json(preset: str) -> dict[str, Any]:
    """The stored rules of ``preset``; a planned preset (not playable yet) keeps only its name,
    which is all rating reads."""
    if preset not in _RULES:
        known = preset in engine.PRESETS
        _RULES[preset] = (
            engine.make_rules(preset).to_json() if known else {"preset": preset, "options": {}}
        )
    return _RULES[preset]


def play_out(
    rng: random.Random, strengths: Sequence[float], target: int = 500, max_hands: int = 40
) -> tuple[list[list[int]], list[int], list[int]]:
    """Hand scores until someone reaches ``target``: (hands, totals, winners)."""
    seats = len(strengths)
    totals = [0] * seats
    hands: list[list[int]] = []
    while max(totals) < target and len(hands) < max_hands:
        out = rng.randrange(seats)
        scores = [
            int(rng.gauss(25 + 20 * strength, 30)) + (40 if seat == out else 0)
            for seat, strength in enumerate(strengths)
        ]
        hands.append(scores)
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    return hands, totals, winners


GAME_FIELDS = (
    "table_id",
    "number",
    "status",
    "rules",
    "players",
    "first_dealer",
    "dealer_draw",
    "totals",
    "on_board",
    "winners",
    "hands_summary",
    "started_at",
    "finished_at",
)


def game_values(
    *,
    table_id: int,
    number: int,
    seats: Sequence[Any],
    hands: Sequence[Sequence[int]],
    finished_at: dt.datetime,
    preset: str = "standard",
    winners: Sequence[int] | None = None,
) -> tuple[Any, ...]:
    """A finished game's column values in ``GAME_FIELDS`` order. ``seats`` holds users or
    bot level names."""
    totals = [sum(hand[seat] for hand in hands) for seat in range(len(seats))]
    if winners is None:
        winners = [seat for seat, total in enumerate(totals) if total == max(totals)]
    players = [
        {"user": None, "name": f"{s.title()} bot", "bot": s}
        if isinstance(s, str)
        else {"user": s.pk, "name": s.display_name, "bot": ""}
        for s in seats
    ]
    started_at = finished_at - dt.timedelta(minutes=8 * len(hands))
    return (
        table_id,
        number,
        Game.Status.FINISHED.value,
        rules_json(preset),
        players,
        0,
        [],
        totals,
        [True] * len(seats),
        list(winners),
        [list(hand) for hand in hands],
        started_at,
        finished_at,
    )


def finished_game(*, table: Table, **values: Any) -> Game:
    """An unsaved finished game (for tests and small histories); see ``game_values``."""
    fields = dict(zip(GAME_FIELDS, game_values(table_id=table.pk, **values), strict=True))
    game = Game(**fields)
    game.table = table
    return game


def seed(
    *,
    players: int,
    games: int,
    rng: random.Random,
    days: int = 120,
    bot_share: float = 0.15,
    progress: Callable[[str, int], None] | None = None,
    batch: int = 5000,
) -> dict[str, int]:
    """Create ``players`` accounts and ``games`` finished games among them, in bulk."""
    from accounts.models import User

    existing = User.objects.filter(username__startswith=SEED_PREFIX).count()
    User.objects.bulk_create(
        [
            User(
                username=f"{SEED_PREFIX}{existing + i}",
                display_name=f"Player {existing + i}",
                email=f"{SEED_PREFIX}{existing + i}@example.invalid",
                password="!",  # unusable: seeded accounts cannot log in
            )
            for i in range(players)
        ],
        batch_size=batch,
    )
    users = list(User.objects.filter(username__startswith=SEED_PREFIX).only("id", "display_name"))
    strength = {u.pk: rng.gauss(0, 1) for u in users}
    # A few players play a lot, most play a little, as on any games site.
    weights = [1 / (i + 1) ** 0.8 for i in range(len(users))]
    rng.shuffle(users)
    cum_weights = list(itertools.accumulate(weights))
    presets = [p for p in engine.PRESETS.values() if p.playable]
    tables_per_batch = max(1, batch // 10)
    now = timezone.now()
    made = 0
    while made < games:
        count = min(batch, games - made)
        tables = Table.objects.bulk_create(
            [
                Table(
                    name=f"Seeded table {made + i}",
                    preset="standard",
                    rules=rules_json("standard"),
                    num_seats=4,
                    status=Table.Status.FINISHED,
                    finished_at=now,
                )
                for i in range(min(tables_per_batch, count))
            ]
        )
        rows = []
        for i in range(count):
            preset = rng.choice(presets)
            n = rng.choice([2, 2, 3, 4, 4, 4, 5, 6, 8])
            n = max(preset.min_players, min(preset.max_players, n))
            seated: list[Any] = []
            while len(seated) < n:
                user = rng.choices(users, cum_weights=cum_weights)[0]
                if user not in seated:
                    seated.append(user)
            if rng.random() < bot_share:
                seated[rng.randrange(n)] = rng.choice(BOT_LEVELS)
            level = {"easy": -1.0, "medium": 0.0, "hard": 1.0}
            strengths = [level[s] if isinstance(s, str) else strength[s.pk] for s in seated]
            single = preset.single_hand_game
            hands, _totals, winners = play_out(rng, strengths, max_hands=1 if single else 40)
            table = tables[i % len(tables)]
            finished_at = now - dt.timedelta(seconds=rng.uniform(0, days * 86400))
            rows.append(
                game_values(
                    table_id=table.pk,
                    number=i // len(tables) + 1,
                    seats=seated,
                    hands=hands,
                    finished_at=finished_at,
                    preset=preset.name,
                    winners=winners,
                )
            )
        insert_rows(Game, GAME_FIELDS, rows)
        made += count
        if progress is not None:
            progress("games", made)
    return {"players": players, "games": games}
