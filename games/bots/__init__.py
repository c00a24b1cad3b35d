"""Bots: pure functions of one seat's view and its legal actions.

    from games.bots import choose_action
    action = choose_action("medium", engine.view(state, seat), engine.legal_actions(state, seat),
                           random.Random(seed), time_limit_s=1.0)

Why a view and not a state: a bot receives exactly what a person at that seat sees (the dict
``engine.view(state, seat)`` returns), so it cannot read other hands or the stock, by
construction. Nothing here takes a ``HandState``; ``choose_action`` refuses one, and a view with
a field missing, with a ``ViewError``. The hard bot's search deals the hidden cards at random
from the view (``engine.deal_from_view``), never from the real state.

Levels:
- ``easy``: legal, sensible, a little random: draws from the stock, melds what it can, throws its
  highest card without a partner.
- ``medium``: the strategy notes of the rule documents: digs into the pile when the haul is worth
  it, holds high melds while it is safe, avoids discards that feed the next player, counts dead
  cards, lays off for points, goes out when it can.
- ``hard``: determinised search: deals the unseen cards at random consistently with the view,
  plays each candidate move out with the medium policy, and keeps the move with the best mean
  hand-score difference. Its budget is a number of playouts (deterministic for a given ``rng``);
  ``time_limit_s`` adds a wall-clock cap for live play.

Every level returns an element of ``legal``, and is deterministic for a given ``rng`` state
(the hard bot only when ``time_limit_s`` is None, since a clock is not deterministic).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engine.actions import Action

from . import easy, hard, medium
from .legal import sort_legal
from .seat_view import SeatView, ViewError, read_view

LEVELS = ("easy", "medium", "hard")
LIVE_TIME_LIMIT_S = 1.0
"""The wall-clock cap live play should pass as ``time_limit_s`` (only the hard bot uses it)."""

__all__ = ["LEVELS", "LIVE_TIME_LIMIT_S", "SeatView", "ViewError", "choose_action", "read_view"]


def choose_action(
    level: str,
    view: dict,
    legal: list[Action],
    rng: random.Random,
    *,
    time_limit_s: float | None = None,
) -> Action:
    """The bot's move: one element of ``legal`` for the seat whose ``view`` this is.

    Raises ViewError when ``view`` is not a seat's view, ValueError for an unknown level or an
    empty or foreign ``legal`` list.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose one of: {', '.join(LEVELS)}.")
    seen = read_view(view)
    _check_legal(legal, seen)
    if len(legal) == 1:
        return legal[0]
    moves = sort_legal(legal)
    if level == "easy":
        return easy.choose(seen, moves, rng)
    if level == "medium":
        return medium.choose(seen, moves, rng)
    return hard.choose(view, seen, moves, rng, time_limit_s=time_limit_s)


def _check_legal(legal: Sequence[Action], seen: SeatView) -> None:
    if not isinstance(legal, list | tuple) or not legal:
        raise ValueError("A bot needs the non-empty list of its legal actions.")
    for action in legal:
        if getattr(action, "seat", None) != seen.seat:
            raise ValueError(f"The legal actions must be seat {seen.seat}'s, not {action!r}.")
