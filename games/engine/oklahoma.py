"""Oklahoma's own rules (seed 000), kept out of the shared modules, which call in with hooks.

* The first up-card is offered around the table, from the dealer's left, before anyone draws
  (``Phase.OFFER``); whoever takes it plays first. If all pass, the player left of the dealer
  draws from the stock.
* Taking the top discard takes the whole pile; the top card must be used by the very next play
  (a new meld, or a lay-off on one of the taker's own melds).
* Lay-offs go only on your own melds; a group never holds a fifth card (as everywhere).
* The queen of spades may be discarded only as the last card (or when it is all you hold:
  see docs/rules.md), and going out always ends with a discard (``boathouse``).
* Going out scores 100, or 250 when the whole hand was melded in that one turn; the 250 does
  not count toward the 1000 that ends the game. The winner gets 200.
* A block: the hand ends when the player who took the last stock card does not go out.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import card_label
from .events import Event
from .melds import LayOffSpot, TableMeld, joker_slot_for, meld_exists_with
from .rules import Rules
from .state import HandState, Phase
from .wilds import is_wild, mask, wild_melds


def meld_owner(meld: TableMeld) -> int:
    """The seat that laid ``meld`` down (only its owner lays off on it in oklahoma)."""
    return meld.owners[0]


def own_spots(state: HandState, seat: int, spots: Sequence[LayOffSpot]) -> list[LayOffSpot]:
    """The spots that lie on ``seat``'s own melds."""
    melds = state.melds
    return [spot for spot in spots if melds[spot.meld - 1].owners[0] == seat]


def not_your_meld(state: HandState, meld: TableMeld) -> str:
    return (
        f"In this game you lay off only on your own melds; meld {meld.id} belongs to "
        f"seat {meld_owner(meld)}."
    )


def everyone_passed(state: HandState) -> bool:
    """True on the first draw after every player passed on the offered up-card."""
    history = state.history
    return state.phase is Phase.DRAW and bool(history) and history[-1].kind == "pass_upcard"


def pile_take_depths(state: HandState, seat: int) -> list[int]:
    """[0] when ``seat`` may take the top discard (and with it the whole pile), else [].

    The top card must be used by the next play and a card kept to discard, so the take is
    offered only when the top card makes a meld with the new hand that leaves a card over, or
    lays off on one of the taker's own melds.
    """
    pile = state.discard
    if not pile or state.floating_turn or everyone_passed(state):
        return []
    top = pile[-1]
    hand = [*state.hands[seat], *pile]
    size = len(hand)
    rules = state.rules
    keep = 1 if rules.must_discard_to_go_out else 0
    may_lay_off = not rules.deepest_card_new_meld
    if may_lay_off and size - 1 >= keep and own_spots(state, seat, state.accepts().get(top, ())):
        return [0]
    rank = state.wild
    distinct = rules.group_suits_distinct
    if (
        may_lay_off
        and rules.spec.joker_switching
        and any(
            meld.owners[0] == seat and joker_slot_for(meld, top, distinct) is not None
            for meld in state.melds
        )
    ):
        return [0]  # the top card takes a joker's place in one of the taker's melds
    others = list(hand)
    others.remove(top)
    wild_top = is_wild(top, rank, rules.wild_jokers)
    if size - 3 >= keep and not wild_top:
        masked = mask(others, rank) if rank is not None else tuple(others)
        return [0] if meld_exists_with(top, masked, True, distinct) else []
    if size - 3 < keep:
        return []
    if rank is None:  # pragma: no cover - every oklahoma preset has a wild rank
        return [0] if meld_exists_with(top, others, rules.wild_jokers, distinct) else []
    for shape in wild_melds(hand, rank, rules.wild_jokers, distinct):
        if top in shape.cards and size - len(shape.cards) >= keep:
            return [0]
    return []


def take_refusal(state: HandState, depth: int) -> str:
    if everyone_passed(state):
        return "Everyone passed on the up-card, so the first turn starts from the stock."
    if depth:
        return "In this game you take the top discard, and the whole pile comes with it."
    card = card_label(state.discard[-1])
    return (
        f"You could not use the {card} at once (in a new meld, or on one of your own melds, "
        "keeping a card to discard), so you may not take the pile."
    )


def may_discard(rules: Rules, hand: Sequence[str], card: str) -> bool:
    """The queen of spades goes only as the last card, or when nothing else is left."""
    banned = rules.spec.undiscardable
    return card not in banned or all(other in banned for other in hand)


def discard_refusal(card: str) -> str:
    return (
        f"The {card_label(card)} may be discarded only as your last card, when you go out: "
        "meld it or keep it."
    )


def pass_offer(new: HandState, seat: int, events: list[Event]) -> bool:
    """Move the offer on after ``seat`` passed; False when everyone has passed."""
    events.append(Event("pass_upcard", seat))
    if seat == new.dealer:
        return False
    following = (seat + 1) % new.num_seats
    new.to_act = (following,)
    new.current = following
    return True


def went_out_concealed(state: HandState, seat: int) -> bool:
    """True when every card ``seat`` has on the table was played in its last turn."""
    history = state.history
    played = 0
    for index in range(len(history) - 1, -1, -1):
        event = history[index]
        if event.seat != seat:
            continue
        if event.kind in ("draw_stock", "take_discard"):
            break
        if event.kind == "meld":
            played += len(event.get("cards"))
        elif event.kind == "lay_off":
            played += 1
    owned = sum(owner == seat for meld in state.melds for owner in meld.owners)
    return owned == played


def going_out_bonus(state: HandState, seat: int) -> tuple[int, int, str]:
    """(bonus, part not counted toward the target, why) for the seat that went out."""
    spec = state.rules.spec
    if spec.concealed_going_out_bonus and went_out_concealed(state, seat):
        bonus = spec.concealed_going_out_bonus
        return bonus, bonus, "went out concealed (not counted toward the target)"
    return spec.going_out_bonus, 0, ""  # the plain going-out bonus needs no explaining
