"""Listen to games (games.signals).

A hand that ended at a tournament table arms ``advance``; a tournament table's page gets a
line naming its tournament (and, for entrants, the socket that moves them with their seat).
"""

from __future__ import annotations

from typing import Any

from games import signals
from tournaments.models import TournamentTable


def on_hand_finished(sender: Any, *, table_id: int, game_over: bool, **kwargs: Any) -> None:
    """Advance at once: the scores go to the standings now, and ``advance`` itself waits for
    the pause after the hand (re-arming for its end) before the next deal or round."""
    tournament_id = (
        TournamentTable.objects.filter(table_id=table_id).values_list("tournament_id", flat=True)
    ).first()
    if tournament_id is None:
        return
    from tournaments import tasks

    tasks.advance.delay(tournament_id)


def connect() -> None:
    signals.hand_finished.connect(on_hand_finished, dispatch_uid="tournaments.hand_finished")
    signals.managed_table_banner.connect(table_banner, dispatch_uid="tournaments.table_banner")


def table_banner(sender: Any, *, table: Any, user: Any, **kwargs: Any) -> str | None:
    """The tournament line on a tournament table's page; entrants' pages follow their seat."""
    link = TournamentTable.objects.filter(table_id=table.pk).select_related("tournament").first()
    if link is None:
        return None
    from django.template.loader import render_to_string

    from tournaments.models import Entry

    t = link.tournament
    entered = (
        user.is_authenticated
        and Entry.objects.filter(tournament=t, user=user, status=Entry.Status.PLAYING).exists()
    )
    return render_to_string(
        "tournaments/partials/table_banner.html",
        {"t": t, "tournament_table": link, "follow": entered},
    )
