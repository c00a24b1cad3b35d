"""The table page's hottest regions as strings, the same HTML their templates render.

A browser socket is sent the log, the pile and every player's entry after nearly every move,
and Django's template engine (variable lookups, ``{% localize %}``, ``{% if %}`` nodes) cost
several times what the text is worth: these few builders write the same HTML with every
value escaped (``html.escape``, as Django's autoescape does), already without the
templates' indentation (as ``seat_frames.compact`` leaves them). The templates stay the
page's source: a page load renders them, and ``tests/games/test_table_frames.py`` compares
every region built here with its template for every seat and a spectator over whole hands
of several presets, so a template change shows up there until the builder here follows it.
Mirrors: ``games/partials/live/log.html``, ``pile.html``, ``controls.html``,
``obligation.html``, ``wild-note.html`` and ``games/partials/seat.html``.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any, NamedTuple

from django.utils.safestring import SafeData


def _plural(count: Any) -> str:
    return "" if count == 1 else "s"


# --- log.html ----------------------------------------------------------------------------


def log(lines: Sequence[str], start: int, dealer_draw: Sequence[str] | None) -> str:
    """The hand's log (``lines``: each already an escaped ``<li>``) with the first-dealer
    draw above it in a game's first hand."""
    draw = ""
    if dealer_draw:
        said = "".join(f"{escape(line)}. " for line in dealer_draw)
        draw = (
            f'<p class="dealer-draw" data-public="dealer-draw">{said}The lowest card deals.</p>\n'
        )
    return (
        '<section id="log" hx-swap-oob="true" class="area action-log panel"'
        ' aria-labelledby="log-heading">\n<h2 id="log-heading" class="area-heading">This hand'
        f" so far</h2>\n{draw}"
        f'<ol class="log-lines" start="{start}" tabindex="0" aria-labelledby="log-heading">'
        + "".join(lines)
        + "</ol>\n</section>\n"
    )


def log_line(text: str) -> str:
    return f"<li>{escape(text)}</li>"


# --- pile.html ---------------------------------------------------------------------------

_DRAW_BUTTON = (
    '<button type="button" class="button stock-button" id="draw-button"'
    ' data-send=\'{"type": "draw_stock"}\' aria-keyshortcuts="d"><span class="stock-back"'
    ' aria-hidden="true"></span><span class="stock-button-text">Draw<span class="on-wide">'
    " from the stock</span></span></button>"
)
_TAKE_CONFIRM = (
    '<div id="take-confirm" class="take-confirm" role="group"'
    ' aria-labelledby="take-confirm-text" hidden>\n<p class="take-confirm-text"'
    ' id="take-confirm-text"></p>\n<button type="button" class="button"'
    ' id="take-confirm-yes">Take them</button>\n<button type="button" class="button'
    ' button-secondary" id="take-confirm-no">Cancel</button>\n</div>\n'
)


def pile_card(face: str, lies_over: str = "") -> str:
    """One card of the fan: its face (a card's ``html``, or its ``button_html`` where the
    seat may take or call it) and, in a scattered area, what it lies over."""
    over = f'<span class="lies-over muted">over {escape(lies_over)}</span>\n' if lies_over else ""
    return f'<li class="pile-card">\n{face}\n{over}</li>'


class PileBody(NamedTuple):
    """The pile after its opening tag (``text``), and the pieces a socket's frame sends
    alone when only they changed (games.table.table_frames): the stock, the heading with
    its count, the fan's cards, and the rest (the region's shell, less its opening tag)."""

    text: str
    stock: str
    heading: str
    cards: Sequence[str]
    rest: str


def pile(
    *,
    stock_count: int,
    scattered: bool,
    cards: Sequence[str],
    refusal: str,
    claim_word: str,
    draw: bool = False,
    take: bool = False,
    claim: bool = False,
) -> tuple[str, tuple[str, str, str, Sequence[str]]]:
    """The stock and the discards (``cards``: each from ``pile_card``, bottom to top), and
    the region's cut: (shell, stock, heading, cards)."""
    head = pile_head(refusal, claim_word)
    body = pile_body(
        stock_count=stock_count,
        scattered=scattered,
        cards=cards,
        claim_word=claim_word,
        draw=draw,
        take=take,
        claim=claim,
    )
    return head + body.text, (head + body.rest, body.stock, body.heading, body.cards)


def pile_head(refusal: str, claim_word: str) -> str:
    """The pile's opening tag: what a click on a card that cannot be taken says."""
    return (
        f'<section id="pile" hx-swap-oob="true" class="area pile"'
        f' data-claim-word="{escape(claim_word)}" data-refusal="{escape(refusal or "")}"'
        ' aria-labelledby="pile-heading">\n'
    )


def pile_body(
    *,
    stock_count: int,
    scattered: bool,
    cards: Sequence[str],
    claim_word: str,
    draw: bool = False,
    take: bool = False,
    claim: bool = False,
) -> PileBody:
    """The pile after its opening tag: the same for every seat that may take no card."""
    if draw:
        button = _DRAW_BUTTON
    else:
        empty = "" if stock_count else " stock-empty"
        button = f'<span class="stock-back{empty}" aria-hidden="true"></span>'
    count = len(cards)
    if scattered:
        words = (
            f'Discard area <span class="muted">({count}, scattered: newest last; taking a card'
            " takes every card over it)</span>"
        )
    else:
        shown = f"{count}, top card last" if count else "empty"
        words = f'Discard pile <span class="muted">({shown})</span>'
    legend = ""
    if take or claim:
        what = f"call {escape(claim_word)} on" if claim else "take"
        legend = (
            '<p class="pile-legend help" id="pile-legend">A dashed border marks the cards you'
            f" can {what} now.</p>\n"
        )
    stock = (
        f'<div id="stock" class="stock">\n{button}\n<span class="stock-count">Stock: <strong>'
        f'{stock_count}</strong><span class="visually-hidden"> card{_plural(stock_count)}'
        "</span></span>\n</div>"
    )
    heading = f'<h2 id="pile-heading" class="area-heading">{words}</h2>'
    fan_open = f'<ol id="pile-fan" class="pile-fan{" pile-fan-scattered" if scattered else ""}">'
    tail = f"</ol>\n{legend}</div>\n{_TAKE_CONFIRM}</section>\n"
    fan = "".join(card + "\n" for card in cards)
    return PileBody(
        text=f'{stock}\n<div class="discards">\n{heading}\n{fan_open}\n{fan}{tail}',
        stock=stock,
        heading=heading,
        cards=cards,
        rest=f'<div class="discards">\n\n{fan_open}{tail}',
    )


# --- controls.html -----------------------------------------------------------------------

_PLAYING = (
    '<button type="button" class="button" id="meld-button" data-command="meld"'
    ' aria-keyshortcuts="m">Meld<span class="on-wide"> selected</span></button>\n'
    '<button type="button" class="button" id="discard-button" data-command="discard"'
    ' aria-keyshortcuts="x">Discard<span class="on-wide"> selected</span></button>\n'
    '<button type="button" class="button button-secondary" id="clear-button"'
    ' data-command="clear">Clear<span class="on-wide"> selection</span></button>\n'
    '<button type="button" class="button button-secondary" id="hint-button"'
    ' data-command="hint" aria-pressed="false" title="Mark the cards you can meld or lay off'
    ' now">Hint</button>'
)
_READING = (
    '<div id="reading-choice" class="reading-choice" role="group" aria-label="Say what the'
    ' wild cards stand for" hidden></div>'
)


def controls(legal_json: str, controls: dict[str, Any], phase: str | None, claim_word: str) -> str:
    """The seat's buttons and help line (``controls``: ``display.controls``)."""
    head = (
        f'<div id="controls" hx-swap-oob="true" class="controls" data-legal="{escape(legal_json)}"'
    )
    if not controls["any"]:
        return head + " hidden>\n</div>\n"
    lines = []
    help_text = None
    if controls["playing"]:
        lines.append(_PLAYING)
        help_text = (
            "To lay off, select one card and choose “Lay off here” on a meld."
            if controls["lay_off"]
            else "Select cards, then meld or discard."
        )
    elif phase == "offer":
        help_text = (
            "Pick the up-card in the discard pile to take it and play first, or pass."
            if controls["take"]
            else "You cannot use the up-card at once, so you can only pass."
        )
    elif controls["draw"] and controls["take"]:
        help_text = "Draw from the stock, or pick a card with a dashed border in the discard pile."
    elif controls["take"]:
        help_text = "The stock is empty: pick a card with a dashed border in the discard pile."
    elif controls["draw"]:
        help_text = "Draw from the stock (no pile card can be taken now)."
    elif controls["claim"]:
        help_text = f"Pick a discard to call {escape(claim_word)} on it."
    if help_text is not None:
        lines.append(f'<span class="help">{help_text}</span>')
    if controls["extra"]:
        lines.append("".join(_send_button(x) for x in controls["extra"]))
    if controls["ace_ends"]:
        lines.append(
            '<div class="ace-end-choice" role="group" aria-label="Which end of the run the ace'
            ' goes">' + "".join(_send_button(x) for x in controls["ace_ends"]) + "</div>"
        )
    lines.append(_READING)
    return head + ">\n" + "\n".join(lines) + "\n</div>\n"


def _send_button(choice: dict[str, Any]) -> str:
    text = choice["text"]  # some are marked safe (display._extra_text's phone-short words)
    label = str(text) if isinstance(text, SafeData) else escape(text)
    return (
        f'<button type="button" class="button button-secondary"'
        f' data-send="{escape(choice["json"])}">{label}</button>'
    )


# --- obligation.html, wild-note.html -------------------------------------------------------


def obligation(text: str | None) -> str:
    hidden = "" if text else " hidden"
    return (
        f'<p id="obligation" hx-swap-oob="true" class="obligation" role="status"{hidden}>'
        f"{escape(text or '')}</p>\n"
    )


def wild_note(text: str | None) -> str:
    hidden = "" if text else " hidden"
    return (
        f'<p id="wild-note" hx-swap-oob="true" class="wild-note"{hidden}>{escape(text or "")}</p>\n'
    )


# --- seat.html (with presence.html) ----------------------------------------------------------


_YOU = ' <span class="muted">(you)</span>'


def seat(
    p: dict[str, Any], *, deadline: str | None, turn_seconds: Any, phase: str | None, claim: str
) -> str:
    """One player's entry in the list of players (``p``: a row of ``display.players``)."""
    index = p["index"]
    me = p["is_me"]
    to_act = p["to_act"]
    lines = [
        f'\n<li id="player-{index}" class="player{" player-to-act" if to_act else ""}'
        f'{" player-me" if me else ""}" data-seat="{index}">',
        f'<span class="player-name"><span class="seat-token" aria-hidden="true">'
        f'{escape(p["token"])}</span> <span class="player-name-text">{escape(p["name"])}</span>'
        f"{_YOU if me else ''}</span>",
    ]
    size = p["hand_size"]
    if size is not None:
        lines.append(
            '<span class="player-cards"><span class="card-back-mini" aria-hidden="true"></span>'
            f'{size}<span class="visually-hidden"> card{_plural(size)}</span></span>'
        )
    side = p.get("side")
    if p.get("running") is not None:
        lines.append(
            '<span class="player-score player-running" title="Score so far this hand">'
            f'{escape(str(p["running"]))}<span class="seat-unit"> this hand</span></span>'
        )
    else:
        total = p["total"]
        lines.append(
            f'<span class="player-score">{escape(str(total))}<span class="seat-unit">'
            f" point{_plural(total)}{' (side)' if side else ''}</span></span>"
        )
    lines.append('<span class="player-status">')
    if p["bot"]:
        lines.append('<span class="badge badge-bot">bot</span>')
    elif p["left"]:
        lines.append(
            '<span class="badge badge-bot" title="A bot plays for this seat">left<span'
            ' class="badge-more"> · bot playing</span></span>'
        )
    elif p["autoplay"]:
        lines.append(
            '<span class="badge badge-bot" title="A bot plays for this seat">bot playing</span>'
        )
    if p["is_dealer"]:
        lines.append('<span class="badge">dealer</span>')
    if not p["bot"]:
        lines.append(
            f'<span id="presence-{index}" class="presence-holder" hx-preserve="true">\n'
            f"{_presence(p['presence_info'])}\n</span>"
        )
    if side:
        partners = p["partners"]
        lines.append(
            f'<span class="badge badge-side side-{side}" title="Partner:'
            f' {", ".join(escape(name) for name in partners)}">side {side}<span'
            f' class="badge-more">, with {", ".join(escape(name) for name in partners)}'
            "</span></span>"
        )
    if to_act:
        doing = f"may call {escape(claim)}" if phase == "claim" else "to move"
        lines.append(
            f'<span class="player-clock" data-deadline="{escape(deadline or "")}"'
            f' data-turn-seconds="{turn_seconds or ""}">{doing}</span>'
        )
    lines.append("</span>")
    if p["known"]:
        shown = "".join(c["small_html"] for c in p["known"])
        lines.append(f'<span class="player-known">known: {shown}</span>')
    if p["displayed"]:
        whose = "your" if me else "their"
        shown = "".join(c["small_html"] for c in p["displayed"])
        lines.append(
            f'<span class="player-known player-displayed">on show until {whose} next turn:'
            f" {shown}</span>"
        )
    if p["fronts"]:
        shown = "".join(c["small_html"] for c in p["fronts"])
        lines.append(f'<span class="player-fronts">in front: {shown}</span>')
    lines.append("</li>\n")
    return "\n".join(lines)


def _presence(presence: dict[str, Any]) -> str:
    """``presence.html`` as the seat includes it (inline: no out-of-band swap of its own)."""
    if presence["state"] == "bot":
        css, word = "presence-bot", "bot"
    elif presence["connected"]:
        css, word = "presence-on", "online"
    else:
        css, word = "presence-off", "away"
    return f'<span id="presence-{presence["seat"]}-now" class="presence {css}">{word}</span>'
