"""How promising each card in a hand is: its chance to be melded before the hand ends.

Why a model rather than rules of thumb: the medium and hard bots weigh very different moves
(dig six cards deep, keep a pair of kings, throw an ace) on one scale, points. A card kept is
worth what it scores if it is melded in time, minus what it costs if it is still in hand when
the hand ends; the chance of each comes from the cards that could still complete it (the live
cards: not melded, not in the pile, not known to sit in another hand) and from how many turns
are probably left.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from games.engine.cards import JOKER, RANK_INDEX, SUITS
from games.engine.melds import LayOffSpot, code_at
from games.engine.wilds import is_wild

from .points import in_hand_table, natural_table, spot_points
from .seat_view import SeatView


@dataclass(frozen=True, slots=True)
class Outlook:
    """What a seat expects of the rest of the hand."""

    unseen: Counter[str]
    unseen_total: int
    turns_left: float
    """Roughly how many more draws this seat will get."""
    end_risk: float
    """0..1: how likely a useless card kept now is still in hand when the hand ends."""
    in_hand: dict[str, int]
    natural: dict[str, int]
    wild: bool
    distinct: bool
    wild_rank: str | None
    """The rank whose cards are wild this hand besides jokers (oklahoma, five-thousand)."""
    aces_low: bool
    """False where an ace only ranks above the king (persian)."""
    joker_group: bool
    """Jokers are not wild but meld together, three or four of them (persian)."""
    wild_outs: int
    """Unseen cards of the wild rank: each could stand in for a missing card of a meld.
    Unseen wild jokers are left out, as counting them lost games (docs/bots.md)."""
    layoffs: dict[str, tuple[LayOffSpot, int]]
    """Every card code that fits the table now: its best spot and points."""
    memo: dict[tuple[str, tuple[str, ...]], float] = field(default_factory=dict)
    """meld_chance results for this outlook, by card and the cards that bear on it."""

    def layoffs_in(self, cards: Iterable[str]) -> dict[str, tuple[LayOffSpot, int]]:
        """The entries of ``layoffs`` for ``cards``."""
        table = self.layoffs
        return {card: table[card] for card in set(cards) if card in table}


def turns_left(seen: SeatView) -> float:
    """Expected draws left for this seat: the stock runs out, or someone goes out."""
    n = seen.num_seats
    stock_turns = seen.stock_count / n
    if seen.rules.stock_refill:
        stock_turns += len(seen.discard) / (2 * n)
    shortest = min(size for seat, size in enumerate(seen.hand_sizes) if seat != seen.seat)
    going_out = 0.5 + shortest * 0.5
    return max(0.5, min(stock_turns, going_out))


def outlook(seen: SeatView) -> Outlook:
    """The outlook from one seat's view."""
    rules = seen.rules
    values = rules.values
    unseen = seen.unseen_cards()
    turns = turns_left(seen)
    risk = min(1.0, max(0.1, 1.6 / (turns + 0.6)))
    layoffs = layoff_points_for(seen, seen.accepts())
    wild_rank = seen.wild
    wild_jokers = rules.wild_jokers
    return Outlook(
        unseen=unseen,
        unseen_total=max(1, sum(unseen.values())),
        turns_left=turns,
        end_risk=risk,
        in_hand=in_hand_table(values),
        natural=natural_table(values),
        wild=wild_jokers,
        distinct=rules.group_suits_distinct,
        layoffs=layoffs,
        wild_rank=wild_rank,
        aces_low=rules.spec.aces_low,
        joker_group=rules.spec.jokers_per_pack > 0 and not wild_jokers,
        wild_outs=0
        if wild_rank is None
        else sum(n for card, n in unseen.items() if card != JOKER and card[0] == wild_rank),
    )


def layoff_points_for(seen: SeatView, cards: Iterable[str]) -> dict[str, tuple[LayOffSpot, int]]:
    """Best table spot and points for each of ``cards`` that fits the table now."""
    values = seen.rules.values
    accepts = seen.accepts()
    melds = {meld.id: meld for meld in seen.melds}
    found: dict[str, tuple[LayOffSpot, int]] = {}
    for card in set(cards):
        spots = accepts.get(card)
        if spots:
            best = max(spots, key=lambda spot: spot_points(values, card, spot, melds[spot.meld]))
            found[card] = (best, spot_points(values, card, best, melds[best.meld]))
    return found


def _chance(outs: int, look: Outlook, draws: float) -> float:
    """Chance to see at least one of ``outs`` live cards in ``draws`` draws."""
    if outs <= 0:
        return 0.0
    miss = 1.0 - min(1.0, outs / look.unseen_total)
    return 1.0 - miss**draws


def _positions(card: str, aces_low: bool = True) -> tuple[int, ...]:
    if card[0] == "A":
        return (1, 14) if aces_low else (14,)
    return (RANK_INDEX[card[0]],)


def _wild(card: str, look: Outlook) -> bool:
    return is_wild(card, look.wild_rank, look.wild)


def _near(card: str, other: str, look: Outlook) -> bool:
    """Whether ``other`` can share a meld with ``card`` (same rank, a run window, a wild)."""
    if other == JOKER or other[0] == card[0] or _wild(other, look):
        return True
    if other[1] != card[1]:
        return False
    return any(
        abs(a - b) <= 2
        for a in _positions(card, look.aces_low)
        for b in _positions(other, look.aces_low)
    )


def meld_chance(card: str, others: Sequence[str], look: Outlook) -> float:
    """Chance that ``card`` ends up in a meld with some of ``others`` or live cards."""
    if card == JOKER and look.joker_group:
        return _joker_group_chance(others, look)
    if _wild(card, look):
        return 0.85
    if card == JOKER:
        return 0.0
    relevant = tuple(sorted(other for other in others if _near(card, other, look)))
    key = (card, relevant)
    found = look.memo.get(key)
    if found is None:
        found = look.memo[key] = _meld_chance(card, relevant, look)
    return found


def _joker_group_chance(others: Sequence[str], look: Outlook) -> float:
    """Persian: a joker only scores in a group of jokers, so its chance is that of a third."""
    held = 1 + others.count(JOKER)
    if held >= 3:
        return 0.95
    single = _chance(look.unseen[JOKER], look, look.turns_left * 1.25)
    return single if held == 2 else single * single * 0.5


def _meld_chance(card: str, others: Sequence[str], look: Outlook) -> float:
    draws = look.turns_left * 1.25
    unseen = look.unseen
    rank = card[0]
    suit = card[1]
    if any(_wild(other, look) for other in others):
        return 0.9
    wild_outs = look.wild_outs
    best = 0.0
    mates = [other for other in others if other != JOKER and other[0] == rank]
    if look.distinct:
        mate_suits = {other[1] for other in mates} - {suit}
        if mate_suits:
            outs = sum(unseen[rank + s] for s in SUITS if s != suit and s not in mate_suits)
            best = max(best, _chance(outs + wild_outs, look, draws))
    elif mates:
        outs = sum(unseen[rank + s] for s in SUITS)
        best = max(best, _chance(outs + wild_outs, look, draws))
    aces_low = look.aces_low
    held = {
        p
        for other in others
        if other != JOKER and other[1] == suit
        for p in _positions(other, aces_low)
    }
    lowest = 1 if aces_low else 2
    for position in _positions(card, aces_low):
        for start in (position - 2, position - 1, position):
            if start < lowest or start + 2 > 14:
                continue
            window = [p for p in (start, start + 1, start + 2) if p != position]
            missing = [p for p in window if p not in held]
            if len(missing) == 1:
                outs = unseen[code_at(suit, missing[0])] + wild_outs
                best = max(best, _chance(outs, look, draws))
            elif len(missing) == 2 and best < 0.2:
                first = _chance(unseen[code_at(suit, missing[0])], look, draws)
                second = _chance(unseen[code_at(suit, missing[1])], look, draws)
                best = max(best, first * second)
    if best < 0.2 and not mates:
        outs = sum(unseen[rank + s] for s in SUITS if s != suit)
        single = _chance(outs, look, draws)
        best = max(best, single * single * 0.5)
    return best


def keep_value(card: str, others: Sequence[str], look: Outlook) -> float:
    """Expected points from keeping ``card``: melded in time, or stuck in hand at the end."""
    melded = look.natural.get(card, 15) if card != JOKER else look.in_hand[JOKER]
    cost = look.in_hand[card]
    chance = meld_chance(card, others, look)
    return chance * melded - (1.0 - chance) * cost * look.end_risk


def leftover_value(rest: Sequence[str], look: Outlook) -> float:
    """Expected points of the cards not melded now, each valued against the others."""
    total = 0.0
    for index, card in enumerate(rest):
        others = rest[:index] + rest[index + 1 :]
        total += keep_value(card, others, look)
    return total
