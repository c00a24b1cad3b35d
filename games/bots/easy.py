"""The easy bot: plays sensible legal moves with some randomness, and looks no further.

It draws from the stock (now and then it takes a top discard that makes a meld), lays down
the melds worth most, lays off what fits, and throws its highest card that has no partner.
It is meant to be beatable and quick: one hand split per decision, no look at the pile's depth.
"""

from __future__ import annotations

import random

from games.engine.actions import Action
from games.engine.cards import JOKER, RANK_INDEX

from .legal import LegalMoves
from .partition import best_partition, going_out_split
from .points import in_hand_table
from .seat_view import SeatView

TAKE_TOP_CHANCE = 0.5
CLAIM_CHANCE = 0.3
RANDOM_DISCARD_CHANCE = 0.15


def choose(seen: SeatView, moves: LegalMoves, rng: random.Random) -> Action:
    """One move for ``seen``'s seat from ``moves``."""
    if seen.phase == "claim":
        return _claim(moves, rng)
    if seen.phase == "draw":
        return _draw(seen, moves, rng)
    return _play(seen, moves, rng)


def _claim(moves: LegalMoves, rng: random.Random) -> Action:
    if 0 in moves.claims and rng.random() < CLAIM_CHANCE:
        return moves.claims[0]
    if moves.pass_claim is not None:
        return moves.pass_claim
    return moves.actions[0]


def _draw(seen: SeatView, moves: LegalMoves, rng: random.Random) -> Action:
    top = moves.takes.get(0)
    if top is not None and seen.discard:
        card = seen.discard[-1]
        useful = _melds_with(card, seen) or card in seen.accepts()
        if useful and (moves.draw_stock is None or rng.random() < TAKE_TOP_CHANCE):
            return top
    if moves.draw_stock is not None:
        return moves.draw_stock
    if moves.takes:
        return moves.takes[min(moves.takes)]
    if moves.decline is not None:
        return moves.decline
    return moves.actions[0]


def _melds_with(card: str, seen: SeatView) -> bool:
    hand = (*seen.hand, card)
    split = best_partition(hand, seen.rules, {}, {}, must_use=card)
    return card not in split.rest or split.rest.count(card) < hand.count(card)


def _play(seen: SeatView, moves: LegalMoves, rng: random.Random) -> Action:
    if moves.float_ is not None:
        return moves.float_
    values = in_hand_table(seen.rules.values)
    plays = moves.melds or moves.layoffs
    if seen.duty is not None and plays:
        # Every listed meld or lay-off uses the duty card; take the one scoring most.
        return max(plays, key=lambda action: _cards_points(action, values))
    split = best_partition(seen.hand, seen.rules, {}, {})
    out = going_out_split(seen.hand, seen.rules, {}, split)
    if out is not None:
        split = out[0]
    for shape in sorted(split.melds, key=lambda shape: -len(shape.cards)):
        action = moves.meld_for(shape)
        if action is not None:
            return action
    if moves.layoffs:
        natural = [action for action in moves.layoffs if action.card != JOKER]
        return rng.choice(natural or moves.layoffs)
    if moves.discards:
        return moves.discards[_discard_card(seen, split.rest, moves, values, rng)]
    return rng.choice(moves.actions)


def _cards_points(action: Action, values: dict[str, int]) -> int:
    cards = getattr(action, "cards", None) or (getattr(action, "card", JOKER),)
    return sum(values[card] for card in cards)


def _discard_card(
    seen: SeatView,
    rest: tuple[str, ...],
    moves: LegalMoves,
    values: dict[str, int],
    rng: random.Random,
) -> str:
    allowed = moves.discards
    loose = [card for card in rest if card in allowed and not _has_partner(card, rest)]
    pool = loose or [card for card in rest if card in allowed] or list(allowed)
    if rng.random() < RANDOM_DISCARD_CHANCE:
        return rng.choice(pool)
    top = max(values[card] for card in pool)
    return rng.choice([card for card in pool if values[card] == top])


def _has_partner(card: str, cards: tuple[str, ...]) -> bool:
    """A pair of one rank, or two cards of one suit at most two ranks apart."""
    if card == JOKER:
        return True
    seen_self = False
    for other in cards:
        if other == card and not seen_self:
            seen_self = True
            continue
        if other == JOKER:
            return True
        if other[0] == card[0]:
            return True
        if other[1] == card[1] and abs(RANK_INDEX[other[0]] - RANK_INDEX[card[0]]) <= 2:
            return True
    return False
