"""Listen to games (games.signals): a hand that ended at a tournament table arms ``advance``."""

from __future__ import annotations

from typing import Any

from games import signals
from tournaments.models import TournamentTable


def on_hand_finished(sender: Any, *, table_id: int, game_over: bool, **kwargs: Any) -> None:
    """A game over is settled at once; otherwise the next deal waits for the hand pause."""
    tournament_id = (
        TournamentTable.objects.filter(table_id=table_id).values_list("tournament_id", flat=True)
    ).first()
    if tournament_id is None:
        return
    from games import clock
    from tournaments import tasks

    if game_over:
        tasks.advance.delay(tournament_id)
    else:
        tasks.advance.apply_async((tournament_id,), countdown=clock.hand_pause_s())


def connect() -> None:
    signals.hand_finished.connect(on_hand_finished, dispatch_uid="tournaments.hand_finished")
