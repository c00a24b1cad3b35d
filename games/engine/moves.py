"""``legal_actions`` and ``apply``: the only way a hand moves on.

Both rest on the same checks, so the list of legal actions is exact: every listed action
applies, and every action that is not listed (in its canonical form) is refused with a reason.
Canonical forms: a meld lists its cards in meld order and gives a reading only when it holds a
wild card; a lay-off gives a reading only for a wild card. ``apply`` also accepts the same
move spelled differently (a natural meld out of order, a reading spelled out) and records the
canonical form.

``legal_actions`` caches its result on the state (states are immutable), and ``apply`` takes
an action found there without checking it again: bots that pick from the list pay for the
checks once.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations
from typing import Any

from .actions import (
    TYPE_NAMES,
    Action,
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    Discard,
    DrawStock,
    Float,
    LayOff,
    Meld,
    PassClaim,
    SwitchJoker,
    TakeDiscard,
)
from .cards import JOKER, RANK_INDEX, SUIT_INDEX, card_label, is_card, is_reading, labels
from .errors import IllegalAction
from .events import Event
from .melds import (
    MAX_RUN,
    POSITION_BITS,
    LayOffSpot,
    MeldShape,
    TableMeld,
    enumerate_melds,
    extend_meld,
    joker_slot_for,
    layoff_spots,
    meld_exists_with,
    place_meld,
    resolve_meld,
    switch_joker_in,
    table_accepts,
)
from .rules import Rules
from .state import ClaimWindow, HandEnd, HandState, Obligation, Phase

_MISSING = object()

# Action objects are immutable, so the ones legal_actions hands out are shared.
_ACTION_CACHE: dict[tuple[Any, ...], Any] = {}
_ACTION_CACHE_LIMIT = 200_000


def _cached(cls: type[Any], *args: Any) -> Any:
    key = (cls, *args)
    action = _ACTION_CACHE.get(key)
    if action is None:
        if len(_ACTION_CACHE) > _ACTION_CACHE_LIMIT:
            _ACTION_CACHE.clear()
        action = _ACTION_CACHE[key] = cls(*args)
    return action


_DISCARDS: dict[int, dict[str, Discard]] = {}


def _discard_action(seat: int, card: str) -> Discard:
    """The shared Discard(seat, card) (the most frequent action by far)."""
    by_card = _DISCARDS.get(seat)
    if by_card is None:
        by_card = _DISCARDS[seat] = {}
    action = by_card.get(card)
    if action is None:
        action = by_card[card] = Discard(seat, card)
    return action


def _meld_action(seat: int, shape: MeldShape) -> Meld:
    reading = shape.reading if JOKER in shape.cards else None
    action: Meld = _cached(Meld, seat, shape.cards, reading)
    return action


def _layoff_action(seat: int, card: str, spot: LayOffSpot) -> LayOff:
    action: LayOff = _cached(LayOff, seat, card, spot.meld, spot.reading if card == JOKER else None)
    return action


# Public API ------------------------------------------------------------------------------------


def legal_actions(state: HandState, seat: int) -> list[Action]:
    """Every move ``seat`` may make now (empty when it is not theirs to move).

    Seat -1 is the table clock: during a claim window its only move is ``CloseClaims``.
    """
    return list(_plans(state, seat))


def apply(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """The state after ``action`` and the public events it caused.

    Raises IllegalAction with a reason a player can read; ``state`` is never changed.
    """
    plan: Any = _MISSING
    cache = state._plans
    if cache is not None:
        plans = cache.get(getattr(action, "seat", None))  # type: ignore[arg-type]
        if plans is not None:
            try:
                plan = plans.get(action, _MISSING)
            except TypeError:  # an unhashable field: certainly not a listed action
                plan = _MISSING
    if plan is _MISSING:
        action, plan = _validate(state, action)
    events: list[Event] = []
    new = _EXECUTORS[type(action)](state, action, plan, events)
    new.actions = (*state.actions, action)
    new.history = (*state.history, *events)
    return new, events


def is_legal(state: HandState, action: Action) -> bool:
    """True when ``apply`` would accept ``action``."""
    try:
        _validate(state, action)
    except IllegalAction:
        return False
    return True


def canonical(state: HandState, action: Action) -> Action:
    """The form ``legal_actions`` lists for ``action`` (raises IllegalAction if refused)."""
    return _validate(state, action)[0]


# Plans: the legal actions of a state, each with what executing it needs -------------------------


def _plans(state: HandState, seat: int) -> dict[Any, Any]:
    cache = state._plans
    if cache is None:
        cache = state._plans = {}
    else:
        plans = cache.get(seat)
        if plans is not None:
            return plans
    phase = state.phase
    plans = {}
    if phase is Phase.DRAW:
        if seat == state.current:
            plans = _draw_plans(state, seat)
    elif phase is Phase.PLAY:
        if seat == state.current:
            plans = _play_plans(state, seat)
    elif phase is Phase.CLAIM:
        if seat == -1:
            plans = {_cached(CloseClaims, -1): None}
        elif seat in state.to_act and state.claim is not None:
            for depth in state.claim.depths:
                plans[_cached(ClaimRummy, seat, depth)] = None
            plans[_cached(PassClaim, seat)] = None
    cache[seat] = plans
    return plans


def _draw_plans(state: HandState, seat: int) -> dict[Any, Any]:
    plans: dict[Any, Any] = {}
    if state.stock:
        plans[_cached(DrawStock, seat)] = None
    if state.floating_turn:
        return plans
    for depth in take_depths(state, seat):
        plans[_cached(TakeDiscard, seat, depth)] = None
    if not state.stock:
        plans[_cached(DeclineDraw, seat)] = None
    return plans


def _play_plans(state: HandState, seat: int) -> dict[Any, Any]:
    hand = state.hands[seat]
    plans: dict[Any, Any] = {}
    if not hand:
        plans[_cached(Float, seat)] = None
        return plans
    rules = state.rules
    accepts = state.accepts()
    obligation = state.obligation
    if obligation is not None and obligation.timing == "lay_off":
        for spot in accepts.get(obligation.card, ()):
            plans[_layoff_action(seat, obligation.card, spot)] = spot
        return plans
    if state.floating_turn:
        card = hand[0]
        spots = accepts.get(card)
        if spots:
            for spot in spots:
                plans[_layoff_action(seat, card, spot)] = spot
        else:
            plans[_discard_action(seat, card)] = None
        return plans
    simple = obligation is None and state.locked is None and not rules.must_discard_to_go_out
    for shape in enumerate_melds(hand, rules.wild_jokers, rules.group_suits_distinct):
        if simple or _play_problem(state, seat, shape.cards, None, "meld", shape) is None:
            plans[_meld_action(seat, shape)] = shape
    distinct_cards = dict.fromkeys(hand)
    for card in distinct_cards:
        spots = accepts.get(card)
        if spots:
            for spot in spots:
                if simple or _play_problem(state, seat, (card,), None, "lay_off", spot) is None:
                    plans[_layoff_action(seat, card, spot)] = spot
    if rules.spec.joker_switching and state.melds:
        distinct = rules.group_suits_distinct
        for card in distinct_cards:
            if card == JOKER:
                continue
            for meld in state.melds:
                index = joker_slot_for(meld, card, distinct)
                if index is None:
                    continue
                slot = (meld.id, index)
                if _play_problem(state, seat, (card,), JOKER, "switch", slot) is None:
                    plans[_cached(SwitchJoker, seat, card, meld.id)] = slot
    if obligation is None:
        locked = state.locked
        by_card = _DISCARDS.get(seat) or {}
        for card in distinct_cards:
            if card == locked and hand.count(card) < 2:
                continue
            action = by_card.get(card)
            plans[action if action is not None else _discard_action(seat, card)] = None
    return plans


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
    pile = state.discard
    if not pile or state.floating_turn:
        return []
    rules = state.rules
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
    wild = rules.wild_jokers
    distinct = rules.group_suits_distinct
    must_discard = rules.must_discard_to_go_out
    accepts = {} if rules.deepest_card_new_meld else state.accepts()
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
            if (depth == 0 and free_top) or card in accepts:
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
        if (depth == 0 and free_top) or card in accepts:
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
    pile = state.discard
    accepts = state.accepts()
    rules = state.rules
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


# The "after this play" checks --------------------------------------------------------------------


def _duty_refusal(duty: Obligation) -> str:
    card = card_label(duty.card)
    if duty.timing == "lay_off":
        return f"You called Rummy on the {card}, so you must lay it off on a meld."
    if duty.source == "claim":
        return f"You called Rummy on the {card}, so you must meld it or lay it off first."
    if duty.new_meld_only:
        return f"You took the {card} from the pile, so you must put it in a new meld first."
    return f"You took the {card} from the pile, so you must meld it or lay it off first."


def _without(hand: Sequence[str], used: Sequence[str]) -> list[str]:
    rest = list(hand)
    for card in used:
        rest.remove(card)
    return rest


def _melds_after(
    state: HandState, seat: int, kind: str, detail: Any, used: Sequence[str]
) -> tuple[TableMeld, ...]:
    melds = state.melds
    if kind == "meld":
        return (*melds, place_meld(detail, len(melds) + 1, seat))
    if kind == "lay_off":
        spot: LayOffSpot = detail
        index = spot.meld - 1
        extended = extend_meld(melds[index], used[0], spot, seat)
        return (*melds[:index], extended, *melds[index + 1 :])
    meld_id, slot = detail
    index = meld_id - 1
    switched = switch_joker_in(melds[index], slot, used[0], seat)
    return (*melds[:index], switched, *melds[index + 1 :])


def _play_problem(
    state: HandState,
    seat: int,
    used: Sequence[str],
    gained: str | None,
    kind: str,
    detail: Any,
) -> str | None:
    """Why this meld / lay-off / switch may not be made now, or None when it may."""
    rules = state.rules
    hand = state.hands[seat]
    duty = state.obligation
    duty_met = False
    if duty is not None:
        uses = duty.card in used and (kind == "meld" or not duty.new_meld_only)
        if duty.timing == "lay_off" and kind != "lay_off":
            uses = False
        if duty.timing != "this_turn":
            if not uses:
                return _duty_refusal(duty)
            duty_met = True
        else:
            duty_met = uses
    remaining = len(hand) - len(used) + (1 if gained is not None else 0)
    if duty is not None and not duty_met:
        rest = _without(hand, used)
        if gained is not None:
            rest.append(gained)
        melds = _melds_after(state, seat, kind, detail, used)
        accepts = table_accepts(melds, rules.wild_jokers, rules.group_suits_distinct)
        if not duty_possible(rules, rest, melds, accepts, duty):
            return (
                f"That would leave you no way to use the {card_label(duty.card)} you took from "
                "the pile, which you must use before you discard."
            )
        return None
    if remaining == 0:
        if rules.must_discard_to_go_out and not (duty is not None and duty.timing == "lay_off"):
            return "You must keep a card to discard: you may only go out by discarding."
        return None
    locked = state.locked
    if locked is not None and remaining == 1 and locked not in used:
        rest = _without(hand, used)
        if gained is not None:
            rest.append(gained)
        if rest == [locked]:
            return (
                f"That would leave you holding only the {card_label(locked)}, which you took "
                "alone from the pile this turn and may not discard."
            )
    return None


# Validation: the slow path for moves that were not taken from legal_actions ---------------------


def _seat_problem(state: HandState, seat: object) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise IllegalAction(f"The seat must be a whole number, not {seat!r}.")
    if not 0 <= seat < state.num_seats:
        raise IllegalAction(f"There is no seat {seat} at this table.")


def _holds(hand: Sequence[str], cards: Sequence[str]) -> None:
    for card in cards:
        if not is_card(card):
            raise IllegalAction(f"{card!r} is not a card code (like '7H', 'TS' or 'JK').")
    need = Counter(cards)
    have = Counter(hand)
    for card, count in need.items():
        if have[card] < count:
            if have[card] == 0:
                raise IllegalAction(f"You do not hold the {card_label(card)}.")
            raise IllegalAction(f"You hold only {have[card]} x {card_label(card)}.")


def _depth(value: object, pile: Sequence[str]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"The depth must be a whole number, not {value!r}.")
    if not 0 <= value < len(pile):
        if not pile:
            raise IllegalAction("The discard pile is empty.")
        raise IllegalAction(
            f"The pile holds {len(pile)} card{'s' if len(pile) != 1 else ''}: "
            f"choose a depth from 0 (top) to {len(pile) - 1}."
        )
    return value


def _validate(state: HandState, action: Action) -> tuple[Action, Any]:
    """The canonical form of ``action`` and its plan, or IllegalAction with the reason."""
    kind = type(action)
    if kind not in TYPE_NAMES:
        raise IllegalAction(f"{action!r} is not a move.")
    phase = state.phase
    if phase is Phase.HAND_OVER:
        raise IllegalAction("The hand is over.")
    seat = action.seat
    if kind is CloseClaims:
        if phase is not Phase.CLAIM:
            raise IllegalAction("There is no Rummy call to close.")
        if seat != -1:
            raise IllegalAction("Only the table clock closes the time to call Rummy.")
        return _cached(CloseClaims, -1), None
    _seat_problem(state, seat)
    if kind is ClaimRummy or kind is PassClaim:
        return _validate_claim(state, action)
    if phase is Phase.CLAIM:
        raise IllegalAction("Wait: the other players may still call Rummy on that discard.")
    if seat != state.current:
        raise IllegalAction("It is not your turn.")
    if phase is Phase.DRAW:
        return _validate_draw(state, action)
    return _validate_play(state, action)


def _validate_claim(state: HandState, action: Action) -> tuple[Action, Any]:
    claim = state.claim
    seat = action.seat
    if state.phase is not Phase.CLAIM or claim is None:
        raise IllegalAction("Rummy can only be called right after a discard.")
    if seat == claim.discarder:
        raise IllegalAction("You cannot call Rummy on your own discard.")
    if seat not in state.to_act:
        raise IllegalAction("You have already passed on this discard.")
    if isinstance(action, PassClaim):
        return _cached(PassClaim, seat), None
    assert isinstance(action, ClaimRummy)
    depth = _depth(action.depth, state.discard)
    if depth not in claim.depths:
        card = card_label(state.discard[-1 - depth])
        if state.rules.rummy_last_discard_only:
            raise IllegalAction(
                "Rummy may only be called on the latest discard, to lay it off on a meld."
                if depth
                else f"The {card} cannot be laid off on any meld, so Rummy cannot be called."
            )
        raise IllegalAction(
            f"The {card} fits no meld on the table and makes no meld with the cards above it, "
            "so Rummy cannot be called on it."
        )
    return _cached(ClaimRummy, seat, depth), None


def _validate_draw(state: HandState, action: Action) -> tuple[Action, Any]:
    seat = action.seat
    if isinstance(action, DrawStock):
        if not state.stock:
            raise IllegalAction("The stock is empty: take from the pile or end the hand.")
        return _cached(DrawStock, seat), None
    if isinstance(action, TakeDiscard):
        depth = _depth(action.depth, state.discard)
        if state.floating_turn:
            raise IllegalAction("You are floating, so you must draw from the stock.")
        if depth not in take_depths(state, seat):
            raise IllegalAction(_take_refusal(state, seat, depth))
        return _cached(TakeDiscard, seat, depth), None
    if isinstance(action, DeclineDraw):
        if state.stock:
            raise IllegalAction("You may only decline to draw when the stock is empty.")
        return _cached(DeclineDraw, seat), None
    raise IllegalAction("Draw first: take the top card of the stock or cards from the pile.")


def _take_refusal(state: HandState, seat: int, depth: int) -> str:
    card = card_label(state.discard[-1 - depth])
    rules = state.rules
    use = "put it in a new meld" if rules.deepest_card_new_meld else "meld it or lay it off"
    when = "this turn" if state.stock and rules.spec.duty_timing == "this_turn" else "at once"
    text = f"You could not {use} {when}, so you may not take the {card} from the pile."
    if rules.must_discard_to_go_out:
        text += " (You must also keep a card to discard.)"
    return text


def _validate_play(state: HandState, action: Action) -> tuple[Action, Any]:
    seat = action.seat
    hand = state.hands[seat]
    if isinstance(action, DrawStock | TakeDiscard | DeclineDraw):
        raise IllegalAction("You have already drawn this turn.")
    if not hand:
        if isinstance(action, Float):
            return _cached(Float, seat), None
        raise IllegalAction("You have no cards left: float to end your turn.")
    if isinstance(action, Float):
        raise IllegalAction("You may only float when your hand is empty.")
    duty = state.obligation
    if duty is not None and duty.timing == "lay_off" and not isinstance(action, LayOff):
        raise IllegalAction(_duty_refusal(duty))
    if state.floating_turn and not isinstance(action, LayOff | Discard):
        raise IllegalAction(
            "You are floating: lay off the card you drew, or discard it if it fits no meld."
        )
    if isinstance(action, Meld):
        return _validate_meld(state, action)
    if isinstance(action, LayOff):
        return _validate_layoff(state, action)
    if isinstance(action, SwitchJoker):
        return _validate_switch(state, action)
    assert isinstance(action, Discard)
    card = action.card
    _holds(hand, (card,))
    if duty is not None:
        raise IllegalAction(_duty_refusal(duty))
    if state.floating_turn and state.accepts().get(card):
        raise IllegalAction(
            f"You are floating and the {card_label(card)} fits a meld, so you must lay it off."
        )
    if card == state.locked and hand.count(card) < 2:
        raise IllegalAction(
            f"You took the {card_label(card)} alone from the pile this turn, so you may not "
            "discard it until a later turn."
        )
    return _discard_action(seat, card), None


def _validate_meld(state: HandState, action: Meld) -> tuple[Action, Any]:
    seat = action.seat
    cards = action.cards
    if not isinstance(cards, tuple):
        raise IllegalAction("A meld's cards must be a list of card codes.")
    _holds(state.hands[seat], cards)
    reading = action.reading
    if reading is not None:
        if not isinstance(reading, tuple) or not all(is_reading(read) for read in reading):
            raise IllegalAction(
                "A meld's reading must list, for each card, the card it stands for ('8C', '9*')."
            )
        if JOKER not in cards and reading == cards:
            reading = None
    rules = state.rules
    shape = resolve_meld(cards, reading, rules.wild_jokers, rules.group_suits_distinct)
    problem = _play_problem(state, seat, shape.cards, None, "meld", shape)
    if problem:
        raise IllegalAction(problem)
    return _meld_action(seat, shape), shape


def _validate_layoff(state: HandState, action: LayOff) -> tuple[Action, Any]:
    seat = action.seat
    card = action.card
    _holds(state.hands[seat], (card,))
    meld = _meld_by_id(state, action.meld)
    rules = state.rules
    spots = layoff_spots(meld, card, rules.wild_jokers, rules.group_suits_distinct)
    reading = action.reading
    if reading is not None:
        if not is_reading(reading):
            raise IllegalAction(f"{reading!r} is not a card a wild card can stand for.")
        if card != JOKER and reading != card:
            raise IllegalAction(f"The {card_label(card)} can only stand for itself.")
        spots = [
            spot
            for spot in spots
            if spot.reading == reading or (spot.end == "group" and reading[0] == meld.rank)
        ]
    shown = f"meld {meld.id} ({labels(meld.reading)})"
    if not spots:
        if reading is not None and card == JOKER:
            raise IllegalAction(f"A joker cannot stand for the {card_label(reading)} on {shown}.")
        raise IllegalAction(f"The {card_label(card)} does not fit {shown}.")
    if len(spots) > 1:
        choices = " or ".join(card_label(spot.reading) for spot in spots)
        raise IllegalAction(f"Say which end of {shown} the joker goes: as the {choices}.")
    spot = spots[0]
    duty = state.obligation
    if state.floating_turn and card != state.hands[seat][0]:  # pragma: no cover - one card
        raise IllegalAction("You are floating: lay off the card you drew.")
    if duty is not None and duty.timing == "lay_off" and card != duty.card:
        raise IllegalAction(_duty_refusal(duty))
    problem = _play_problem(state, seat, (card,), None, "lay_off", spot)
    if problem:
        raise IllegalAction(problem)
    return _layoff_action(seat, card, spot), spot


def _validate_switch(state: HandState, action: SwitchJoker) -> tuple[Action, Any]:
    seat = action.seat
    rules = state.rules
    if not rules.spec.joker_switching:
        raise IllegalAction("Jokers cannot be switched in this game.")
    card = action.card
    _holds(state.hands[seat], (card,))
    meld = _meld_by_id(state, action.meld)
    index = joker_slot_for(meld, card, rules.group_suits_distinct)
    if index is None:
        raise IllegalAction(
            f"Meld {meld.id} ({labels(meld.reading)}) has no joker that the "
            f"{card_label(card)} can replace."
        )
    slot = (meld.id, index)
    problem = _play_problem(state, seat, (card,), JOKER, "switch", slot)
    if problem:
        raise IllegalAction(problem)
    return _cached(SwitchJoker, seat, card, meld.id), slot


def _meld_by_id(state: HandState, meld_id: object) -> TableMeld:
    if isinstance(meld_id, bool) or not isinstance(meld_id, int):
        raise IllegalAction(f"A meld is named by its number, not {meld_id!r}.")
    if not 1 <= meld_id <= len(state.melds):
        if not state.melds:
            raise IllegalAction("There are no melds on the table yet.")
        raise IllegalAction(
            f"There is no meld {meld_id}: melds are numbered 1 to {len(state.melds)}."
        )
    return state.melds[meld_id - 1]


# Execution ------------------------------------------------------------------------------------


def _with_hand(
    hands: tuple[tuple[str, ...], ...], seat: int, hand: Sequence[str]
) -> tuple[tuple[str, ...], ...]:
    changed = list(hands)
    changed[seat] = tuple(hand)
    return tuple(changed)


def _show(new: HandState, seat: int, cards: Sequence[str]) -> None:
    displayed = list(new.displayed)
    displayed[seat] = (*displayed[seat], *cards)
    new.displayed = tuple(displayed)


def _hide(new: HandState, seat: int, cards: Sequence[str]) -> None:
    shown = list(new.displayed[seat])
    changed = False
    for card in cards:
        if card in shown:
            shown.remove(card)
            changed = True
    if changed:
        displayed = list(new.displayed)
        displayed[seat] = tuple(shown)
        new.displayed = tuple(displayed)


def _end_hand(new: HandState, reason: str, seat: int, events: list[Event]) -> HandState:
    new.phase = Phase.HAND_OVER
    new.to_act = ()
    new.obligation = None
    new.locked = None
    new.claim = None
    new.resume = None
    new.end = HandEnd(reason, seat)
    events.append(Event("hand_over", seat, (("reason", reason),)))
    return new


def _begin_turn(new: HandState, seat: int, events: list[Event]) -> HandState:
    """Give ``seat`` the move: refill or end on an empty stock as the rules say."""
    new.phase = Phase.DRAW
    new.to_act = (seat,)
    new.current = seat
    new.obligation = None
    new.locked = None
    new.claim = None
    new.resume = None
    new.floating_turn = not new.hands[seat]
    if new.displayed[seat]:
        _hide(new, seat, new.displayed[seat])
    if new.stock:
        return new
    rules = new.rules
    if rules.spec.empty_stock == "end_after_last_draw":  # pragma: no cover - ends after the draw
        return _end_hand(new, "last_stock_card", -1, events)
    if rules.stock_refill and len(new.discard) >= 2:
        on_table = new.cards_on_table()
        if new.refills == 0 or on_table > new.melded_at_refill:
            cards = list(new.discard[:-1])
            random.Random(f"{new.seed}/refill/{new.refills + 1}").shuffle(cards)
            new.stock = tuple(cards)
            new.discard = new.discard[-1:]
            new.refills += 1
            new.melded_at_refill = on_table
            events.append(Event("stock_refilled", seat, (("cards", len(cards)),)))
            return new
    if new.floating_turn or not take_depths(new, seat):
        return _end_hand(new, "cannot_draw", seat, events)
    return new


def _next_seat(state: HandState) -> int:
    if state.resume is not None:
        return state.resume
    return (state.current + 1) % state.num_seats


def _exec_draw_stock(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    new = state.copy()
    card = state.stock[0]
    new.stock = state.stock[1:]
    new.hands = _with_hand(state.hands, seat, (*state.hands[seat], card))
    new.phase = Phase.PLAY
    if not new.stock and state.rules.spec.empty_stock == "end_after_last_draw":
        new.last_stock_drawn = True
    events.append(Event("draw_stock", seat))
    return new


def _exec_take(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    pile = state.discard
    cut = len(pile) - 1 - action.depth
    taken = pile[cut:]
    card = taken[0]
    rules = state.rules
    new = state.copy()
    new.discard = pile[:cut]
    new.hands = _with_hand(state.hands, seat, (*state.hands[seat], *taken))
    new.phase = Phase.PLAY
    if action.depth == 0 and rules.top_discard_free and state.stock:
        new.locked = card
    else:
        timing = rules.spec.duty_timing if state.stock else "next_play"
        new.obligation = Obligation(card, seat, timing, rules.deepest_card_new_meld, "pile")
    if rules.discards_displayed:
        _show(new, seat, taken)
    events.append(Event("take_discard", seat, (("depth", action.depth), ("cards", taken))))
    return new


def _exec_claim(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    claim = state.claim
    assert claim is not None
    pile = state.discard
    cut = len(pile) - 1 - action.depth
    taken = pile[cut:]
    rules = state.rules
    new = state.copy()
    new.discard = pile[:cut]
    new.hands = _with_hand(state.hands, seat, (*state.hands[seat], *taken))
    new.phase = Phase.PLAY
    new.to_act = (seat,)
    new.current = seat
    new.claim = None
    new.floating_turn = False
    last_only = rules.rummy_last_discard_only
    new.resume = claim.next_seat if last_only else None
    timing = "lay_off" if last_only else "next_play"
    new.obligation = Obligation(taken[0], seat, timing, False, "claim")
    if rules.discards_displayed:
        _show(new, seat, taken)
    events.append(Event("claim_rummy", seat, (("depth", action.depth), ("cards", taken))))
    return new


def _after_play(
    state: HandState, new: HandState, seat: int, used: Sequence[str], kind: str, events: list[Event]
) -> HandState:
    duty = state.obligation
    if duty is not None and duty.card in used and (kind == "meld" or not duty.new_meld_only):
        new.obligation = None
    if state.locked is not None and state.locked in used:
        new.locked = None
    if state.rules.discards_displayed and state.displayed[seat]:
        _hide(new, seat, used)
    if duty is not None and duty.timing == "lay_off":
        return _begin_turn(new, _next_seat(state), events)
    if not new.hands[seat] and not state.rules.floating:
        return _end_hand(new, "went_out", seat, events)
    return new


def _exec_meld(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    shape: MeldShape = plan
    new = state.copy()
    new.hands = _with_hand(state.hands, seat, _without(state.hands[seat], shape.cards))
    meld_id = len(state.melds) + 1
    new.melds = (*state.melds, place_meld(shape, meld_id, seat))
    new._accepts = None
    events.append(
        Event(
            "meld",
            seat,
            (
                ("meld", meld_id),
                ("meld_kind", shape.kind),
                ("cards", shape.cards),
                ("reading", shape.reading),
            ),
        )
    )
    return _after_play(state, new, seat, shape.cards, "meld", events)


def _exec_layoff(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    spot: LayOffSpot = plan
    card = action.card
    new = state.copy()
    new.hands = _with_hand(state.hands, seat, _without(state.hands[seat], (card,)))
    index = spot.meld - 1
    melds = state.melds
    new.melds = (*melds[:index], extend_meld(melds[index], card, spot, seat), *melds[index + 1 :])
    new._accepts = None
    events.append(
        Event("lay_off", seat, (("meld", spot.meld), ("card", card), ("reading", spot.reading)))
    )
    return _after_play(state, new, seat, (card,), "lay_off", events)


def _exec_switch(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    meld_id, slot = plan
    card = action.card
    new = state.copy()
    rest = _without(state.hands[seat], (card,))
    rest.append(JOKER)
    new.hands = _with_hand(state.hands, seat, rest)
    index = meld_id - 1
    melds = state.melds
    new.melds = (
        *melds[:index],
        switch_joker_in(melds[index], slot, card, seat),
        *melds[index + 1 :],
    )
    new._accepts = None
    events.append(Event("switch_joker", seat, (("meld", meld_id), ("card", card))))
    return _after_play(state, new, seat, (card,), "switch", events)


def _exec_discard(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    card = action.card
    new = state.copy()
    rest = _without(state.hands[seat], (card,))
    new.hands = _with_hand(state.hands, seat, rest)
    new.discard = (*state.discard, card)
    new.locked = None
    rules = state.rules
    if rules.discards_displayed and state.displayed[seat]:
        _hide(new, seat, (card,))
    events.append(Event("discard", seat, (("card", card),)))
    if not rest:
        return _end_hand(new, "went_out", seat, events)
    if state.last_stock_drawn:
        return _end_hand(new, "last_stock_card", seat, events)
    next_seat = _next_seat(state)
    if rules.rummy_call:
        depths = claimable_depths(new)
        if depths:
            n = state.num_seats
            new.phase = Phase.CLAIM
            new.claim = ClaimWindow(seat, depths, next_seat)
            new.to_act = tuple((seat + offset) % n for offset in range(1, n))
            new.obligation = None
            new.resume = None
            events.append(Event("claim_window", seat, (("depths", depths),)))
            return new
    return _begin_turn(new, next_seat, events)


def _exec_pass(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    new = state.copy()
    claim = state.claim
    assert claim is not None
    events.append(Event("pass_claim", action.seat))
    waiting = tuple(seat for seat in state.to_act if seat != action.seat)
    if waiting:
        new.to_act = waiting
        return new
    return _begin_turn(new, claim.next_seat, events)


def _exec_close(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    claim = state.claim
    assert claim is not None
    events.append(Event("close_claims", -1))
    return _begin_turn(state.copy(), claim.next_seat, events)


def _exec_decline(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    events.append(Event("decline_draw", action.seat))
    return _end_hand(state.copy(), "declined", action.seat, events)


def _exec_float(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    events.append(Event("float", action.seat))
    new = state.copy()
    if state.last_stock_drawn:
        return _end_hand(new, "last_stock_card", action.seat, events)
    return _begin_turn(new, _next_seat(state), events)


_EXECUTORS: dict[type[Any], Any] = {
    DrawStock: _exec_draw_stock,
    TakeDiscard: _exec_take,
    ClaimRummy: _exec_claim,
    Meld: _exec_meld,
    LayOff: _exec_layoff,
    SwitchJoker: _exec_switch,
    Discard: _exec_discard,
    PassClaim: _exec_pass,
    CloseClaims: _exec_close,
    DeclineDraw: _exec_decline,
    Float: _exec_float,
}
