"""The medium bot: the strategy notes of the rule documents, turned into a points estimate.

From [001] and [003]: dig into the discard pile when the haul is worth it (the deeper the
happier, unless you will be stuck with it); hold high melds while it is safe, and meld them once
the stock runs low or someone is down to a few cards; do not throw a card that lets the next
player take the pile, and if you must, let them take a few cards rather than many; keep track
of dead cards (melded, in the pile, or known to be in another hand); lay off for points; go out
when you can. Every choice is made by one scale, expected points, from ``prospects``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.engine.actions import Action, LayOff, Meld, SwitchJoker
from games.engine.cards import JOKER, RANK_INDEX, SUITS
from games.engine.melds import MeldShape, code_at, meld_exists_with, resolve_meld
from games.engine.persian import resolve_persian
from games.engine.scatter import taken_at
from games.engine.wilds import resolve_wild_meld

from .legal import LegalMoves
from .partition import Partition, best_partition, going_out_split
from .points import reading_points, shape_points
from .prospects import Outlook, leftover_value, outlook
from .seat_view import SeatView


@dataclass(frozen=True)
class Style:
    """The medium bot's knobs (the hard bot uses the same policy in its playouts)."""

    stock_draw_value: float = 1.5
    """What an unknown stock card is worth on average, against a known haul."""
    hold_min_points: int = 25
    """Melds worth this much are held back while it is safe."""
    safe_stock: int = 12
    safe_hand: int = 6
    table_feed: float = 1.0
    """Weight of the points the next player gets by laying off our discard."""
    known_feed: float = 1.0
    haul_card: float = 1.5
    """What each card of a pile haul is worth to whoever takes it."""
    claim_margin: float = 0.0
    max_take_options: int = 8
    """With more legal pile depths than this, only the shallowest and deepest are weighed."""


DEFAULT_STYLE = Style()


def choose(
    seen: SeatView, moves: LegalMoves, rng: random.Random, style: Style = DEFAULT_STYLE
) -> Action:
    """One move for ``seen``'s seat from ``moves``."""
    look = outlook(seen)
    if seen.phase == "claim":
        return _claim(seen, moves, look, style)
    if seen.phase == "draw":
        return _draw(seen, moves, look, style)
    return _play(seen, moves, look, style, rng)


# Worth of a hand ---------------------------------------------------------------------------


def hand_worth(
    hand: Sequence[str], seen: SeatView, look: Outlook, must_use: str | None = None
) -> tuple[float, Partition]:
    """Points from melding what can be melded now plus the expected worth of the rest."""
    split = best_partition(hand, seen.rules, {}, look.layoffs_in(hand), must_use=must_use)
    return split.points + leftover_value(split.rest, look), split


def _taken(seen: SeatView, depth: int) -> tuple[str, ...]:
    pile = seen.discard
    if seen.scatter:
        return taken_at(pile, seen.scatter, depth)
    return pile[len(pile) - 1 - depth :]


def _take_worth(seen: SeatView, look: Outlook, depth: int, *, free_top: bool) -> float:
    taken = _taken(seen, depth)
    duty = None if free_top else taken[0]
    worth, _split = hand_worth((*seen.hand, *taken), seen, look, must_use=duty)
    return worth


# Claims and draws ----------------------------------------------------------------------------


def rank_claims(
    seen: SeatView, moves: LegalMoves, look: Outlook, style: Style = DEFAULT_STYLE
) -> list[tuple[float, Action]]:
    """Every claim option (and passing) with its expected gain in points, best first."""
    base, _split = hand_worth(seen.hand, seen, look)
    ranked: list[tuple[float, Action]] = []
    if moves.pass_claim is not None:
        ranked.append((style.claim_margin, moves.pass_claim))
    for depth, action in moves.claims.items():
        ranked.append((_take_worth(seen, look, depth, free_top=False) - base, action))
    ranked.sort(key=lambda item: -item[0])
    return ranked


def _claim(seen: SeatView, moves: LegalMoves, look: Outlook, style: Style) -> Action:
    ranked = rank_claims(seen, moves, look, style)
    return ranked[0][1] if ranked else moves.actions[0]


def rank_draws(
    seen: SeatView, moves: LegalMoves, look: Outlook, style: Style = DEFAULT_STYLE
) -> list[tuple[float, Action]]:
    """Every way to draw with the expected worth of the hand after it, best first."""
    base, _split = hand_worth(seen.hand, seen, look)
    ranked: list[tuple[float, Action]] = []
    if moves.draw_stock is not None:
        ranked.append((base + style.stock_draw_value, moves.draw_stock))
    free_top = seen.rules.top_discard_free and seen.stock_count > 0
    takes = sorted(moves.takes.items())
    if len(takes) > style.max_take_options:
        half = style.max_take_options // 2
        takes = takes[:half] + takes[-half:]
    for depth, action in takes:
        worth = _take_worth(seen, look, depth, free_top=free_top and depth == 0)
        ranked.append((worth, action))
    if moves.decline is not None:
        stuck = -sum(look.in_hand[card] for card in seen.hand)
        ranked.append((stuck, moves.decline))
    ranked.sort(key=lambda item: -item[0])
    return ranked


def _draw(seen: SeatView, moves: LegalMoves, look: Outlook, style: Style) -> Action:
    ranked = rank_draws(seen, moves, look, style)
    return ranked[0][1] if ranked else moves.actions[0]


# Playing: meld, lay off, switch, discard ---------------------------------------------------------


def _play(
    seen: SeatView, moves: LegalMoves, look: Outlook, style: Style, rng: random.Random
) -> Action:
    if moves.float_ is not None:
        return moves.float_
    plays: list[Action] = [*moves.melds, *moves.layoffs, *moves.switches]
    if seen.duty is not None and plays:
        return _best_play(seen, plays, look)
    layoffs = look.layoffs_in(seen.hand)
    split = best_partition(seen.hand, seen.rules, {}, layoffs)
    out = going_out_split(seen.hand, seen.rules, layoffs, split)
    if out is not None:
        action = _follow(out[0], out[1], moves)
        if action is not None:
            return action
    hold = out is None and _safe_to_hold(seen, style)
    for shape in sorted(split.melds, key=lambda shape: -_shape_value(seen, shape)):
        if hold and _shape_value(seen, shape) >= style.hold_min_points:
            continue
        action = moves.meld_for(shape)
        if action is not None:
            return action
    for card, spot, _points in split.layoffs:
        options = moves.layoffs_of(card)
        exact = [action for action in options if action.meld == spot.meld]
        if exact or options:
            return (exact or options)[0]
    switch = _worthwhile_switch(seen, moves, look)
    if switch is not None:
        return switch
    if moves.discards:
        return _discard(seen, moves, look, split, style)
    if plays:
        return _best_play(seen, plays, look)
    return rng.choice(moves.actions)


def _follow(plan: Partition, last: str | None, moves: LegalMoves) -> Action | None:
    """The next move of ``plan`` (melds, then lay-offs, then throwing ``last``) if legal."""
    for shape in plan.melds:
        action = moves.meld_for(shape)
        if action is not None:
            return action
    for card, spot, _points in plan.layoffs:
        options = moves.layoffs_of(card)
        exact = [action for action in options if action.meld == spot.meld]
        if exact or options:
            return (exact or options)[0]
    if last is not None and last in moves.discards:
        return moves.discards[last]
    return None


def _shape_value(seen: SeatView, shape: MeldShape) -> int:
    points = shape_points(seen.rules.values, shape)
    if seen.rules.spec.double_group_of_four and shape.kind != "run" and len(shape.cards) == 4:
        return 2 * points  # persian: four of a kind melded at once counts double
    return points


def _safe_to_hold(seen: SeatView, style: Style) -> bool:
    """Holding melds back is safe while the stock is long and nobody is close to going out."""
    if seen.stock_count < style.safe_stock:
        return False
    shortest = min(size for seat, size in enumerate(seen.hand_sizes) if seat != seen.seat)
    return shortest >= style.safe_hand


def _play_points(seen: SeatView, action: Action) -> int:
    values = seen.rules.values
    if isinstance(action, Meld):
        rules = seen.rules
        if rules.persian_melds:
            shape = resolve_persian(action.cards, action.reading, rules.group_suits_distinct)
        elif seen.wild is None:
            shape = resolve_meld(
                action.cards, action.reading, rules.wild_jokers, rules.group_suits_distinct
            )
        else:
            shape = resolve_wild_meld(
                action.cards,
                action.reading,
                seen.wild,
                rules.wild_jokers,
                rules.group_suits_distinct,
            )
        return _shape_value(seen, shape)
    if isinstance(action, LayOff):
        meld = seen.melds[action.meld - 1]
        read = action.reading or action.card
        low = meld.kind == "run" and read[0] == "A" and meld.lo == 2
        return reading_points(values, action.card, read, meld.kind, low)
    if isinstance(action, SwitchJoker):
        return reading_points(values, action.card, action.card, "run", False)
    return 0


def _cards_of(action: Action) -> tuple[str, ...]:
    if isinstance(action, Meld):
        return action.cards
    if isinstance(action, LayOff | SwitchJoker):
        return (action.card,)
    return ()


def _best_play(seen: SeatView, plays: Sequence[Action], look: Outlook) -> Action:
    """The play that leaves the best hand behind (used while a pile card must be used)."""
    duty = seen.duty.card if seen.duty is not None else None
    best: tuple[float, Action] | None = None
    for action in plays:
        rest = list(seen.hand)
        for card in _cards_of(action):
            rest.remove(card)
        if isinstance(action, SwitchJoker):
            rest.append(JOKER)
        must = duty if duty is not None and duty in rest else None
        worth, _split = hand_worth(rest, seen, look, must_use=must)
        total = _play_points(seen, action) + worth
        if best is None or total > best[0]:
            best = (total, action)
    assert best is not None
    return best[1]


def _worthwhile_switch(seen: SeatView, moves: LegalMoves, look: Outlook) -> Action | None:
    if not moves.switches:
        return None
    base, _split = hand_worth(seen.hand, seen, look)
    best: tuple[float, Action] | None = None
    for action in moves.switches:
        rest = list(seen.hand)
        rest.remove(action.card)
        rest.append(JOKER)
        worth, _ = hand_worth(rest, seen, look)
        gain = _play_points(seen, action) + worth - base
        if gain > 0 and (best is None or gain > best[0]):
            best = (gain, action)
    return None if best is None else best[1]


def rank_discards(
    seen: SeatView, moves: LegalMoves, look: Outlook, split: Partition, style: Style = DEFAULT_STYLE
) -> list[tuple[float, Action]]:
    """Every allowed discard scored by the worth kept minus what it feeds others, best first."""
    allowed = moves.discards
    rest = [card for card in split.rest if card in allowed]
    candidates = rest or list(allowed)
    ranked: list[tuple[float, Action]] = []
    for card in dict.fromkeys(candidates):
        if rest:
            left = list(split.rest)
            left.remove(card)
            worth = leftover_value(left, look)
        else:
            hand = list(seen.hand)
            hand.remove(card)
            worth, _ = hand_worth(hand, seen, look)
        ranked.append((worth - feed_danger(card, seen, look, style), allowed[card]))
    ranked.sort(key=lambda item: -item[0])
    return ranked


def _discard(
    seen: SeatView, moves: LegalMoves, look: Outlook, split: Partition, style: Style
) -> Action:
    return rank_discards(seen, moves, look, split, style)[0][1]


# What a discard gives away ----------------------------------------------------------------------


def _connects(card: str, other: str) -> bool:
    if card == JOKER or other == JOKER:
        return True
    if card[0] == other[0]:
        return card[1] != other[1]
    if card[1] != other[1]:
        return False
    return abs(RANK_INDEX[card[0]] - RANK_INDEX[other[0]]) <= 2 or {card[0], other[0]} <= {
        "A",
        "K",
        "Q",
    }


def _completions(card: str, other: str) -> list[str]:
    """Natural cards that make a meld with ``card`` and ``other`` (which connect)."""
    if card == JOKER or other == JOKER:
        return []
    if card[0] == other[0]:
        return [card[0] + suit for suit in SUITS if suit not in (card[1], other[1])]
    suit = card[1]
    found = []
    for a in (1, 14) if card[0] == "A" else (RANK_INDEX[card[0]],):
        for b in (1, 14) if other[0] == "A" else (RANK_INDEX[other[0]],):
            low, high = min(a, b), max(a, b)
            if high - low == 1:
                found += [code_at(suit, p) for p in (low - 1, high + 1) if 1 <= p <= 14]
            elif high - low == 2:
                found.append(code_at(suit, low + 1))
    return found


def feed_danger(card: str, seen: SeatView, look: Outlook, style: Style) -> float:
    """Points a discard of ``card`` probably hands to the next player."""
    danger = 0.0
    fits = look.layoffs.get(card)
    if fits is not None:
        danger += style.table_feed * fits[1]
    nxt = seen.next_seat()
    known = seen.known[nxt]
    value = look.natural.get(card, 15)
    if known and meld_exists_with(card, known, look.wild, look.distinct):
        danger += style.known_feed * (value + 10)
    hidden = max(0, seen.hand_sizes[nxt] - len(known))
    share = hidden / look.unseen_total
    pile = seen.discard
    for depth_now, other in enumerate(reversed(pile)):
        if not _connects(card, other):
            continue
        outs = sum(look.unseen[code] for code in _completions(card, other))
        chance = min(1.0, outs * share)
        haul = depth_now + 2
        danger += chance * (style.haul_card * haul + look.natural.get(other, 10))
    return danger
