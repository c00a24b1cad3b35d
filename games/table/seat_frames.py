"""The per-seat regions of a browser frame, built as plain strings from one shared context.

A browser socket's frame used to cost a whole template context (the seat's view, the
display helpers, the legal moves) plus a dozen template renders for every seat after every
move: about 18 times the JSON frame. Almost all of it is the same for every seat. So a
table version's shared part (games.table.shared_frames: the spectator's view and what the
regions read of it, every player's entry in the list of players) is built once per process,
and a seat adds only what is its own: its hand, its place around the table, the "(you)"
marks, its legal moves. Its engine view is the spectator's plus its cards
(``engine.view_for_seat``).

The regions that differ for nearly every seat (the version line, the players around the
table, the melds, the hand, the mover's pile and controls, the obligation line) are written
as strings (here and in ``games.table.region_html``), with every value escaped, because a
template render per region per seat is what cost most. Regions a move rarely changes (the
melds, the hand, the hand-end panel) are kept from the version before while their inputs
are the same (``games.table.kept``). They must stay the same HTML as their templates
(``templates/games/partials/live/``): the page renders those on a page load, the socket
sends these. ``tests/games/test_table_frames.py`` compares the two for every seat over
whole bot games of several presets, whitespace aside, so a change to a template shows up
there until it is made here too. States this module does not build (the waiting room, a
finished game, a seat whose clock ran out, a summary that differs by who looks) return None:
the caller then renders the seat's own context from the templates as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from typing import Any

import orjson
from django.template import Context
from django.template.loader import get_template
from django.urls import reverse

from games import engine
from games.models import Table
from games.selectors import TableSnapshot
from games.table import display, kept, presenters, region_html

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
    views: dict[int, dict[str, Any]] = field(default_factory=dict)
    melds_key: Any = None
    """What the melds region reads of the version (the melds, the names): a seat's melds
    are kept from one version to the next while it and the seat's lay-off targets match."""
    melds: list[dict[str, Any]] | None = None
    per_seat: bool = False
    """Whether the seats' regions are built here (``prepare``): a hand in play, and no
    summary that differs by who looks."""
    idle_cards: list[str] | None = None
    """The pile's cards as a seat that may take none sees them (games.table.shared_frames)."""
    hand_end_key: Any = None
    seat_cuts: list[tuple[str, str, int]] = field(default_factory=list)
    cuts: dict[str, Any] = field(default_factory=dict)
    """Regions built here whose cut into items (games.table.table_frames) is known: by text."""


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


LASTING = frozenset({"seat-tools", "waiting-room", "game-end"})
"""Regions that, in the states built here, read only their key and the table's id: the
seat tools whether the seat may leave, and the waiting room and the game's end are hidden
while a hand is played (pinned by the tests, which compare
every built region with its template over whole games)."""
_LASTING_LIMIT = 4096
_lasting: dict[tuple[Any, ...], str] = {}


def forget() -> None:
    """Drop the regions kept per process (tests and benchmarks that start cold)."""
    _lasting.clear()


def prepare(parts: VersionParts) -> None:
    """Build what every seat of this version will read, once: each player's entry and
    the controls of a seat not to move. (Done lazily it would count in the first seat's
    frame; here it counts in the version's shared cost, where it belongs.)"""
    snap = parts.snap
    parts.per_seat = builds(snap, parts) and not presenters.summary_differs_by_user(snap)
    if parts.per_seat:
        _seat_items(parts)


_IDLE_CONTROLS = display.controls([], None)
_IDLE_CONTROLS_HTML = region_html.controls("[]", _IDLE_CONTROLS, None, "")


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
    if not parts.per_seat:
        return None  # no hand in play, or a summary only some players may see: templates
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
        "my-hand": _my_hand(parts, view, seat),
    }
    out["obligation"] = region_html.obligation(display.obligation_text(view, names))
    if not legal:  # every seat not to move: the pile as the version's shared part has it
        out["controls"] = _IDLE_CONTROLS_HTML
        out["pile"] = parts.regions["pile" + ("" if seat is None else SEATED)]
    else:
        controls = display.controls(legal, view)
        out["controls"] = region_html.controls(
            json.dumps(legal), controls, view["phase"], base["claim_word"]
        )
        out["pile"] = _mover_pile(parts, view, legal, controls)
    can_leave = seat is not None
    out["seat-tools"] = _variant(parts, "seat-tools", (can_leave,), {"can_leave": can_leave})
    out["hand-end"] = _hand_end(parts, seat)
    out["waiting-room"] = _variant(parts, "waiting-room", (), {})
    out["game-end"] = _variant(parts, "game-end", (), {})
    return out


def _seat_view(parts: VersionParts, seat: int) -> dict[str, Any]:
    """The seat's engine view, once per version and process: a person with the table open
    in two tabs (or a page and a phone) has two sockets on the same seat."""
    hit = parts.views.get(seat)
    if hit is None:
        hit = parts.views[seat] = presenters.seat_view_from(parts.snap, parts.ctx["view"], seat)
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
        order, label = list(range(count)), "Players"
    else:
        order = [(seat + step) % count for step in range(1, count)]
        label = "The other players"
    others = [items[at] for at in order]
    head = (
        f'<section id="players" hx-swap-oob="true" class="seats seats-{len(others)}"'
        f' aria-label="{label}">\n{_covered_notice(parts) if covered else ""}'
        '<ul class="player-list">\n'
    )
    text = head + "".join(others) + _PLAYERS_TAIL
    # How games.table.table_frames cuts the region into its entries (each entry is
    # "\n<li ...>...</li>\n"), known here without parsing the text again for every seat.
    cuts = [parts.seat_cuts[at] for at in order]
    parts.cuts[text] = (
        hash(head + "\n\n" * len(others) + _PLAYERS_TAIL),
        [(key, None, item) for key, item, _digest in cuts],
        tuple((key, None, digest) for key, _item, digest in cuts),
    )
    return text


_PLAYERS_TAIL = "\n</ul>\n</section>"


def _seat_items(parts: VersionParts) -> list[str]:
    """Every player's entry in the list of players, as everyone sees it: built once per
    version, and kept from the version before while what it shows is the same (a move
    changes one or two: the mover's count, whose turn it is)."""
    if parts.seat_items is None:
        base = parts.ctx
        table = base["table"]
        clock = (base["deadline"], table.turn_seconds, base["view"]["phase"] == "claim")
        clock_key = (*clock, base["claim_word"])
        parts.seat_items = [
            kept.kept(
                table.pk,
                ("player", row["index"]),
                _entry_key(row, clock_key),
                lambda row=row: region_html.seat(
                    row,
                    deadline=base["deadline"],
                    turn_seconds=table.turn_seconds,
                    phase=base["view"]["phase"],
                    claim=base["claim_word"],
                ),
            )
            for row in base["players"]
        ]
        parts.seat_cuts = [
            (f"player-{row['index']}", entry[1:-1], hash(entry[1:-1]))
            for row, entry in zip(base["players"], parts.seat_items, strict=True)
        ]
    return parts.seat_items


def _entry_key(row: dict[str, Any], clock: tuple[Any, ...]) -> tuple[Any, ...]:
    """All a player's entry (``region_html.seat``) reads of its row, and of the clock for
    the player to move."""
    presence = row["presence_info"]
    return (
        row["index"],
        row["name"],
        row["token"],
        row["is_me"],
        row["bot"],
        row["left"],
        row["autoplay"],
        row["hand_size"],
        row.get("running"),
        row["total"],
        row["is_dealer"],
        presence["state"],
        presence["connected"],
        row.get("side"),
        tuple(row.get("partners") or ()),
        tuple(c["code"] for c in row["known"]),
        tuple(c["code"] for c in row["displayed"]),
        tuple(c["code"] for c in row["fronts"]),
        clock if row["to_act"] else None,
    )


def _mover_pile(
    parts: VersionParts,
    view: dict[str, Any],
    legal: list[dict[str, Any]],
    controls: dict[str, Any],
) -> str:
    """The pile as the seat to move sees it: the cards it may take or call on are buttons
    (none once it has drawn: then the cards are those every other seat sees)."""
    if controls["take"] or controls["claim"] or parts.idle_cards is None:
        cards = [
            region_html.pile_card(
                c["button_html"] if c["takeable"] or c["claimable"] else c["html"],
                c.get("lies_over", ""),
            )
            for c in display.discard_pile(view, legal)
        ]
    else:
        cards = parts.idle_cards
    text, cut = region_html.pile(
        stock_count=view["stock_count"],
        scattered=bool(view.get("scatter")),
        cards=cards,
        refusal=display.pile_refusal(view, legal),
        claim_word=parts.ctx["claim_word"],
        draw=controls["draw"],
        take=controls["take"],
        claim=controls["claim"],
    )
    parts.cuts[text] = cut
    return text


def _hand_end(parts: VersionParts, seat: int | None) -> str:
    """The last finished hand's summary, which stays on screen through the next hand: from
    its template only when what it reads changes (a hand ends, Ready is pressed), else as
    kept from the version before. Only the Ready form differs by seat."""
    snap = parts.snap
    base = parts.ctx
    table = snap.table
    over = base["hand_over"]
    ready = presenters.ready_flags(snap, seat, over)
    if parts.hand_end_key is None:  # what every seat's panel reads, once per version
        finished = [h for h in snap.past_hands if h.result]
        hand = finished[-1] if finished else None
        parts.hand_end_key = (
            None if hand is None else (hand.number, orjson.dumps(hand.result)),
            snap.game.number if snap.game is not None else 0,
            tuple(base["names"]),
            over,
            table.managed,
            table.status,
            base["hand_pause"],
            base["game_over"],
        )
    pause = ready["pause_left"] if table.managed and ready["ready_offered"] else None
    key = (parts.hand_end_key, ready["ready_offered"], ready["ready_pressed"], pause)

    def build() -> str:
        summary = presenters.hand_summary(snap, None, base["names"], over, None)
        return render("games/partials/live/hand-end.html", {**base, **summary, **ready})

    slot = ("hand-end", ready["ready_offered"], ready["ready_pressed"])
    return kept.kept(table.pk, slot, key, build)


def _covered_notice(parts: VersionParts) -> str:
    return _covered_text(parts.snap.table.pk)


@lru_cache(maxsize=1024)
def _covered_text(table_id: int) -> str:
    """The "I'm back" notice of a table (reversing its address is most of its cost)."""
    back = escape(reverse("seat_back", args=[table_id]))
    return (
        '<div class="notice covered" role="alert">\n<p>A bot is playing your seat (you ran out'
        " of time twice, or lost your connection).</p>\n"
        f'<form method="post" action="{back}" hx-post="{back}" hx-swap="none"'
        ' class="inline-form"><button type="submit" class="button">I\'m back</button>'
        "</form>\n</div>\n"
    )


def _melds(parts: VersionParts, seat: int | None, legal: list[dict[str, Any]]) -> str:
    """The melds as this seat sees them ("(you)", its group first, "Lay off here" where it
    may), kept from the version before while the melds, the names and the seat's lay-off
    targets are the same (most moves change none of them)."""
    playing = parts.ctx["view"]["phase"] == "play" and bool(legal)
    targets = (
        tuple(a.get("meld") for a in legal if a["type"] in ("lay_off", "play_natural"))
        if playing
        else ()
    )
    if parts.melds_key is None:  # not a version games.table.shared_frames built
        return _build_melds(parts, seat, legal)
    key = (parts.melds_key, targets)
    return kept.kept(
        parts.snap.table.pk, ("melds", seat), key, lambda: _build_melds(parts, seat, legal)
    )


def _table_melds(parts: VersionParts) -> list[dict[str, Any]]:
    """The melds with their cards' faces (``display.table_melds``), kept per table while the
    melds and the names are the same (every seat's regions read them)."""
    if parts.melds is None:
        base = parts.ctx
        if "melds" in base:  # a context games.table.presenters built whole
            parts.melds = base["melds"]
        else:
            parts.melds = kept.kept(
                parts.snap.table.pk,
                "table-melds",
                parts.melds_key,
                lambda: display.table_melds(base["view"], base["names"]),
            )
    return parts.melds


def _build_melds(parts: VersionParts, seat: int | None, legal: list[dict[str, Any]]) -> str:
    base = parts.ctx
    groups = display.melds_by_owner(_table_melds(parts), base["names"], seat, legal)
    head = (
        '<section id="melds" hx-swap-oob="true" class="area melds" tabindex="0"'
        ' aria-labelledby="melds-heading">'
        '\n<h2 id="melds-heading" class="area-heading visually-hidden">Melds on the table</h2>\n'
    )
    if not groups:
        return head + '<p class="empty-note">No melds yet.</p>\n</section>'
    playing = base["view"]["phase"] == "play" and bool(legal)
    body = []
    for group in groups:
        targets = tuple(m["id"] for m in group["melds"] if m["can_lay_off"]) if playing else ()
        body.append(
            kept.kept(
                parts.snap.table.pk,
                ("meld-group", group["seat"], group["is_me"]),
                (parts.melds_key, targets),
                lambda group=group, targets=targets: _meld_group(group, targets),
            )
        )
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
        number = escape(str(meld["id"]))
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


def _my_hand(parts: VersionParts, view: dict[str, Any], seat: int | None) -> str:
    """The seat's cards and its own facts, kept from the version before while the cards
    and every fact shown are the same (only the mover's change at a move)."""
    base = parts.ctx
    if seat is None or not view.get("hand"):
        return _build_my_hand(base, view, seat)
    me = base["players"][seat]
    clock = (base["deadline"], base["table"].turn_seconds, view["phase"] == "claim")
    key = (
        tuple(view["hand"]),
        me["token"],
        me["is_dealer"],
        me.get("side"),
        tuple(me.get("partners") or ()),
        me.get("running"),
        me["total"],
        clock if me["to_act"] else None,
        base["claim_word"],
        tuple(c["code"] for c in me["fronts"]),
        tuple(c["code"] for c in me["displayed"]),
    )
    return kept.kept(
        parts.snap.table.pk, ("my-hand", seat), key, lambda: _build_my_hand(base, view, seat)
    )


def _build_my_hand(base: dict[str, Any], view: dict[str, Any], seat: int | None) -> str:
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
                f'<span class="player-score player-running">{escape(str(me["running"]))}'
                " this hand</span>"
            )
        else:
            total = me["total"]
            facts.append(
                f'<span class="player-score">{escape(str(total))} point{_plural(total)}'
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
