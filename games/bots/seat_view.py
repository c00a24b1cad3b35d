"""A seat's view read into a small typed value: the only input a bot has.

Why a separate reader: the bot API takes the JSON view that a person's browser receives
(``engine.view(state, seat)``), never a ``HandState``, so a bot cannot look at other hands or
the stock even by accident. Reading the view once, checking that it really is one seat's view,
keeps that promise in one place and gives the bots typed fields instead of dictionary lookups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.engine.melds import TableMeld, table_accepts
from games.engine.persian import persian_accepts
from games.engine.rules import Rules
from games.engine.views import melds_from_json
from games.engine.wilds import wild_accepts

REQUIRED_KEYS = (
    "format",
    "rules",
    "seat",
    "num_seats",
    "dealer",
    "phase",
    "to_act",
    "hand",
    "hand_sizes",
    "melds",
    "discard",
    "stock_count",
    "totals",
    "obligation",
    "history",
    "public_cards",
)


class ViewError(ValueError):
    """The bot was given something other than one seat's view."""


@dataclass(frozen=True, slots=True)
class Duty:
    """A card taken from the pile that must still be used (the view's ``obligation``)."""

    card: str
    timing: str
    new_meld_only: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat knows, typed. ``known[s]``: cards everyone knows seat ``s`` holds."""

    rules: Rules
    seat: int
    num_seats: int
    dealer: int
    phase: str
    to_act: tuple[int, ...]
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    melds: tuple[TableMeld, ...]
    discard: tuple[str, ...]
    stock_count: int
    totals: tuple[int, ...]
    duty: Duty | None
    locked: str | None
    known: tuple[tuple[str, ...], ...]
    scatter: tuple[int, ...] = ()
    """Throw-down: the layout of the discard area (see games.engine.scatter)."""
    wild: str | None = None
    """The rank whose cards are wild this hand (oklahoma's deuces, 5000's dealer rank)."""
    fronts: tuple[str, ...] = ()
    """Natural cards played in front of the seats (five-thousand)."""

    def next_seat(self) -> int:
        return (self.seat + 1) % self.num_seats

    def accepts(self) -> dict[str, list[Any]]:
        """Card code -> the lay-off spots for it on the table now."""
        rules = self.rules
        if rules.persian_melds:
            return persian_accepts(self.melds, rules.group_suits_distinct)
        if self.wild is not None:
            return wild_accepts(
                self.melds, self.wild, rules.wild_jokers, rules.group_suits_distinct
            )
        return _accepts_for(self.melds, rules.wild_jokers, rules.group_suits_distinct)

    def visible_cards(self) -> Counter[str]:
        """Every card this seat can place: its hand, the table, the pile, others' known cards."""
        seen: Counter[str] = Counter(self.hand)
        seen.update(self.discard)
        seen.update(self.fronts)
        for meld in self.melds:
            seen.update(meld.cards)
        for other, cards in enumerate(self.known):
            if other != self.seat:
                seen.update(cards)
        return seen

    def unseen_cards(self) -> Counter[str]:
        """Cards in the stock or in the unknown part of the other hands."""
        deck = Counter(self.rules.deck(self.num_seats))
        return deck - self.visible_cards()


_ACCEPTS_CACHE: dict[tuple[Any, ...], dict[str, list[Any]]] = {}


def _accepts_for(melds: tuple[TableMeld, ...], wild: bool, distinct: bool) -> dict[str, list[Any]]:
    key = (melds, wild, distinct)
    found = _ACCEPTS_CACHE.get(key)
    if found is None:
        if len(_ACCEPTS_CACHE) > 4096:
            _ACCEPTS_CACHE.clear()
        found = _ACCEPTS_CACHE[key] = table_accepts(melds, wild, distinct)
    return found


@lru_cache(maxsize=64)
def _rules(preset: str, options: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.from_json({"preset": preset, "options": dict(options)})


def read_view(view: object) -> SeatView:
    """Check that ``view`` is one seat's view (``engine.view(state, seat)``) and read it.

    Raises ViewError for anything else: a hand state, a spectator's view, or a view with a
    field missing. A bot never falls back on guessing what it was not shown.
    """
    if not isinstance(view, Mapping):
        raise ViewError(
            f"A bot takes a seat's view (a dict from engine.view), not {type(view).__name__}."
        )
    if "seat" in view and view["seat"] is None:
        raise ViewError("A spectator's view has no hand to play: give the bot its seat's view.")
    missing = [key for key in REQUIRED_KEYS if key not in view]
    if missing:
        raise ViewError(f"This is not a seat's view: it has no {', '.join(missing)}.")
    if view["format"] != 1:
        raise ViewError(f"Unknown view format {view['format']!r}.")
    seat = view["seat"]
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ViewError(f"A view's seat is a whole number, not {seat!r}.")
    if "hands" in view and view["phase"] != "hand_over":
        raise ViewError("This view shows every hand while the hand is being played.")
    try:
        rules_json = view["rules"]
        rules = _rules(rules_json["preset"], tuple(sorted(rules_json["options"].items())))
        duty_json = view["obligation"]
        duty = (
            None
            if duty_json is None
            else Duty(duty_json["card"], duty_json["timing"], bool(duty_json["new_meld_only"]))
        )
        if not isinstance(view["history"], list):
            raise ViewError("A view's history is a list of events.")
        seen = SeatView(
            rules=rules,
            seat=seat,
            num_seats=int(view["num_seats"]),
            dealer=int(view["dealer"]),
            phase=str(view["phase"]),
            to_act=tuple(view["to_act"]),
            hand=tuple(view["hand"]),
            hand_sizes=tuple(view["hand_sizes"]),
            melds=melds_from_json(view["melds"], view.get("wild_rank")),
            discard=tuple(view["discard"]),
            stock_count=int(view["stock_count"]),
            totals=tuple(view["totals"]),
            duty=duty,
            locked=view.get("locked"),
            known=tuple(tuple(cards) for cards in view["public_cards"]["known"]),
            scatter=tuple(int(mask) for mask in view.get("scatter", ())),
            wild=view.get("wild_rank"),
            fronts=tuple(card for _seat, card, _meld in view.get("fronts", ())),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ViewError(f"This seat's view is malformed: {error}") from error
    _check_consistent(seen)
    return seen


def _check_consistent(seen: SeatView) -> None:
    """Refuse a view whose cards cannot all be real: a tampered or stale view."""
    if not 0 <= seen.seat < seen.num_seats or len(seen.hand_sizes) != seen.num_seats:
        raise ViewError("This view's seat or hand sizes do not fit the table.")
    if seen.hand_sizes[seen.seat] != len(seen.hand):
        raise ViewError("This view's hand does not match its own hand size.")
    if seen.visible_cards() - Counter(seen.rules.deck(seen.num_seats)):
        raise ViewError("This view shows cards that are not in the deck, or shows a card twice.")
