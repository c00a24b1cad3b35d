"""Turn a table snapshot into what one socket or page receives: JSON or HTML fragments.

Everything here starts from ``engine.view(state, seat)``, never from the state itself, so a
seat can only ever be shown what its view holds. The one exception is the finished hand's
result, which the engine's view includes once the hand is over.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from games import engine
from games.models import Hand, Table
from games.selectors import TableSnapshot


def seat_view(snap: TableSnapshot, seat: int | None) -> dict[str, Any] | None:
    if snap.state is None:
        return None
    return engine.view(snap.state, seat)


def seat_legal(snap: TableSnapshot, seat: int | None) -> list[dict[str, Any]]:
    state = snap.state
    if state is None or seat is None or seat not in state.to_act:
        return []
    if snap.hand is None or snap.hand.status != Hand.Status.PLAYING:
        return []
    return [engine.action_to_json(a) for a in engine.legal_actions(state, seat)]


def table_summary(table: Table) -> dict[str, Any]:
    return {
        "id": table.pk,
        "name": table.name,
        "preset": table.preset,
        "status": table.status,
        "num_seats": table.num_seats,
        "turn_seconds": table.turn_seconds,
        "spectators_allowed": table.spectators_allowed,
        "chat_enabled": table.chat_enabled,
        "host": table.host_id,
        "rules": table.rules,
        "abort_reason": table.abort_reason,
    }


def seats_summary(snap: TableSnapshot) -> list[dict[str, Any]]:
    return [
        {
            "index": s.index,
            "name": s.name,
            "bot": s.bot_level,
            "autoplay": s.autoplay,
            "left": s.left,
            "connected": s.connected or s.is_bot,
            "empty": s.is_empty,
        }
        for s in snap.seats
    ]


def score_sheet(snap: TableSnapshot) -> list[dict[str, Any]]:
    """One row per finished hand of the current game: the engine's per-seat result."""
    return [{"hand": h.number, "dealer": h.dealer, "result": h.result} for h in snap.past_hands]


def game_summary(snap: TableSnapshot) -> dict[str, Any] | None:
    game = snap.game
    if game is None:
        return None
    return {
        "number": game.number,
        "status": game.status,
        "totals": game.totals,
        "winners": game.winners,
        "first_dealer": game.first_dealer,
        "dealer_draw": game.dealer_draw,
        "hand": snap.hand.number if snap.hand else None,
        "hand_status": snap.hand.status if snap.hand else None,
        "score_sheet": score_sheet(snap),
    }


def state_payload(snap: TableSnapshot, seat: int | None) -> dict[str, Any]:
    """The JSON-mode state frame (docs/protocol.md)."""
    return {
        "type": "state",
        "version": snap.version,
        "you": seat,
        "table": table_summary(snap.table),
        "seats": seats_summary(snap),
        "view": seat_view(snap, seat),
        "legal": seat_legal(snap, seat),
        "game": game_summary(snap),
    }


# --- HTML (htmx out-of-band fragments) -------------------------------------------------------


def table_context(snap: TableSnapshot, seat: int | None, user: Any) -> dict[str, Any]:
    """The template context of the table's live parts, shared by the page and the socket."""
    payload = state_payload(snap, seat)
    return {
        **payload,
        "snap": snap,
        "user": user,
        "names": snap.names(),
    }


def state_html(snap: TableSnapshot, seat: int | None, user: Any) -> str:
    return render_to_string("games/partials/table_live.html", table_context(snap, seat, user))


def presence_html(presence: dict[str, Any]) -> str:
    return render_to_string("games/partials/presence.html", {"presence": presence})


def error_html(code: str, message: str) -> str:
    return render_to_string("games/partials/error.html", {"code": code, "message": message})


def chat_payload(message_id: int, user: Any, *, json_mode: bool) -> Any:
    """A chat line for one socket, or None when that socket's user muted the sender."""
    from games.models import ChatMessage, ChatMute

    message = ChatMessage.objects.filter(pk=message_id, hidden=False).select_related("user").first()
    if message is None:
        return None
    muted = (
        user is not None
        and user.is_authenticated
        and ChatMute.objects.filter(user=user, muted=message.user).exists()
    )
    if muted:
        return None
    line = {
        "type": "chat",
        "id": message.pk,
        "user": message.user.display_name,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }
    if json_mode:
        return line
    return render_to_string("games/partials/chat_line.html", {"line": line, "oob": True})


def lobby_rows(tables: list[Table]) -> list[dict[str, Any]]:
    rows = []
    for table in tables:
        seats = list(table.seats.all())
        rows.append(
            {
                **table_summary(table),
                "taken": sum(1 for s in seats if not s.is_empty),
                "players": [_occupant(s) for s in seats],
            }
        )
    return rows


def lobby_html(tables: list[Table], user: Any) -> str:
    return render_to_string(
        "games/partials/lobby_tables.html", {"rows": lobby_rows(tables), "user": user, "oob": True}
    )


def _occupant(seat: Any) -> str | None:
    if seat.user_id:
        return seat.user.display_name
    return f"{seat.bot_level.title()} bot" if seat.bot_level else None
