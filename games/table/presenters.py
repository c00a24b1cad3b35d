"""Turn a table snapshot into what one socket or page receives: JSON or HTML fragments.

Everything here starts from ``engine.view(state, seat)``, never from the state itself, so a
seat can only ever be shown what its view holds. The one exception is the finished hand's
result, which the engine's view includes once the hand is over.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import orjson
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games import engine, secrecy
from games.models import Game, Hand, Table
from games.selectors import LobbySeat, LobbyTable, TableSnapshot
from games.services import clock
from games.services import tables as tables_service
from games.table import display


def seat_view(snap: TableSnapshot, seat: int | None) -> dict[str, Any] | None:
    if snap.state is None:
        return None
    view = engine.view(snap.state, seat)
    if "seed" in view and _held_back(snap):
        return secrecy.hold_back_view(view, seat)
    return view


def seat_view_from(snap: TableSnapshot, public: dict[str, Any], seat: int) -> dict[str, Any]:
    """``seat_view(snap, seat)`` given ``public``, the spectator's ``seat_view(snap, None)``:
    the seat's cards added to a copy of it (``engine.view_for_seat``), for a browser frame
    that needs every seat's view of one snapshot. A finished hand held back from its seats
    (each keeps only its own score lines) takes the seat's own view."""
    if public["phase"] == "hand_over" and _held_back(snap):
        held = seat_view(snap, seat)
        assert held is not None
        return held
    return engine.view_for_seat(public, snap.state, seat)


def _held_back(snap: TableSnapshot) -> bool:
    """A managed table's finished hand whose deal other tables still play (games.secrecy):
    its seed and the other seats' cards wait. Asked only at a hand's end."""
    return snap.table.managed and snap.game is not None and secrecy.held_back(snap.game.pk)


def seat_legal(snap: TableSnapshot, seat: int | None) -> list[dict[str, Any]]:
    state = snap.state
    if state is None or seat is None or seat not in state.to_act:
        return []
    if snap.hand is None or snap.hand.status != Hand.Status.PLAYING:
        return []
    if 0 <= seat < len(snap.seats) and snap.seats[seat].left:
        return []  # a bot finishes the game for a seat that left: nothing is theirs to do
    return [engine.action_to_json(a) for a in engine.legal_actions(state, seat)]


def table_summary(table: Table) -> dict[str, Any]:
    return _settings_summary(table, table.rules)


def _settings_summary(table: Table | LobbyTable, rules: dict[str, Any]) -> dict[str, Any]:
    """A table's settings as clients are told them, from a model row (state frames) or from
    the lobby's plain values: one list of keys, so the lobby and the table never disagree."""
    return {
        "id": table.id,
        "name": table.name,
        "preset": table.preset,
        "status": table.status,
        "num_seats": table.num_seats,
        "turn_seconds": table.turn_seconds,
        "spectators_allowed": table.spectators_allowed,
        "chat_enabled": table.chat_enabled,
        "host": table.host_id,
        "rules": rules,
        "abort_reason": table.abort_reason,
    }


def seats_summary(snap: TableSnapshot) -> list[dict[str, Any]]:
    return [
        {
            "index": s.index,
            "name": s.name,
            "bot": s.bot_level or ("bot" if s.account_bot else ""),
            "autoplay": s.autoplay,
            "left": s.left,
            "connected": s.connected or s.is_bot,
            "presence": s.presence,
            "empty": s.is_empty,
        }
        for s in snap.seats
    ]


def score_sheet(snap: TableSnapshot) -> list[dict[str, Any]]:
    """One row per finished hand of the current game: each seat's figures, without the
    per-card lines (a finished hand's cards are in its own view and on the game page; every
    state frame need not carry all of them again)."""
    return [
        {"hand": h.number, "dealer": h.dealer, "result": _figures(h.result)}
        for h in snap.past_hands
    ]


def _figures(result: dict[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    seats = [{k: v for k, v in seat.items() if k != "lines"} for seat in result.get("seats", [])]
    # "ready" (who pressed Ready between hands, tables_service.hand_ready) is no score figure.
    return {**{k: v for k, v in result.items() if k != "ready"}, "seats": seats}


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
        "clock": clock_summary(snap),
    }


def state_json(snap: TableSnapshot, seat: int | None) -> str:
    """``state_payload`` as the socket sends it. The parts every seat and spectator share
    (table, seats, game: more than half of a frame) are built and encoded once per snapshot,
    not once per socket, since a 4-seat move renders four frames of the same snapshot. Only
    the seat's view, its legal moves and the clock's time left are encoded per call. (End to
    end the saving was within the load benchmark's noise: docs/performance.md.)"""
    table, seats, game = _shared_json(snap)
    return (
        f'{{"type":"state","version":{snap.version},"you":{encode(seat)},'
        f'"table":{table},"seats":{seats},"view":{encode(seat_view(snap, seat))},'
        f'"legal":{encode(seat_legal(snap, seat))},"game":{game},'
        f'"clock":{encode(clock_summary(snap))}}}'
    )


def encode(value: Any) -> str:
    """JSON for a socket frame. orjson, because the standard encoder was half the cost of a
    state frame (52 of 95 µs for a 5.6 KB view; orjson takes 4 µs: docs/performance.md)."""
    return orjson.dumps(value).decode()


# Encoded shared parts by snapshot object (kept alive with it, so its id is not reused).
# Small and FIFO: the sockets of a process render the snapshots of the last few moments.
_SHARED_LIMIT = 512
_shared: dict[int, tuple[TableSnapshot, tuple[str, str, str]]] = {}


def _shared_json(snap: TableSnapshot) -> tuple[str, str, str]:
    hit = _shared.get(id(snap))
    if hit is not None and hit[0] is snap:
        return hit[1]
    parts = (
        encode(table_summary(snap.table)),
        encode(seats_summary(snap)),
        encode(game_summary(snap)),
    )
    if len(_shared) >= _SHARED_LIMIT:
        for key in list(_shared)[: _SHARED_LIMIT // 4]:
            _shared.pop(key, None)
    _shared[id(snap)] = (snap, parts)
    return parts


def clock_summary(snap: TableSnapshot) -> dict[str, Any] | None:
    """The running turn clock or claim window: the server's deadline and the time left."""
    from games.services import clock

    left = clock.seconds_left(snap.table)
    if left is None:
        return None
    return {"deadline": snap.table.due_at.isoformat(), "seconds_left": round(left, 1)}


# --- HTML (htmx out-of-band fragments) -------------------------------------------------------


def checked_seat(snap: TableSnapshot, seat: int | None, user: Any) -> int | None:
    """The seat a socket may be shown: its user's seat now, else None (a spectator).

    A socket keeps the seat it had when it connected; if the host has since removed that
    player and someone else sat down, rendering that seat would show a stranger's hand.
    ``user`` None means a trusted caller (a test, a bot) that names the seat itself.
    """
    if seat is None or user is None:
        return seat
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    if user_id is None or not 0 <= seat < len(snap.seats) or snap.seats[seat].user_id != user_id:
        return None
    return seat


def game_length(table: Any) -> str:
    """What ends a game here, in the header's words: "to 500", "one hand", "2 hands".

    A managed table that stops after a number of hands (a quick game, a one-hand tournament
    round) says so instead of the preset's target, which it never plays to.
    """
    hands = getattr(table, "hands_per_game", None)
    if hands == 1:
        return "one hand"
    if hands:
        return f"{hands} hands"
    target = display.target_text(table.preset, table.rules)
    return target if target == "one hand" else f"to {target}"


def table_context(
    snap: TableSnapshot, seat: int | None, user: Any, *, seat_only: bool = False
) -> dict[str, Any]:
    """The template context of the table's live parts, shared by the page and the socket.

    Cards come only from ``state_payload`` (the engine's view for ``seat``), through
    games.table.display; the snapshot's full state is deliberately not passed to templates.
    ``seat_only``: leave out what only the shared regions read (the score sheet, the log,
    the wild note; games/table/table_frames.py renders those once per version from a spectator's
    context).
    """
    seat = checked_seat(snap, seat, user)
    if seat is not None and snap.seats[seat].left:
        seat = None  # they left the game: a bot plays the seat, they may watch
    payload = state_payload(snap, seat)
    view = payload["view"]
    legal = payload["legal"]
    names = snap.names()
    table = snap.table
    game = snap.game
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    over = view is not None and view["phase"] == "hand_over"
    totals = _shown_totals(snap, view)
    preset = engine.PRESETS.get(table.preset)
    sides = preset.partnerships if preset is not None else ()
    ctx: dict[str, Any] = {
        **payload,
        "user": user,
        "names": names,
        "table": table,
        "my_seat": seat,
        "is_host": user_id is not None and table.host_id == user_id,
        "is_seated": seat is not None,
        "waiting": table.status == Table.Status.WAITING,
        "players": display.players(view, payload["seats"], seat, totals, sides),
        "full": all(not s.is_empty for s in snap.seats),
        "taken": sum(1 for s in snap.seats if not s.is_empty),
        "table_path": reverse("table_detail", kwargs={"table_id": table.pk}),
        "game_id": game.pk if game is not None else None,
        "bot_levels": BOT_LEVEL_CHOICES,
        "rules_summary": display.rules_summary(table.rules),
        "preset_title": display.preset_title(table.preset),
        "preset_notes": display.preset_notes(table.preset),
        "target_text": display.target_text(table.preset, table.rules),
        "turn_text": display.turn_text(table.turn_seconds),
        "game_length": game_length(table),
        # A managed table's next game is its manager's to start (a tournament's next round).
        "replay_hint": ""
        if table.managed
        else "The host can start another game with the same seats.",
        "my_turn": bool(legal),
        "legal_json": json.dumps(legal),
        "hand_over": over,
        "game_over": game is not None and game.status == Game.Status.FINISHED,
        "score_sheet": None
        if seat_only
        else display.score_sheet(
            score_sheet(snap),
            table.num_seats,
            game.totals if game is not None and game.status == Game.Status.FINISHED else None,
        ),
        "side_sheet": None if seat_only else display.side_sheet(score_sheet(snap), sides, names),
        "claim_word": display.claim_word(view),
        "standings": (
            display.standings(game.totals, game.winners, _standing_names(game, names))
            if game is not None and game.status == Game.Status.FINISHED
            else []
        ),
        "deadline": _deadline(snap),
        "covered": _covered(snap, seat),
        "can_leave": seat is not None
        and (
            table.status == Table.Status.PLAYING
            or (table.status == Table.Status.FINISHED and not table.managed)
        ),
        "finished": table.status == Table.Status.FINISHED,
        "timed_out": seat is not None
        and snap.seats[seat].timeouts > 0
        and not snap.seats[seat].autoplay,
        "hand_pause": round(clock.hand_pause_s()),
    }
    ctx["opponents"], ctx["me"] = display.around_the_table(ctx["players"], seat)
    ctx.update(hand_summary(snap, seat, names, over, user_id))
    ctx["clock_note"] = (
        display.clock_turn(view, snap.clock_moves, seat) if ctx["timed_out"] else None
    )
    if view is not None:
        told = seat if ctx["clock_note"] else None
        last = display.last_event(view, names, snap.clock_moves, told)
        melds = display.table_melds(view, names)
        ctx.update(
            hand=display.my_hand(view),
            melds=melds,
            meld_groups=display.melds_by_owner(melds, names, seat, legal),
            pile=display.discard_pile(view, legal),
            pile_refusal=display.pile_refusal(view, legal),
            obligation=display.obligation_text(view, names),
            wild_note=None if seat_only else display.wild_note(view),
            status=display.hand_end_line(last, display.status_text(view, names, seat, legal)),
            log=[] if seat_only else display.action_log(view, names, clock_moves=snap.clock_moves),
            log_start=display.log_start(view),
            last_event=last,
            controls=display.controls(legal, view),
            breakdown=display.breakdown(view, names) if over else [],
            side_breakdown=display.side_breakdown(view, names) if over else [],
            dealer_draw=(
                display.dealer_draw(game.dealer_draw, names, partners=bool(sides))
                if game is not None and snap.hand is not None and snap.hand.number == 1
                else None
            ),
        )
    return ctx


BOT_LEVEL_CHOICES = [(level, level.title()) for level in tables_service.BOT_LEVELS]


def hand_summary(
    snap: TableSnapshot, seat: int | None, names: list[str], over: bool, user_id: int | None
) -> dict[str, Any]:
    """The latest finished hand of the game, for the summary panel: it is rendered while the
    next hand is played too, so it stays on a player's screen until they close it (the page
    remembers which hand they closed). Its cards are public while the hand is over; once
    the next one is dealt only the figures stay. "Ready" is offered to a seated person
    during the pause between hands (games.clock.ready_open, tournament tables included).
    At a tournament table the next round is a new game: its players keep the last hand of
    the round before (``earlier_hand``) until they close it."""
    finished = [h for h in snap.past_hands if h.result]
    game_number = snap.game.number if snap.game is not None else 0
    if not finished and _played_in(snap.earlier_hand, user_id):
        finished = [snap.earlier_hand]
        game_number = snap.earlier_hand.game.number
        names = _game_names(snap.earlier_hand.game, names)
    if not finished:
        return {"summary": [], "summary_hand": None, "ready_offered": False}
    hand = finished[-1]
    result = {"result": hand.result}
    if over and _held_back(snap):  # past the deal the summary keeps no cards anyway
        result = {"result": secrecy.hold_back_result(hand.result, seat)}
    summary = display.breakdown(result, names)
    if not over:
        # A new hand is dealt from the same deck: the old hand's cards would read as
        # cards of this one, so past the deal the summary keeps only the figures.
        summary = [{**row, "plus": [], "minus": []} for row in summary]
    return {
        "summary": summary,
        "summary_sides": display.side_breakdown(result, names),
        "summary_hand": hand.number,
        "summary_game": game_number,
        "summary_current": over,
        **ready_flags(snap, seat, over, hand),
    }


def ready_flags(
    snap: TableSnapshot, seat: int | None, over: bool, hand: Hand | None = None
) -> dict[str, Any]:
    """The only part of the hand summary that differs by seat: whether this person is
    offered "Ready" (during the one pause between hands, games.services.clock.ready_open;
    not a bot) and has pressed it. Apart, so a browser frame renders the summary once per
    version and only picks the variant per seat. ``hand``: the summary's hand (the game's
    last finished one unless told)."""
    if hand is None:
        finished = [h for h in snap.past_hands if h.result]
        if not finished:
            return {"ready_offered": False, "ready_pressed": False, "pause_left": 0.0}
        hand = finished[-1]
    between = over and clock.ready_open(snap.table, snap.hand, snap.game)
    person = seat is not None and not snap.seats[seat].is_bot
    # Seconds, not a moment: the page counts them from when it receives them, so a phone
    # whose clock is off still withdraws Ready when the pause ends.
    pause_left = clock.hand_pause_left(hand.finished_at, timezone.now()) if between else 0.0
    return {
        "ready_offered": between and person,
        "ready_pressed": person and seat in (hand.result.get("ready") or []),
        "pause_left": round(pause_left, 1),
    }


def summary_differs_by_user(snap: TableSnapshot) -> bool:
    """Whether the hand summary depends on who looks, not only on the seat: the last round's
    hand kept for its players at a tournament table's new game, or a duplicate deal held
    back while other tables play it. The shared per-version parts of a browser frame are
    drawn for nobody in particular, so such versions take the per-socket path."""
    over = snap.hand is not None and snap.hand.status == Hand.Status.OVER
    if over and _held_back(snap):
        return True
    earlier = snap.earlier_hand
    return earlier is not None and not any(h.result for h in snap.past_hands)


def _played_in(hand: Hand | None, user_id: int | None) -> bool:
    if hand is None or not hand.result or user_id is None:
        return False
    return any(p.get("user") == user_id for p in hand.game.players or [])


def _shown_totals(snap: TableSnapshot, view: dict[str, Any] | None) -> list[int] | None:
    """Game totals: after the hand once it is scored, before it while it is played."""
    if snap.game is not None and snap.game.totals:
        return list(snap.game.totals)
    if view is not None:
        return list(view["totals"])
    return None


def _game_names(game: Game, fallback: list[str]) -> list[str]:
    if not game.players:
        return fallback
    return display.player_names(game.players)


def _standing_names(game: Game, names: list[str]) -> list[str]:
    """The table's game-over standings: a bot by the table's name for its seat ("Easy bot 2",
    as the last hand's summary just above calls it; the game's record names only the level),
    a person by the record (who played, should the seat have changed hands since)."""
    recorded = _game_names(game, names)
    if not game.players:
        return recorded
    return [
        names[i] if i < len(names) and game.players[i].get("bot") else name
        for i, name in enumerate(recorded)
    ]


def _covered(snap: TableSnapshot, seat: int | None) -> bool:
    """A bot plays this person's seat after timeouts or a lost connection ("I'm back")."""
    if seat is None or snap.table.status != Table.Status.PLAYING:
        return False
    info = snap.seats[seat]
    return info.autoplay and not info.left


def _deadline(snap: TableSnapshot) -> str | None:
    """The turn clock's deadline (games.services.clock stores it on the table), or None."""
    table = snap.table
    if table.due_kind != "clock" or table.due_at is None:
        return None
    return table.due_at.isoformat()


def state_html(snap: TableSnapshot, seat: int | None, user: Any) -> str:
    return render_to_string("games/partials/table_live.html", table_context(snap, seat, user))


def presence_html(presence: dict[str, Any]) -> str:
    return render_to_string("games/partials/presence.html", {"presence": presence})


def error_html(
    code: str, message: str, names: list[str] | None = None, *, target: str = "move-error"
) -> str:
    """A refusal for the page, swapped into ``target`` (move-error, or chat-error for chat)."""
    if names:
        message = display.named_seats(message, names)
    return render_to_string(
        "games/partials/error.html", {"code": code, "message": message, "target": target}
    )


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
        "user_id": message.user_id,
        "text": message.text,
        "at": message.created_at.isoformat(),
    }
    if json_mode:
        return line
    return render_to_string(
        "games/partials/chat_line.html", {"line": line, "oob": True, "viewer": user}
    )


@lru_cache(maxsize=512)
def _lobby_rules(preset: str, rules_text: str) -> dict[str, Any]:
    """What a lobby row says about its rules, worked out once per distinct rule set.

    Most tables share a handful of rule sets, and decoding and describing them for every row
    of every lobby read was a third of the page's cost at 100 tables. The result is shared
    between rows: read it, never change it.
    """
    rules = json.loads(rules_text)
    return {
        "rules": rules,
        "preset_title": display.preset_title(preset),
        "preset_notes": display.preset_notes(preset),
        "house_rules": display.rules_summary(rules),
        "target": display.target_text(preset, rules),
    }


def lobby_rows(tables: list[LobbyTable]) -> list[dict[str, Any]]:
    rows = []
    for table in tables:
        seats = table.seats
        described = _lobby_rules(table.preset, table.rules_text)
        rows.append(
            {
                **_settings_summary(table, described["rules"]),
                "taken": sum(1 for s in seats if not s.is_empty),
                "players": [_occupant(i, s) for i, s in enumerate(seats)],
                "preset_title": described["preset_title"],
                "preset_notes": described["preset_notes"],
                "house_rules": described["house_rules"],
                "target": described["target"],
                "more_from_host": table.more_from_host,
            }
        )
    return rows


def lobby_html(tables: list[LobbyTable], user: Any) -> str:
    """The lobby list as a lobby socket receives it (the same for every user)."""
    return lobby_tables_html(lobby_rows(tables), oob=True)


# The last rendering of the lobby list, by oob: (its rows as JSON, the HTML).
_lobby_rendered: dict[bool, tuple[bytes, str]] = {}


def lobby_tables_html(rows: list[dict[str, Any]], *, oob: bool) -> str:
    """The lobby's table list from its rows, rendered once per process until they change.

    Every visitor and every lobby socket is shown the same list, and with a hundred tables
    open the template takes about 50 ms: under load the lobby page cost the tables' sockets
    more than anything else a visitor does. The rows (a few queries) are compared as JSON, so
    a changed table is never served from an older rendering.
    """
    key = orjson.dumps(rows, option=orjson.OPT_SORT_KEYS)
    last = _lobby_rendered.get(oob)
    if last is not None and last[0] == key:
        return last[1]
    shown = [{**row, "turn_text": display.turn_text(row["turn_seconds"])} for row in rows]
    html = render_to_string("games/partials/lobby_tables.html", {"rows": shown, "oob": oob})
    _lobby_rendered[oob] = (key, html)
    return html


def _occupant(index: int, seat: LobbySeat) -> str | None:
    """A seat as the table names it (selectors._seat_info): a bot by level and seat number,
    so a table of three easy bots does not read "Easy bot, Easy bot, Easy bot"."""
    if seat.user_id:
        return seat.display_name
    return f"{seat.bot_level.title()} bot {index + 1}" if seat.bot_level else None
