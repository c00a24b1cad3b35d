"""Expected hand-score differences of a few moves, by sampling what one seat cannot see.

The same determinised search as the hard bot (``games.bots.hard``): the hidden cards are dealt
at random consistently with the seat's view (``engine.deal_from_view``), every candidate is
played on every deal with the quick policy of ``games.bots.rollout``, and the position is
scored by ``rollout.estimate`` (once the hand is over, by the real hand scores, bonuses
included; the side's pooled score against
the other side's with partnerships). All candidates share each deal and each policy seed, so
the differences between them are paired and their spread gives a confidence interval.

The playout runs for one full round, to this seat's next draw, or to the end of the hand when
the end is near: long enough to see the next player take a pile the discard handed them, or
an opponent go out while melds were held back.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.bots.rollout import Redealer, estimate, quick_step
from games.engine.actions import Action
from games.engine.moves import apply
from games.engine.partnerships import side_of
from games.engine.scoring import hand_result
from games.engine.state import HandState, Phase

Z_95 = 1.959964
MAX_PLIES = 240
NEAR_END_STOCK = 8
NEAR_END_HAND = 4


@dataclass(frozen=True)
class Estimate:
    """One candidate against the move played: paired over the same ``deals``."""

    action: Action
    mean: float
    """Mean hand-score difference (this seat, or its side, minus the others) after the move."""
    gain: float
    """Mean of (this move's outcome - the played move's outcome); 0 for the played move."""
    low: float
    high: float
    """95% confidence interval of ``gain``."""
    deals: int


def evaluate(
    template: HandState, seat: int, candidates: Sequence[Action], rng: random.Random, deals: int
) -> list[Estimate]:
    """Estimates of ``candidates`` (``candidates[0]`` is the move played), in their order.

    ``template`` must be a state dealt from the seat's view, never the real state.
    """
    redealer = Redealer(template, seat)
    values: list[list[float]] = [[] for _ in candidates]
    for _deal in range(deals):
        state = redealer.deal(rng)
        to_end = near_end(state, seat)
        policy_seed = rng.getrandbits(64)
        for index, action in enumerate(candidates):
            values[index].append(playout(state, seat, action, random.Random(policy_seed), to_end))
    played = values[0]
    found = []
    for action, outcome in zip(candidates, values, strict=True):
        differences = [value - base for value, base in zip(outcome, played, strict=True)]
        gain, half = mean_and_half_width(differences)
        found.append(
            Estimate(
                action=action,
                mean=sum(outcome) / len(outcome),
                gain=gain,
                low=gain - half,
                high=gain + half,
                deals=len(outcome),
            )
        )
    return found


def mean_and_half_width(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half width of its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    variance = sum((value - mean) ** 2 for value in values) / (n - 1)
    return mean, Z_95 * math.sqrt(variance / n)


def near_end(state: HandState, seat: int) -> bool:
    if len(state.stock) <= NEAR_END_STOCK * state.num_seats // 2:
        return True
    return any(
        len(hand) <= NEAR_END_HAND for other, hand in enumerate(state.hands) if other != seat
    )


def playout(state: HandState, seat: int, action: Action, rng: random.Random, to_end: bool) -> float:
    """Apply ``action``, play on with the quick policy, and estimate the outcome for ``seat``."""
    state, _events = apply(state, action)
    left_turn = state.phase is not Phase.PLAY or state.to_act[:1] != (seat,)
    for _ply in range(MAX_PLIES):
        if state.phase is Phase.HAND_OVER:
            break
        actor = state.to_act[0]
        if actor != seat:
            left_turn = True
        elif left_turn and not to_end and state.phase is Phase.DRAW:
            break
        state = quick_step(state, actor, rng)
    if state.phase is Phase.HAND_OVER:
        return final_difference(state, seat)
    return estimate(state, seat)


def final_difference(state: HandState, seat: int) -> float:
    """The real hand score difference once the hand is over, bonuses included: this seat's
    (or its side's pooled) score minus the others' mean (or the other side's)."""
    scores = [line.score for line in hand_result(state).seats]
    n = state.num_seats
    if state.rules.spec.partnerships:
        side = side_of(state.rules, seat)
        return sum(scores[s] for s in side) - sum(scores[s] for s in range(n) if s not in side)
    others = [scores[s] for s in range(n) if s != seat]
    return scores[seat] - sum(others) / len(others)


def view_template(view: Mapping[str, Any], rng: random.Random) -> HandState:
    """A state dealt from ``view``: the only state the reviewer ever plays on."""
    from games.engine.views import deal_from_view

    return deal_from_view(view, random.Random(rng.getrandbits(64)))
