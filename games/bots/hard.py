"""The hard bot: determinised search over what it cannot see.

At each real choice (how to draw, whether to call Rummy, which card to throw) it takes the
medium bot's few best candidates, deals the unseen cards at random in ways consistent with
everything its view shows (``engine.deal_from_view``: known cards stay where they are known to
be), plays each candidate out in every deal with the quick policy of ``rollout``, and keeps the
candidate with the best mean hand-score difference (its score minus the others' mean). All
candidates are tried on the same deals, so luck of the deal cancels out between them.

A playout runs until this seat's next turn, or to the end of the hand once the end is near;
an unfinished hand is scored by ``rollout.estimate``. Melds and lay-offs follow the medium bot.

Budget: ``playouts`` (deals x candidates) per decision, deterministic for a given ``rng``;
``time_limit_s`` (live play) stops early after the last complete deal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from games.engine.actions import Action, Discard
from games.engine.errors import FormatError
from games.engine.moves import apply
from games.engine.state import HandState, Phase
from games.engine.views import deal_from_view

from . import medium
from .legal import LegalMoves, sort_legal
from .partition import best_partition
from .prospects import outlook
from .rollout import Redealer, estimate, quick_step
from .seat_view import SeatView, ViewError, read_view

DEFAULT_PLAYOUTS = 96
STRENGTH_PLAYOUTS = 96
"""Playouts per decision in the strength run (bench/bots/bench_strength.py)."""
"""Playouts per decision in live play (measured under 1 s at p95 on one core: docs/bots.md)."""
MAX_CANDIDATES = 4
OVERRIDE_MARGIN = 1.0
"""Points per deal by which a candidate must beat the medium bot's own choice to replace it:
below that the difference is as likely noise from the few deals as a real edge."""
MAX_PLIES = 60
NEAR_END_STOCK = 6
NEAR_END_HAND = 3


def choose(
    view: Mapping[str, Any],
    seen: SeatView,
    moves: LegalMoves,
    rng: random.Random,
    *,
    time_limit_s: float | None = None,
    playouts: int = DEFAULT_PLAYOUTS,
) -> Action:
    """The searched move for ``seen``'s seat (``view`` is the same view, for dealing)."""
    search_rng = random.Random(rng.getrandbits(64))
    fallback = medium.choose(seen, moves, rng)
    candidates = candidate_moves(seen, moves, fallback)
    if len(candidates) <= 1:
        return fallback
    return search(view, seen.seat, candidates, search_rng, playouts, time_limit_s) or fallback


def choose_with_budget(
    view: Mapping[str, Any], legal: list[Action], rng: random.Random, *, playouts: int
) -> Action:
    """``choose`` with an explicit playout budget (for benchmarks and strength runs)."""
    seen = read_view(view)
    if len(legal) == 1:
        return legal[0]
    return choose(view, seen, sort_legal(legal), rng, playouts=playouts)


def candidate_moves(seen: SeatView, moves: LegalMoves, fallback: Action) -> list[Action]:
    """The few moves worth searching: the medium bot's best of the current kind of choice."""
    look = outlook(seen)
    if seen.phase == "claim":
        ranked = medium.rank_claims(seen, moves, look)
    elif seen.phase == "draw":
        ranked = medium.rank_draws(seen, moves, look)
    elif isinstance(fallback, Discard):
        split = best_partition(seen.hand, seen.rules, {}, look.layoffs_in(seen.hand))
        ranked = medium.rank_discards(seen, moves, look, split)
    else:
        return [fallback]
    chosen = [fallback]
    for _score, action in ranked:
        if len(chosen) >= MAX_CANDIDATES:
            break
        if action not in chosen:
            chosen.append(action)
    return chosen


def search(
    view: Mapping[str, Any],
    seat: int,
    candidates: list[Action],
    rng: random.Random,
    playouts: int,
    time_limit_s: float | None,
) -> Action | None:
    """The candidate with the best mean outcome over random deals of the hidden cards.

    ``candidates[0]`` is the default (the medium bot's choice); another candidate replaces it
    only when it wins by ``OVERRIDE_MARGIN`` points per deal.
    """
    began = time.perf_counter()
    deals = max(1, playouts // len(candidates))
    totals = [0.0] * len(candidates)
    played = 0
    try:
        template = deal_from_view(view, random.Random(rng.getrandbits(64)))
    except FormatError as error:
        raise ViewError(f"The hard bot cannot deal out this view: {error.reason}") from error
    redealer = Redealer(template, seat)
    for _deal in range(deals):
        state = redealer.deal(rng)
        to_end = _near_end(state, seat)
        policy_seed = rng.getrandbits(64)
        for index, action in enumerate(candidates):
            totals[index] += playout(state, seat, action, random.Random(policy_seed), to_end)
        played += 1
        if time_limit_s is not None and time.perf_counter() - began > time_limit_s:
            break
    if not played:
        return None
    best = max(range(len(candidates)), key=lambda index: (totals[index], -index))
    if totals[best] - totals[0] < OVERRIDE_MARGIN * played:
        return candidates[0]
    return candidates[best]


def _near_end(state: HandState, seat: int) -> bool:
    if len(state.stock) <= NEAR_END_STOCK * state.num_seats // 2:
        return True
    return any(
        len(hand) <= NEAR_END_HAND for other, hand in enumerate(state.hands) if other != seat
    )


def playout(state: HandState, seat: int, action: Action, rng: random.Random, to_end: bool) -> float:
    """Apply ``action``, play on with the quick policy, and estimate the outcome for ``seat``.

    Unless the end is near, the playout stops once the next player has drawn: what they took
    (or could not take) is what this seat's choice changed; their hand's worth covers the rest.
    """
    state, _events = apply(state, action)
    for _ply in range(MAX_PLIES):
        if state.phase is Phase.HAND_OVER:
            break
        actor = state.to_act[0]
        if not to_end and actor != seat and state.phase is Phase.PLAY:
            break
        state = quick_step(state, actor, rng)
    return estimate(state, seat)
