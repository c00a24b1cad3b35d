"""Shared action objects: legal_actions hands out the same immutable instances every time.

Why: building a frozen dataclass costs more than looking one up, and bots ask for the legal
actions of every state they visit.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    Discard,
    LayOff,
    Meld,
)
from .melds import (
    LayOffSpot,
    MeldShape,
)

# Action objects are immutable, so the ones legal_actions hands out are shared.
_ACTION_CACHE: dict[tuple[Any, ...], Any] = {}
_ACTION_CACHE_LIMIT = 200_000


def cached(cls: type[Any], *args: Any) -> Any:
    key = (cls, *args)
    action = _ACTION_CACHE.get(key)
    if action is None:
        if len(_ACTION_CACHE) > _ACTION_CACHE_LIMIT:
            _ACTION_CACHE.clear()
        action = _ACTION_CACHE[key] = cls(*args)
    return action


DISCARDS: dict[int, dict[str, Discard]] = {}


def discard_action(seat: int, card: str) -> Discard:
    """The shared Discard(seat, card) (the most frequent action by far)."""
    by_card = DISCARDS.get(seat)
    if by_card is None:
        by_card = DISCARDS[seat] = {}
    action = by_card.get(card)
    if action is None:
        action = by_card[card] = Discard(seat, card)
    return action


def meld_action(seat: int, shape: MeldShape) -> Meld:
    cards = shape.cards
    reading = None if shape.reading is cards or shape.reading == cards else shape.reading
    action: Meld = cached(Meld, seat, cards, reading)
    return action


def layoff_action(seat: int, card: str, spot: LayOffSpot) -> LayOff:
    reading = spot.reading if spot.reading != card else None
    if spot.ace_end == "low":  # the high end is the default, so it is left unsaid
        action: LayOff = cached(LayOff, seat, card, spot.meld, reading, "low")
    else:
        action = cached(LayOff, seat, card, spot.meld, reading)
    return action
