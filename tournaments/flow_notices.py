"""What the multi-table flow tells players: seated or moved, a break. One call point.

The in-site notifications (``tournaments.notices.notify(user_id, kind, text, url=None)``) are
another module's; until it exists these calls only tell the player's lobby socket to follow
their seat (``broadcast.players_moved``, as lock-step rounds already do). Everything is sent
after the commit, so a rolled-back move tells nobody anything.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from datetime import datetime

from django.db import transaction

from tournaments.models import Tournament


def _notify(user_id: int, kind: str, text: str, url: str | None = None) -> None:
    try:
        notices = importlib.import_module("tournaments.notices")
    except ImportError:  # the notifications are not installed: the lobby socket still tells
        return
    notices.notify(user_id, kind, text, url=url)


def seated(t: Tournament, seats: Sequence[tuple[int, int]], *, live: bool) -> None:
    """``seats``: (user id, table number) of players seated at or moved to a table."""
    if not live or not seats:
        return
    from tournaments import broadcast

    tid, url = t.pk, t.get_absolute_url()

    def send() -> None:
        broadcast.players_moved(tid, [user for user, _number in seats])
        for user, number in seats:
            _notify(user, "moved", f"{t.name}: you are now at table {number}.", url)

    transaction.on_commit(send)


def on_break(t: Tournament, user_ids: Sequence[int], until: datetime) -> None:
    """Players whose table starts a break (the pages show its countdown)."""
    if not user_ids:
        return
    minutes = max(1, round(t.break_minutes))
    url = t.get_absolute_url()
    text = f"{t.name}: break for {minutes} minutes."

    def send() -> None:
        for user in user_ids:
            _notify(user, "break", text, url)

    transaction.on_commit(send)
