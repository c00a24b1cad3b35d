"""Template-ready pieces of a table, built from one seat's engine view and nothing else.

Why a module of its own: the table page and every socket push render the same parts, and
the hidden-information promise rests on one rule that is easy to check here: every card
shown comes from ``engine.view(state, seat)`` (or, on the finished-game page, from a game
that is over). No function in this module receives a hand state of a running hand.
Pure functions of plain data (Django only for HTML escaping), tested without a database.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from html import escape
from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from games import engine
from games.engine import scatter
from games.rules_pages import option_text

LOG_LINES = 14

_SUIT_CLASS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _card_info(code: str) -> dict[str, Any]:
    if code == engine.JOKER:
        return {
            "code": code,
            "label": "Joker",
            "name": "joker",
            "rank": "Jkr",
            "symbol": "★",
            "suit": "joker",
        }
    label = engine.card_label(code)
    return {
        "code": code,
        "label": label,
        "name": engine.card_name(code),
        "rank": label[:-1],
        "symbol": engine.SUIT_SYMBOLS[code[1]],
        "suit": _SUIT_CLASS[code[1]],
    }


def card(code: str, **extra: Any) -> dict[str, Any]:
    """One card for a template: code, label ("7♥"), spoken name, rank, suit symbol, suit,
    and its face as HTML (``html``, ``small_html``), built here because a template include
    per card made a table render several times slower."""
    info = CARDS.get(code)
    if info is None:  # never raise while rendering: show the code as it is
        info = _with_faces(
            {"code": code, "label": code, "name": code, "rank": code, "symbol": "", "suit": ""}
        )
    if not extra:
        return info
    if not _FACE_KEYS & extra.keys():
        return {**info, **extra}
    if code in CARDS and not _CARD_KEYS & extra.keys():
        # A meld's cards are drawn with their scorer's name on every frame of every seat:
        # their faces are built once per (card, reading, scorer), not once per frame.
        faces = _faces(
            code, *(extra.get(k, _UNSET) for k in ("stands_for", "owner_name", "owner_mark"))
        )
        return {**info, **extra, "html": faces[0], "small_html": faces[1]}
    return _with_faces({**info, **extra})


_UNSET = object()
_CARD_KEYS = frozenset({"code", "label", "name", "rank", "symbol", "suit", "html", "small_html"})


@lru_cache(maxsize=8192)
def _faces(code: str, stands_for: Any, owner_name: Any, owner_mark: Any) -> tuple[str, str]:
    extra = {
        k: v
        for k, v in (
            ("stands_for", stands_for),
            ("owner_name", owner_name),
            ("owner_mark", owner_mark),
        )
        if v is not _UNSET
    }
    info = _with_faces({**CARDS[code], **extra})
    return info["html"], info["small_html"]


_FACE_KEYS = frozenset({"stands_for", "owner_name", "owner_mark"})
_FACE = (
    '<span class="pcard pcard-{}{}" role="img" aria-label="{}">'
    '<span class="pcard-rank" aria-hidden="true">{}</span>'
    '<span class="pcard-suit" aria-hidden="true">{}</span>{}</span>'
)


def _with_faces(info: dict[str, Any]) -> dict[str, Any]:
    aria = info["name"]
    marks = ""
    if info.get("stands_for"):
        aria += f" as {info['stands_for']}"
        marks += format_html(
            '<span class="pcard-as" aria-hidden="true">={}</span>', info["stands_for"]
        )
    if info.get("owner_name"):
        aria += f", scored by {info['owner_name']}"
        # A card shows its scorer's seat token (the same as on their seat) only where it
        # differs from the meld's owner, on the table and in the replay alike.
        mark = info.get("owner_mark", info["owner_name"][:1].upper())
        if mark:
            marks += format_html(
                '<span class="pcard-owner" aria-hidden="true" title="{}">{}</span>',
                info["owner_name"],
                mark,
            )
    marks = mark_safe(marks)  # every piece above went through format_html
    suit, rank, symbol = info["suit"], info["rank"], info["symbol"]
    info["html"] = format_html(_FACE, suit, "", aria, rank, symbol, marks)
    info["small_html"] = format_html(_FACE, suit, " pcard-small", aria, rank, symbol, marks)
    return info


CARDS: dict[str, dict[str, Any]] = {
    code: _with_faces(_card_info(code))
    for code in [r + s for s in engine.SUITS for r in engine.RANKS] + [engine.JOKER]
}


_PIPS = {
    code: format_html(
        '<span class="pcard-rank" aria-hidden="true">{}</span>'
        '<span class="pcard-suit" aria-hidden="true">{}</span>',
        info["rank"],
        info["symbol"],
    )
    for code, info in CARDS.items()
}


def cards_text(codes: Iterable[str]) -> str:
    """ "7♥, 8♣ and K♦" for a sentence."""
    labels = [card(code)["label"] for code in codes]
    if not labels:
        return "no cards"
    if len(labels) == 1:
        return labels[0]
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


_ENGINE_SEAT = re.compile(r"\bbelongs to seat (\d+)\b")


def named_seats(message: str, names: Sequence[str]) -> str:
    """An engine refusal with its seat numbers (0-based: the engine knows no names, e.g.
    oklahoma's "meld 1 belongs to seat 1") given as the players' names."""
    return _ENGINE_SEAT.sub(lambda m: "belongs to " + _name(names, int(m.group(1))), message)


# --- the live hand ------------------------------------------------------------------------


def my_hand(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The viewer's cards, sorted by suit then rank (the page can re-sort by rank)."""
    hand = view.get("hand")
    if hand is None:
        return []
    ordered = engine.sort_cards(hand)
    out = []
    for position, code in enumerate(ordered):
        info = card(code, position=position, rank_order=_rank_order(code))
        info["button_html"] = hand_button(code, position)
        out.append(info)
    return out


@lru_cache(maxsize=4096)
def hand_button(code: str, position: int) -> str:
    """A card of the viewer's hand as its button: the same few hundred (card, place)
    pairs come back in every frame of every seat, so each is built once per process."""
    info = card(code)
    return format_html(
        '<button type="button" class="hand-card pcard pcard-{}" data-card="{}"'
        ' data-suit-order="{}" data-rank-order="{}" aria-pressed="false"'
        ' aria-label="{}">{}</button>',
        info["suit"],
        code,
        position,
        _rank_order(code),
        info["name"],
        _PIPS.get(code, ""),
    )


def _rank_order(code: str) -> int:
    if code == engine.JOKER:
        return 99
    return engine.RANKS.index(code[0]) * 4 + engine.SUITS.index(code[1])


def players(
    view: dict[str, Any] | None,
    seats: Sequence[dict[str, Any]],
    my_seat: int | None,
    totals: Sequence[int] | None,
    sides: Sequence[Sequence[int]] = (),
) -> list[dict[str, Any]]:
    """Every seat as the others see it: name, badges, cards held, score, whose move.

    With partnerships (persian) each seat also names its side and its partner; the total shown
    is then the side's total.
    """
    names = [info["name"] for info in seats]
    running = view.get("running") if view else None
    out = []
    to_act = set(view["to_act"]) if view else set()
    # Ruling 13: cards taken from the pile lie face up in front of their taker only under
    # discards_displayed (the engine fills ``displayed`` only then). The view's ``known`` list
    # (taken cards too) stays for the log and the bots; in front of a player it shows only
    # the cards dealt face up (five-thousand) that are still in that hand.
    known = view["public_cards"]["known"] if view else []
    displayed = view["public_cards"].get("displayed", []) if view else []
    dealt_up = _dealt_face_up_still_held(view, known)
    fronts = view.get("fronts", []) if view else []
    for info in seats:
        index = info["index"]
        row = {
            **info,
            "token": seat_token(index),
            "presence_info": {
                "seat": index,
                "connected": info["connected"],
                "state": info.get("presence", "online" if info["connected"] else "away"),
            },
            "is_me": index == my_seat,
            "hand_size": view["hand_sizes"][index] if view else None,
            "total": totals[index] if totals and index < len(totals) else 0,
            "is_dealer": bool(view) and view["dealer"] == index,
            "to_act": index in to_act,
            "known": (
                [card(code) for code in dealt_up[index]]
                if index != my_seat and index < len(dealt_up)
                else []
            ),
            "displayed": [card(code) for code in displayed[index]]
            if index < len(displayed)
            else [],
            "fronts": [card(code) for seat, code, _meld in fronts if seat == index],
        }
        if running is not None and index < len(running):
            row["running"] = running[index]  # michigan: the score so far this hand
        for number, side in enumerate(sides, start=1):
            if index in side:
                row["side"] = number
                row["partners"] = [_name(names, other) for other in side if other != index]
        out.append(row)
    return out


def _dealt_face_up_still_held(
    view: dict[str, Any] | None, known: Sequence[Sequence[str]]
) -> list[list[str]]:
    """Per seat, the card dealt face up to it, while everyone still knows it is held."""
    held: list[list[str]] = [[] for _ in known]
    history = view.get("history") if view else None
    if not history or history[0].get("kind") != "deal":
        return held
    for seat, code in enumerate(history[0].get("face_up") or ()):
        if seat < len(known) and code in known[seat]:
            held[seat].append(code)
    return held


def around_the_table(
    rows: Sequence[dict[str, Any]], my_seat: int | None
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The seats as they sit around the table from the viewer's chair: the others in playing
    order starting with the next to play (left to right across the top), and the viewer's
    own seat apart, for the bottom edge beside their hand. A spectator sees every seat from
    seat 1 on."""
    if my_seat is None or not 0 <= my_seat < len(rows):
        return list(rows), None
    count = len(rows)
    others = [rows[(my_seat + step) % count] for step in range(1, count)]
    return others, rows[my_seat]


def side_breakdown(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """At hand end with partnerships: each side's pooled score, game bonus and total."""
    result = view.get("result") or {}
    return [
        {
            "name": " & ".join(_name(names, seat) for seat in side["seats"]),
            "score": side["score"],
            "bonus": side["game_bonus"],
            "total": side["total_after"],
        }
        for side in result.get("sides", [])
    ]


def side_sheet(
    rows: Sequence[dict[str, Any]], sides: Sequence[Sequence[int]], names: Sequence[str]
) -> dict[str, Any] | None:
    """Partnerships: per finished hand, each side's pooled score and running total."""
    if not sides:
        return None
    columns = [
        {"side": number, "name": " & ".join(_name(names, seat) for seat in side)}
        for number, side in enumerate(sides, start=1)
    ]
    out = []
    for row in rows:
        result = row.get("result") or {}
        by_seats = {tuple(side["seats"]): side for side in result.get("sides", [])}
        cells = []
        for side in sides:
            found = by_seats.get(tuple(side))
            cells.append(
                None
                if found is None
                else {
                    "score": found["score"],
                    "bonus": found["game_bonus"],
                    "total": found["total_after"],
                }
            )
        out.append({"hand": row["hand"], "cells": cells})
    return {"columns": columns, "rows": out}


def melders(history: Sequence[Any]) -> dict[int, int]:
    """Meld id -> the seat that laid the meld down, from the hand's "meld" events (a view's
    JSON or the engine's Events). The engine credits each card to the seat that scores it,
    and a card laid off at a run's low end becomes its first card: the first card's scorer
    is not always the melder."""
    out = {}
    for event in history:
        if isinstance(event, dict):
            if event.get("kind") == "meld":
                out[event["meld"]] = event["seat"]
        elif event.kind == "meld":
            out[event.get("meld")] = event.seat
    return out


def table_melds(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """Melds with every card marked with the seat that scores it."""
    out = []
    laid = melders(view.get("history") or ())
    for meld in view["melds"]:
        first = meld["cards"][0]["owner"] if meld["cards"] else -1
        laid_by = laid.get(meld["id"], first)
        items = []
        for entry in meld["cards"]:
            owner = entry["owner"]
            reading = entry["as"]
            stands_for = None
            if entry["card"] != reading:  # a joker or a wild card (oklahoma's deuces)
                stands_for = engine.card_label(reading)
            items.append(
                card(
                    entry["card"],
                    owner=owner,
                    owner_name=_name(names, owner),
                    owner_mark=seat_token(owner) if owner != laid_by else "",
                    stands_for=stands_for,
                )
            )
        out.append(
            {
                "id": meld["id"],
                "kind": meld["kind"],
                "cards": items,
                "owner": laid_by,
                "owner_name": _name(names, laid_by),
            }
        )
    return out


def seat_token(seat: int) -> str:
    """The short mark of a seat (its number), shown on its place at the table and on the
    cards it laid off on others' melds: names are too long for a card and initials repeat."""
    return str(seat + 1)


def melds_by_owner(
    melds: Sequence[dict[str, Any]],
    names: Sequence[str],
    my_seat: int | None,
    legal: Sequence[dict[str, Any]] = (),
) -> list[dict[str, Any]]:
    """The table's melds in groups, one per player who laid melds down, each under the
    player's full name; the viewer's group first, then the others in seat order after them.
    Each meld knows whether the viewer can lay off on it now (from the legal moves, so
    "Lay off here" is offered only where the engine allows it: never on an opponent's meld
    in oklahoma)."""
    targets = {a.get("meld") for a in legal if a["type"] in ("lay_off", "play_natural")}
    count = len(names)
    start = my_seat if my_seat is not None else 0
    groups: dict[int, dict[str, Any]] = {}
    for meld in melds:
        owner = meld["owner"]
        group = groups.setdefault(
            owner,
            {
                "seat": owner,
                "name": _name(names, owner),
                "token": seat_token(owner),
                "is_me": owner == my_seat,
                "melds": [],
            },
        )
        group["melds"].append({**meld, "can_lay_off": meld["id"] in targets})
    return sorted(groups.values(), key=lambda g: (g["seat"] - start) % max(count, 1))


def discard_pile(view: dict[str, Any], legal: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The pile bottom to top; each card knows its depth and what taking it brings along.

    The seat to move may take most cards of a long pile, each naming every card it brings:
    the pile's labels and names are looked up once and each card's list is a slice of them,
    so a 40-card pile is not 800 look-ups."""
    pile = view["discard"]
    whole_pile = _takes_whole_pile(view)
    layout = view.get("scatter") or []
    takeable = {a["depth"] for a in legal if a["type"] == "take_discard"}
    claimable = {a.get("depth", 0) for a in legal if a["type"] == "claim_rummy"}
    faces = [card(code) for code in pile]
    labels = [face["label"] for face in faces]
    names = [face["name"] for face in faces]
    call = escape(f"Call {claim_word(view)} on") if claimable else ""
    # A card's label and name never hold a character HTML escapes, so the long texts built
    # from them need no escaping pass of their own (checked, for a code shown as it is).
    plain = not _HTML_SPECIAL.intersection("".join(labels) + "".join(names))
    attr = _same if plain else escape
    out = []
    for index, code in enumerate(pile):
        depth = len(pile) - 1 - index
        info = {
            **faces[index],
            "depth": depth,
            "takeable": depth in takeable,
            "claimable": depth in claimable,
        }
        if layout:
            # Throw-down: say what this card lies on, and take what lies over it.
            under = [pile[i] for i in scatter.covered_by(layout, index)]
            info["lies_over"] = cards_text(under) if under else ""
        if not (info["takeable"] or info["claimable"]):
            out.append(info)
            continue
        if layout:
            over = scatter.over(layout, index)
            brought, where = [labels[i] for i in over], "above"
            brought_names = [names[i] for i in over]
        elif whole_pile:  # oklahoma: the top card, and every card below it with it
            brought, brought_names, where = labels[:index], names[:index], "below"
        else:
            brought, brought_names, where = labels[index + 1 :], names[index + 1 :], "above"
        info["take_text"] = _taking(labels[index], brought, where)
        info["button_html"] = SafeString(
            _PILE_PICK.format(
                attr(info["suit"]),
                depth,
                "claim_rummy" if info["claimable"] else "take_discard",
                attr(info["take_text"]),
                len(brought),
                call if info["claimable"] else "Take",
                attr(_taking(names[index], brought_names, where)),
                _PIPS.get(code, ""),
            )
        )
        out.append(info)
    return out


_HTML_SPECIAL = frozenset("&<>\"'")


def _same(text: str) -> str:
    return text


_PILE_PICK = (
    '<button type="button" class="pile-pick pcard pcard-{}" data-depth="{}"'
    ' data-kind="{}" data-take-text="{}" data-brings="{}"'
    ' aria-label="{} {}">{}</button>'
)


def _taking(word: str, brought: Sequence[str], where: str) -> str:
    """What taking a pile card takes, in labels ("the 7♥ and the 2 above it: 8♣ and K♦")
    or in spoken names, from the card's word and those of the cards it brings."""
    if not brought:
        return f"the {word}"
    listed = brought[0] if len(brought) == 1 else ", ".join(brought[:-1]) + " and " + brought[-1]
    return f"the {word} and the {len(brought)} {where} it: {listed}"


def pile_refusal(view: dict[str, Any] | None, legal: Sequence[dict[str, Any]]) -> str:
    """Why a pile card that is not marked takeable cannot be taken now, for the message a
    click on it shows (the pile's cards are buttons that say this instead of doing nothing)."""
    if view is None or view.get("seat") is None:
        return "You are watching: only the players take cards."
    if not legal:
        return "It is not your turn."
    kinds = {a["type"] for a in legal}
    if view["phase"] == "play":
        return "You have drawn already this turn: meld, lay off or discard."
    if "take_discard" in kinds:
        return (
            "That card cannot be taken: only the cards with a dashed border can. A card "
            "you take must be used at once in a meld or laid off."
        )
    if "draw_stock" in kinds:
        return (
            "No card in the pile can be taken now (a card you take must be used at once "
            "in a meld or laid off): draw from the stock."
        )
    return "No card in the pile can be taken now."


def _takes_whole_pile(view: dict[str, Any]) -> bool:
    info = engine.PRESETS.get(view.get("preset", ""))
    return bool(info and info.take_top_takes_pile)


def claim_word(view: dict[str, Any] | None) -> str:
    """What claiming a discard is called at this table: "Stop" in michigan, else "Rummy"."""
    preset = engine.PRESETS.get(view["preset"]) if view else None
    return "Stop" if preset is not None and preset.stop_call else "Rummy"


def obligation_text(view: dict[str, Any], names: Sequence[str]) -> str | None:
    """What the player who took from the pile still owes, in words."""
    duty = view.get("obligation")
    if not duty:
        return None
    if duty["seat"] == view.get("seat"):
        return engine.Obligation(**duty).text()
    label = card(duty["card"])["label"]
    how = "in a new meld" if duty["new_meld_only"] else "in a meld or lay it off"
    if duty["timing"] in ("lay_off", "stop"):
        how = "by laying it off"
    if duty["timing"] == "stop_discard":
        return f"{_name(names, duty['seat'])} called Stop and now discards."
    return f"{_name(names, duty['seat'])} must use the {label} {how}."


def status_text(
    view: dict[str, Any],
    names: Sequence[str],
    my_seat: int | None,
    legal: Sequence[dict[str, Any]] | None = None,
) -> str:
    """One line on whose move it is and what they may do: only the moves ``legal`` holds
    (when given), so the line never offers the pile when no card of it can be taken, nor the
    stock when it is empty."""
    phase = view["phase"]
    to_act = view["to_act"]
    mine = my_seat is not None and my_seat in to_act
    if phase == "hand_over":
        return "The hand is over."
    if phase == "claim":
        call = claim_word(view)
        if mine:
            # Not "Rummy may be called" again: the claim window's event just said that.
            return f"Your chance to call {call}: pick a playable discard, or pass."
        return f"Waiting for the other players to call {call} or pass."
    if not to_act:
        return ""
    who = _name(names, to_act[0])
    if phase == "offer":
        if mine:
            return "The up-card is offered to you: take it (and play first) or pass."
        return f"{who} may take the up-card."
    if phase == "draw":
        if mine:
            return "Your turn: " + _draw_choices(legal) + "."
        return f"{who} is drawing."
    if mine:
        return "Your turn: meld or lay off if you can, then discard."
    return f"{who} is playing."


def _draw_choices(legal: Sequence[dict[str, Any]] | None) -> str:
    if legal is None:
        return "draw from the stock or take from the pile"
    kinds = {a["type"] for a in legal}
    draw, take = "draw_stock" in kinds, "take_discard" in kinds
    if draw and take:
        return "draw from the stock or take from the pile"
    if take:
        return "take from the pile (the stock is empty)"
    if draw:
        return "draw from the stock"
    return "choose your move"


def hand_end_line(last: str | None, status: str) -> str:
    """The status line's words once the last event has been said: "...went out; the hand is
    over" is not followed by "The hand is over." again."""
    if last and status and status.rstrip(".").lower() in last.lower():
        return ""
    return status


def last_event(
    view: dict[str, Any],
    names: Sequence[str],
    clock_moves: Iterable[int] = (),
    told_seat: int | None = None,
) -> str | None:
    """The latest public event, for the page's live announcement. None when it is a move
    the clock made for ``told_seat``, whose bar says that in its own words (clock_turn)."""
    if not view["history"]:
        return None
    call = claim_word(view)
    if not clock_moves:  # the usual case: one event to read, not the hand's history
        return engine.Event.from_json(view["history"][-1]).text(list(names), call)
    events = [engine.Event.from_json(item) for item in view["history"]]
    made = clock_marks(events, clock_moves)[-1]
    if made and told_seat is not None and events[-1].seat == told_seat:
        return None
    return _log_line(events[-1], made, names, call)


def action_log(
    view: dict[str, Any],
    names: Sequence[str],
    limit: int = LOG_LINES,
    clock_moves: Iterable[int] = (),
) -> list[str]:
    """The hand's public history in words, newest last. A move the turn clock made (its
    ``Move.seq`` in ``clock_moves``) says so, so nobody reads it as the player's choice."""
    call = claim_word(view)
    if not clock_moves:
        shown = [engine.Event.from_json(item) for item in view["history"][-limit:]]
        return [event.text(list(names), call) for event in shown]
    events = [engine.Event.from_json(item) for item in view["history"]]
    marks = clock_marks(events, clock_moves)
    return [
        _log_line(event, mark, names, call)
        for event, mark in zip(events[-limit:], marks[-limit:], strict=True)
    ]


def clock_marks(events: Sequence[Any], clock_moves: Iterable[int]) -> list[bool]:
    """Per event, whether it is the public trace of a move the turn clock made for a player
    whose time ran out. Derived from the Move rows' ``actor`` (``clock_moves``: their seq),
    never stored in the hand's state: the state must stay what replaying its moves gives.
    Only a move's own event is marked (a seat's draw or discard), not what follows from it."""
    made = set(clock_moves)
    if not made:
        return [False] * len(events)
    numbers = engine.move_numbers(events)
    return [
        own and numbers[i] in made and events[i].seat >= 0
        for i, own in enumerate(_own_events(numbers))
    ]


def _own_events(numbers: Sequence[int]) -> list[bool]:
    """Per event (by ``engine.move_numbers``), whether it is a move's own event: its first."""
    return [n != (numbers[i - 1] if i else 0) for i, n in enumerate(numbers)]


def _log_line(event: Any, clock_made: bool, names: Sequence[str], call: str = "Rummy") -> str:
    text = event.text(list(names), call)
    if not clock_made:
        return text
    # The name once: "Time ran out, so the clock played for Ann: Ann discarded..." said it twice.
    return f"{text} (time ran out: the clock played)"


def clock_turn(
    view: dict[str, Any] | None, clock_moves: Iterable[int], seat: int | None
) -> str | None:
    """What the turn clock just did for ``seat`` whose time ran out, for that player's
    message bar: "The clock ran out: it drew for you and discarded the 7♣." The latest run
    of clock-made moves of the seat in this hand (one timed-out turn); None if there is none
    (the clock played in an earlier hand, or not at all)."""
    if view is None or seat is None or not clock_moves or not view["history"]:
        return None
    events = [engine.Event.from_json(item) for item in view["history"]]
    marks = clock_marks(events, clock_moves)
    own = _own_events(engine.move_numbers(events))
    run: list[Any] = []
    for index in range(len(events) - 1, -1, -1):
        if marks[index] and events[index].seat == seat:
            run.append(events[index])
        elif run and own[index]:
            break  # a move before the clock's run: that was another turn
    if not run:
        return None
    phrases = [_clock_phrase(event) for event in reversed(run)]
    phrases[0] += " for you"
    done = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    return f"The clock ran out: it {done}."


def _clock_phrase(event: Any) -> str:
    """The clock's move in words after "it" (the turn clock plays only these: games.timeouts)."""
    kind = event.kind
    if kind == "draw_stock":
        return "drew"
    if kind == "discard":
        return f"discarded the {card(event.get('card'))['label']}"
    if kind in ("take_discard", "claim_rummy"):
        return f"took the {card(event.get('cards')[0])['label']}"
    if kind == "meld":
        return f"melded {cards_text(event.get('cards'))}"
    if kind == "lay_off":
        return f"laid off the {card(event.get('card'))['label']} on meld {event.get('meld')}"
    if kind == "pass_claim":
        return "passed on the call"
    if kind == "pass_upcard":
        return "passed on the up-card"
    if kind == "decline_draw":
        return "did not take from the pile"
    if kind == "float":
        return "floated with an empty hand"
    if kind == "switch_joker":
        return f"put the {card(event.get('card'))['label']} in place of a joker"
    if kind == "play_natural":
        return f"put the {card(event.get('card'))['label']} down in front"
    return "moved"


def log_start(view: dict[str, Any], limit: int = LOG_LINES) -> int:
    """The number of the first line ``action_log`` shows: the list keeps counting from the
    hand's first event when older lines are dropped, instead of starting again at 1."""
    return max(1, len(view["history"]) - limit + 1)


# --- the controls ------------------------------------------------------------------------

_EXTRA_ACTIONS = (
    "pass_claim",
    "decline_draw",
    "float",
    "switch_joker",
    "pass_upcard",
    "play_natural",
)


def controls(legal: Sequence[dict[str, Any]], view: dict[str, Any] | None) -> dict[str, Any]:
    """Which buttons the viewer can use now; the browser checks selections against ``legal``."""
    kinds = {a["type"] for a in legal}
    # In the play phase meld and discard stay usable even when the selection is not legal:
    # the engine's reason then tells the player why, next to the button.
    playing = view is not None and view["phase"] == "play" and bool(legal)
    extra = [
        {"action": a, "json": json.dumps(a), "text": _extra_text(a, claim_word(view))}
        for a in legal
        if a["type"] in _EXTRA_ACTIONS
    ]
    return {
        "any": bool(legal),
        "ace_ends": ace_end_choices(legal),
        "draw": "draw_stock" in kinds,
        "take": "take_discard" in kinds,
        "playing": playing,
        "lay_off": "lay_off" in kinds,
        "discard": "discard" in kinds,
        "claim": "claim_rummy" in kinds,
        "extra": extra,
    }


def ace_end_choices(legal: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Both ends of a 2..K run for an ace (or a joker as one): two named buttons (Ruling 1).

    The engine lists the low end with ``ace_end`` and the high end without it; each pair is
    shown as two choices so the player says which end, as the ruling asks.
    """
    choices = []
    for low in legal:
        if low["type"] != "lay_off" or low.get("ace_end") != "low":
            continue
        high = {key: value for key, value in low.items() if key != "ace_end"}
        if high not in legal:
            continue
        label = card(low["card"])["label"]
        reading = low.get("reading", low["card"])
        if reading != low["card"]:
            label += f" as the {card(reading)['label']}"
        suit = card(reading)["symbol"]
        where = f"on meld {low['meld']}"
        choices.append(
            {
                "json": json.dumps(high),
                "text": f"Lay off the {label} {where} high, after the K{suit}",
            }
        )
        choices.append(
            {
                "json": json.dumps(low),
                "text": f"Lay off the {label} {where} low, before the 2{suit}",
            }
        )
    return choices


def _extra_text(action: dict[str, Any], call: str = "Rummy") -> str:
    kind = action["type"]
    if kind == "pass_claim":
        return f"Pass (do not call {call})"
    if kind == "decline_draw":
        return "Do not take from the pile (ends the hand)"
    if kind == "float":
        return "Float with an empty hand"
    if kind == "pass_upcard":
        return "Pass on the up-card"
    if kind == "play_natural":
        # A phone shows "Put the 8♥ in front (meld 1)": the whole sentence took two lines
        # there and pushed the table below the screen. Screen readers hear all of it.
        return format_html(
            'Put the {} in front<span class="on-wide"> of you</span> '
            '(<span class="on-wide">for the wild card in </span>meld {})',
            card(action["card"])["label"],
            action["meld"],
        )
    return f"Put the {card(action['card'])['label']} in place of the joker in meld {action['meld']}"


# --- scores ------------------------------------------------------------------------------


def breakdown(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """At hand end: per player the melded and in-hand cards with their points."""
    result = view.get("result")
    if not result:
        return []
    out = []
    for seat in result["seats"]:
        lines = [
            card(line["card"], points=line["points"], reason=line["reason"])
            for line in seat["lines"]
        ]
        out.append(
            {
                "seat": seat["seat"],
                "name": _name(names, seat["seat"]),
                "melded": seat["melded"],
                "in_hand": seat["in_hand"],
                "score": seat["score"],
                "counted": seat["counted"],
                "total_after": seat["total_after"],
                "bonus": seat.get("bonus", 0),
                "bonus_reason": seat.get("bonus_reason", ""),
                "went_out": result.get("went_out") == seat["seat"],
                "plus": [line for line in lines if line["points"] > 0],
                "minus": [line for line in lines if line["points"] <= 0],
            }
        )
    return out


def score_sheet(
    rows: Sequence[dict[str, Any]],
    num_seats: int,
    final_totals: Sequence[int] | None = None,
) -> list[dict[str, Any]]:
    """Per finished hand and seat: melded, in hand, hand score and the running total.
    (games.table.shared_frames keeps the live score sheet while the figures read here and
    in ``side_sheet`` stay the same: a new figure read here belongs in its key too.)

    With a finished game's ``final_totals``, points the game added after its last hand (the
    Oklahoma winner's 200) get a row of their own, so every total on the sheet is the one
    above it plus what its row shows.
    """
    out = []
    for row in rows:
        result = row.get("result") or {}
        seats = {s["seat"]: s for s in result.get("seats", [])}
        cells = []
        for index in range(num_seats):
            s = seats.get(index)
            if s is None:
                cells.append(None)
                continue
            cells.append(
                {
                    "melded": s["melded"],
                    "in_hand": s["in_hand"],
                    "score": s["counted"],
                    "total": s["total_after"],
                }
            )
        out.append({"hand": row["hand"], "cells": cells})
    if final_totals is not None and out:
        bonus = _game_bonus_row(out[-1]["cells"], final_totals)
        if bonus is not None:
            out.append(bonus)
    return out


def _game_bonus_row(
    last: Sequence[dict[str, Any] | None], final_totals: Sequence[int]
) -> dict[str, Any] | None:
    cells: list[dict[str, Any] | None] = []
    for cell, final in zip(last, final_totals, strict=False):
        added = final - cell["total"] if cell is not None else 0
        cells.append({"bonus": added, "total": final} if added else None)
    if not any(cells):
        return None
    return {"hand": "Game bonus", "game_bonus": True, "cells": cells}


def standings(
    totals: Sequence[int], winners: Sequence[int], names: Sequence[str]
) -> list[dict[str, Any]]:
    """Players ranked by total (ties share a place), winners first."""
    order = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
    out = []
    place = 0
    previous: int | None = None
    for position, seat in enumerate(order, start=1):
        if totals[seat] != previous:
            place, previous = position, totals[seat]
        out.append(
            {
                "place": place,
                "seat": seat,
                "name": _name(names, seat),
                "total": totals[seat],
                "winner": seat in winners,
            }
        )
    return out


def player_names(players: Sequence[dict[str, Any]]) -> list[str]:
    """The names a game's players are shown by on its pages. A bot's record names only its
    level ("Easy bot": the leaderboards count bots by level), so two bots of one level get
    their seat number, as the table names them ("Easy bot 2", "Easy bot 3")."""
    names = [p.get("name") or f"Seat {i + 1}" for i, p in enumerate(players)]
    counts = Counter(names)
    return [
        f"{name} {i + 1}" if counts[name] > 1 and players[i].get("bot") else name
        for i, name in enumerate(names)
    ]


def dealer_draw(
    rounds: Sequence[Sequence[Sequence[Any]]], names: Sequence[str], partners: bool = False
) -> list[str]:
    """The public draw for first dealer (and partners), one sentence per round (ties again)."""
    lines = []
    first = "Draw for partners and dealer (two highest against two lowest)" if partners else None
    for number, drawn in enumerate(rounds, start=1):
        parts = [f"{_name(names, seat)} {card(code)['label']}" for seat, code in drawn]
        prefix = (first or "Draw for dealer") if number == 1 else "Tie, drawn again"
        lines.append(f"{prefix}: {', '.join(parts)}")
    return lines


def rules_summary(rules_json: dict[str, Any]) -> list[dict[str, str]]:
    """The house rules that differ from the preset, each with its one-line description."""
    try:
        rules = engine.Rules.from_json(rules_json)
    except engine.RulesError:
        return []
    out = []
    for name, value in rules.changed_options().items():
        info = engine.OPTIONS[name]
        out.append(
            {"name": name, "text": option_text(name, value), "description": info.description}
        )
    return out


def preset_notes(preset: str) -> list[str]:
    """The preset's own rules a player must know at the table, from the preset's data."""
    info = engine.PRESETS.get(preset)
    if info is None:
        return []
    notes = []
    if info.wild_rank == "2":
        notes.append(
            "Deuces are wild: a deuce stands for the card its place in the meld declares, "
            "for good; a deuce in its own place is a natural two."
        )
    if info.upcard_offered:
        notes.append("The first up-card is offered to each player in turn; the taker plays first.")
    if info.take_top_takes_pile:
        notes.append("Taking the top discard takes the whole pile; that top card is used at once.")
    if info.lay_off_on == "own":
        notes.append("You lay off only on your own melds.")
        if info.joker_switching:
            notes.append(
                "A joker you melded can be taken back: put the card it stands for in its place "
                "(the top discard may be taken for that)."
            )
    if info.jokers_option and info.values.joker_melded is not None:
        notes.append(
            f"A melded joker scores {info.values.joker_melded}; one left in hand costs "
            f"{info.values.joker_in_hand}."
        )
    for code in info.undiscardable:
        notes.append(f"The {engine.card_label(code)} may be discarded only as your last card.")
    if info.going_out_bonus:
        text = f"Going out (always with a discard) scores {info.going_out_bonus}"
        if info.concealed_going_out_bonus:
            text += (
                f", or {info.concealed_going_out_bonus} when you meld your whole hand in one "
                "turn (that bonus does not count toward the target)"
            )
        notes.append(text + ".")
    if info.empty_stock == "block":
        notes.append("If whoever takes the last stock card does not go out, the hand ends.")
    if info.game_bonus:
        notes.append(f"The winner of the game scores {info.game_bonus} more.")
    if info.deal_face_up_count:
        notes.append(
            "Each deal starts with a face-up card that sets how many more cards follow "
            "(2-9: that many, 10-K: 10, ace: 11); the dealer's face-up rank is wild."
        )
    if info.naturals_in_front:
        notes.append(
            "Hold the card a melded wild card stands for? Put it in front of you: it scores for "
            "you and the wild card stays."
        )
    if info.in_hand_to_winner:
        notes.append(
            "Cards left in hand cost nothing: whoever goes out scores them. If the stock runs "
            "out, only melds count."
        )
    if info.rummy_call_needs_meld:
        notes.append("Only a player with a meld of their own down may call Rummy.")
    return notes


def wild_note(view: dict[str, Any] | None) -> str | None:
    """The hand's wild rank in words, when it changes from hand to hand (five-thousand)."""
    if not view or not view.get("wild_rank"):
        return None
    info = engine.PRESETS.get(view.get("preset", ""))
    if info is None or info.wild_rank != "dealer":
        return None
    rank = view["wild_rank"]
    name = engine.card_name(rank + "*")[4:]
    plural = "sixes" if name == "six" else name + "s"
    return f"This hand the {plural} are wild (the dealer's face-up card)."


def target_text(preset: str, rules_json: dict[str, Any]) -> str:
    """What ends the game: the target score, or "one hand" where a game is a single hand."""
    info = engine.PRESETS.get(preset)
    if info is not None and info.single_hand_game:
        return "one hand"
    return str((rules_json.get("options") or {}).get("target", ""))


def turn_text(seconds: int | None) -> str:
    """A turn's time as the create form offers it: "45 s", "1 min", "1½ min", "5 min";
    "untimed" without a clock. ("300 s a turn" made players work out five minutes.)"""
    if not seconds:
        return "untimed"
    if seconds < 60 or seconds % 30:
        return f"{seconds} s"
    minutes, half = divmod(seconds, 60)
    return f"{minutes}{'½' if half else ''} min"


def preset_title(preset: str) -> str:
    info = engine.PRESETS.get(preset)
    return info.title if info else preset


# --- the finished-game replay --------------------------------------------------------------


def replay_steps(final: Any, names: Sequence[str]) -> list[dict[str, Any]]:
    """Every position of a finished hand, all hands face up, from the deal to the end.

    Only for hands that are over: the caller must never pass a running hand.
    """
    if final.phase is not engine.Phase.HAND_OVER:
        raise ValueError("Only a finished hand can be replayed face up.")
    state = engine.new_hand(
        final.rules,
        final.num_seats,
        final.dealer,
        final.totals,
        seed=final.seed,
        deck=final.deck,
        on_board=final.on_board,
    )
    steps = [_position(state, 0, "The cards are dealt.", names)]
    for number, action in enumerate(final.actions, start=1):
        text = engine.describe_action(action, list(names), state)
        state, _events = engine.apply(state, action)
        steps.append(_position(state, number, text + ".", names))
    return steps


def _replay_melds(
    melds: Sequence[Any], names: Sequence[str], laid: dict[int, int] | None = None
) -> list[dict[str, Any]]:
    """The melds grouped by the seat that laid each down, in seat order, one list per seat.

    Every card keeps the name of the seat it scores for, and, as on the table, a card
    another seat laid off carries that seat's token (initials repeat: "Easy bot 2" and
    "Easy bot 3"); a joker or a wild card shows the card it stands for. ``laid``: meld id
    -> melder (``melders`` of the hand's history).
    """
    by_owner: dict[int, list[dict[str, Any]]] = {}
    for meld in melds:
        # Without the history: the seat credited with most of the meld laid it down.
        counts = Counter(meld.owners)
        melder = (laid or {}).get(meld.id, min(counts, key=lambda seat: (-counts[seat], seat)))
        cards = [
            card(
                c,
                owner_name=_name(names, owner),
                owner_mark=seat_token(owner) if owner != melder else "",
                stands_for=engine.card_label(reading) if c != reading else None,
            )
            for c, reading, owner in zip(meld.cards, meld.reading, meld.owners, strict=True)
        ]
        by_owner.setdefault(melder, []).append({"id": meld.id, "cards": cards})
    return [
        {"seat": seat, "name": _name(names, seat), "melds": by_owner[seat]}
        for seat in sorted(by_owner)
    ]


def _position(state: Any, number: int, text: str, names: Sequence[str]) -> dict[str, Any]:
    return {
        "number": number,
        "text": text,
        "hands": [
            {"seat": seat, "name": _name(names, seat), "cards": [card(c) for c in hand]}
            for seat, hand in enumerate(state.hands)
        ],
        "melds": _replay_melds(state.melds, names, melders(state.history)),
        "fronts": [
            card(c, owner_name=_name(names, owner), owner_mark=seat_token(owner))
            for owner, c, _meld in state.fronts
        ],
        "discard": [card(c) for c in state.discard],
        "stock_count": len(state.stock),
    }
