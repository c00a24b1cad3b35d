"""Tables run by an outside manager (no host), such as a tournament's: created, started, ended,
paused and resumed by that app, never by a player.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import engine
from games.models import Game, Hand, Seat, Table
from games.services.presence import presence_from_sockets
from games.services.shared import TableError, announce, bump, locked_table, refresh_due, table_seats
from games.services.tables import build_rules, current_hand, start_game


def managed_table_create(
    *,
    name: str,
    preset: str,
    options: dict[str, Any],
    num_seats: int,
    turn_seconds: int,
    spectators_allowed: bool = True,
    bot_level: str = "easy",
    rated: bool = True,
) -> Table:
    """A hostless table whose games another app starts (``managed_game_start``)."""
    rules = build_rules(preset, options)
    try:
        rules.validate_players(num_seats)
    except engine.RulesError as exc:
        raise TableError("invalid_seats", str(exc)) from None
    with transaction.atomic():
        table = Table.objects.create(
            name=name[:60],
            host=None,
            preset=preset,
            rules=rules.to_json(),
            num_seats=num_seats,
            turn_seconds=turn_seconds,
            spectators_allowed=spectators_allowed,
            chat_enabled=False,
            bot_level=bot_level,
            managed=True,
            rated=rated,
        )
        Seat.objects.bulk_create(
            Seat(table=table, index=i, bot_level=bot_level) for i in range(num_seats)
        )
    return table


def managed_game_start(
    *,
    table_id: int,
    players: list[User | None],
    hands_per_game: int | None = None,
    autoplay: frozenset[int] = frozenset(),
    dealer: int | None = None,
    seed: int | None = None,
) -> Game:
    """Seat ``players`` (None: a bot) in order and start a game at a managed table.

    The table must not be playing. ``autoplay`` holds ids of users a bot plays for from the
    first move (people who did not show up before). ``dealer``: the seat that deals first
    (a tournament passes the deal on between its one-hand games); None draws for it.
    ``seed``: the first hand's seed (a duplicate tournament deals every table the same
    cards); None, a fresh one. Stored in the hand's state like any seed, so replay holds.
    """
    with transaction.atomic():
        table = locked_table(table_id)
        if not table.managed:
            raise TableError("not_managed", "Only managed tables are started this way.")
        if table.status == Table.Status.PLAYING:
            raise TableError("started", "The game at this table has already started.")
        if table.status not in (Table.Status.WAITING, Table.Status.FINISHED):
            raise TableError("finished", "This table is closed.")
        try:
            engine.Rules.from_json(table.rules).validate_players(len(players))
        except engine.RulesError as exc:
            raise TableError("invalid_seats", str(exc)) from None
        Seat.objects.filter(table=table).update(user=None)
        Seat.objects.filter(table=table, index__gte=len(players)).delete()
        have = set(Seat.objects.filter(table=table).values_list("index", flat=True))
        Seat.objects.bulk_create(
            Seat(table=table, index=i) for i in range(len(players)) if i not in have
        )
        for index, user in enumerate(players):
            Seat.objects.filter(table=table, index=index).update(
                user=user,
                bot_level="" if user is not None else table.bot_level,
                autoplay=user is not None and user.pk in autoplay,
                left=False,
                timeouts=0,
                disconnected_at=None,
            )
        presence_from_sockets(table.pk)
        table.num_seats = len(players)
        table.hands_per_game = hands_per_game
        table.paused_at = None
        table.save(update_fields=["num_seats", "hands_per_game", "paused_at"])
        game = start_game(table, table_seats(table), dealer, seed)
        announce(table.pk, table.version, lobby=True)
    return game


def game_end(*, table_id: int, winners: list[int]) -> Game:
    """A manager ends a managed table's game between hands (e.g. to start a play-off)."""
    with transaction.atomic():
        table = locked_table(table_id)
        if not table.managed:
            raise TableError("not_managed", "Only a managed table's game is ended this way.")
        hand = current_hand(table)
        if table.status != Table.Status.PLAYING or hand is None:
            raise TableError("not_playing", "No game is being played at this table.")
        if hand.status != Hand.Status.OVER:
            raise TableError("hand_playing", "A game ends only between hands.")
        game = hand.game
        now = timezone.now()
        game.status = Game.Status.FINISHED
        game.winners = list(winners)
        game.finished_at = now
        game.save(update_fields=["status", "winners", "finished_at"])
        table.status = Table.Status.FINISHED
        table.finished_at = now
        table.due_kind, table.due_at = "", None
        table.save(update_fields=["status", "finished_at", "due_kind", "due_at"])
        announce(table.pk, bump(table), lobby=True)
    return game


def table_pause(*, table_id: int) -> bool:
    """Stop a running table's clocks and bots (a manager's pause). False if already paused."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.paused_at is not None or table.status != Table.Status.PLAYING:
            return False
        table.paused_at = timezone.now()
        table.due_kind, table.due_at = "", None
        table.save(update_fields=["paused_at", "due_kind", "due_at"])
        announce(table.pk, bump(table))
    return True


def table_resume(*, table_id: int) -> bool:
    """Restart clocks and bots; the player to act gets a fresh turn clock."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.paused_at is None:
            return False
        table.paused_at = None
        table.save(update_fields=["paused_at"])
        version = bump(table)
        refresh_due(table)
        announce(table.pk, version)
    return True
