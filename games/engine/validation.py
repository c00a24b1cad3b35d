"""Why a move is refused: the checks behind every IllegalAction.

``validate`` turns any move into its canonical form and plan, or raises IllegalAction with a
sentence for the player. ``play_problem`` is the one check that melds, lay-offs and switches
share with the list of legal actions, which keeps that list exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .action_cache import cached, discard_action, layoff_action, meld_action
from .actions import (
    ACE_ENDS,
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
    PassUpcard,
    PlayNatural,
    SwitchJoker,
    TakeDiscard,
)
from .cards import JOKER, card_label, is_card, is_reading, labels
from .duties import duty_possible, take_depths
from .errors import IllegalAction
from .five_thousand import has_melded, natural_melds, natural_refusal
from .going_out import play_lets_you_go_out
from .melds import (
    LayOffSpot,
    TableMeld,
    extend_meld,
    joker_slot_for,
    layoff_spots,
    place_meld,
    resolve_meld,
    switch_joker_in,
    table_accepts,
)
from .michigan import STOP, STOP_DISCARD
from .oklahoma import discard_refusal, may_discard, not_your_meld, take_refusal
from .persian import JOKER_GROUP, persian_accepts, persian_layoff_spots, resolve_persian
from .state import HandState, Obligation, Phase
from .wilds import card_spots, resolve_wild_meld

# The "after this play" checks --------------------------------------------------------------------


def duty_refusal(duty: Obligation) -> str:
    card = card_label(duty.card)
    if duty.timing == "lay_off":
        return f"You called Rummy on the {card}, so you must lay it off on a meld."
    if duty.timing == STOP:
        return f"You called Stop on the {card}, so you must lay it off on a meld first."
    if duty.timing == STOP_DISCARD:
        return f"You laid off the {card} after calling Stop: now discard a card."
    if duty.source == "claim":
        return f"You called Rummy on the {card}, so you must meld it or lay it off first."
    if duty.new_meld_only:
        return f"You took the {card} from the pile, so you must put it in a new meld first."
    return f"You took the {card} from the pile, so you must meld it or lay it off first."


def without(hand: Sequence[str], used: Sequence[str]) -> list[str]:
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
    if kind == "natural":
        return melds
    meld_id, slot = detail
    index = meld_id - 1
    switched = switch_joker_in(melds[index], slot, used[0], seat)
    return (*melds[:index], switched, *melds[index + 1 :])


def play_problem(
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
        if duty.timing in ("lay_off", STOP) and kind != "lay_off":
            uses = False
        if duty.timing != "this_turn":
            if not uses:
                return duty_refusal(duty)
            duty_met = True
        else:
            duty_met = uses
    remaining = len(hand) - len(used) + (1 if gained is not None else 0)
    if duty is not None and not duty_met:
        rest = without(hand, used)
        if gained is not None:
            rest.append(gained)
        melds = _melds_after(state, seat, kind, detail, used)
        if rules.persian_melds:
            accepts = persian_accepts(melds, rules.group_suits_distinct)
        else:
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
        rest = without(hand, used)
        if gained is not None:
            rest.append(gained)
        if rest == [locked] and not play_lets_you_go_out(state, seat, kind, detail, used):
            return (
                f"That would leave you holding only the {card_label(locked)}, which you took "
                "alone from the pile this turn and may not discard, with no way to go out "
                "this turn."
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


def validate(state: HandState, action: Action) -> tuple[Action, Any]:
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
        return cached(CloseClaims, -1), None
    _seat_problem(state, seat)
    if kind is ClaimRummy or kind is PassClaim:
        return _validate_claim(state, action)
    if phase is Phase.CLAIM:
        raise IllegalAction("Wait: the other players may still call Rummy on that discard.")
    if seat != state.current:
        raise IllegalAction("It is not your turn.")
    if phase is Phase.OFFER:
        return _validate_offer(state, action)
    if kind is PassUpcard:
        raise IllegalAction("You can pass on the up-card only while it is being offered.")
    if phase is Phase.DRAW:
        return _validate_draw(state, action)
    return _validate_play(state, action)


def _validate_claim(state: HandState, action: Action) -> tuple[Action, Any]:
    claim = state.claim
    seat = action.seat
    call = state.rules.claims_word
    if state.phase is not Phase.CLAIM or claim is None:
        raise IllegalAction(f"{call} can only be called right after a discard.")
    if seat == claim.discarder:
        raise IllegalAction(f"You cannot call {call} on your own discard.")
    if state.rules.spec.rummy_call_needs_meld and not has_melded(state, seat):
        raise IllegalAction(f"You may call {call} only once you have a meld of your own down.")
    if seat not in state.to_act:
        raise IllegalAction("You have already passed on this discard.")
    if isinstance(action, PassClaim):
        return cached(PassClaim, seat), None
    assert isinstance(action, ClaimRummy)
    depth = _depth(action.depth, state.discard)
    if depth not in claim.depths:
        card = card_label(state.discard[-1 - depth])
        if state.rules.rummy_last_discard_only or state.rules.spec.stop_call:
            raise IllegalAction(
                f"{call} may only be called on the latest discard, to lay it off on a meld."
                if depth
                else f"The {card} cannot be laid off on any meld, so {call} cannot be called."
            )
        raise IllegalAction(
            f"The {card} fits no meld on the table and makes no meld with the cards above it, "
            "so Rummy cannot be called on it."
        )
    return cached(ClaimRummy, seat, depth), None


def _validate_offer(state: HandState, action: Action) -> tuple[Action, Any]:
    seat = action.seat
    if isinstance(action, PassUpcard):
        return cached(PassUpcard, seat), None
    if isinstance(action, TakeDiscard):
        depth = _depth(action.depth, state.discard)
        if depth not in take_depths(state, seat):
            raise IllegalAction(_take_refusal(state, seat, depth))
        return cached(TakeDiscard, seat, depth), None
    raise IllegalAction("The up-card is being offered to you: take it or pass.")


def _validate_draw(state: HandState, action: Action) -> tuple[Action, Any]:
    seat = action.seat
    if isinstance(action, DrawStock):
        if not state.stock:
            raise IllegalAction("The stock is empty: take from the pile or end the hand.")
        return cached(DrawStock, seat), None
    if isinstance(action, TakeDiscard):
        depth = _depth(action.depth, state.discard)
        if state.floating_turn:
            raise IllegalAction("You are floating, so you must draw from the stock.")
        if depth not in take_depths(state, seat):
            raise IllegalAction(_take_refusal(state, seat, depth))
        return cached(TakeDiscard, seat, depth), None
    if isinstance(action, DeclineDraw):
        if state.stock:
            raise IllegalAction("You may only decline to draw when the stock is empty.")
        return cached(DeclineDraw, seat), None
    raise IllegalAction("Draw first: take the top card of the stock or cards from the pile.")


def _take_refusal(state: HandState, seat: int, depth: int) -> str:
    card = card_label(state.discard[-1 - depth])
    rules = state.rules
    if rules.spec.take_top_takes_pile:
        return take_refusal(state, depth)
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
            return cached(Float, seat), None
        raise IllegalAction("You have no cards left: float to end your turn.")
    if isinstance(action, Float):
        raise IllegalAction("You may only float when your hand is empty.")
    duty = state.obligation
    if duty is not None and duty.timing in ("lay_off", STOP) and not isinstance(action, LayOff):
        raise IllegalAction(duty_refusal(duty))
    if duty is not None and duty.timing == STOP_DISCARD and not isinstance(action, Discard):
        raise IllegalAction(duty_refusal(duty))
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
    if isinstance(action, PlayNatural):
        return _validate_natural(state, action)
    assert isinstance(action, Discard)
    card = action.card
    _holds(hand, (card,))
    if duty is not None and duty.timing == STOP_DISCARD:
        return discard_action(seat, card), None
    if duty is not None:
        raise IllegalAction(duty_refusal(duty))
    if state.floating_turn and state.accepts().get(card):
        raise IllegalAction(
            f"You are floating and the {card_label(card)} fits a meld, so you must lay it off."
        )
    if card == state.locked and hand.count(card) < 2:
        raise IllegalAction(
            f"You took the {card_label(card)} alone from the pile this turn, so you may not "
            "discard it until a later turn."
        )
    if not may_discard(state.rules, hand, card):
        raise IllegalAction(discard_refusal(card))
    return discard_action(seat, card), None


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
    if rules.persian_melds:
        shape = resolve_persian(cards, reading, rules.group_suits_distinct)
    elif state.wild is None:
        shape = resolve_meld(cards, reading, rules.wild_jokers, rules.group_suits_distinct)
    else:
        shape = resolve_wild_meld(
            cards, reading, state.wild, rules.wild_jokers, rules.group_suits_distinct
        )
    problem = play_problem(state, seat, shape.cards, None, "meld", shape)
    if problem:
        raise IllegalAction(problem)
    return meld_action(seat, shape), shape


def _validate_layoff(state: HandState, action: LayOff) -> tuple[Action, Any]:
    seat = action.seat
    card = action.card
    _holds(state.hands[seat], (card,))
    meld = _meld_by_id(state, action.meld)
    rules = state.rules
    rank = state.wild
    wild = card == JOKER or (rank is not None and card[0] == rank)
    if rules.spec.lay_off_on == "own" and meld.owners[0] != seat:
        raise IllegalAction(not_your_meld(state, meld))
    if rules.persian_melds:
        spots = persian_layoff_spots(meld, card, rules.group_suits_distinct)
    elif rank is None:
        spots = layoff_spots(meld, card, rules.wild_jokers, rules.group_suits_distinct)
    else:
        spots = card_spots(meld, card, rank, rules.wild_jokers, rules.group_suits_distinct)
    reading = action.reading
    if reading is not None and meld.kind == JOKER_GROUP:
        raise IllegalAction("A joker laid off on a group of jokers needs no reading.")
    if reading is not None:
        if not is_reading(reading):
            raise IllegalAction(f"{reading!r} is not a card a wild card can stand for.")
        if not wild and reading != card:
            raise IllegalAction(f"The {card_label(card)} can only stand for itself.")
        spots = [
            spot
            for spot in spots
            if spot.reading == reading or (spot.end == "group" and reading[0] == meld.rank)
        ]
    elif card != JOKER and wild and any(spot.reading == card for spot in spots):
        spots = [spot for spot in spots if spot.reading == card]
    shown = f"meld {meld.id} ({labels(meld.reading)})"
    spots = _at_ace_end(spots, action.ace_end, card, shown)
    if not spots:
        if reading is not None and wild:
            raise IllegalAction(
                f"The {card_label(card)} cannot stand for the {card_label(reading)} on {shown}."
            )
        if meld.kind == "group" and len(meld.cards) >= 4 and card[0] in (meld.rank, rank):
            raise IllegalAction(
                f"The {card_label(card)} does not fit {shown}: it already holds four cards, "
                "and a group never takes a fifth."
            )
        raise IllegalAction(f"The {card_label(card)} does not fit {shown}.")
    if len(spots) > 1:
        choices = " or ".join(card_label(spot.reading) for spot in spots)
        raise IllegalAction(
            f"Say which end of {shown} the {card_label(card)} goes: as the {choices}."
        )
    spot = spots[0]
    duty = state.obligation
    if duty is not None and duty.timing in ("lay_off", STOP) and card != duty.card:
        raise IllegalAction(duty_refusal(duty))
    problem = play_problem(state, seat, (card,), None, "lay_off", spot)
    if problem:
        raise IllegalAction(problem)
    return layoff_action(seat, card, spot), spot


def _at_ace_end(
    spots: list[LayOffSpot], ace_end: object, card: str, shown: str
) -> list[LayOffSpot]:
    """The spots left once ``ace_end`` is taken into account (Ruling 1).

    Without it an ace that fits both ends of a 2..K run goes high, as moves stored before the
    field existed were played; with it, only an ace at that end of a run fits.
    """
    if ace_end is None:
        if len(spots) == 2 and spots[0].ace_end == "high" and spots[1].ace_end == "low":
            return spots[:1]
        return spots
    if ace_end not in ACE_ENDS:
        raise IllegalAction(f"'ace_end' must be 'low' or 'high', not {ace_end!r}.")
    end = "lo" if ace_end == "low" else "hi"
    kept = [spot for spot in spots if spot.end == end and spot.reading[0] == "A"]
    if not kept:
        raise IllegalAction(
            f"The {card_label(card)} cannot go at the {ace_end} end of {shown}: only an ace "
            "at an end of a run takes that choice."
        )
    return kept


def _validate_switch(state: HandState, action: SwitchJoker) -> tuple[Action, Any]:
    seat = action.seat
    rules = state.rules
    if not rules.spec.joker_switching:
        if state.wild is not None:
            raise IllegalAction(
                "A wild card keeps the meaning declared when it was melded: it cannot be "
                "changed or replaced by the natural card."
            )
        raise IllegalAction("Jokers cannot be switched in this game.")
    card = action.card
    _holds(state.hands[seat], (card,))
    meld = _meld_by_id(state, action.meld)
    if rules.spec.lay_off_on == "own" and meld.owners[0] != seat:
        raise IllegalAction(
            f"Only the player who melded a joker may take it back; meld {meld.id} is not yours."
        )
    index = joker_slot_for(meld, card, rules.group_suits_distinct)
    if index is None:
        raise IllegalAction(
            f"Meld {meld.id} ({labels(meld.reading)}) has no joker that the "
            f"{card_label(card)} can replace."
        )
    slot = (meld.id, index)
    problem = play_problem(state, seat, (card,), JOKER, "switch", slot)
    if problem:
        raise IllegalAction(problem)
    return cached(SwitchJoker, seat, card, meld.id), slot


def _validate_natural(state: HandState, action: PlayNatural) -> tuple[Action, Any]:
    seat = action.seat
    if not state.rules.spec.naturals_in_front:
        raise IllegalAction("Natural cards are not played in front in this game.")
    card = action.card
    _holds(state.hands[seat], (card,))
    meld = _meld_by_id(state, action.meld)
    if meld.id not in natural_melds(state, card):
        raise IllegalAction(natural_refusal(state, card, meld))
    problem = play_problem(state, seat, (card,), None, "natural", meld.id)
    if problem:
        raise IllegalAction(problem)
    return cached(PlayNatural, seat, card, meld.id), meld.id


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
