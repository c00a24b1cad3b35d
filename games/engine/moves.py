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

from typing import Any

from .action_cache import DISCARDS, cached, discard_action, layoff_action, meld_action
from .actions import (
    Action,
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    DrawStock,
    Float,
    PassClaim,
    PassUpcard,
    PlayNatural,
    SwitchJoker,
    TakeDiscard,
)
from .cards import JOKER
from .duties import take_depths
from .errors import IllegalAction
from .events import Event
from .five_thousand import natural_melds
from .melds import (
    enumerate_melds,
    joker_slot_for,
)
from .michigan import STOP, STOP_DISCARD
from .oklahoma import may_discard, own_spots
from .persian import enumerate_persian
from .state import HandState, Phase
from .transitions import EXECUTORS
from .validation import play_problem, validate
from .wilds import wild_melds

_MISSING = object()


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
        action, plan = validate(state, action)
    events: list[Event] = []
    new = EXECUTORS[type(action)](state, action, plan, events)
    new.actions = (*state.actions, action)
    new.history = (*state.history, *events)
    return new, events


def is_legal(state: HandState, action: Action) -> bool:
    """True when ``apply`` would accept ``action``."""
    try:
        validate(state, action)
    except IllegalAction:
        return False
    return True


def canonical(state: HandState, action: Action) -> Action:
    """The form ``legal_actions`` lists for ``action`` (raises IllegalAction if refused)."""
    return validate(state, action)[0]


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
    elif phase is Phase.OFFER:
        if seat == state.current:
            for depth in take_depths(state, seat):
                plans[cached(TakeDiscard, seat, depth)] = None
            plans[cached(PassUpcard, seat)] = None
    elif phase is Phase.CLAIM:
        if seat == -1:
            plans = {cached(CloseClaims, -1): None}
        elif seat in state.to_act and state.claim is not None:
            for depth in state.claim.depths:
                plans[cached(ClaimRummy, seat, depth)] = None
            plans[cached(PassClaim, seat)] = None
    cache[seat] = plans
    return plans


def _draw_plans(state: HandState, seat: int) -> dict[Any, Any]:
    plans: dict[Any, Any] = {}
    if state.stock:
        plans[cached(DrawStock, seat)] = None
    if state.floating_turn:
        return plans
    for depth in take_depths(state, seat):
        plans[cached(TakeDiscard, seat, depth)] = None
    if not state.stock:
        plans[cached(DeclineDraw, seat)] = None
    return plans


def _play_plans(state: HandState, seat: int) -> dict[Any, Any]:
    hand = state.hands[seat]
    plans: dict[Any, Any] = {}
    if not hand:
        plans[cached(Float, seat)] = None
        return plans
    rules = state.rules
    accepts = state.accepts()
    obligation = state.obligation
    if obligation is not None and obligation.timing in ("lay_off", STOP):
        for spot in accepts.get(obligation.card, ()):
            plans[layoff_action(seat, obligation.card, spot)] = spot
        return plans
    if obligation is not None and obligation.timing == STOP_DISCARD:
        for card in dict.fromkeys(hand):
            plans[discard_action(seat, card)] = None
        return plans
    if state.floating_turn:
        card = hand[0]
        spots = accepts.get(card)
        if spots:
            for spot in spots:
                plans[layoff_action(seat, card, spot)] = spot
        else:
            plans[discard_action(seat, card)] = None
        return plans
    simple = obligation is None and state.locked is None and not rules.must_discard_to_go_out
    rank = state.wild
    if rules.persian_melds:
        shapes = enumerate_persian(hand, rules.group_suits_distinct)
    elif rank is None:
        shapes = enumerate_melds(hand, rules.wild_jokers, rules.group_suits_distinct)
    else:
        shapes = wild_melds(hand, rank, rules.wild_jokers, rules.group_suits_distinct)
    for shape in shapes:
        if simple or play_problem(state, seat, shape.cards, None, "meld", shape) is None:
            plans[meld_action(seat, shape)] = shape
    distinct_cards = dict.fromkeys(hand)
    own_only = rules.spec.lay_off_on == "own"
    for card in distinct_cards:
        spots = accepts.get(card)
        if spots and own_only:
            spots = own_spots(state, seat, spots)
        if spots:
            for spot in spots:
                if simple or play_problem(state, seat, (card,), None, "lay_off", spot) is None:
                    plans[layoff_action(seat, card, spot)] = spot
    if rules.spec.joker_switching and state.melds:
        distinct = rules.group_suits_distinct
        for card in distinct_cards:
            if card == JOKER:
                continue
            for meld in state.melds:
                if own_only and meld.owners[0] != seat:
                    continue
                index = joker_slot_for(meld, card, distinct)
                if index is None:
                    continue
                slot = (meld.id, index)
                if play_problem(state, seat, (card,), JOKER, "switch", slot) is None:
                    plans[cached(SwitchJoker, seat, card, meld.id)] = slot
    if rules.spec.naturals_in_front and state.melds:
        for card in distinct_cards:
            for meld_id in natural_melds(state, card):
                if play_problem(state, seat, (card,), None, "natural", meld_id) is None:
                    plans[cached(PlayNatural, seat, card, meld_id)] = meld_id
    if obligation is None:
        locked = state.locked
        by_card = DISCARDS.get(seat) or {}
        banned = rules.spec.undiscardable
        for card in distinct_cards:
            if card == locked and hand.count(card) < 2:
                continue
            if banned and not may_discard(rules, hand, card):
                continue
            action = by_card.get(card)
            plans[action if action is not None else discard_action(seat, card)] = None
    return plans
