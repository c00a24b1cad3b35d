"""The browser socket's frame: the table's regions, shared ones built once per version.

A browser seat used to get the whole table (``templates/games/partials/table_live.html``)
rendered for it alone after every move: about 27 times the JSON frame's cost and ~16 KB a
frame. Here the page's regions (one template each, ``games/partials/live/``) are of two
kinds. The shared ones are the same for every seat and for spectators, so they are built
once per table version and process from the spectator's view (which holds nothing a seat
may not see, by construction) and reused for every socket: as strings while a hand is
played (games.table.shared_frames), else from the spectator's whole context and the
templates. The others are built for the seat (games.table.seat_frames). Each socket then
receives only the regions whose text changed since its last frame (htmx swaps each by its
id, out of band), plus ``table-state`` always: it carries the version the page acts on.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from typing import Any

from django.template import Context
from django.template.loader import get_template

from games.selectors import TableSnapshot
from games.table import display, kept, presenters, seat_frames, shared_frames
from games.table.seat_frames import SEATED, VersionParts, compact

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

_CACHE_LIMIT = 256
_shared: OrderedDict[tuple[int, int], VersionParts] = OrderedDict()
_lock = threading.Lock()  # frames are built on a pool of threads (games.consumers)


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
    """Regions from their templates, indentation out (``seat_frames.compact``)."""
    templates = _templates()
    context = Context(ctx)
    return {r: compact(templates[r].render(context)) for r in REGIONS if r in regions}


def version_parts(snap: TableSnapshot) -> VersionParts:
    """What this snapshot's frames share, built once per (table, version) and process."""
    key = (snap.table.pk, snap.version)
    hit = _shared.get(key)
    # The snapshot itself must match, not only its key: sockets of a process share the
    # snapshot cache's object, and one reloaded from the database renders afresh.
    if hit is not None and hit.snap is snap:
        return hit
    if shared_frames.builds(snap):  # a hand in play: strings, and texts kept across versions
        parts = shared_frames.version_parts(snap)
    else:
        parts = _from_templates(snap)
    seat_frames.prepare(parts)
    with _lock:
        _shared[key] = parts
        _shared.move_to_end(key)
        if len(_shared) > _CACHE_LIMIT:
            _shared.popitem(last=False)
    return parts


def _from_templates(snap: TableSnapshot) -> VersionParts:
    """The shared part of a version without a hand in play (the waiting room, a finished
    game): the spectator's whole context and the regions' templates."""
    ctx = presenters.table_context(snap, None, None, seat_only=False)
    rendered = render_regions(ctx, SHARED | SHARED_WHEN_IDLE)
    # A seated player who is not to move is told why a pile card cannot be taken in other
    # words than a spectator; nothing else of theirs differs (pinned by the tests).
    seated = {**ctx, "pile_refusal": display.pile_refusal({"seat": 0}, [])}
    for region in SHARED_WHEN_IDLE:
        rendered[region + SEATED] = render_regions(seated, (region,))[region]
    return VersionParts(snap=snap, ctx=ctx, regions=rendered)


def shared_regions(snap: TableSnapshot) -> dict[str, str]:
    """The shared regions of this snapshot, rendered once per (table, version) and process."""
    return version_parts(snap).regions


def forget(table_id: int) -> None:
    """Drop a table's cached version parts, so its next frame builds its version's shared
    part again (the benchmark measures each version as a process first meets it). The
    texts kept from version to version (games.table.kept) stay, as they do in a process
    that renders every version of the table."""
    with _lock:
        for key in [k for k in _shared if k[0] == table_id]:
            del _shared[key]


def reset() -> None:
    """Forget everything this process keeps for building frames (tests and benchmarks
    that must start cold)."""
    with _lock:
        _shared.clear()
    _parsed.clear()
    kept.forget()
    seat_frames.forget()


def seat_regions(snap: TableSnapshot, seat: int | None, user: Any) -> dict[str, str]:
    """Every region as this seat sees it: the shared ones from the cache, the seat's own
    built by games.table.seat_frames, or (states it does not build) rendered from the seat's
    whole context."""
    return _seat_regions(version_parts(snap), snap, seat, user)


def _seat_regions(
    parts: VersionParts, snap: TableSnapshot, seat: int | None, user: Any
) -> dict[str, str]:
    shared = parts.regions
    own = seat_frames.seat_regions(snap, parts, seat, user)
    if own is not None:
        return {**own, **{r: shared[r] for r in SHARED}}
    ctx = presenters.table_context(snap, seat, user, seat_only=True)
    if not ctx["legal"]:
        own = render_regions(ctx, frozenset(REGIONS) - SHARED - SHARED_WHEN_IDLE)
        suffix = "" if ctx["my_seat"] is None else SEATED
        idle = {r: shared[r + suffix] for r in SHARED_WHEN_IDLE}
        return {**own, **{r: shared[r] for r in SHARED}, **idle}
    own = render_regions(ctx, frozenset(REGIONS) - SHARED)
    return {**own, **{r: shared[r] for r in SHARED}}


def frame(
    snap: TableSnapshot, seat: int | None, user: Any, sent: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    """The text for one socket and what it will then have been sent: only the regions
    whose text differs from what ``sent`` (region -> hash of the text last sent to that
    socket) records, and ``table-state`` always. ``sent`` itself is not changed: the caller
    keeps the new record only once the frame has really gone (a frame it drops as stale
    must not count as seen). An empty ``sent`` (a new socket, a resync) gets every region."""
    version = version_parts(snap)
    return _assemble(version, _seat_regions(version, snap, seat, user), sent)


def frame_from_strings(
    snap: TableSnapshot, seat: int | None, user: Any, sent: dict[str, Any]
) -> tuple[str, dict[str, Any]] | None:
    """``frame``, when this version and seat are built from strings alone; None when they
    need the templates. The string path reads only the snapshot, so a socket may build it on
    its event loop (as a JSON socket does its frame) instead of a hop to a worker thread for
    each socket and version; the templates' path may read the database, so it stays in a
    thread. The snapshot must be one ``shared_frames.builds`` accepts, of an unmanaged table
    (a managed one's hand end asks the database what may be shown)."""
    if snap.table.managed or not shared_frames.builds(snap):
        return None
    version = version_parts(snap)
    own = seat_frames.seat_regions(snap, version, seat, user)
    if own is None:
        return None
    return _assemble(version, {**own, **{r: version.regions[r] for r in SHARED}}, sent)


def _assemble(
    version: VersionParts, regions: dict[str, str], sent: dict[str, Any]
) -> tuple[str, dict[str, Any]]:
    out = []
    after = dict(sent)
    for region in REGIONS:
        html = regions[region]
        if region == "pile" and (pieces := version.cuts.get(html) or _pile_pieces(html)):
            out.extend(_pile_changes(html, pieces, sent, after))
            continue
        if region in ITEMS:
            cut = version.cuts.get(html) or _items(html, ITEMS[region])
            out.extend(_item_changes(html, cut, sent, after, region))
            continue
        digest = hash(html)
        if region != ALWAYS_SENT and sent.get(region) == digest:
            continue
        after[region] = digest
        out.append(html)
    return "\n".join(out), after


STOCK_OPEN = '<div id="stock" class="stock">'
STOCK_ALONE = '<div id="stock" hx-swap-oob="true" class="stock">'
_DISCARDS_OPEN = '<div class="discards">'
HEADING_OPEN = '<h2 id="pile-heading"'
HEADING_ALONE = '<h2 id="pile-heading" hx-swap-oob="true"'
_FAN_OPEN = '<ol id="pile-fan"'
FAN_APPEND = '<ol id="pile-fan" hx-swap-oob="beforeend">'
_CARD_OPEN = '<li class="pile-card">'


def _pile_changes(
    html: str, pieces: tuple[str, str, str, list[str]], sent: dict[str, Any], after: dict[str, Any]
) -> list[str]:
    """What of the pile this socket needs. Every draw changes the stock's count and every
    discard adds one card to the fan; the rest of the region (most of its bytes: the cards
    already in the fan) changes only on a take or when the seat's choices do. So when only
    those changed, the stock goes alone, the heading (its count) alone, and the new cards
    are appended to the fan (htmx ``beforeend``); anything else sends the whole region."""
    shell, stock, heading, cards = pieces
    record = {
        "pile": hash(shell),
        "stock": hash(stock),
        "pile-heading": hash(heading),
        "pile-cards": tuple(hash(card) for card in cards),
    }
    known = sent.get("pile-cards")
    if (
        sent.get("pile") != record["pile"]
        or known is None
        or record["pile-cards"][: len(known)] != known
    ):
        after.update(record)
        return [html]
    out = []
    if sent.get("stock") != record["stock"]:
        out.append(stock.replace(STOCK_OPEN, STOCK_ALONE, 1))
    if sent.get("pile-heading") != record["pile-heading"]:
        out.append(heading.replace(HEADING_OPEN, HEADING_ALONE, 1))
    if len(cards) > len(known):
        out.append(FAN_APPEND + "\n" + "\n".join(cards[len(known) :]) + "\n</ol>")
    after.update(record)
    return out


def _pile_pieces(pile: str) -> tuple[str, str, str, list[str]] | None:
    """The pile region cut in four: the rest of it (its shell), the stock (``#stock``),
    the heading (``#pile-heading``, the count) and the fan's cards, each as sent."""
    hit = _parsed.get(pile)
    if hit is not None:
        return hit
    start = pile.find(STOCK_OPEN)
    end = pile.find(_DISCARDS_OPEN, start)
    head = pile.find(HEADING_OPEN, end)
    head_end = pile.find("</h2>", head)
    fan = pile.find(_FAN_OPEN, head_end)
    fan_open_end = pile.find(">", fan)
    fan_end = pile.find("</ol>", fan_open_end)
    if min(start, end, head, head_end, fan, fan_open_end, fan_end) < 0:
        return None
    head_end += len("</h2>")
    inner = pile[fan_open_end + 1 : fan_end]
    cards = [_CARD_OPEN + c.rstrip() for c in inner.split(_CARD_OPEN)[1:]]
    shell = pile[:start] + pile[end:head] + pile[head_end : fan_open_end + 1] + pile[fan_end:]
    return _remember(pile, (shell, pile[start:end].rstrip(), pile[head:head_end], cards))


ITEMS: dict[str, str] = {"players": '<li id="player-', "melds": '<li id="meld-'}
"""Regions sent item by item: each player's entry, each meld (their opening tags)."""
_UL = re.compile(r'<ul [^>]*id="([\w-]+)"[^>]*>')


def _items(html: str, opening: str) -> tuple[int, list[tuple[str, str | None, str]], Any]:
    """The region's shell (the region without its items) as a hash, its items as (id, id
    of their list, text), and the record a socket keeps of them: (id, list, hash)."""
    hit = _parsed.get(html)
    if hit is not None:
        return hit
    lists = [(m.start(), m.group(1)) for m in _UL.finditer(html)]
    items = []
    shell = []
    at = 0
    where: str | None = None
    next_list = 0
    while (start := html.find(opening, at)) >= 0:
        end = html.find("</li>", start) + len("</li>")
        key = html[start + len('<li id="') : html.find('"', start + len('<li id="'))]
        while next_list < len(lists) and lists[next_list][0] < start:
            where = lists[next_list][1]
            next_list += 1
        items.append((key, where, html[start:end]))
        shell.append(html[at:start])
        at = end
    shell.append(html[at:])
    record = tuple((key, where, hash(text)) for key, where, text in items)
    return _remember(html, (hash("".join(shell)), items, record))


_parsed: dict[str, Any] = {}
_PARSED_LIMIT = 2048


def _remember(html: str, result: Any) -> Any:
    """A region's cut, by its text: the idle seats of a version share one pile and often
    the same melds, so each text is cut once (a hit is a hash and an identity check)."""
    if len(_parsed) >= _PARSED_LIMIT:
        _parsed.clear()
    _parsed[html] = result
    return result


def _item_changes(
    html: str, cut: Any, sent: dict[str, Any], after: dict[str, Any], region: str
) -> list[str]:
    """A region whose items changed alone goes as those items: a changed one replaces
    its element by id, a new one at the end of its list is appended to it (``beforeend``).
    A move changes one or two entries of the list of players, and a lay-off one meld,
    while the rest of the region (most of its bytes) stays as the socket has it. Anything
    else (a new owner's group of melds, items gone or reordered) sends the whole region."""
    shell, items, record = cut
    known = sent.get(region + "#items")
    after[region] = shell
    after[region + "#items"] = record
    if sent.get(region) != shell or known is None:
        return [html]
    if known == record:
        return []
    old = {key: (where, digest) for key, where, digest in known}
    order: dict[str | None, list[str]] = {}
    for key, where, _digest in record:
        order.setdefault(where, []).append(key)
    for where, keys in order.items():
        before = [key for key, at, _digest in known if at == where]
        if keys[: len(before)] != before:
            return [html]
    if any(old[key][0] != where for key, where, _d in record if key in old):
        return [html]
    out = []
    added: dict[str | None, list[str]] = {}
    for (key, where, digest), (_k, _w, text) in zip(record, items, strict=True):
        if key not in old:
            if where is None:
                return [html]
            added.setdefault(where, []).append(text)
        elif old[key][1] != digest:
            out.append(text.replace(f'<li id="{key}"', f'<li id="{key}" hx-swap-oob="true"', 1))
    for where, texts in added.items():
        out.append(f'<ul id="{where}" hx-swap-oob="beforeend">\n' + "\n".join(texts) + "\n</ul>")
    return out
