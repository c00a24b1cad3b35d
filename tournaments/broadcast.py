"""Tell tournament pages that something changed; each page then fetches its own fragment.

Group: ``tournament-<id>`` (the public page and every lobby of it). What one player must
hear (seated, moved, a break, their result) is a notice instead (tournaments/notices.py): it
goes to the account's own socket group, which the base layout's notice socket joins on
every page, and a player's lobby or table page follows a "seated" or "moved" notice there.
"""

from __future__ import annotations

from games.broadcast import _send


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    _send(tournament_group(tournament_id), {"type": "tournament.changed"})
