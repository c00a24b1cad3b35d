"""Moves as small immutable values, their JSON form and their description in words.

Why values: the same move arrives from a browser, a bot or the table clock, is checked and
applied by one function, is stored in the hand's action list, and is replayed later. Every
action carries the seat that makes it; the JSON form leaves the seat out because the server
knows who sent it (``action_from_json(data, seat)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

from .cards import card_label, is_card, is_reading, labels, labels_read
from .errors import IllegalAction
from .scatter import over


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top card of the stock."""

    seat: int


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take the discard at ``depth`` (0 = top card) and every card above it."""

    seat: int
    depth: int = 0


@dataclass(frozen=True, slots=True)
class Meld:
    """Lay down a new run or group. ``cards`` in meld order; ``reading`` only for wild cards."""

    seat: int
    cards: tuple[str, ...]
    reading: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.cards, list):
            object.__setattr__(self, "cards", tuple(self.cards))
        if isinstance(self.reading, list):
            object.__setattr__(self, "reading", tuple(self.reading))


@dataclass(frozen=True, slots=True)
class LayOff:
    """Add one card to the meld with id ``meld``; ``reading`` says which end for a wild card.

    ``ace_end`` ("low" or "high") says where an ace, or a wild card read as an ace, goes on a
    run that already holds 2 to K, where both ends are open (Ruling 1). Left out, it means the
    high end: moves stored before the field existed replay as they were played.
    """

    seat: int
    card: str
    meld: int
    reading: str | None = None
    ace_end: str | None = None


@dataclass(frozen=True, slots=True)
class SwitchJoker:
    """Put ``card`` in place of the joker standing for it in meld ``meld`` (rummy-school)."""

    seat: int
    card: str
    meld: int


@dataclass(frozen=True, slots=True)
class Discard:
    """End the turn by putting ``card`` on the discard pile."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class ClaimRummy:
    """Call Rummy on the discard at ``depth`` during the claim window."""

    seat: int
    depth: int = 0


@dataclass(frozen=True, slots=True)
class PassClaim:
    """Decline to call Rummy in the current claim window."""

    seat: int


@dataclass(frozen=True, slots=True)
class CloseClaims:
    """The table clock ends the claim window (seat -1: nobody's move)."""

    seat: int = -1


@dataclass(frozen=True, slots=True)
class DeclineDraw:
    """With the stock empty, choose not to take from the pile: the hand ends."""

    seat: int


@dataclass(frozen=True, slots=True)
class PlayNatural:
    """Put ``card`` in front of you: the natural card a wild card in meld ``meld`` stands for
    (five-thousand). It scores for you; the wild card stays where it is."""

    seat: int
    card: str
    meld: int


@dataclass(frozen=True, slots=True)
class PassUpcard:
    """Decline the offered first up-card (oklahoma): the offer moves on to the left."""

    seat: int


@dataclass(frozen=True, slots=True)
class Float:
    """End a turn with an empty hand (option floating)."""

    seat: int


Action: TypeAlias = (
    DrawStock
    | TakeDiscard
    | Meld
    | LayOff
    | SwitchJoker
    | Discard
    | ClaimRummy
    | PassClaim
    | CloseClaims
    | DeclineDraw
    | Float
    | PassUpcard
    | PlayNatural
)

ACTION_TYPES: dict[str, type[Any]] = {
    "draw_stock": DrawStock,
    "take_discard": TakeDiscard,
    "meld": Meld,
    "lay_off": LayOff,
    "switch_joker": SwitchJoker,
    "discard": Discard,
    "claim_rummy": ClaimRummy,
    "pass_claim": PassClaim,
    "close_claims": CloseClaims,
    "decline_draw": DeclineDraw,
    "float": Float,
    "pass_upcard": PassUpcard,
    "play_natural": PlayNatural,
}
TYPE_NAMES: dict[type[Any], str] = {cls: name for name, cls in ACTION_TYPES.items()}

# Fields of each JSON form: (required, optional).
_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "draw_stock": (frozenset(), frozenset()),
    "take_discard": (frozenset({"depth"}), frozenset()),
    "meld": (frozenset({"cards"}), frozenset({"reading"})),
    "lay_off": (frozenset({"card", "meld"}), frozenset({"reading", "ace_end"})),
    "switch_joker": (frozenset({"card", "meld"}), frozenset()),
    "discard": (frozenset({"card"}), frozenset()),
    "claim_rummy": (frozenset(), frozenset({"depth"})),
    "pass_claim": (frozenset(), frozenset()),
    "close_claims": (frozenset(), frozenset()),
    "decline_draw": (frozenset(), frozenset()),
    "float": (frozenset(), frozenset()),
    "pass_upcard": (frozenset(), frozenset()),
    "play_natural": (frozenset({"card", "meld"}), frozenset()),
}


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form without the seat, e.g. {"type": "take_discard", "depth": 2}."""
    name = TYPE_NAMES.get(type(action))
    if name is None:
        raise IllegalAction(f"{action!r} is not an action.")
    data: dict[str, Any] = {"type": name}
    if isinstance(action, TakeDiscard | ClaimRummy):
        data["depth"] = action.depth
    elif isinstance(action, Meld):
        data["cards"] = list(action.cards)
        if action.reading is not None:
            data["reading"] = list(action.reading)
    elif isinstance(action, LayOff):
        data["card"] = action.card
        data["meld"] = action.meld
        if action.reading is not None:
            data["reading"] = action.reading
        if action.ace_end is not None:
            data["ace_end"] = action.ace_end
    elif isinstance(action, SwitchJoker | PlayNatural):
        data["card"] = action.card
        data["meld"] = action.meld
    elif isinstance(action, Discard):
        data["card"] = action.card
    return data


ACE_ENDS = ("low", "high")
"""The values of ``LayOff.ace_end``."""


def _int_field(data: dict[str, Any], key: str, minimum: int) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"'{key}' must be a whole number, not {value!r}.")
    if value < minimum:
        raise IllegalAction(f"'{key}' must be at least {minimum}, not {value}.")
    return value


def _card_field(value: Any) -> str:
    if not is_card(value):
        raise IllegalAction(f"{value!r} is not a card code (like '7H', 'TS' or 'JK').")
    return str(value)


def _reading_field(value: Any) -> str:
    if not is_reading(value):
        raise IllegalAction(f"{value!r} is not a card a wild card can stand for (like '8C').")
    return str(value)


def action_from_json(data: object, seat: int) -> Action:
    """Parse a client's move for ``seat``; raises IllegalAction on any malformed input."""
    if not isinstance(data, dict):
        raise IllegalAction("A move must be a JSON object with a 'type'.")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in ACTION_TYPES:
        raise IllegalAction(f"Unknown move type {kind!r}.")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalAction(f"Seat must be a whole number, not {seat!r}.")
    required, optional = _FIELDS[kind]
    keys = set(data) - {"type"}
    missing = required - keys
    if missing:
        raise IllegalAction(f"A {kind} move needs {', '.join(sorted(missing))}.")
    extra = keys - required - optional
    if extra:
        raise IllegalAction(f"A {kind} move has no field {', '.join(sorted(extra))}.")
    if kind == "take_discard":
        return TakeDiscard(seat, _int_field(data, "depth", 0))
    if kind == "claim_rummy":
        return ClaimRummy(seat, _int_field(data, "depth", 0) if "depth" in data else 0)
    if kind == "meld":
        cards = data["cards"]
        if not isinstance(cards, list) or not cards:
            raise IllegalAction("'cards' must be a non-empty list of card codes.")
        parsed = tuple(_card_field(card) for card in cards)
        reading = data.get("reading")
        if reading is None:
            return Meld(seat, parsed, None)
        if not isinstance(reading, list) or len(reading) != len(parsed):
            raise IllegalAction("'reading' must list one card for each card of the meld.")
        return Meld(seat, parsed, tuple(_reading_field(card) for card in reading))
    if kind in ("lay_off", "switch_joker", "play_natural"):
        card = _card_field(data["card"])
        meld = _int_field(data, "meld", 1)
        if kind == "switch_joker":
            return SwitchJoker(seat, card, meld)
        if kind == "play_natural":
            return PlayNatural(seat, card, meld)
        reading = data.get("reading")
        ace_end = data.get("ace_end")
        if ace_end is not None and ace_end not in ACE_ENDS:
            raise IllegalAction(f"'ace_end' must be 'low' or 'high', not {ace_end!r}.")
        return LayOff(
            seat, card, meld, None if reading is None else _reading_field(reading), ace_end
        )
    if kind == "discard":
        return Discard(seat, _card_field(data["card"]))
    if kind == "close_claims":
        return CloseClaims(seat)
    cls = ACTION_TYPES[kind]
    action: Action = cls(seat)
    return action


def _name(names: list[str] | None, seat: int) -> str:
    if seat < 0:
        return "The table clock"
    if names and 0 <= seat < len(names):
        return names[seat]
    return f"Seat {seat}"


def describe_action(action: Action, names: list[str] | None = None, state: Any = None) -> str:
    """One sentence for the move, e.g. "Alice took the 7♥ and 2 cards above it from the pile".

    Pass the state *before* the move to name the cards a pile move takes; without it the
    sentence counts the cards instead.
    """
    who = _name(names, action.seat)
    call = getattr(getattr(state, "rules", None), "claims_word", "Rummy")
    if isinstance(action, DrawStock):
        return f"{who} drew from the stock"
    if isinstance(action, TakeDiscard | ClaimRummy):
        verb = "took" if isinstance(action, TakeDiscard) else f"called {call} and took"
        pile = getattr(state, "discard", None)
        above = action.depth
        layout = getattr(state, "scatter", None)
        if layout and pile is not None and action.depth < len(pile):
            above = len(over(layout, len(pile) - 1 - action.depth))  # throw-down
        tail = "" if above == 0 else f" and {above} card{'s' if above > 1 else ''} above it"
        rules = getattr(state, "rules", None)
        if rules is not None and rules.spec.take_top_takes_pile and pile and len(pile) > 1:
            return f"{who} took the {card_label(pile[-1])} and the whole pile with it"
        if pile is not None and action.depth < len(pile):
            card = card_label(pile[-1 - action.depth])
            return f"{who} {verb} the {card}{tail} from the pile"
        return f"{who} {verb} the card at depth {action.depth}{tail} from the pile"
    if isinstance(action, Meld):
        if action.reading is None:
            return f"{who} melded {labels(action.cards)}"
        return f"{who} melded {labels_read(action.cards, action.reading)}"
    if isinstance(action, LayOff):
        text = f"{who} laid off the {card_label(action.card)} on meld {action.meld}"
        if action.reading is not None and action.reading != action.card:
            text += f" as {card_label(action.reading)}"
        if action.ace_end is not None:
            text += f" at the {action.ace_end} end"
        return text
    if isinstance(action, SwitchJoker):
        return f"{who} put the {card_label(action.card)} in place of a joker in meld {action.meld}"
    if isinstance(action, Discard):
        return f"{who} discarded the {card_label(action.card)}"
    if isinstance(action, PassClaim):
        return f"{who} did not call {call}"
    if isinstance(action, CloseClaims):
        return f"The time to call {call} ran out"
    if isinstance(action, DeclineDraw):
        return f"{who} chose not to take from the pile, which ends the hand"
    if isinstance(action, PassUpcard):
        return f"{who} passed on the up-card"
    if isinstance(action, PlayNatural):
        return (
            f"{who} put the {card_label(action.card)} down in front, for the wild card in meld "
            f"{action.meld}"
        )
    return f"{who} floats with an empty hand"
