"""How each move changes the state: copy, change, record events, hand the turn on.

The functions here trust their input (it has been validated or taken from the legal list) and
never change the state they are given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from . import scatter
from .actions import (
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    Discard,
    DrawStock,
    Float,
    LayOff,
    Meld,
    PassClaim,
    PassUpcard,
    PlayNatural,
    SwitchJoker,
    TakeDiscard,
)
from .cards import JOKER
from .duties import claimable_depths, take_depths
from .events import Event
from .five_thousand import has_melded
from .melds import (
    LayOffSpot,
    MeldShape,
    extend_meld,
    place_meld,
    switch_joker_in,
)
from .michigan import STOP, STOP_DISCARD
from .oklahoma import pass_offer
from .state import ClaimWindow, HandEnd, HandState, Obligation, Phase
from .validation import without

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


def end_hand(new: HandState, reason: str, seat: int, events: list[Event]) -> HandState:
    new.phase = Phase.HAND_OVER
    new.to_act = ()
    new.obligation = None
    new.locked = None
    new.claim = None
    new.resume = None
    new.end = HandEnd(reason, seat)
    events.append(Event("hand_over", seat, (("reason", reason),)))
    return new


def begin_turn(new: HandState, seat: int, events: list[Event]) -> HandState:
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
        return end_hand(new, "last_stock_card", -1, events)
    if rules.spec.empty_stock == "end_when_empty":
        return end_hand(new, "stock_out", -1, events)
    if rules.stock_refill and len(new.discard) >= 2:
        on_table = new.cards_on_table()
        if new.refills == 0 or on_table > new.melded_at_refill:
            cards = list(new.discard[:-1])
            random.Random(f"{new.seed}/refill/{new.refills + 1}").shuffle(cards)
            new.stock = tuple(cards)
            new.discard = new.discard[-1:]
            if rules.scattered:
                new.scatter = (0,)
            new.refills += 1
            new.melded_at_refill = on_table
            events.append(Event("stock_refilled", seat, (("cards", len(cards)),)))
            return new
    if new.floating_turn or not take_depths(new, seat):
        return end_hand(new, "cannot_draw", seat, events)
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
    if not new.stock and state.rules.spec.empty_stock in ("end_after_last_draw", "block"):
        new.last_stock_drawn = True
    events.append(Event("draw_stock", seat))
    return new


def exec_take(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    pile = state.discard
    rules = state.rules
    new = state.copy()
    if rules.scattered:
        taken, new.discard, new.scatter = scatter.take(pile, state.scatter, action.depth)
        card = taken[0]
    elif rules.spec.take_top_takes_pile:  # oklahoma: the top card, and the whole pile with it
        taken, new.discard, card = pile, (), pile[-1]
    else:
        cut = len(pile) - 1 - action.depth
        taken = pile[cut:]
        new.discard = pile[:cut]
        card = taken[0]
    new.hands = _with_hand(state.hands, seat, (*state.hands[seat], *taken))
    new.phase = Phase.PLAY
    new.to_act = (seat,)
    new.current = seat
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
    rules = state.rules
    new = state.copy()
    if rules.scattered:
        taken, new.discard, new.scatter = scatter.take(pile, state.scatter, action.depth)
    else:
        cut = len(pile) - 1 - action.depth
        taken = pile[cut:]
        new.discard = pile[:cut]
    new.hands = _with_hand(state.hands, seat, (*state.hands[seat], *taken))
    new.phase = Phase.PLAY
    new.to_act = (seat,)
    new.current = seat
    new.claim = None
    new.floating_turn = False
    last_only = rules.rummy_last_discard_only
    stop = rules.spec.stop_call
    new.resume = claim.next_seat if last_only or stop else None
    timing = STOP if stop else "lay_off" if last_only else "next_play"
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
        return begin_turn(new, _next_seat(state), events)
    if duty is not None and duty.timing == STOP:
        new.obligation = duty._replace(timing=STOP_DISCARD)  # michigan: now one discard
        return new
    if not new.hands[seat] and not state.rules.floating:
        return end_hand(new, "went_out", seat, events)
    return new


def _exec_meld(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    shape: MeldShape = plan
    new = state.copy()
    new.hands = _with_hand(state.hands, seat, without(state.hands[seat], shape.cards))
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
    new.hands = _with_hand(state.hands, seat, without(state.hands[seat], (card,)))
    index = spot.meld - 1
    melds = state.melds
    new.melds = (*melds[:index], extend_meld(melds[index], card, spot, seat), *melds[index + 1 :])
    new._accepts = None
    fields: tuple[tuple[str, Any], ...] = (
        ("meld", spot.meld),
        ("card", card),
        ("reading", spot.reading),
    )
    if spot.ace_end == "low":  # said only when the player chose it (the high end is the default)
        fields = (*fields, ("ace_end", "low"))
    events.append(Event("lay_off", seat, fields))
    return _after_play(state, new, seat, (card,), "lay_off", events)


def _exec_switch(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    meld_id, slot = plan
    card = action.card
    new = state.copy()
    rest = without(state.hands[seat], (card,))
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
    rest = without(state.hands[seat], (card,))
    new.hands = _with_hand(state.hands, seat, rest)
    new.discard = (*state.discard, card)
    new.locked = None
    rules = state.rules
    if rules.scattered:
        lands = scatter.landing(state.seed, len(state.actions), len(state.discard))
        new.scatter = (*state.scatter, lands)
    if rules.discards_displayed and state.displayed[seat]:
        _hide(new, seat, (card,))
    events.append(Event("discard", seat, (("card", card),)))
    if not rest:
        return end_hand(new, "went_out", seat, events)
    if state.last_stock_drawn:
        block = rules.spec.empty_stock == "block"
        return end_hand(new, "block" if block else "last_stock_card", seat, events)
    next_seat = _next_seat(state)
    if rules.claims_open:
        depths = claimable_depths(new)
        n = state.num_seats
        callers = tuple((seat + offset) % n for offset in range(1, n))
        if rules.spec.rummy_call_needs_meld:
            callers = tuple(other for other in callers if has_melded(new, other))
        if depths and callers:
            new.phase = Phase.CLAIM
            new.claim = ClaimWindow(seat, depths, next_seat)
            new.to_act = callers
            new.obligation = None
            new.resume = None
            events.append(Event("claim_window", seat, (("depths", depths),)))
            return new
    return begin_turn(new, next_seat, events)


def _exec_pass(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    new = state.copy()
    claim = state.claim
    assert claim is not None
    events.append(Event("pass_claim", action.seat))
    waiting = tuple(seat for seat in state.to_act if seat != action.seat)
    if waiting:
        new.to_act = waiting
        return new
    return begin_turn(new, claim.next_seat, events)


def _exec_close(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    claim = state.claim
    assert claim is not None
    events.append(Event("close_claims", -1))
    return begin_turn(state.copy(), claim.next_seat, events)


def _exec_decline(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    events.append(Event("decline_draw", action.seat))
    return end_hand(state.copy(), "declined", action.seat, events)


def _exec_float(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    events.append(Event("float", action.seat))
    new = state.copy()
    if state.last_stock_drawn:
        return end_hand(new, "last_stock_card", action.seat, events)
    return begin_turn(new, _next_seat(state), events)


def _exec_natural(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    seat = action.seat
    card = action.card
    new = state.copy()
    new.hands = _with_hand(state.hands, seat, without(state.hands[seat], (card,)))
    new.fronts = (*state.fronts, (seat, card, action.meld))
    events.append(Event("play_natural", seat, (("card", card), ("meld", action.meld))))
    return _after_play(state, new, seat, (card,), "natural", events)


def _exec_pass_upcard(state: HandState, action: Any, plan: Any, events: list[Event]) -> HandState:
    new = state.copy()
    if pass_offer(new, action.seat, events):
        return new
    return begin_turn(new, (state.dealer + 1) % state.num_seats, events)


EXECUTORS: dict[type[Any], Any] = {
    DrawStock: _exec_draw_stock,
    TakeDiscard: exec_take,
    ClaimRummy: _exec_claim,
    Meld: _exec_meld,
    LayOff: _exec_layoff,
    SwitchJoker: _exec_switch,
    Discard: _exec_discard,
    PassClaim: _exec_pass,
    CloseClaims: _exec_close,
    DeclineDraw: _exec_decline,
    Float: _exec_float,
    PassUpcard: _exec_pass_upcard,
    PlayNatural: _exec_natural,
}
