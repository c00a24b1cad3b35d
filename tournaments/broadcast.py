"""Tell tournament pages that something changed; each page then fetches its own fragment.

Groups: ``tournament-<id>`` (the public page and every lobby of it) and ``tplayer-<user id>``
(a player's lobby, told which table to go to when they are seated or moved).
"""

from __future__ import annotations

from games.broadcast import _send


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def player_group(user_id: int) -> str:
    return f"tplayer-{user_id}"


def tournament_changed(tournament_id: int) -> None:
    _send(tournament_group(tournament_id), {"type": "tournament.changed"})


def players_moved(tournament_id: int, user_ids: list[int]) -> None:
    for user_id in user_ids:
        _send(player_group(user_id), {"type": "tournament.seated", "tournament": tournament_id})
