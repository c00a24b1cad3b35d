"""What a card taken from the pile (or claimed) obliges, and which takes are possible.

Why a module of its own: the duty rules differ by preset and option (Rulings 5, 9, 17, 18) and
are asked twice, when listing the draw options and when checking each play; both must agree,
and the pile scan must stay fast because it runs on every draw.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from . import exact_takes
from .cards import JOKER, RANK_INDEX, SUIT_INDEX
from .five_thousand import natural_melds
from .melds import (
    MAX_RUN,
    POSITION_BITS,
    LayOffSpot,
    TableMeld,
    joker_slot_for,
    meld_exists_with,
    switch_joker_in,
)
from .michigan import stop_depths
from .oklahoma import pile_take_depths
from .rules import Rules
from .state import HandState, Obligation
from .wilds import mask

# Taking from the pile --------------------------------------------------------------------------

_SUIT_BIT = {suit: 1 << index for suit, index in SUIT_INDEX.items()}


def _windows(code: str) -> tuple[int, ...]:
    """Bit masks of the other two positions of every 3-card run window through ``code``."""
    own = (1, 14) if code[0] == "A" else (RANK_INDEX[code[0]],)
    masks = []
    for position in own:
        for start in (position - 2, position - 1, position):
            if start >= 1 and start + 2 <= 14:
                masks.append((0b111 << start) & ~(1 << position))
    return tuple(masks)


_RUN_WINDOWS = {rank + suit: _windows(rank + suit) for rank in RANK_INDEX for suit in SUIT_INDEX}
_CARD_INFO = {
    code: (code[0], code[1], _SUIT_BIT[code[1]], POSITION_BITS[code], windows)
    for code, windows in _RUN_WINDOWS.items()
}
"""Per natural card: rank, suit, suit bit, run-position bits, run windows through it."""


class _Holding:
    """A running summary of some cards, to ask "does this card make a meld with them?" fast."""

    __slots__ = ("by_rank", "by_suit", "count_by_rank", "distinct", "jokers", "wild")

    def __init__(self, cards: Sequence[str], wild: bool, distinct: bool) -> None:
        self.by_rank: dict[str, int] = {}
        self.count_by_rank: dict[str, int] = {}
        self.by_suit: dict[str, int] = {}
        self.jokers = 0
        self.wild = wild
        self.distinct = distinct
        for card in cards:
            self.add(card)

    def add(self, card: str) -> None:
        if card == JOKER:
            if self.wild:
                self.jokers += 1
            return
        rank = card[0]
        suit = card[1]
        self.by_rank[rank] = self.by_rank.get(rank, 0) | _SUIT_BIT[suit]
        self.count_by_rank[rank] = self.count_by_rank.get(rank, 0) + 1
        bits = 1 << RANK_INDEX[rank]
        if rank == "A":
            bits |= 1 << 14
        self.by_suit[suit] = self.by_suit.get(suit, 0) | bits

    def melds_with(self, card: str) -> bool:
        """True when ``card`` and some of the summarised cards make a meld (natural card)."""
        jokers = self.jokers
        rank = card[0]
        if self.distinct:
            others = (self.by_rank.get(rank, 0) & ~_SUIT_BIT[card[1]]).bit_count()
        else:
            others = self.count_by_rank.get(rank, 0)
        if others + jokers >= 2:
            return True
        present = self.by_suit.get(card[1], 0)
        return any((window & ~present).bit_count() <= jokers for window in _RUN_WINDOWS[card])


def take_depths(state: HandState, seat: int) -> list[int]:
    """The depths ``seat`` may take from the pile now (the DRAW phase's pile options)."""
    if state.rules.exact_takes:
        return exact_takes.take_depths(state, seat)
    pile = state.discard
    if not pile or state.floating_turn:
        return []
    rules = state.rules
    if rules.spec.take_top_takes_pile:
        return pile_take_depths(state, seat)
    hand = state.hands[seat]
    stock_empty = not state.stock
    free_top = rules.top_discard_free and not stock_empty
    timing = "next_play" if stock_empty else rules.spec.duty_timing
    if timing == "this_turn":
        return [
            depth
            for depth in range(len(pile))
            if (depth == 0 and free_top) or _this_turn_take_ok(state, seat, depth)
        ]
    wild_rank = state.wild
    wild = rules.wild_jokers or wild_rank is not None
    distinct = rules.group_suits_distinct
    must_discard = rules.must_discard_to_go_out
    accepts = {} if rules.deepest_card_new_meld else state.accepts()
    if wild_rank is not None:  # cards of the wild rank count as jokers, looked up by their code
        hand = mask(hand, wild_rank)
        pile = mask(pile, wild_rank)
    real = state.discard
    naturals = rules.spec.naturals_in_front and not rules.deepest_card_new_meld and state.melds
    info = _CARD_INFO
    by_rank: dict[str, int] = {}
    by_suit: dict[str, int] = {}
    jokers = 0
    for card in hand:
        if card == JOKER:
            jokers += 1
            continue
        rank, suit, suit_bit, position_bits, _windows = info[card]
        by_rank[rank] = (by_rank.get(rank, 0) | suit_bit) if distinct else by_rank.get(rank, 0) + 1
        by_suit[suit] = by_suit.get(suit, 0) | position_bits
    if not wild:
        jokers = 0
    depths = []
    size = len(hand)
    room = not must_discard
    for depth, card in enumerate(reversed(pile)):
        size += 1
        if card == JOKER:
            code = real[-1 - depth]
            if (
                (depth == 0 and free_top)
                or code in accepts
                or (naturals and natural_melds(state, code))
            ):
                depths.append(depth)
            elif (size > 3 or room) and wild:
                above = pile[len(pile) - depth :]
                if meld_exists_with(card, (*hand, *above), True, distinct):
                    depths.append(depth)
            if wild:
                jokers += 1
            continue
        rank, suit, suit_bit, position_bits, windows = info[card]
        counted = by_rank.get(rank, 0)
        present = by_suit.get(suit, 0)
        if (
            (depth == 0 and free_top)
            or card in accepts
            or (naturals and natural_melds(state, card))
        ):
            depths.append(depth)
        elif size > 3 or room:
            others = (counted & ~suit_bit).bit_count() if distinct else counted
            if others + jokers >= 2:
                depths.append(depth)
            elif jokers:
                for window in windows:
                    if (window & ~present).bit_count() <= jokers:
                        depths.append(depth)
                        break
            else:
                for window in windows:
                    if window & present == window:
                        depths.append(depth)
                        break
        by_rank[rank] = (counted | suit_bit) if distinct else counted + 1
        by_suit[suit] = present | position_bits
    return depths


def _this_turn_take_ok(state: HandState, seat: int, depth: int) -> bool:
    pile = state.discard
    taken = pile[len(pile) - 1 - depth :]
    duty = Obligation(taken[0], seat, "this_turn", state.rules.deepest_card_new_meld, "pile")
    hand = (*state.hands[seat], *taken)
    return duty_possible(state.rules, hand, state.melds, state.accepts(), duty)


def duty_possible(
    rules: Rules,
    hand: Sequence[str],
    melds: Sequence[TableMeld],
    accepts: dict[str, list[LayOffSpot]],
    duty: Obligation,
) -> bool:
    """True when the duty card can still be used in a way that leaves the player a legal end.

    Under "this_turn" (rummy-school) other plays may come first: joker switches that free a
    joker for the meld, or lay-offs that extend a run on the table up to the duty card.
    """
    card = duty.card
    if card not in hand:
        return False
    must_discard = rules.must_discard_to_go_out
    size = len(hand)
    distinct = rules.group_suits_distinct
    wild = rules.wild_jokers
    this_turn = duty.timing == "this_turn"
    if not duty.new_meld_only:
        if accepts.get(card) and (size > 1 or not must_discard):
            return True
        if rules.spec.joker_switching and any(
            joker_slot_for(meld, card, distinct) is not None for meld in melds
        ):
            return True
    others = list(hand)
    others.remove(card)
    chains = this_turn and not duty.new_meld_only and card != JOKER
    for trial in _after_switches(rules, others, melds, duty.seat, this_turn):
        if (size > 3 or not must_discard) and meld_exists_with(card, trial, wild, distinct):
            return True
        if chains and _chain_reaches(card, trial, melds, size, must_discard, wild):
            return True
    return False


def _after_switches(
    rules: Rules, others: list[str], melds: Sequence[TableMeld], seat: int, this_turn: bool
) -> Iterator[list[str]]:
    """The hand as it is, then as it would be after each set of joker switches (rummy-school)."""
    yield others
    if not (this_turn and rules.spec.joker_switching):
        return
    distinct = rules.group_suits_distinct
    switches = [
        (other, meld.id)
        for other in dict.fromkeys(others)
        if other != JOKER
        for meld in melds
        if joker_slot_for(meld, other, distinct) is not None
    ]
    for count in range(1, len(switches) + 1):
        for chosen in combinations(switches, count):
            trial = list(others)
            table = {meld.id: meld for meld in melds}
            for other, meld_id in chosen:
                index = joker_slot_for(table[meld_id], other, distinct)
                if index is None or other not in trial:
                    break
                table[meld_id] = switch_joker_in(table[meld_id], index, other, seat)
                trial.remove(other)
                trial.append(JOKER)
            else:
                yield trial


def _chain_reaches(
    card: str,
    others: Sequence[str],
    melds: Sequence[TableMeld],
    size: int,
    must_discard: bool,
    wild: bool,
) -> bool:
    """True when cards in hand can be laid off on a run until the run reaches ``card``."""
    suit = card[1]
    jokers = others.count(JOKER) if wild else 0
    have = 0
    for other in others:
        if other != JOKER and other[1] == suit:
            have |= POSITION_BITS[other]
    for meld in melds:
        if meld.kind != "run" or meld.suit != suit:
            continue
        for position in (1, 14) if card[0] == "A" else (RANK_INDEX[card[0]],):
            if position > meld.hi:
                gap = range(meld.hi + 1, position)
                length = position - meld.lo + 1
            elif position < meld.lo:
                gap = range(position + 1, meld.lo)
                length = meld.hi - position + 1
            else:
                continue
            if length > MAX_RUN:
                continue
            missing = sum(1 for spot in gap if not have >> spot & 1)
            if missing <= jokers and (size - len(gap) - 1 >= 1 or not must_discard):
                return True
    return False


def claimable_depths(state: HandState) -> tuple[int, ...]:
    """Depths of the pile on which Rummy may be called after the latest discard."""
    rules = state.rules
    if rules.spec.stop_call:
        return stop_depths(state)
    if rules.exact_takes:
        return exact_takes.claimable_depths(state)
    pile = state.discard
    accepts = state.accepts()
    if rules.rummy_last_discard_only:
        return (0,) if pile and accepts.get(pile[-1]) else ()
    holding = _Holding((), rules.wild_jokers, rules.group_suits_distinct)
    above: list[str] = []
    depths = []
    for depth in range(len(pile)):
        card = pile[-1 - depth]
        if accepts.get(card):
            depths.append(depth)
        elif card == JOKER:
            if holding.wild and meld_exists_with(card, above, True, holding.distinct):
                depths.append(depth)
        elif holding.melds_with(card):
            depths.append(depth)
        holding.add(card)
        above.append(card)
    return tuple(depths)
