"""What every browser socket of a table version shares, built once per version and process.

While a hand is played (the state nearly every frame is sent in) a version's shared part is
the spectator's view and what the shared regions and the seats read of it: the log, the
pile as a seat not to move sees it, the wild note, the score sheet and each player's entry
in the list of players. Until the third pass this was the spectator's whole template context
(``presenters.table_context``: the score sheet's rows, every display helper) and a dozen
template renders, about ten JSON frames' worth at every move (docs/performance.md).

Now the context holds only what is read (``context``), the log, the pile and the entries
are strings (``games.table.region_html``, pinned to their templates by the tests), and the
score sheet, which changes only when a hand ends, is rendered from its template only when
its inputs change (``games.table.kept``). Nothing here reads a seat's view: the spectator's
view holds only what everyone may see, so every text built here may go to anyone.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import orjson

from games import engine
from games.models import Game, Table
from games.selectors import TableSnapshot
from games.services import clock
from games.table import display, kept, presenters, region_html
from games.table.seat_frames import SEATED, VersionParts, render


def builds(snap: TableSnapshot) -> bool:
    """Whether this version's shared part is built here: a hand is dealt, the table is
    playing and its game goes on (the waiting room and a finished game take the
    templates, from the spectator's whole context, as before)."""
    game = snap.game
    return (
        snap.state is not None
        and snap.table.status == Table.Status.PLAYING
        and (game is None or game.status != Game.Status.FINISHED)
    )


def version_parts(snap: TableSnapshot) -> VersionParts:
    """The version's shared context and regions (only for versions ``builds`` accepts)."""
    ctx = context(snap)
    view = ctx["view"]
    names = ctx["names"]
    regions = {
        "log": _log(snap, view, names, ctx["sides"]),
        "wild-note": region_html.wild_note(display.wild_note(view)),
        "score-sheet": _score_sheet(snap, ctx),
    }
    cards = _idle_cards(view)
    cuts: dict[str, Any] = {}
    regions["pile"], regions["pile" + SEATED] = _idle_piles(view, cards, ctx["claim_word"], cuts)
    parts = VersionParts(snap=snap, ctx=ctx, regions=regions, idle_cards=cards, cuts=cuts)
    # Who laid each meld down comes from the history (display.melders), not the melds alone.
    melders = tuple(sorted(display.melders(view["history"]).items()))
    parts.melds_key = (orjson.dumps(view["melds"]), tuple(names), melders)
    return parts


def context(snap: TableSnapshot) -> dict[str, Any]:
    """What the shared regions and the seats' own read of the spectator's context (the keys
    are those of ``presenters.table_context``, so the templates that still render on a
    miss read the same values)."""
    view = presenters.seat_view(snap, None)
    assert view is not None  # builds(): a hand is dealt
    names = snap.names()
    table = snap.table
    preset = engine.PRESETS.get(table.preset)
    sides = preset.partnerships if preset is not None else ()
    players = display.players(
        view, presenters.seats_summary(snap), None, presenters._shown_totals(snap, view), sides
    )
    game = snap.game
    return {
        "version": snap.version,
        "view": view,
        "names": names,
        "table": table,
        "sides": sides,
        "players": players,
        "game": None
        if game is None
        else {"number": game.number, "hand": snap.hand.number if snap.hand else None},
        "claim_word": display.claim_word(view),
        "deadline": presenters._deadline(snap),
        "hand_over": view["phase"] == "hand_over",
        "last_event": display.last_event(view, names, snap.clock_moves, None),
        "waiting": False,
        "game_over": False,
        "my_seat": None,
        "is_seated": False,
        "hand_pause": round(clock.hand_pause_s()),
    }


# --- the log -----------------------------------------------------------------------------


def _log(snap: TableSnapshot, view: dict[str, Any], names: list[str], sides: Any) -> str:
    game = snap.game
    draw = None
    if game is not None and game.dealer_draw and snap.hand is not None and snap.hand.number == 1:
        draw = _dealer_draw(orjson.dumps(game.dealer_draw), tuple(names), bool(sides))
    return region_html.log(_log_lines(view, names, snap.clock_moves), display.log_start(view), draw)


@lru_cache(maxsize=256)
def _dealer_draw(rounds: bytes, names: tuple[str, ...], partners: bool) -> list[str] | None:
    return display.dealer_draw(orjson.loads(rounds), names, partners=partners) or None


def _log_lines(view: dict[str, Any], names: list[str], clock_moves: Any) -> list[str]:
    """The log's last lines as ``<li>`` elements. An event's line reads only the event and
    the names (``display.action_log``), so each is written once per process; with moves
    the clock made in this hand, every line is worked out again (marking them needs the
    whole history: rare)."""
    if clock_moves:
        lines = display.action_log(view, names, clock_moves=clock_moves)
        return [region_html.log_line(text) for text in lines]
    call = display.claim_word(view)  # "Stop" in michigan
    key_names = (tuple(names), call)
    out = []
    for item in view["history"][-display.LOG_LINES :]:
        key = (key_names, orjson.dumps(item))
        line = _lines.get(key)
        if line is None:
            line = region_html.log_line(engine.Event.from_json(item).text(names, call))
            if len(_lines) >= _LINES_KEPT:
                _lines.clear()
            _lines[key] = line
        out.append(line)
    return out


_LINES_KEPT = 20_000
_lines: dict[tuple[tuple[str, ...], bytes], str] = {}


# --- the pile as every seat not to move sees it ----------------------------------------------


def _idle_cards(view: dict[str, Any]) -> list[str]:
    """The pile's cards, none of them a button."""
    if view.get("scatter"):  # throw-down: each card says what it lies over
        return [
            region_html.pile_card(c["html"], c.get("lies_over", ""))
            for c in display.discard_pile(view, [])
        ]
    return [_idle_card(code) for code in view["discard"]]


def _idle_piles(
    view: dict[str, Any], cards: list[str], claim_word: str, cuts: dict[str, Any]
) -> tuple[str, str]:
    """The pile for a spectator and for a seated player not to move: no take buttons, only
    the refusal's words differ. Their cuts (``region_html.PileBody``) go to ``cuts``."""
    body = region_html.pile_body(
        stock_count=view["stock_count"],
        scattered=bool(view.get("scatter")),
        cards=cards,
        claim_word=claim_word,
    )
    out = []
    for refusal in (display.pile_refusal(view, []), display.pile_refusal({"seat": 0}, [])):
        head = region_html.pile_head(refusal, claim_word)
        text = head + body.text
        cuts[text] = (head + body.rest, body.stock, body.heading, body.cards)
        out.append(text)
    return out[0], out[1]


@lru_cache(maxsize=256)
def _idle_card(code: str) -> str:
    return region_html.pile_card(display.card(code)["html"])


# --- the score sheet ---------------------------------------------------------------------


def _score_sheet(snap: TableSnapshot, ctx: dict[str, Any]) -> str:
    """Rendered from its template when a hand ends (or a name changes), else the text kept
    from the version before. Its key is all the template reads: the finished hands'
    figures, the seats, the names of its columns, the sides."""
    table = snap.table
    names = ctx["names"]
    columns = tuple(p["name"] for p in ctx["players"])
    key = (_sheet_figures(snap), table.num_seats, tuple(names), columns, ctx["sides"])

    def build() -> str:
        rows = presenters.score_sheet(snap)
        sheet = display.score_sheet(rows, table.num_seats, None)
        sides = display.side_sheet(rows, ctx["sides"], names)
        return render(
            "games/partials/live/score-sheet.html",
            {**ctx, "score_sheet": sheet, "side_sheet": sides},
        )

    return kept.kept(table.pk, "score-sheet", key, build)


def _sheet_figures(snap: TableSnapshot) -> tuple[Any, ...]:
    """Per finished hand, the figures ``display.score_sheet`` and ``display.side_sheet``
    read of its result: a few numbers a seat and a side, not the whole result (its card
    lines are most of it, and this key is built at every version)."""
    out = []
    for hand in snap.past_hands:
        result = hand.result or {}
        seats = tuple(
            (s["seat"], s["melded"], s["in_hand"], s["counted"], s["total_after"])
            for s in result.get("seats", ())
        )
        sides = tuple(
            (tuple(side["seats"]), side["score"], side["game_bonus"], side["total_after"])
            for side in result.get("sides", ())
        )
        out.append((hand.number, seats, sides))
    return tuple(out)
