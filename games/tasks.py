"""Celery tasks: thin wrappers that load by id and call the services.

Every task carries the table version it was armed for and does nothing once the table has
moved on, so a duplicated, late or re-delivered task is harmless.
"""

from __future__ import annotations

import logging
import random
from datetime import datetime

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

log = logging.getLogger(__name__)


def bot_delay_seconds() -> float:
    return float(getattr(settings, "BOT_MOVE_DELAY_SECONDS", 1.0))


def hand_pause_seconds() -> float:
    """The pause between hands: defined once, in games.services.clock (its due moment, which the
    sweeper also reads, and this countdown are the same setting)."""
    from games.services import clock

    return clock.hand_pause_s()


def schedule_table_work(
    table_id: int, version: int, *, work: object = None, arm_clock: bool = True
) -> None:
    """After a commit: arm whatever must happen next at this table without a person.

    ``arm_clock`` is False for the clock's own moves: the timeout that makes them goes on
    with the turn itself, and the sweeper covers it if its worker dies.
    """
    from games import selectors

    if work is None:
        work = selectors.pending_work(table_id, version)
    if work is None:
        return
    if work.bot_seats:
        play_bot_turn.apply_async((table_id, version), countdown=bot_delay_seconds())
    if work.next_hand_due:
        start_next_hand.apply_async((table_id, version), countdown=hand_pause_seconds())
    if work.clock_at is not None and arm_clock:
        turn_timeout.apply_async((table_id, work.clock_at.isoformat()), eta=work.clock_at)


@shared_task(acks_late=True)
def play_bot_turn(table_id: int, version: int) -> bool:
    """Let a bot seat that must act at ``version`` act. Returns whether a move was applied."""
    from games.services import bot_turns

    return bot_turns.play_one(table_id, version, rng=random.Random())


@shared_task(acks_late=True)
def start_next_hand(table_id: int, version: int) -> bool:
    from games.services import tables

    return tables.hand_next(table_id=table_id, expected_version=version) is not None


@shared_task(acks_late=True)
def turn_timeout(table_id: int, deadline: str) -> bool:
    """The turn clock (or claim window) armed for ``deadline`` ran out: play the default."""
    from games.services import turn_clock

    return turn_clock.clock_expired(table_id=table_id, deadline=datetime.fromisoformat(deadline))


@shared_task(acks_late=True)
def disconnect_check(table_id: int, seat: int) -> bool:
    from games.services import presence

    return presence.seat_disconnect_expired(table_id=table_id, seat=seat)


@shared_task(acks_late=True)
def sweep() -> dict[str, int]:
    """Celery beat runs this every few seconds: nothing overdue stays overdue."""
    from games.services import sweeper

    return sweeper.sweep()


@shared_task(
    acks_late=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    max_retries=5,
)
def rate_game(game_id: int) -> bool:
    """Rate a finished game and update the leaderboard totals; a repeat does nothing, so a
    retry after a lock timeout or a lost race on a new leaderboard row is safe."""
    from games.ratings import ratings

    return ratings.rate_game(game_id)


def rate_game_after_commit(game_id: int) -> None:
    """Called where a game finishes: the rating waits until the game's row is committed."""
    from django.db import transaction

    transaction.on_commit(lambda: rate_game.delay(game_id))
    review_game_after_commit(game_id)


@shared_task(acks_late=True)
def review_game(game_id: int) -> bool:
    """Review a finished game (games.review) on the ``review`` queue, served by its own worker
    at concurrency 1 so that bot moves and clocks never wait behind a review."""
    from games import game_reviews

    return game_reviews.run_review(game_id) is not None


def review_game_after_commit(game_id: int) -> None:
    """Called where a game finishes: games with a human seat are reviewed after the commit."""
    from django.db import transaction

    from games import game_reviews
    from games.models import Game

    def enqueue() -> None:
        game = Game.objects.select_related("table").filter(pk=game_id).first()
        if game is not None and game_reviews.wants_review(game):
            game_reviews.request_review(game)
            review_game.apply_async((game_id,), queue="review")

    transaction.on_commit(enqueue)


# --- what the services tell (games.signals), connected in GamesConfig.ready() ---------------


def _on_table_changed(
    sender: object, *, table_id: int, version: int, work: object, arm_clock: bool, **_: object
) -> None:
    schedule_table_work(table_id, version, work=work, arm_clock=arm_clock)


def _on_seat_disconnected(sender: object, *, table_id: int, seat: int, **_: object) -> None:
    from games.services import clock

    disconnect_check.apply_async((table_id, seat), countdown=clock.disconnect_grace_s())


def _on_clock_deadline_moved(
    sender: object, *, table_id: int, due_at: datetime, **_: object
) -> None:
    turn_timeout.apply_async((table_id, due_at.isoformat()), eta=due_at)


def _on_game_finished(sender: object, *, game_id: int, **_: object) -> None:
    rate_game_after_commit(game_id)


def _on_review_requested(sender: object, *, game_id: int, **_: object) -> None:
    review_game.apply_async((game_id,), queue="review")


def connect_receivers() -> None:
    from games import signals

    signals.table_changed.connect(_on_table_changed, dispatch_uid="tasks.table_changed")
    signals.seat_disconnected.connect(_on_seat_disconnected, dispatch_uid="tasks.seat_disconnected")
    signals.clock_deadline_moved.connect(
        _on_clock_deadline_moved, dispatch_uid="tasks.clock_deadline_moved"
    )
    signals.game_finished.connect(_on_game_finished, dispatch_uid="tasks.game_finished")
    signals.review_requested.connect(_on_review_requested, dispatch_uid="tasks.review_requested")
