"""Storing hands: the versioned JSON state, and the hand record a person can read and replay.

Why both: the server keeps the current state as JSON (PostgreSQL JSONB) and must refuse a
corrupt or foreign document loudly, never play on from it; people and tests want a short text
history, one line per move like a chess PGN, that the engine can replay into the identical
state. A hand is fully determined by its rules, seats, dealer, totals, seed (or explicit deck)
and moves, so the record holds exactly those.

Format 1 is designed for the later presets: everything they add (partnerships, wild deuces,
an offered up-card, scattered discards, face-up deal cards) will be new *optional* keys with
defaults that mean "not used", so every format-1 document stays valid. A document from a newer
format, an unknown key or a value of the wrong type is refused with a FormatError.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from .actions import (
    ACE_ENDS,
    Action,
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    Discard,
    DrawStock,
    Float,
    LayOff,
    Meld,
    PassClaim,
    PassUpcard,
    PlayNatural,
    SwitchJoker,
    TakeDiscard,
    action_from_json,
    action_to_json,
)
from .cards import JOKER, is_card
from .errors import EngineError, FormatError, IllegalAction, RulesError
from .events import Event
from .moves import apply
from .persian import JOKER_GROUP
from .rules import Rules
from .scatter import layout_problem
from .state import _FIELDS as STATE_FIELDS
from .state import ClaimWindow, HandEnd, HandState, Obligation, Phase, new_hand, wild_rank_for
from .views import melds_from_json

FORMAT = 1
ENGINE = "rummy500"

# Every stored key: the envelope plus each field of a HandState, so the two cannot drift apart.
_KEYS = frozenset({"format", "engine", *STATE_FIELDS})
# Keys added for later presets: absent in older documents, where they mean "not used".
_OPTIONAL = frozenset({"scatter", "fronts"})


def state_to_json(state: HandState) -> dict[str, Any]:
    """The whole state, secrets included, as a versioned JSON object for storage."""
    return {
        "format": FORMAT,
        "engine": ENGINE,
        "rules": state.rules.to_json(),
        "num_seats": state.num_seats,
        "dealer": state.dealer,
        "seed": state.seed,
        "deck": None if state.deck is None else list(state.deck),
        "totals": list(state.totals),
        "on_board": list(state.on_board),
        "phase": state.phase.value,
        "to_act": list(state.to_act),
        "current": state.current,
        "hands": [list(hand) for hand in state.hands],
        "stock": list(state.stock),
        "discard": list(state.discard),
        "scatter": list(state.scatter),
        "melds": [meld.to_json() for meld in state.melds],
        "fronts": [list(front) for front in state.fronts],
        "obligation": None if state.obligation is None else state.obligation.to_json(),
        "locked": state.locked,
        "claim": None if state.claim is None else state.claim.to_json(),
        "resume": state.resume,
        "displayed": [list(cards) for cards in state.displayed],
        "floating_turn": state.floating_turn,
        "refills": state.refills,
        "melded_at_refill": state.melded_at_refill,
        "last_stock_drawn": state.last_stock_drawn,
        "history": [event.to_json() for event in state.history],
        "actions": [{"seat": action.seat, **action_to_json(action)} for action in state.actions],
        "end": None if state.end is None else {"reason": state.end.reason, "seat": state.end.seat},
    }


# Loading ------------------------------------------------------------------------------------------


def _int(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"'{what}' must be a whole number, not {value!r}.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise FormatError(f"'{what}' is out of range: {value}.")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise FormatError(f"'{what}' must be true or false, not {value!r}.")
    return value


def _cards(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(is_card(card) for card in value):
        raise FormatError(f"'{what}' must be a list of card codes.")
    return tuple(value)


def _seat(value: Any, what: str, num_seats: int) -> int:
    return _int(value, what, 0, num_seats - 1)


def state_from_json(data: Any, *, verify: bool = False) -> HandState:
    """Rebuild a stored state; FormatError on corrupt, foreign or unknown-version data.

    ``verify=True`` also replays the stored moves from the seed (or deck) and demands the
    identical state: slower, for audits and for data of doubtful origin.
    """
    if not isinstance(data, dict):
        raise FormatError("A stored hand must be a JSON object.")
    version = data.get("format")
    if version is None:
        raise FormatError("This is not a stored hand: it has no 'format'.")
    if isinstance(version, bool) or not isinstance(version, int):
        raise FormatError(f"Unknown stored-hand format {version!r}.")
    if version > FORMAT:
        raise FormatError(
            f"This hand was stored in format {version}, newer than this engine reads ({FORMAT}): "
            "upgrade the engine."
        )
    if version < 1:
        raise FormatError(f"Format {version} was never written by this engine.")
    if data.get("engine") != ENGINE:
        raise FormatError(f"This hand was not stored by the {ENGINE} engine.")
    unknown = set(data) - _KEYS
    missing = _KEYS - _OPTIONAL - set(data)
    if unknown:
        raise FormatError(f"Unknown keys in a format-1 hand: {', '.join(sorted(unknown))}.")
    if missing:
        raise FormatError(f"Missing keys in a stored hand: {', '.join(sorted(missing))}.")
    try:
        state = _build(data)
    except FormatError:
        raise
    except RulesError as error:
        raise FormatError(f"The stored rules are not valid: {error.reason}") from error
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise FormatError(f"The stored hand is malformed: {error!r}") from error
    if verify:
        _verify(state)
    return state


def _build(data: dict[str, Any]) -> HandState:
    rules = Rules.from_json(data["rules"])
    num_seats = _int(data["num_seats"], "num_seats")
    rules.validate_players(num_seats)
    state = object.__new__(HandState)
    state.rules = rules
    state.num_seats = num_seats
    state.dealer = _seat(data["dealer"], "dealer", num_seats)
    state.seed = _int(data["seed"], "seed")
    state.deck = None if data["deck"] is None else _cards(data["deck"], "deck")
    totals = data["totals"]
    if not isinstance(totals, list) or len(totals) != num_seats:
        raise FormatError("'totals' must list one total per seat.")
    state.totals = tuple(_int(total, "totals") for total in totals)
    on_board = data["on_board"]
    if not isinstance(on_board, list) or len(on_board) != num_seats:
        raise FormatError("'on_board' must list one flag per seat.")
    state.on_board = tuple(_bool(flag, "on_board") for flag in on_board)
    try:
        state.phase = Phase(data["phase"])
    except ValueError as error:
        raise FormatError(f"Unknown phase {data['phase']!r}.") from error
    if not isinstance(data["to_act"], list):
        raise FormatError("'to_act' must be a list of seats.")
    state.to_act = tuple(_seat(seat, "to_act", num_seats) for seat in data["to_act"])
    state.current = _seat(data["current"], "current", num_seats)
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != num_seats:
        raise FormatError("'hands' must list one hand per seat.")
    state.hands = tuple(_cards(hand, "hands") for hand in hands)
    state.stock = _cards(data["stock"], "stock")
    state.discard = _cards(data["discard"], "discard")
    state.scatter = _scatter(data.get("scatter", []), state.discard, rules.scattered)
    if not isinstance(data["melds"], list):
        raise FormatError("'melds' must be a list.")
    if not isinstance(data["history"], list) or not all(
        isinstance(item, dict) and isinstance(item.get("kind"), str) for item in data["history"]
    ):
        raise FormatError("'history' must be a list of events.")
    history = tuple(Event.from_json(item) for item in data["history"])
    state.wild = wild_rank_for(rules, history)
    state.melds = melds_from_json(data["melds"], state.wild)
    state.fronts = _fronts(data.get("fronts", []), num_seats, len(state.melds))
    state.obligation = _obligation(data["obligation"], num_seats)
    locked = data["locked"]
    if locked is not None and not is_card(locked):
        raise FormatError("'locked' must be a card code or null.")
    state.locked = locked
    state.claim = _claim(data["claim"], num_seats)
    state.resume = None if data["resume"] is None else _seat(data["resume"], "resume", num_seats)
    displayed = data["displayed"]
    if not isinstance(displayed, list) or len(displayed) != num_seats:
        raise FormatError("'displayed' must list the cards on show per seat.")
    state.displayed = tuple(_cards(cards, "displayed") for cards in displayed)
    state.floating_turn = _bool(data["floating_turn"], "floating_turn")
    state.refills = _int(data["refills"], "refills", 0)
    state.melded_at_refill = _int(data["melded_at_refill"], "melded_at_refill", 0)
    state.last_stock_drawn = _bool(data["last_stock_drawn"], "last_stock_drawn")
    state.history = history
    if not isinstance(data["actions"], list):
        raise FormatError("'actions' must be a list of moves.")
    state.actions = tuple(_stored_action(item, num_seats) for item in data["actions"])
    end = data["end"]
    state.end = (
        None
        if end is None
        else HandEnd(str(end["reason"]), _int(end["seat"], "end", -1, num_seats - 1))
    )
    state._accepts = None
    state._plans = None
    _check_consistency(state)
    return state


def _fronts(data: Any, num_seats: int, melds: int) -> tuple[tuple[int, str, int], ...]:
    if not isinstance(data, list):
        raise FormatError("'fronts' must be a list of [seat, card, meld].")
    fronts = []
    for item in data:
        if not isinstance(item, list) or len(item) != 3 or not is_card(item[1]):
            raise FormatError("'fronts' must be a list of [seat, card, meld].")
        fronts.append((_seat(item[0], "fronts", num_seats), item[1], _int(item[2], "fronts", 1)))
        if item[2] > melds:
            raise FormatError("'fronts' names a meld that is not on the table.")
    return tuple(fronts)


def _scatter(data: Any, discard: tuple[str, ...], scattered: bool) -> tuple[int, ...]:
    if not isinstance(data, list):
        raise FormatError("'scatter' must be a list of whole numbers.")
    if not scattered:
        if data:
            raise FormatError("'scatter' is only used by throw-down.")
        return ()
    problem = layout_problem(discard, data)
    if problem:
        raise FormatError(problem)
    return tuple(data)


def _obligation(data: Any, num_seats: int) -> Obligation | None:
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) != set(Obligation._fields):
        raise FormatError("'obligation' is malformed.")
    timings = ("next_play", "this_turn", "lay_off", "stop", "stop_discard")
    if not is_card(data["card"]) or data["timing"] not in timings:
        raise FormatError("'obligation' names an unknown card or timing.")
    if data["source"] not in ("pile", "claim"):
        raise FormatError("'obligation' has an unknown source.")
    return Obligation(
        data["card"],
        _seat(data["seat"], "obligation", num_seats),
        data["timing"],
        _bool(data["new_meld_only"], "obligation"),
        data["source"],
    )


def _claim(data: Any, num_seats: int) -> ClaimWindow | None:
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) != {"discarder", "depths", "next"}:
        raise FormatError("'claim' is malformed.")
    if not isinstance(data["depths"], list):
        raise FormatError("'claim' depths must be a list.")
    return ClaimWindow(
        _seat(data["discarder"], "claim", num_seats),
        tuple(_int(depth, "claim depth", 0) for depth in data["depths"]),
        _seat(data["next"], "claim", num_seats),
    )


def _stored_action(item: Any, num_seats: int) -> Action:
    if not isinstance(item, dict) or "seat" not in item:
        raise FormatError("A stored move must be an object with a seat.")
    seat = _int(item["seat"], "seat", -1, num_seats - 1)
    body = {key: value for key, value in item.items() if key != "seat"}
    try:
        return action_from_json(body, seat)
    except IllegalAction as error:
        raise FormatError(f"A stored move is malformed: {error.reason}") from error


def _check_consistency(state: HandState) -> None:
    """Cards conserved, melds legal under the rules, and the phase matching who may move."""
    rules = state.rules
    counted: Counter[str] = Counter(state.stock)
    counted.update(state.discard)
    for hand in state.hands:
        counted.update(hand)
    counted.update(card for _seat, card, _meld in state.fronts)
    for meld in state.melds:
        counted.update(meld.cards)
        if meld.kind == "group" and rules.group_suits_distinct:
            suits = [read[1] for read in meld.reading if read[1] != "*"]
            if len(set(suits)) != len(suits):
                raise FormatError(f"Meld {meld.id} repeats a suit, which these rules forbid.")
        if JOKER in meld.cards and not rules.wild_jokers and meld.kind != JOKER_GROUP:
            raise FormatError(f"Meld {meld.id} holds a joker, which is not wild here.")
        if any(owner < 0 or owner >= state.num_seats for owner in meld.owners):
            raise FormatError(f"Meld {meld.id} credits a seat that is not at the table.")
    if counted != Counter(rules.deck(state.num_seats)):
        raise FormatError("The stored cards do not add up to the deck: the hand is corrupt.")
    if state.deck is not None and Counter(state.deck) != Counter(rules.deck(state.num_seats)):
        raise FormatError("The stored deal order is not a full deck.")
    phase = state.phase
    if phase is Phase.HAND_OVER:
        if state.to_act or state.end is None:
            raise FormatError("A finished hand must have nobody to move and an end reason.")
    elif phase is Phase.CLAIM:
        if state.claim is None or not state.to_act:
            raise FormatError("A claim window needs its discard and the seats that may call.")
    elif phase in (Phase.DRAW, Phase.PLAY) or (phase is Phase.OFFER and rules.spec.upcard_offered):
        if state.to_act != (state.current,) or state.end is not None:
            raise FormatError("Exactly the current seat must be the one to move.")
    else:
        raise FormatError(f"Phase {phase.value!r} is not used by these rules.")


def _verify(state: HandState) -> None:
    try:
        replayed = replay(
            list(state.actions),
            rules=state.rules,
            num_seats=state.num_seats,
            dealer=state.dealer,
            totals=state.totals,
            on_board=state.on_board,
            seed=state.seed,
            deck=state.deck,
        )
    except EngineError as error:
        raise FormatError(f"The stored moves do not replay: {error.reason}") from error
    if replayed != state:
        raise FormatError("The stored state differs from a replay of its moves.")


# The hand record: one line per move --------------------------------------------------------------


def _move_text(action: Action) -> str:
    seat = f"s{action.seat}"
    if isinstance(action, DrawStock):
        return f"{seat} draw"
    if isinstance(action, TakeDiscard):
        return f"{seat} take {action.depth}"
    if isinstance(action, Meld):
        text = f"{seat} meld {' '.join(action.cards)}"
        if action.reading is not None:
            text += f" = {' '.join(action.reading)}"
        return text
    if isinstance(action, LayOff):
        text = f"{seat} layoff {action.card} {action.meld}"
        if action.reading is not None:
            text += f" = {action.reading}"
        if action.ace_end is not None:
            text += f" {action.ace_end}"
        return text
    if isinstance(action, SwitchJoker):
        return f"{seat} switch {action.card} {action.meld}"
    if isinstance(action, Discard):
        return f"{seat} discard {action.card}"
    if isinstance(action, ClaimRummy):
        return f"{seat} rummy {action.depth}"
    if isinstance(action, PassClaim):
        return f"{seat} pass"
    if isinstance(action, CloseClaims):
        return "clock close"
    if isinstance(action, DeclineDraw):
        return f"{seat} decline"
    if isinstance(action, PassUpcard):
        return f"{seat} pass-upcard"
    if isinstance(action, PlayNatural):
        return f"{seat} natural {action.card} {action.meld}"
    return f"{seat} float"


def hand_record(state: HandState, names: Sequence[str] | None = None) -> str:
    """The hand as text: tag lines, then one numbered line per move with its description.

    The record includes the seed, which is secret while the hand is being played: show it to
    players only once the hand is over.
    """
    rules = state.rules
    tags = [
        ("Engine", f"{ENGINE} record {FORMAT}"),
        ("Preset", rules.preset),
        ("Options", json.dumps(rules.changed_options(), sort_keys=True, separators=(",", ":"))),
        ("Seats", str(state.num_seats)),
        ("Dealer", str(state.dealer)),
        ("Totals", " ".join(map(str, state.totals))),
        ("OnBoard", " ".join("1" if flag else "0" for flag in state.on_board)),
        ("Seed", str(state.seed)),
    ]
    if state.deck is not None:
        tags.append(("Deck", " ".join(state.deck)))
    if names:
        tags.append(("Names", " | ".join(names)))
    lines = [f'[{name} "{value}"]' for name, value in tags]
    lines.append("")
    named = list(names) if names else None
    moves = (event for event in state.history if event.kind not in _SYSTEM_EVENTS)
    call = rules.claims_word
    texts = {number: event.text(named, call) for number, event in enumerate(moves, start=1)}
    for number, action in enumerate(state.actions, start=1):
        comment = texts.get(number, "")
        lines.append(f"{number}. {_move_text(action)}" + (f"  ; {comment}" if comment else ""))
    if state.end is not None:
        lines.append(f"; {state.history[-1].text(named, call)}")
    return "\n".join(lines) + "\n"


_SYSTEM_EVENTS = frozenset({"deal", "claim_window", "stock_refilled", "hand_over"})
_TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
_MOVE = re.compile(r"^(\d+)\.\s+(.*?)\s*(?:;.*)?$")


def parse_move(text: str) -> Action:
    """One move line's text (without number and comment), e.g. "s2 take 3"."""
    words = text.split()
    if words == ["clock", "close"]:
        return CloseClaims(-1)
    if len(words) < 2 or not re.fullmatch(r"s\d+", words[0]):
        raise FormatError(f"Cannot read the move {text!r}.")
    seat = int(words[0][1:])
    verb, args = words[1], words[2:]
    try:
        if verb == "draw" and not args:
            return DrawStock(seat)
        if verb == "take" and len(args) == 1:
            return TakeDiscard(seat, int(args[0]))
        if verb == "rummy" and len(args) == 1:
            return ClaimRummy(seat, int(args[0]))
        if verb == "meld" and args:
            if "=" in args:
                split = args.index("=")
                return Meld(seat, tuple(args[:split]), tuple(args[split + 1 :]))
            return Meld(seat, tuple(args))
        if verb == "layoff" and len(args) in (2, 3, 4, 5):
            ace_end = args.pop() if args[-1] in ACE_ENDS else None
            reading = args[3] if len(args) == 4 and args[2] == "=" else None
            if len(args) not in (2, 4) or (len(args) == 4 and reading is None):
                raise ValueError("expected '= card'")
            return LayOff(seat, args[0], int(args[1]), reading, ace_end)
        if verb == "switch" and len(args) == 2:
            return SwitchJoker(seat, args[0], int(args[1]))
        if verb == "discard" and len(args) == 1:
            return Discard(seat, args[0])
        if verb == "pass" and not args:
            return PassClaim(seat)
        if verb == "decline" and not args:
            return DeclineDraw(seat)
        if verb == "float" and not args:
            return Float(seat)
        if verb == "pass-upcard" and not args:
            return PassUpcard(seat)
        if verb == "natural" and len(args) == 2:
            return PlayNatural(seat, args[0], int(args[1]))
    except ValueError as error:
        raise FormatError(f"Cannot read the move {text!r}: {error}.") from error
    raise FormatError(f"Cannot read the move {text!r}.")


def parse_record(text: str) -> tuple[dict[str, Any], list[Action]]:
    """The setup (rules, num_seats, dealer, totals, on_board, seed, deck) and the moves."""
    tags: dict[str, str] = {}
    moves: list[Action] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        tag = _TAG.match(line)
        if tag:
            tags[tag.group(1)] = tag.group(2)
            continue
        move = _MOVE.match(line)
        if not move:
            raise FormatError(f"Cannot read the line {line!r}.")
        if int(move.group(1)) != len(moves) + 1:
            raise FormatError(f"Move {move.group(1)} is out of sequence.")
        moves.append(parse_move(move.group(2)))
    if tags.get("Engine") != f"{ENGINE} record {FORMAT}":
        raise FormatError(f"Not a {ENGINE} hand record of format {FORMAT}.")
    try:
        options = json.loads(tags.get("Options", "{}"))
        if not isinstance(options, dict):
            raise FormatError("The Options tag must be a JSON object.")
        rules = Rules.from_json({"preset": tags["Preset"], "options": options})
        setup: dict[str, Any] = {
            "rules": rules,
            "num_seats": int(tags["Seats"]),
            "dealer": int(tags["Dealer"]),
            "totals": tuple(int(total) for total in tags["Totals"].split()),
            "on_board": tuple(flag == "1" for flag in tags["OnBoard"].split()),
            "seed": int(tags["Seed"]),
            "deck": tuple(tags["Deck"].split()) if "Deck" in tags else None,
        }
    except KeyError as error:
        raise FormatError(f"The record lacks the {error.args[0]} tag.") from error
    except (ValueError, RulesError) as error:
        raise FormatError(f"The record's tags are not valid: {error}") from error
    return setup, moves


def replay(
    record_or_actions: str | Iterable[Action | dict[str, Any]],
    rules: Rules | None = None,
    num_seats: int | None = None,
    dealer: int | None = None,
    totals: Sequence[int] | None = None,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
    on_board: Sequence[bool] | None = None,
) -> HandState:
    """Play a hand again: from a hand record (text), or from moves plus the hand's setup.

    Moves may be actions or stored JSON moves ({"seat": 1, "type": ...}). A move that does
    not apply raises FormatError naming the move and the reason.
    """
    if isinstance(record_or_actions, str):
        setup, actions = parse_record(record_or_actions)
    else:
        if rules is None or num_seats is None or dealer is None or (seed is None and deck is None):
            raise FormatError("Replaying moves needs the rules, seats, dealer and seed or deck.")
        setup = {
            "rules": rules,
            "num_seats": num_seats,
            "dealer": dealer,
            "totals": totals,
            "on_board": on_board,
            "seed": seed,
            "deck": deck,
        }
        actions = [
            _stored_action(item, num_seats) if isinstance(item, dict) else item
            for item in record_or_actions
        ]
    try:
        state = new_hand(**setup)
    except RulesError as error:
        raise FormatError(f"The hand's setup is not valid: {error.reason}") from error
    for number, action in enumerate(actions, start=1):
        try:
            state, _events = apply(state, action)
        except IllegalAction as error:
            raise FormatError(
                f"Move {number} ({_move_text(action)}) does not apply: {error.reason}"
            ) from error
    return state
