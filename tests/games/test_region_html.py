"""games.table.region_html writes the hottest regions as strings: each must stay the HTML its
template renders. Whole bot games (tests/games/test_table_frames.py) reach the common states;
these pin the rare ones a random game may miss: a player who left, cards on show and in
front, the up-card offer, a call, an ace for either end of a run, a scattered discard area,
names that need escaping."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from games import engine
from games.table import display, region_html
from tests.engine.helpers import random_states

TABLE = SimpleNamespace(pk=7, turn_seconds=60)
DEADLINE = "2026-12-02T07:14:21.902559+00:00"


def _spaced(html: str) -> str:
    """White space runs as one space: what a browser renders the same."""
    return " ".join(html.split())


def _row(index: int, **changes) -> dict:
    """A player's row as display.players gives it."""
    row = {
        "index": index,
        "name": f"Player <{index}> & 'co'",
        "bot": "",
        "autoplay": False,
        "left": False,
        "connected": False,
        "presence": None,
        "empty": False,
        "token": display.seat_token(index),
        "presence_info": {"seat": index, "connected": False, "state": "away"},
        "is_me": False,
        "hand_size": 7,
        "total": 35,
        "is_dealer": False,
        "to_act": False,
        "known": [],
        "displayed": [],
        "fronts": [],
    }
    return {**row, **changes}


ROWS = [
    _row(0),
    _row(1, hand_size=1, total=1, is_dealer=True, to_act=True),
    _row(2, bot="easy", presence_info={"seat": 2, "connected": True, "state": "bot"}),
    _row(3, left=True, known=[display.card("QS")], displayed=[display.card("7H")]),
    _row(0, autoplay=True, presence_info={"seat": 0, "connected": True, "state": "online"}),
    _row(1, is_me=True, displayed=[display.card("9C")], fronts=[display.card("2D")]),
    _row(2, running=-15, hand_size=None, to_act=True),
    _row(3, side=2, partners=["Ann & Bo", "<Cy>"], total=0),
]


@pytest.mark.parametrize("row", ROWS)
@pytest.mark.parametrize(("phase", "claim"), [("draw", "Rummy"), ("claim", "Stop")])
def test_a_player_entry_is_the_seat_template(row, phase, claim):
    ctx = {
        "p": row,
        "deadline": DEADLINE,
        "table": TABLE,
        "view": {"phase": phase},
        "claim_word": claim,
    }
    built = region_html.seat(
        row, deadline=DEADLINE, turn_seconds=TABLE.turn_seconds, phase=phase, claim=claim
    )
    assert _spaced(built) == _spaced(render_to_string("games/partials/seat.html", ctx))


LEGAL_SETS = [
    ("draw", []),
    ("draw", [{"type": "draw_stock"}]),
    ("draw", [{"type": "take_discard", "depth": 0}]),
    ("draw", [{"type": "draw_stock"}, {"type": "take_discard", "depth": 2}]),
    ("draw", [{"type": "draw_stock"}, {"type": "decline_draw"}]),
    ("offer", [{"type": "take_discard", "depth": 0}, {"type": "pass_upcard"}]),
    ("offer", [{"type": "pass_upcard"}]),
    ("claim", [{"type": "claim_rummy", "depth": 0}, {"type": "pass_claim"}]),
    ("play", [{"type": "discard", "card": "7H"}, {"type": "meld", "cards": ["7H", "8H", "9H"]}]),
    (
        "play",
        [
            {"type": "lay_off", "card": "AC", "meld": 3},
            {"type": "lay_off", "card": "AC", "meld": 3, "ace_end": "low"},
            {"type": "switch_joker", "card": "5D", "meld": 1},
            {"type": "play_natural", "card": "5D", "meld": 2},
            {"type": "float"},
            {"type": "discard", "card": "AC"},
        ],
    ),
]


@pytest.mark.parametrize(("phase", "legal"), LEGAL_SETS)
@pytest.mark.parametrize("preset", ["standard", "michigan"])
def test_the_controls_are_the_controls_template(phase, legal, preset):
    view = {"phase": phase, "preset": preset}
    controls = display.controls(legal, view)
    claim = display.claim_word(view)
    legal_json = json.dumps(legal)
    ctx = {"legal_json": legal_json, "controls": controls, "view": view, "claim_word": claim}
    built = region_html.controls(legal_json, controls, phase, claim)
    wanted = render_to_string("games/partials/live/controls.html", ctx)
    assert _spaced(built) == _spaced(wanted)


def _pile_states():
    """Views of a scattered discard area (throw-down) and of a whole-pile take (oklahoma),
    each with the legal moves of the seat to move, through a whole hand."""
    for preset, seats in [("throw-down", 3), ("oklahoma", 2), ("michigan", 3)]:
        for step, (state, _action) in enumerate(random_states(preset, seats, seed=4)):
            if step % 3 or not state.to_act:
                continue
            seat = state.to_act[0]
            legal = [engine.action_to_json(a) for a in engine.legal_actions(state, seat)]
            yield engine.view(state, seat), legal
            yield engine.view(state, None), []


def test_the_pile_is_the_pile_template_with_buttons_legends_and_a_scattered_area():
    checked = scattered = buttons = 0
    for view, legal in _pile_states():
        controls = display.controls(legal, view)
        pile = display.discard_pile(view, legal)
        refusal = display.pile_refusal(view, legal)
        claim = display.claim_word(view)
        cards = [
            region_html.pile_card(
                c["button_html"] if c["takeable"] or c["claimable"] else c["html"],
                c.get("lies_over", ""),
            )
            for c in pile
        ]
        built, _cut = region_html.pile(
            stock_count=view["stock_count"],
            scattered=bool(view.get("scatter")),
            cards=cards,
            refusal=refusal,
            claim_word=claim,
            draw=controls["draw"],
            take=controls["take"],
            claim=controls["claim"],
        )
        ctx = {
            "view": view,
            "controls": controls,
            "pile": pile,
            "pile_refusal": refusal,
            "claim_word": claim,
        }
        wanted = render_to_string("games/partials/live/pile.html", ctx)
        assert _spaced(built) == _spaced(wanted)
        checked += 1
        scattered += bool(view.get("scatter")) and any(c.get("lies_over") for c in pile)
        buttons += controls["take"] or controls["claim"]
    assert checked > 50 and scattered > 5 and buttons > 5


@pytest.mark.parametrize(
    "draw", [None, ["Draw for dealer: Ann <1> Q♠, Bo 7♥", "Tie, drawn again: Ann 3♣"]]
)
def test_the_log_is_the_log_template(draw):
    lines = ["Ann <1> & 'co' drew from the stock", "Bo discarded the 7♥"]
    built = region_html.log([region_html.log_line(line) for line in lines], 3, draw)
    ctx = {"view": {"phase": "draw"}, "dealer_draw": draw, "log_start": 3, "log": lines}
    wanted = render_to_string("games/partials/live/log.html", ctx)
    assert _spaced(built) == _spaced(wanted)


@pytest.mark.parametrize("text", [None, "", "Ann <1> & 'co' must use the 7♥ in a meld."])
def test_the_obligation_and_the_wild_note_are_their_templates(text):
    obligation = render_to_string("games/partials/live/obligation.html", {"obligation": text})
    assert _spaced(region_html.obligation(text)) == _spaced(obligation)
    wild = render_to_string("games/partials/live/wild-note.html", {"wild_note": text})
    assert _spaced(region_html.wild_note(text)) == _spaced(wild)


@pytest.mark.parametrize("scattered", [False, True])
def test_an_empty_pile_is_the_pile_template(scattered):
    """An empty pile says so ("empty", not "0, top card last"), as its template does."""
    view = {"phase": "draw", "preset": "standard", "stock_count": 12, "scatter": scattered}
    built, _cut = region_html.pile(
        stock_count=12, scattered=scattered, cards=[], refusal="", claim_word="Rummy",
        draw=True, take=False, claim=False,
    )  # fmt: skip
    controls = display.controls([{"type": "draw_stock"}], view)
    ctx = {
        "view": view,
        "controls": controls,
        "pile": [],
        "pile_refusal": "",
        "claim_word": "Rummy",
    }
    wanted = render_to_string("games/partials/live/pile.html", ctx)
    assert _spaced(built) == _spaced(wanted)
    assert scattered or "(empty)" in built
