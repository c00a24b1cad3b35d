"""Which tournament games the game review waits to be asked for (games.signals.review_policy).

A multi-table round is one hand per table: reviewed only when someone asks from the replay
page. A duplicate round deals the same cards at every table, so its review must not come out
while another table still plays that deal: until then not even on request
(``tournaments.duplicate.review_allowed``), then on request.
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from tournaments import duplicate
from tournaments.models import Tournament, TournamentTable


def on_review_policy(sender: Any, *, game: Game, **kwargs: Any) -> str | None:
    link = (
        TournamentTable.objects.filter(table_id=game.table_id).select_related("tournament").first()
    )
    if link is None:
        return None
    if link.tournament.duplicate:
        return "on_request" if duplicate.review_allowed(game) else "not_yet"
    if link.tournament.format == Tournament.Format.MTT:
        return "on_request"
    return None
