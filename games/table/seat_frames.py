"""The per-seat regions of a browser frame, built as plain strings from one shared context.

A browser socket's frame used to cost a whole template context (the seat's view, the
display helpers, the legal moves) plus a dozen template renders for every seat after every
move: about 18 times the JSON frame. Almost all of it is the same for every seat. So a
table version's spectator context (``presenters.table_context`` for no seat: it holds only
what everyone may see) is built once per process, every seat's entry in the list of players
is rendered once from it (``games/partials/seat.html``), and a seat adds only what is its
own: its hand, its place around the table, the "(you)" marks, its legal moves.

The four regions that differ for nearly every seat (the version line, the players around
the table, the melds, the hand) are written here as strings, with every value escaped,
because a template render per region per seat is what cost most. They must stay the same
HTML as their templates (``templates/games/partials/live/``): the page renders those on a
page load, the socket sends these. ``tests/games/test_table_frames.py`` compares the two for
every seat over whole bot games, whitespace aside, so a change to a template shows up there
until it is made here too. The regions that differ by a flag or two (the controls, the seat
tools, Ready between hands, the obligation line) are rendered from their templates once per
version and variant and picked per seat. States this module does not build (the waiting
room, a finished game, a seat whose clock ran out, no hand dealt) return None: the caller then
renders the seat's own context from the templates as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.template import Context
from django.template.loader import get_template
from django.urls import reverse
from django.utils.html import escape

from games import engine
from games.models import Table
from games.selectors import TableSnapshot
from games.table import display, presenters

_SPACES = re.compile(r"\s*\n\s*")
SEATED = "@seated"
"""Key suffix of an idle region's rendering for a seated player (not a spectator)."""


def compact(html: str) -> str:
    """Template indentation out: a run of white space that holds a line break becomes one
    line break. Browsers render any white-space run between words or tags as one space (no
    element here keeps white space as written), so the page is the same, in fewer bytes."""
    return _SPACES.sub("\n", html)


@dataclass
class VersionParts:
    """What one table version's frames share on this process: the spectator's context,
    the shared regions, each player's entry in the list of players, and the regions
    rendered once per variant (key: region and the few values it reads of the seat)."""

    snap: TableSnapshot
    ctx: dict[str, Any]
    regions: dict[str, str]
    seat_items: list[str] | None = None
    variants: dict[tuple[Any, ...], str] = field(default_factory=dict)
    meld_groups: dict[tuple[Any, ...], str] = field(default_factory=dict)
    views: dict[int, dict[str, Any]] = field(default_factory=dict)


def _template(name: str) -> Any:
    hit = _templates.get(name)
    if hit is None:
        hit = _templates[name] = get_template(name).template
    return hit


_templates: dict[str, Any] = {}


def render(name: str, ctx: dict[str, Any]) -> str:
    return compact(_template(name).render(Context(ctx)))


def _variant(parts: VersionParts, region: str, key: tuple[Any, ...], extra: dict[str, Any]) -> str:
    """A region as the shared context plus ``extra`` renders it, once per version and key;
    for the regions of ``LASTING`` once per process and key (they read nothing else)."""
    full = (region, *key)
    lasting = region in LASTING
    if lasting:
        full = (*full, parts.snap.table.pk)
    store = _lasting if lasting else parts.variants
    hit = store.get(full)
    if hit is None:
        hit = render(f"games/partials/live/{region}.html", {**parts.ctx, **extra})
        if lasting and len(_lasting) >= _LASTING_LIMIT:
            _lasting.clear()
        store[full] = hit
    return hit


LASTING = frozenset({"obligation", "seat-tools", "waiting-room", "game-end"})
"""Regions that, in the states built here, read only their key and the table's id: the
obligation line its words, the seat tools whether the seat may leave, and the waiting room
and the game's end are hidden while a hand is played (pinned by the tests, which compare
every built region with its template over whole games)."""
_LASTING_LIMIT = 4096
_lasting: dict[tuple[Any, ...], str] = {}


def prepare(parts: VersionParts) -> None:
    """Build what every seat of this version will read, once: each player's entry and
    the controls of a seat not to move. (Done lazily it would count in the first seat's
    frame; here it counts in the version's shared cost, where it belongs.)"""
    if builds(parts.snap, parts):
        _seat_items(parts)
        _variant(parts, "controls", ("[]",), {"legal_json": "[]", "controls": _IDLE_CONTROLS})


_IDLE_CONTROLS = display.controls([], None)


def builds(snap: TableSnapshot, parts: VersionParts) -> bool:
    """Whether this version is one whose per-seat regions are built here (a hand is being
    played or has just ended, and the game goes on)."""
    ctx = parts.ctx
    return (
        ctx["view"] is not None
        and snap.table.status == Table.Status.PLAYING
        and not ctx["waiting"]
        and not ctx["game_over"]
    )


def seat_regions(
    snap: TableSnapshot, parts: VersionParts, seat: int | None, user: Any
) -> dict[str, str] | None:
    """Every per-seat region for this seat, or None when the templates must do it."""
    if not builds(snap, parts):
        return None
    if presenters.summary_differs_by_user(snap):
        return None  # a summary only some players may see: the templates, per socket
    seat = presenters.checked_seat(snap, seat, user)
    if seat is not None and snap.seats[seat].left:
        seat = None  # they left the game: a bot plays the seat, they may watch
    covered = presenters._covered(snap, seat)
    info = snap.seats[seat] if seat is not None else None
    timed_out = info is not None and info.timeouts > 0 and not info.autoplay
    if timed_out:
        return None  # "your time ran out" and how the log tells it: the templates' words
    base = parts.ctx
    view = base["view"] if seat is None else _seat_view(parts, seat)
    legal = presenters.seat_legal(snap, seat)
    names = base["names"]
    out = {
        "table-state": _table_state(snap, base, view, seat, legal, timed_out, names),
        "players": _players(parts, seat, covered),
        "melds": _melds(parts, seat, legal),
        "my-hand": _my_hand(base, view, seat),
    }
    obligation = display.obligation_text(view, names)
    out["obligation"] = _variant(parts, "obligation", (obligation,), {"obligation": obligation})
    legal_json = json.dumps(legal) if legal else "[]"
    controls = display.controls(legal, view) if legal else _IDLE_CONTROLS
    out["controls"] = _variant(
        parts, "controls", (legal_json,), {"legal_json": legal_json, "controls": controls}
    )
    if not legal:  # the pile as every seat not to move sees it (games/table_frames.py)
        out["pile"] = parts.regions["pile" + ("" if seat is None else SEATED)]
    else:
        out["pile"] = render(
            "games/partials/live/pile.html",
            {
                **base,
                "view": view,
                "controls": controls,
                "pile": display.discard_pile(view, legal),
                "pile_refusal": display.pile_refusal(view, legal),
            },
        )
    can_leave = seat is not None
    out["seat-tools"] = _variant(parts, "seat-tools", (can_leave,), {"can_leave": can_leave})
    ready = presenters.ready_flags(snap, seat, base["hand_over"])
    key = (ready["ready_offered"], ready["ready_pressed"])
    out["hand-end"] = _variant(parts, "hand-end", key, ready)
    out["waiting-room"] = _variant(parts, "waiting-room", (), {})
    out["game-end"] = _variant(parts, "game-end", (), {})
    return out


def _seat_view(parts: VersionParts, seat: int) -> dict[str, Any]:
    """The seat's engine view, once per version and process: a person with the table open
    in two tabs (or a page and a phone) has two sockets on the same seat."""
    hit = parts.views.get(seat)
    if hit is None:
        hit = parts.views[seat] = presenters.seat_view(parts.snap, seat)
    return hit


def _table_state(
    snap: TableSnapshot,
    base: dict[str, Any],
    view: dict[str, Any],
    seat: int | None,
    legal: list[dict[str, Any]],
    timed_out: bool,
    names: list[str],
) -> str:
    game = base["game"]
    hand = f"{game['number']}-{game['hand']}" if game and game["hand"] else ""
    last = base["last_event"]
    status = display.hand_end_line(last, display.status_text(view, names, seat, legal))
    text = ""
    if timed_out:
        text += '<span class="timed-out">Your time ran out; a move was made for you.</span> '
    if last:
        text += f'<span class="last-event">{escape(last)}.</span> '
    return (
        f'<div id="table-state" hx-swap-oob="true" class="table-state"'
        f' data-version="{snap.version}" data-status="{escape(snap.table.status)}"'
        f' data-phase="{escape(view["phase"])}" data-my-turn="{"true" if legal else "false"}"'
        f' data-seat="{"" if seat is None else seat}" data-hand="{hand}">\n'
        f"{text}<strong>{escape(status)}</strong>\n</div>"
    )


def _players(parts: VersionParts, seat: int | None, covered: bool) -> str:
    """The others around the table from this seat, each entry rendered once per version;
    for a person whose seat a bot plays, the notice with "I'm back" first."""
    items = _seat_items(parts)
    count = len(items)
    if seat is None or not 0 <= seat < count:
        others, label = items, "Players"
    else:
        others = [items[(seat + step) % count] for step in range(1, count)]
        label = "The other players"
    return (
        f'<section id="players" hx-swap-oob="true" class="seats seats-{len(others)}"'
        f' aria-label="{label}">\n{_covered_notice(parts) if covered else ""}'
        '<ul class="player-list">\n' + "".join(others) + "\n</ul>\n</section>"
    )


def _seat_items(parts: VersionParts) -> list[str]:
    if parts.seat_items is None:
        template = _template("games/partials/seat.html")
        context = Context(parts.ctx)
        items = []
        for row in parts.ctx["players"]:
            with context.push(p=row):
                items.append(compact(template.render(context)))
        parts.seat_items = items
    return parts.seat_items


def _covered_notice(parts: VersionParts) -> str:
    back = escape(reverse("seat_back", args=[parts.snap.table.pk]))
    return (
        '<div class="notice covered" role="alert">\n<p>A bot is playing your seat (you ran out'
        " of time twice, or lost your connection).</p>\n"
        f'<form method="post" action="{back}" hx-post="{back}" hx-swap="none"'
        ' class="inline-form"><button type="submit" class="button">I\'m back</button>'
        "</form>\n</div>\n"
    )


def _melds(parts: VersionParts, seat: int | None, legal: list[dict[str, Any]]) -> str:
    base = parts.ctx
    groups = display.melds_by_owner(base["melds"], base["names"], seat, legal)
    head = (
        '<section id="melds" hx-swap-oob="true" class="area melds" aria-labelledby="melds-heading">'
        '\n<h2 id="melds-heading" class="area-heading visually-hidden">Melds on the table</h2>\n'
    )
    if not groups:
        return head + '<p class="empty-note">No melds yet.</p>\n</section>'
    playing = base["view"]["phase"] == "play" and bool(legal)
    body = []
    for group in groups:
        targets = tuple(m["id"] for m in group["melds"] if m["can_lay_off"]) if playing else ()
        key = (group["seat"], group["is_me"], targets)
        html = parts.meld_groups.get(key)
        if html is None:
            html = parts.meld_groups[key] = _meld_group(group, targets)
        body.append(html)
    return head + '<div class="meld-groups">\n' + "\n".join(body) + "\n</div>\n</section>"


def _meld_group(group: dict[str, Any], targets: tuple[int, ...]) -> str:
    owner = group["seat"]
    me = group["is_me"]
    lines = [
        f'<section class="meld-group{" meld-group-me" if me else ""}"'
        f' aria-labelledby="meld-owner-{owner}" data-owner="{owner}">',
        f'<h3 class="meld-owner" id="meld-owner-{owner}"><span class="seat-token"'
        f' aria-hidden="true">{escape(group["token"])}</span> {escape(group["name"])}'
        + (' <span class="muted">(you)</span>' if me else "")
        + "</h3>",
        f'<ul class="meld-list" id="meld-list-{owner}">',
    ]
    for meld in group["melds"]:
        number = escape(meld["id"])
        button = ""
        if meld["id"] in targets:
            button = (
                '\n<button type="button" class="button button-small button-secondary'
                f' lay-off-button" data-meld="{number}">Lay off here<span'
                f' class="visually-hidden"> on meld {number}</span></button>'
            )
        lines.append(
            f'<li id="meld-{number}" class="meld" data-meld="{number}">\n<span class="meld-label"'
            f' title="Meld {number}"><span class="visually-hidden">Meld </span>{number}<span'
            f' class="visually-hidden">: a {escape(meld["kind"])}</span></span>\n'
            '<span class="meld-cards">'
            + "".join(c["html"] for c in meld["cards"])
            + f"</span>{button}\n</li>"
        )
    lines.append("</ul>\n</section>")
    return "\n".join(lines)


_HAND_GROUP = (
    '<div class="hand-cards" role="group" aria-label="Your cards. Arrow keys move, Shift with'
    ' an arrow moves the card, Enter or Space selects.">\n'
)


def _plural(count: Any) -> str:
    return "" if count == 1 else "s"


def _my_hand(base: dict[str, Any], view: dict[str, Any], seat: int | None) -> str:
    me = base["players"][seat] if seat is not None else None
    codes = engine.sort_cards(view["hand"]) if view.get("hand") else []
    to_act = me is not None and me["to_act"]
    head = (
        f'<section id="my-hand" hx-swap-oob="true" class="area my-hand'
        f'{" player-to-act" if to_act else ""}" aria-labelledby="hand-heading"'
    )
    if not codes:
        return head + " hidden>\n</section>"
    facts = []
    if me is not None:
        facts.append(f'<span class="seat-token" aria-hidden="true">{escape(me["token"])}</span>')
        if me["is_dealer"]:
            facts.append('<span class="badge">dealer</span>')
        side = me.get("side")
        if side:
            partners = ", ".join(escape(p) for p in me["partners"])
            facts.append(
                f'<span class="badge badge-side side-{side}">side {side}, with {partners}</span>'
            )
        if me.get("running") is not None:
            facts.append(
                f'<span class="player-score player-running">{escape(me["running"])}'
                " this hand</span>"
            )
        else:
            total = me["total"]
            facts.append(
                f'<span class="player-score">{escape(total)} point{_plural(total)}'
                f"{' (side)' if side else ''}</span>"
            )
        if to_act:
            doing = (
                f"may call {escape(base['claim_word'])}" if view["phase"] == "claim" else "to move"
            )
            turn = base["table"].turn_seconds or ""
            facts.append(
                f'<span class="player-clock" data-deadline="{escape(base["deadline"] or "")}"'
                f' data-turn-seconds="{turn}">{doing}</span>'
            )
        if me["fronts"]:
            shown = "".join(c["small_html"] for c in me["fronts"])
            facts.append(f'<span class="player-fronts">in front: {shown}</span>')
        if me["displayed"]:
            shown = "".join(c["small_html"] for c in me["displayed"])
            facts.append(
                '<span class="player-known player-displayed">on show until your next'
                f" turn: {shown}</span>"
            )
    mine = '\n<span class="my-facts">\n' + "\n".join(facts) + "\n</span>" if me is not None else ""
    count = len(codes)
    buttons = "".join(display.hand_button(code, at) for at, code in enumerate(codes))
    return (
        head + '>\n<div class="my-seat">\n<h2 id="hand-heading" class="area-heading">Your hand'
        f' <span class="muted">({count} card{_plural(count)})</span></h2>{mine}\n</div>\n'
        + _HAND_GROUP
        + buttons
        + "\n</div>\n</section>"
    )
