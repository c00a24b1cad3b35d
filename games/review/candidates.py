"""The moves worth weighing against the one a seat played, read from that seat's view only.

Why more than the hard bot's candidates: the hard bot searches draws, Rummy calls and discards
and follows the medium bot for melds and lay-offs. A review must also say when melding now was
worse than holding (or the reverse), so in the play phase it adds the melds and lay-offs of the
best split of the hand and the best discard, which stands for holding everything.
"""

from __future__ import annotations

import random

from games.bots import medium
from games.bots.legal import LegalMoves
from games.bots.partition import best_partition, going_out_split
from games.bots.prospects import outlook
from games.bots.seat_view import SeatView
from games.engine.actions import Action

MAX_CANDIDATES = 6
MAX_PLAYS = 3
"""Melds and lay-offs of the best split weighed at one decision (largest first)."""
MAX_DISCARDS = 3


def candidates(
    seen: SeatView, moves: LegalMoves, played: Action, rng: random.Random
) -> list[Action]:
    """``played`` first, then the medium bot's move, then the best of each kind of alternative.

    Every element is one of the legal moves (``moves``); there are no duplicates.
    """
    chosen: list[Action] = [played]

    def add(action: Action | None) -> None:
        if action is not None and action not in chosen and len(chosen) < MAX_CANDIDATES:
            chosen.append(action)

    if len(moves.actions) <= MAX_CANDIDATES:
        add(medium.choose(seen, moves, rng))
        for action in moves.actions:
            add(action)
        return chosen
    add(medium.choose(seen, moves, rng))
    look = outlook(seen)
    if seen.phase == "claim":
        for _score, action in medium.rank_claims(seen, moves, look):
            add(action)
        return chosen
    if seen.phase == "draw":
        for _score, action in medium.rank_draws(seen, moves, look):
            add(action)
        return chosen
    layoffs = look.layoffs_in(seen.hand)
    split = best_partition(seen.hand, seen.rules, {}, layoffs)
    out = going_out_split(seen.hand, seen.rules, layoffs, split)
    plan = out[0] if out is not None else split
    plays: list[Action] = []
    for shape in sorted(plan.melds, key=lambda shape: -len(shape.cards)):
        action = moves.meld_for(shape)
        if action is not None:
            plays.append(action)
    for card, spot, _points in plan.layoffs:
        options = moves.layoffs_of(card)
        exact = [action for action in options if action.meld == spot.meld]
        if exact or options:
            plays.append((exact or options)[0])
    if moves.discards:
        # Holding: throw the best card now and keep every meld in hand.
        ranked = medium.rank_discards(seen, moves, look, split)
        for _score, action in ranked[:1]:
            add(action)
        for action in plays[:MAX_PLAYS]:
            add(action)
        for _score, action in ranked[1:MAX_DISCARDS]:
            add(action)
    else:
        for action in plays[:MAX_PLAYS]:
            add(action)
    for action in moves.actions:
        add(action)
    return chosen
