"""The hard bot's quick policy and position estimate, for play inside a dealt-out guess.

Why a separate, simpler policy: a search plays thousands of moves per decision, so the moves it
imagines must cost tens of microseconds, not the milliseconds the medium bot spends reading a
view. This policy works on a ``HandState`` that the hard bot dealt itself from its own view
(``engine.deal_from_view``): every hidden card in it is a guess, so reading it leaks nothing.
It plays like a plain, greedy player: takes from the pile when the haul melds for more than it
costs, melds the best split, lays off, and throws its costliest card without a partner.

Speed: in the play phase it proposes the move it wants and lets ``apply`` check it, instead of
listing every legal move first; only when the engine refuses does it fall back on the list.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from games.engine.actions import (
    Action,
    ClaimRummy,
    DeclineDraw,
    Discard,
    DrawStock,
    Float,
    LayOff,
    Meld,
    PassClaim,
    TakeDiscard,
)
from games.engine.cards import JOKER, RANK_INDEX
from games.engine.errors import IllegalAction
from games.engine.exact_takes import taken_cards
from games.engine.melds import LayOffSpot
from games.engine.moves import apply, legal_actions, take_depths
from games.engine.partnerships import side_of
from games.engine.state import HandState, Phase
from games.engine.views import known_holdings

from .partition import Partition, best_partition, going_out_split
from .points import in_hand_table, reading_points, spot_points

TAKE_MARGIN = 1.5
MAX_TAKES = 4


def end_risk(state: HandState, seat: int) -> float:
    """How likely a useless card now is still in ``seat``'s hand at the end (as prospects)."""
    n = state.num_seats
    stock_turns = len(state.stock) / n
    hands = state.hands
    shortest = min(len(hands[other]) for other in range(n) if other != seat)
    turns = max(0.5, min(stock_turns, 0.5 + shortest * 0.5))
    return min(1.0, max(0.1, 1.6 / (turns + 0.6)))


def _layoff_table(state: HandState, cards: Sequence[str]) -> dict[str, tuple[LayOffSpot, int]]:
    accepts = state.accepts()
    values = state.rules.values
    found: dict[str, tuple[LayOffSpot, int]] = {}
    for card in set(cards):
        spots = accepts.get(card)
        if spots:
            best: tuple[LayOffSpot, int] | None = None
            for spot in spots:
                points = spot_points(values, card, spot, state.melds[spot.meld - 1])
                if best is None or points > best[1]:
                    best = (spot, points)
            assert best is not None
            found[card] = best
    return found


def _split(state: HandState, cards: Sequence[str]) -> Partition:
    return best_partition(cards, state.rules, {}, _layoff_table(state, cards))


def has_partner(card: str, cards: Sequence[str]) -> bool:
    """A pair of one rank, a joker, or two cards of one suit at most two ranks apart."""
    if card == JOKER:
        return True
    rank = card[0]
    suit = card[1]
    position = RANK_INDEX[rank]
    skipped = False
    for other in cards:
        if other == card and not skipped:
            skipped = True
            continue
        if other == JOKER or other[0] == rank:
            return True
        if other[1] == suit and abs(RANK_INDEX[other[0]] - position) <= 2:
            return True
    return False


def potential(state: HandState, seat: int, cards: Sequence[str], risk: float) -> float:
    """Points ``cards`` should bring: the best split melded, the rest a risk of being stuck."""
    split = _split(state, cards)
    cost = in_hand_table(state.rules.values)
    stuck = 0.0
    for card in split.rest:
        stuck += cost[card] * (0.5 if has_partner(card, split.rest) else 1.0)
    return split.points - stuck * risk


# The quick policy ---------------------------------------------------------------------------


def quick_step(state: HandState, seat: int, rng: random.Random) -> HandState:
    """``state`` after a fast, reasonable move by ``seat``."""
    phase = state.phase
    if phase is Phase.DRAW:
        return apply(state, _quick_draw(state, seat))[0]
    if phase is Phase.CLAIM:
        return apply(state, _quick_claim(state, seat))[0]
    for action in _play_wishes(state, seat):
        try:
            return apply(state, action)[0]
        except IllegalAction:
            continue
    return apply(state, _from_list(state, seat, rng))[0]


def _quick_claim(state: HandState, seat: int) -> Action:
    claim = state.claim
    if claim is not None and 0 in claim.depths and state.discard[-1] in state.accepts():
        return ClaimRummy(seat, 0)
    return PassClaim(seat)


def _quick_draw(state: HandState, seat: int) -> Action:
    depths = take_depths(state, seat)
    if not depths:
        return DrawStock(seat) if state.stock else DeclineDraw(seat)
    if len(depths) > MAX_TAKES:
        depths = [*depths[: MAX_TAKES // 2], *depths[-(MAX_TAKES // 2) :]]
    hand = state.hands[seat]
    risk = end_risk(state, seat)
    base = potential(state, seat, hand, risk)
    best_gain = (
        TAKE_MARGIN if state.stock else -sum(in_hand_table(state.rules.values)[c] for c in hand)
    )
    best: Action = DrawStock(seat) if state.stock else DeclineDraw(seat)
    for depth in depths:
        taken = taken_cards(state, depth)
        gain = potential(state, seat, (*hand, *taken), risk) - (base if state.stock else 0)
        if gain > best_gain:
            best_gain = gain
            best = TakeDiscard(seat, depth)
    return best


def _meld_action(seat: int, shape: object) -> Meld:
    cards = shape.cards  # type: ignore[attr-defined]
    reading = shape.reading  # type: ignore[attr-defined]
    return Meld(seat, cards, None if reading == cards else reading)


def _layoff_action(seat: int, card: str, spot: LayOffSpot) -> LayOff:
    reading = spot.reading if spot.reading != card else None
    return LayOff(seat, card, spot.meld, reading)


def _play_wishes(state: HandState, seat: int) -> list[Action]:
    """The moves this policy would like, best first; the engine decides which are allowed."""
    hand = state.hands[seat]
    if not hand:
        return [Float(seat)]
    split = _split(state, hand)
    wishes: list[Action] = []
    if not split.rest and state.rules.must_discard_to_go_out:
        out = going_out_split(hand, state.rules, _layoff_table(state, hand), split)
        if out is not None and out[1] is not None:
            split = out[0]
    duty = state.obligation
    melds = sorted(split.melds, key=lambda shape: -len(shape.cards))
    if duty is not None:
        melds = [shape for shape in melds if duty.card in shape.cards] + melds
    wishes.extend(_meld_action(seat, shape) for shape in melds)
    layoffs = split.layoffs
    if duty is not None:
        layoffs = tuple(item for item in layoffs if item[0] == duty.card) + layoffs
    wishes.extend(_layoff_action(seat, card, spot) for card, spot, _points in layoffs)
    cost = in_hand_table(state.rules.values)
    accepts = state.accepts()
    rest = split.rest or hand

    def keep(card: str) -> float:
        return (12 if has_partner(card, rest) else 0) + (8 if card in accepts else 0) - cost[card]

    wishes.extend(Discard(seat, card) for card in sorted(set(rest), key=keep))
    return wishes


def _from_list(state: HandState, seat: int, rng: random.Random) -> Action:
    legal = legal_actions(state, seat)
    for action in legal:
        if not isinstance(action, Discard):
            return action
    return rng.choice(legal)


# Scoring a position ---------------------------------------------------------------------------


def melded_points(state: HandState) -> list[int]:
    """Points each seat has on the table this hand."""
    values = state.rules.values
    points = [0] * state.num_seats
    for meld in state.melds:
        for index, (card, read, owner) in enumerate(
            zip(meld.cards, meld.reading, meld.owners, strict=True)
        ):
            low = meld.kind == "run" and meld.lo + index == 1
            points[owner] += reading_points(values, card, read, meld.kind, low)
    return points


def estimate(state: HandState, seat: int) -> float:
    """``seat``'s hand score minus the others' mean: exact once the hand is over, else a guess."""
    n = state.num_seats
    table = melded_points(state)
    if state.phase is Phase.HAND_OVER:
        cost = in_hand_table(state.rules.values)
        scores = [table[s] - sum(cost[card] for card in state.hands[s]) for s in range(n)]
    else:
        scores = [
            table[s] + potential(state, s, state.hands[s], end_risk(state, s)) for s in range(n)
        ]
    if state.rules.spec.partnerships:
        # Partnerships: the side's pooled score against the other side's.
        side = side_of(state.rules, seat)
        ours = sum(scores[s] for s in side)
        return ours - sum(scores[s] for s in range(n) if s not in side)
    others = [scores[s] for s in range(n) if s != seat]
    return scores[seat] - sum(others) / len(others)


# Dealing guesses ------------------------------------------------------------------------------


class Redealer:
    """New guesses of the hidden cards from one state dealt from a view.

    ``engine.deal_from_view`` reads the whole view each time; the search needs dozens of deals
    of the same view, so this keeps the first deal's public part and shuffles only what the
    seat cannot see: the other hands' unknown cards and the stock. Cards known to be in a hand
    (taken from the pile, not played since) stay in it, exactly as ``deal_from_view`` does.
    """

    def __init__(self, template: HandState, seat: int) -> None:
        self.template = template
        self.seat = seat
        known = known_holdings(template.history, template.num_seats)
        self.known: list[tuple[str, ...]] = []
        pool: Counter[str] = Counter(template.stock)
        for other, hand in enumerate(template.hands):
            if other == seat:
                self.known.append(hand)
                continue
            kept = Counter(known[other]) & Counter(hand)
            self.known.append(tuple(kept.elements()))
            pool.update(Counter(hand) - kept)
        self.pool = sorted(pool.elements())
        self.sizes = [len(hand) for hand in template.hands]

    def deal(self, rng: random.Random) -> HandState:
        cards = list(self.pool)
        rng.shuffle(cards)
        hands = []
        position = 0
        for other, size in enumerate(self.sizes):
            if other == self.seat:
                hands.append(self.template.hands[other])
                continue
            need = size - len(self.known[other])
            hands.append((*self.known[other], *cards[position : position + need]))
            position += need
        state = self.template.copy()
        state.hands = tuple(hands)
        state.stock = tuple(cards[position:])
        return state
