"""What a game's pages must hold back for the app that manages its table (a tournament).

Why a hook: the engine's hand-end view shows every hand and the seed, which is right at a
table of ours. A duplicate tournament (tournaments.duplicate) deals the same cards at many
tables at once, so until every table has finished the deal those stay secret. games does
not import the apps built on it: they answer these questions through the signals below
(connected in their AppConfig.ready), and with no receiver nothing is held back.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import Signal

# kwargs: game_id. A receiver returns True while the game's deal must stay secret.
deal_held_back = Signal()

# kwargs: table_id, user. A receiver returns a sentence for people when the user may not
# watch the table now (a player of the same duplicate deal at another table), else None.
watch_refused = Signal()


def held_back(game_id: int | None) -> bool:
    """The game's seed, other seats' cards, replay and review are held back for now."""
    if game_id is None:
        return False
    return any(answer for _receiver, answer in deal_held_back.send(None, game_id=game_id))


def refusal(table_id: int, user: Any) -> str | None:
    """Why ``user`` may not watch ``table_id`` now (a sentence), or None."""
    for _receiver, answer in watch_refused.send(None, table_id=table_id, user=user):
        if answer:
            return str(answer)
    return None


def hold_back_view(view: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """A hand-end view without the seed, the hands but ``seat``'s own, and the other seats'
    per-card score lines (the figures stay: the score sheet needs them)."""
    if view is None:
        return None
    shown = {k: v for k, v in view.items() if k not in ("seed", "hands")}
    if "result" in view:
        shown["result"] = hold_back_result(view["result"], seat)
    return shown


def hold_back_result(result: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """A hand result whose per-card lines are kept for ``seat`` only."""
    if result is None:
        return None
    seats = [
        line if line.get("seat") == seat else {**line, "lines": []}
        for line in result.get("seats", [])
    ]
    return {**result, "seats": seats}
