"""The browser socket's frame: the table's regions, shared ones rendered once per version.

A browser seat used to get the whole table (``templates/games/partials/table_live.html``)
rendered for it alone after every move: about 27 times the JSON frame's cost and ~16 KB a
frame. Here the page's regions (one template each, ``games/partials/live/``) are of two
kinds. The shared ones are the same for every seat and for spectators, so they are rendered
once per table version and process from the spectator's context (which holds nothing a seat
may not see, by construction: the spectator's engine view) and reused for every socket. The
others are rendered for the seat. Each socket then receives only the regions whose text
changed since its last frame (htmx swaps each by its id, out of band), plus ``table-state``
always: it carries the version the page acts on.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from django.template import Context
from django.template.loader import get_template

from games.selectors import TableSnapshot
from games.table import display, presenters

REGIONS: tuple[str, ...] = (
    "table-state",
    "waiting-room",
    "players",
    "melds",
    "pile",
    "wild-note",
    "obligation",
    "my-hand",
    "controls",
    "seat-tools",
    "log",
    "hand-end",
    "game-end",
    "score-sheet",
)
SHARED: frozenset[str] = frozenset({"wild-note", "log", "score-sheet"})
"""Regions whose template reads nothing of the seat or user; pinned by
tests/games/test_table_frames.py over whole bot games."""
SHARED_WHEN_IDLE: frozenset[str] = frozenset({"pile"})
"""Regions that read the seat only through its legal moves: a seat with none (every seat but
the one to move) sees the spectator's, rendered once per version too."""
ALWAYS_SENT = "table-state"
SEATED = "@seated"
"""Key suffix of an idle region's rendering for a seated player (not a spectator)."""

_CACHE_LIMIT = 256
_shared: OrderedDict[tuple[int, int], tuple[TableSnapshot, dict[str, str]]] = OrderedDict()


def _templates() -> dict[str, Any]:
    """The region templates, loaded once (Django's loader caches them too, but the
    lookup by name is not free at a dozen regions per frame)."""
    global _loaded
    if _loaded is None:
        _loaded = {r: get_template(f"games/partials/live/{r}.html").template for r in REGIONS}
    return _loaded


_loaded: dict[str, Any] | None = None


def render_regions(
    ctx: dict[str, Any], regions: tuple[str, ...] | frozenset[str]
) -> dict[str, str]:
    templates = _templates()
    context = Context(ctx)
    return {r: templates[r].render(context) for r in REGIONS if r in regions}


def shared_regions(snap: TableSnapshot) -> dict[str, str]:
    """The shared regions of this snapshot, rendered once per (table, version) and process."""
    key = (snap.table.pk, snap.version)
    hit = _shared.get(key)
    # The snapshot itself must match, not only its key: sockets of a process share the
    # snapshot cache's object, and one reloaded from the database renders afresh.
    if hit is not None and hit[0] is snap:
        return hit[1]
    ctx = presenters.table_context(snap, None, None, seat_only=False)
    rendered = render_regions(ctx, SHARED | SHARED_WHEN_IDLE)
    # A seated player who is not to move is told why a pile card cannot be taken in other
    # words than a spectator; nothing else of theirs differs (pinned by the tests).
    seated = {**ctx, "pile_refusal": display.pile_refusal({"seat": 0}, [])}
    for region in SHARED_WHEN_IDLE:
        rendered[region + SEATED] = render_regions(seated, (region,))[region]
    _shared[key] = (snap, rendered)
    _shared.move_to_end(key)
    if len(_shared) > _CACHE_LIMIT:
        _shared.popitem(last=False)
    return rendered


def forget(table_id: int) -> None:
    """Drop a table's cached shared regions (the benchmark measures a cold version)."""
    for key in [k for k in _shared if k[0] == table_id]:
        del _shared[key]


def seat_regions(snap: TableSnapshot, seat: int | None, user: Any) -> dict[str, str]:
    """Every region as this seat sees it: the shared ones from the cache, the rest rendered."""
    ctx = presenters.table_context(snap, seat, user, seat_only=True)
    shared = shared_regions(snap)
    if not ctx["legal"]:
        own = render_regions(ctx, frozenset(REGIONS) - SHARED - SHARED_WHEN_IDLE)
        suffix = "" if ctx["my_seat"] is None else SEATED
        idle = {r: shared[r + suffix] for r in SHARED_WHEN_IDLE}
        return {**own, **{r: shared[r] for r in SHARED}, **idle}
    own = render_regions(ctx, frozenset(REGIONS) - SHARED)
    return {**own, **{r: shared[r] for r in SHARED}}


def frame(
    snap: TableSnapshot, seat: int | None, user: Any, sent: dict[str, int]
) -> tuple[str, dict[str, int]]:
    """The text for one socket and what it will then have been sent: only the regions
    whose text differs from what ``sent`` (region -> hash of the text last sent to that
    socket) records, and ``table-state`` always. ``sent`` itself is not changed: the caller
    keeps the new record only once the frame has really gone (a frame it drops as stale
    must not count as seen). An empty ``sent`` (a new socket, a resync) gets every region."""
    regions = seat_regions(snap, seat, user)
    parts = []
    after = dict(sent)
    for region in REGIONS:
        html = regions[region]
        if region == "pile" and (split := _stock_apart(html)) is not None:
            # Every draw changes the stock's count, rarely the discards (most of the
            # region's bytes): the stock goes alone when it is all that changed.
            rest, stock = hash(split[0]), hash(split[1])
            if sent.get("pile") != rest:
                after.update(pile=rest, stock=stock)
                parts.append(html)
            elif sent.get("stock") != stock:
                after["stock"] = stock
                parts.append(split[1].replace(STOCK_OPEN, STOCK_ALONE, 1))
            continue
        digest = hash(html)
        if region != ALWAYS_SENT and sent.get(region) == digest:
            continue
        after[region] = digest
        parts.append(html)
    return "\n".join(parts), after


STOCK_OPEN = '<div id="stock" class="stock">'
STOCK_ALONE = '<div id="stock" hx-swap-oob="true" class="stock">'
_DISCARDS_OPEN = '<div class="discards">'


def _stock_apart(pile: str) -> tuple[str, str] | None:
    """The pile region without its stock, and the stock (``#stock``, nested in it)."""
    start = pile.find(STOCK_OPEN)
    end = pile.find(_DISCARDS_OPEN, start)
    if start < 0 or end < 0:
        return None
    return pile[:start] + pile[end:], pile[start:end].rstrip()
