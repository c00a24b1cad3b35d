"""The browser socket's frames (games/table/table_frames.py): shared regions rendered once per
version hold only what every seat may see, and a socket is sent only what changed."""

from __future__ import annotations

import random

import pytest

from games import selectors
from games.services import moves, tables
from games.table import presenters, table_frames
from tests.games.conftest import play_one, start_table
from tests.games.test_hidden_information import DEALER_DRAW, hidden_from, leaks_in_text

pytestmark = pytest.mark.django_db


def test_shared_regions_are_the_same_for_every_seat_and_spectator_and_hold_no_hidden_card(alice):
    table = start_table(alice, seats=4)
    rng = random.Random(7)
    for _ in range(40):  # draws, discards and melds of a few turns
        snap = selectors.load_snapshot(table.pk)
        shared = table_frames.shared_regions(snap)
        idle = table_frames.SHARED_WHEN_IDLE
        assert set(shared) == table_frames.SHARED | idle | {r + "@seated" for r in idle}
        for seat in [0, 1, 2, 3, None]:
            ctx = presenters.table_context(snap, seat, None)
            own = table_frames.render_regions(ctx, set(shared))
            assert {r: own[r] for r in table_frames.SHARED} == {
                r: shared[r] for r in table_frames.SHARED
            }
            if not ctx["legal"]:  # every seat but the one to move
                suffix = "" if seat is None else "@seated"
                assert {r: own[r] for r in idle} == {r: shared[r + suffix] for r in idle}
            # What the socket sends the seat is what the page would render for it.
            assert _spaced(table_frames.seat_regions(snap, seat, None)) == _spaced(
                table_frames.render_regions(ctx, table_frames.REGIONS)
            )
        # Every hand and the stock, less what the whole table has seen (a spectator's view).
        hidden = hidden_from(snap.state, None)
        # The first-dealer draw (in the log) is a deck of its own, public: not this hand's.
        text = DEALER_DRAW.sub("", "\n".join(shared.values()))
        assert not leaks_in_text(text, hidden)
        play_one(table, rng)


def test_the_regions_of_a_frame_are_the_whole_fragment_for_each_seat(alice):
    table = start_table(alice, seats=4)
    play_one(table, random.Random(1))
    snap = selectors.load_snapshot(table.pk)
    for seat in [0, 1, 2, 3, None]:
        text, _ = table_frames.frame(snap, seat, None, {})
        whole = presenters.state_html(snap, seat, None)
        assert _squeezed(text) == _squeezed(whole)


def _squeezed(html: str) -> str:
    return "".join(html.split())


def _spaced(regions: dict[str, str]) -> dict[str, str]:
    """Regions with every white-space run as one space: what a browser renders the same."""
    return {region: " ".join(html.split()) for region, html in regions.items()}


@pytest.mark.parametrize(
    ("preset", "seats", "options"),
    [
        ("standard", 4, {"target": 100}),
        ("jokers", 3, {"target": 100}),
        ("persian", 4, {"target": 100}),
        ("michigan", 2, {}),
        ("oklahoma", 2, {}),
        ("five-thousand", 3, {"target": 1000}),
        ("throw-down", 3, {"target": 100}),
    ],
)
def test_the_regions_built_as_strings_are_the_templates_html_over_whole_hands(
    alice, preset, seats, options
):
    """games.table.seat_frames and games.table.shared_frames write the hot regions as strings
    (the log, the pile, the players and their entries, the melds, the hand, the controls,
    the status line) and keep others from one version to the next while their inputs are the
    same (the score sheet, the hand-end panel, a seat's melds). Each must stay the HTML its
    template renders from the seat's whole context (the page load uses the templates), for
    every seat and a spectator, through draws, takes, melds, lay-offs, discards and hand
    ends. A template change shows up here until the string version follows it."""
    from games.models import Hand, Seat, Table
    from games.table import seat_frames

    table = start_table(alice, seats=seats, preset=preset, **options)
    if preset == "standard":  # a bot plays alice's seat: her page says so ("I'm back")
        Seat.objects.filter(table=table, index=0).update(autoplay=True)
    rng = random.Random(3)
    built = 0
    for _ in range(400):
        snap = selectors.load_snapshot(table.pk)
        parts = table_frames.version_parts(snap)
        shared = parts.regions
        for seat in [*range(seats), None]:
            ctx = presenters.table_context(snap, seat, None)
            # The shared regions, and the pile of every seat not to move, as the templates
            # render them for this seat.
            wanted = table_frames.render_regions(ctx, table_frames.REGIONS)
            for region in table_frames.SHARED:
                assert _spaced({region: shared[region]}) == _spaced({region: wanted[region]})
            if not ctx["legal"]:
                idle = shared["pile" + ("" if seat is None else "@seated")]
                assert _spaced({"pile": idle}) == _spaced({"pile": wanted["pile"]})
            own = seat_frames.seat_regions(snap, parts, seat, None)
            if own is None:
                continue
            built += 1
            assert _spaced(own) == _spaced({region: wanted[region] for region in own})
        # Where a region's cut into pieces is known as it is built (the pile, the players),
        # it is the cut the socket's frame would find by reading the text.
        for text, cut in parts.cuts.items():
            assert _as_cut(cut) == _as_cut(_parsed(text))
        if snap.table.status != Table.Status.PLAYING:
            break
        if snap.hand.status == Hand.Status.OVER:
            tables.hand_next(table_id=table.pk)
            continue
        play_one(table, rng)
    assert built > 60  # michigan is one hand: two players play it in some 30 moves


def _parsed(text: str):
    table_frames._parsed.pop(text, None)
    if text.startswith('<section id="pile"'):
        return table_frames._pile_pieces(text)
    return table_frames._items(text, table_frames.ITEMS["players"])


def _as_cut(cut):
    return tuple(list(piece) if isinstance(piece, list | tuple) else piece for piece in cut)


def test_a_socket_is_sent_only_the_regions_that_changed_and_always_the_version(alice):
    table = start_table(alice, seats=4)
    snap = selectors.load_snapshot(table.pk)
    seat = snap.state.to_act[0]
    first, sent = table_frames.frame(snap, seat, None, {})
    assert all(f'id="{region}"' in first for region in table_frames.REGIONS)
    again, same = table_frames.frame(snap, seat, None, sent)
    assert same == sent
    assert 'id="table-state"' in again
    assert 'id="score-sheet"' not in again and 'id="my-hand"' not in again
    watcher = (seat + 1) % 4
    _, watcher_sent = table_frames.frame(snap, watcher, None, {})
    snap = selectors.load_snapshot(table.pk)
    action = {"type": "draw_stock"}
    moves.move_submit(table_id=table.pk, seat=seat, action=action, expected_version=snap.version)
    snap = selectors.load_snapshot(table.pk)
    after, _ = table_frames.frame(snap, seat, None, sent)  # the mover: its pile buttons went
    assert 'id="my-hand"' in after and 'id="pile"' in after
    assert 'id="score-sheet"' not in after
    # Another seat: the discards did not change, so only the stock (nested in the pile) goes,
    # as its own out-of-band element, exactly as the whole region holds it.
    theirs, _ = table_frames.frame(snap, watcher, None, watcher_sent)
    assert 'id="pile"' not in theirs and 'id="my-hand"' not in theirs
    stock = theirs[theirs.index('<div id="stock" hx-swap-oob="true"') :].split("\n<", 1)[0]
    whole = table_frames.seat_regions(snap, watcher, None)["pile"]
    assert stock.replace(' hx-swap-oob="true"', "", 1) in whole


def test_the_record_of_what_was_sent_is_left_alone_until_the_caller_keeps_it(alice):
    table = start_table(alice, seats=4)
    snap = selectors.load_snapshot(table.pk)
    sent: dict[str, int] = {}
    table_frames.frame(snap, 0, None, sent)
    assert sent == {}


# --- through the socket, as a browser connects (no format) ---------------------------------


async def _html_state(ws) -> str:
    while True:
        text = await ws.receive_from(timeout=15)
        if not text.startswith("{") and 'id="table-state"' in text:
            return text


@pytest.mark.django_db(transaction=True)
async def test_a_browser_socket_gets_every_region_first_then_only_what_its_move_changed(alice):
    from tests.games.test_table_socket import _connect, _table_for, _version

    table = await _table_for(alice)
    ws = await _connect(table, alice, query="")
    first = await _html_state(ws)
    assert all(f'id="{region}"' in first for region in table_frames.REGIONS)
    version = await _version(table)
    await ws.send_json_to({"id": "m1", "version": version, "action": {"type": "draw_stock"}})
    after = await _html_state(ws)
    assert f'data-version="{version + 1}"' in after
    assert 'id="my-hand"' in after and 'id="pile"' in after
    assert 'id="score-sheet"' not in after and 'id="game-end"' not in after
    await ws.send_json_to({"type": "resync"})
    again = await _html_state(ws)  # a resync is the whole table again
    assert all(f'id="{region}"' in again for region in table_frames.REGIONS)
    await ws.disconnect()


def _apply(page: dict[str, str], frame: str) -> None:
    """What htmx does with a frame, on the page's regions as text: every top-level element
    with ``hx-swap-oob`` replaces the element of its id ("true"), or has its children
    added at the end of it ("beforeend"). The elements a frame sends alone (a player, a
    meld, the stock, the pile's heading, a list) never nest one of their own tag."""
    import re

    for match in re.finditer(r'<(\w+) id="([\w-]+)" hx-swap-oob="(\w+)"', frame):
        tag, key, how = match.groups()
        close = f"</{tag}>"
        end = frame.find(close, match.end())
        if key in table_frames.REGIONS:  # a whole region: its nested tags may repeat
            end = _region_end(frame, match.start())
        element = frame[match.start() : end + len(close)]
        if key in page:
            page[key] = element
            continue
        region = next(r for r, text in page.items() if f'id="{key}"' in text)
        text = page[region]
        start = text.index(f'<{tag} id="{key}"')
        stop = text.index(close, start)
        if how == "true":
            page[region] = (
                text[:start]
                + element.replace(' hx-swap-oob="true"', "", 1)
                + text[stop + len(close) :]
            )
        else:
            assert how == "beforeend"
            children = element[element.index(">") + 1 : -len(close)]
            page[region] = text[:stop] + children + text[stop:]


def _region_end(frame: str, start: int) -> int:
    """Where the region opening at ``start`` closes: just before the next region (or the
    frame's end), at its last closing tag."""
    rest = frame.find(' hx-swap-oob="', frame.index(">", start))
    cut = frame.rfind("\n<", start, rest) if rest >= 0 else len(frame)
    piece = frame[start:cut]
    return start + piece.rstrip().rfind("</")


def test_a_page_that_applies_every_partial_frame_holds_exactly_the_regions_of_its_seat(alice):
    """Players, melds and the pile go item by item (a changed entry by its id, new cards
    and melds appended to their list); applied as htmx applies them, each seat's and a
    spectator's page must end up with the same regions a whole frame would give, after
    every move: draws, takes, melds, lay-offs, discards and a hand end."""
    from games.models import Hand, Table

    table = start_table(alice, seats=4, target=100)
    rng = random.Random(11)
    pages: dict[int | None, dict[str, str]] = {}
    sent: dict[int | None, dict] = {}
    partial = 0
    for _ in range(300):
        snap = selectors.load_snapshot(table.pk)
        for seat in [0, 1, 2, 3, None]:
            text, sent[seat] = table_frames.frame(snap, seat, None, sent.get(seat, {}))
            if seat not in pages:
                pages[seat] = dict(table_frames.seat_regions(snap, seat, None))
            else:
                partial += 'hx-swap-oob="beforeend"' in text or 'id="player-' in text
                _apply(pages[seat], text)
            assert _spaced(pages[seat]) == _spaced(table_frames.seat_regions(snap, seat, None))
        if snap.table.status != Table.Status.PLAYING:
            break
        if snap.hand.status == Hand.Status.OVER:
            tables.hand_next(table_id=table.pk)
            continue
        play_one(table, rng)
    assert partial > 100
