"""Listen to games (games.signals): a game that ended at a tournament table arms ``advance``."""

from __future__ import annotations

from typing import Any

from games import signals
from tournaments.models import TournamentTable


def on_hand_finished(sender: Any, *, table_id: int, game_over: bool, **kwargs: Any) -> None:
    if not game_over:
        return
    tournament_id = (
        TournamentTable.objects.filter(table_id=table_id).values_list("tournament_id", flat=True)
    ).first()
    if tournament_id is not None:
        from tournaments import tasks

        tasks.advance.delay(tournament_id)


def connect() -> None:
    signals.hand_finished.connect(on_hand_finished, dispatch_uid="tournaments.hand_finished")
