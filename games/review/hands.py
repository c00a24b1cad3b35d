"""Reviewing one hand: replay it and weigh every decision of the reviewed seats.

At each decision the reviewer builds the seat's view (``engine.view``) from the replayed
state and then forgets the state: the candidates, their legal list and every sampled deal come
from that view alone (``deal_from_view``), exactly as the bots work. The real hidden cards
are only ever used to move the replay on to the next position.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.bots.legal import sort_legal
from games.bots.seat_view import read_view
from games.engine import (
    Action,
    CloseClaims,
    HandState,
    action_to_json,
    apply,
    describe_action,
    legal_actions,
    new_hand,
    view,
)

from .candidates import candidates
from .search import evaluate, view_template
from .verdicts import DEFAULT_THRESHOLDS, Thresholds, verdict

DEFAULT_DEALS = 48
"""Sampled deals per decision (every candidate is played on each): the live hard bot uses 96
playouts shared by up to 4 candidates, about 24 deals."""
DEFAULT_CONFIRM_DEALS = 96
CONFIRM_ABOVE = 5.0
"""Only a best alternative that wins by more than this on the first deals is measured again:
below half the inaccuracy threshold the move cannot be marked, so its first-round loss
stands (for the accuracy) and the confirming deals go where a verdict depends on them."""


@dataclass(frozen=True)
class Budget:
    """Deals per decision: ``deals`` to find the best alternative, ``confirm_deals`` fresh ones
    to measure it against the move played (when it won by more than ``confirm_above``)."""

    deals: int = DEFAULT_DEALS
    confirm_deals: int = DEFAULT_CONFIRM_DEALS
    confirm_above: float = CONFIRM_ABOVE

    @classmethod
    def scaled(cls, deals: int) -> Budget:
        """The default proportions at another size: twice as many confirming deals."""
        return cls(deals=deals, confirm_deals=2 * deals)

    thresholds: Thresholds = DEFAULT_THRESHOLDS


DEFAULT_BUDGET = Budget()


@dataclass
class Decision:
    """One reviewed decision of one seat."""

    index: int
    """Position of the move in the hand's action list (0 = first move)."""
    seat: int
    played: Action
    verdict: str
    loss: float = 0.0
    value: float | None = None
    """Expected hand-score difference after the move played."""
    best: Action | None = None
    best_value: float | None = None
    low: float = 0.0
    high: float = 0.0
    deals: int = 0
    options: int = 1
    alternatives: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self, names: list[str] | None = None, before: HandState | None = None) -> dict:
        return {
            "index": self.index,
            "seat": self.seat,
            "played": action_to_json(self.played),
            "played_text": describe_action(self.played, names, before),
            "verdict": self.verdict,
            "loss": round(self.loss, 1),
            "value": None if self.value is None else round(self.value, 1),
            "best": None if self.best is None else action_to_json(self.best),
            "best_text": None if self.best is None else describe_action(self.best, names, before),
            "best_value": None if self.best_value is None else round(self.best_value, 1),
            "low": round(self.low, 1),
            "high": round(self.high, 1),
            "deals": self.deals,
            "options": self.options,
            "alternatives": self.alternatives,
        }


def review_decision(
    seat_view: Mapping[str, Any],
    played: Action,
    rng: random.Random,
    budget: Budget = DEFAULT_BUDGET,
    index: int = 0,
) -> Decision:
    """Weigh ``played`` against the alternatives, knowing only ``seat_view``.

    Raises ValueError when ``played`` is not legal in the view.
    """
    seen = read_view(seat_view)
    template = view_template(seat_view, rng)
    legal = legal_actions(template, seen.seat)
    if played not in legal:
        raise ValueError(f"{played!r} is not a legal move in this view.")
    if len(legal) == 1:
        return Decision(index=index, seat=seen.seat, played=played, verdict="forced")
    moves = sort_legal(legal)
    found = candidates(seen, moves, played, random.Random(rng.getrandbits(64)))
    estimates = evaluate(
        template, seen.seat, found, random.Random(rng.getrandbits(64)), budget.deals
    )
    best = max(estimates, key=lambda item: item.gain)
    played_estimate = estimates[0]
    deals = played_estimate.deals
    if best is not played_estimate and budget.confirm_deals and best.gain > budget.confirm_above:
        # The best of several noisy means is biased upwards: measure the winner against the
        # move played again, on fresh deals, and judge on that unbiased difference.
        again = evaluate(
            template,
            seen.seat,
            [played, best.action],
            random.Random(rng.getrandbits(64)),
            budget.confirm_deals,
        )
        played_estimate, best = again
        deals += played_estimate.deals
        if best.gain <= 0:
            best = played_estimate
    loss = max(0.0, best.gain)
    mark = "good" if best is played_estimate else verdict(loss, best.low, budget.thresholds)
    return Decision(
        index=index,
        seat=seen.seat,
        played=played,
        verdict=mark,
        loss=loss,
        value=played_estimate.mean,
        best=None if best is played_estimate else best.action,
        best_value=best.mean,
        low=best.low if best is not played_estimate else 0.0,
        high=best.high if best is not played_estimate else 0.0,
        deals=deals,
        options=len(legal),
        alternatives=[
            {
                "action": action_to_json(item.action),
                "mean": round(item.mean, 1),
                "gain": round(item.gain, 1),
                "low": round(item.low, 1),
                "high": round(item.high, 1),
            }
            for item in estimates[1:]
        ],
    )


def initial_state(final: HandState) -> HandState:
    """The dealt position of a stored hand (its seed or deck replays it exactly)."""
    return new_hand(
        final.rules,
        final.num_seats,
        final.dealer,
        final.totals,
        seed=final.seed,
        deck=final.deck,
        on_board=final.on_board,
    )


def decisions_of(final: HandState, seats: Iterable[int]) -> list[tuple[int, HandState, Action]]:
    """(move index, state before, action) for every move of ``seats`` in the hand."""
    wanted = set(seats)
    state = initial_state(final)
    found = []
    for index, action in enumerate(final.actions):
        if not isinstance(action, CloseClaims) and action.seat in wanted:
            found.append((index, state, action))
        state, _events = apply(state, action)
    return found


def review_hand(
    final: HandState,
    seats: Iterable[int],
    seed: int | str,
    budget: Budget = DEFAULT_BUDGET,
    hand_key: int | str = 0,
    names: list[str] | None = None,
) -> list[dict[str, Any]]:
    """Every decision of ``seats`` in the finished hand ``final``, reviewed, as JSON."""
    reviewed = []
    for index, before, action in decisions_of(final, seats):
        rng = random.Random(f"review/{seed}/{hand_key}/{index}")
        decision = review_decision(view(before, action.seat), action, rng, budget, index)
        reviewed.append(decision.to_json(names, before))
    return reviewed
