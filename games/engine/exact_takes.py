"""Which pile takes and Rummy calls are possible, for presets the fast pile scan does not model.

Why a slower, plainer path: ``duties.take_depths`` is a bit-mask scan tuned for a stacked pile
with aces low or high. Throw-down takes a card with whatever lies over it (not a top slice of
the pile), and Persian has aces high only and groups of jokers; rather than teach the hot scan
those cases, these presets ask the same question by enumerating the melds the taken cards make.
The answers have the same meaning as the fast path's (Rulings 5, 9, 17, 18).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import JOKER
from .melds import MeldShape, enumerate_melds, meld_exists_with
from .persian import enumerate_persian
from .rules import Rules
from .scatter import taken_at
from .state import HandState


def melds_for(rules: Rules, cards: Sequence[str]) -> list[MeldShape]:
    """Every meld ``cards`` can lay down under these rules."""
    if rules.persian_melds:
        return enumerate_persian(cards, rules.group_suits_distinct)
    return enumerate_melds(cards, rules.wild_jokers, rules.group_suits_distinct)


def _melds_with(rules: Rules, card: str, others: Sequence[str], room: int) -> bool:
    """True when ``card`` and some of ``others`` make a meld leaving ``room`` cards or more."""
    distinct = rules.group_suits_distinct
    if not rules.persian_melds and room <= 0:
        return meld_exists_with(card, others, rules.wild_jokers, distinct)
    size = len(others) + 1
    if rules.persian_melds:
        # Persian melds are the natural melds without low aces, plus groups of jokers: a quick
        # test that ignores the ace rule rules most cards out before any enumeration.
        if card == JOKER:
            return others.count(JOKER) >= 2 and size - 3 >= room
        if not meld_exists_with(card, others, False, distinct):
            return False
    for shape in melds_for(rules, [*others, card]):
        if card in shape.cards and size - len(shape.cards) >= room:
            return True
    return False


def taken_cards(state: HandState, depth: int) -> tuple[str, ...]:
    """The cards a take at ``depth`` picks up, the chosen (duty) card first."""
    pile = state.discard
    if state.rules.scattered:
        return taken_at(pile, state.scatter, depth)
    if state.rules.spec.take_top_takes_pile and pile:  # oklahoma: the whole pile comes along
        return (pile[-1], *pile[:-1])
    return tuple(pile[len(pile) - 1 - depth :])


def take_depths(state: HandState, seat: int) -> list[int]:
    """The depths ``seat`` may take from the pile now (same meaning as duties.take_depths)."""
    pile = state.discard
    if not pile or state.floating_turn:
        return []
    rules = state.rules
    free_top = rules.top_discard_free and bool(state.stock)
    must_discard = rules.must_discard_to_go_out
    accepts = {} if rules.deepest_card_new_meld else state.accepts()
    hand = state.hands[seat]
    depths = []
    for depth in range(len(pile)):
        taken = taken_cards(state, depth)
        card = taken[0]
        if (depth == 0 and free_top) or card in accepts:
            depths.append(depth)
            continue
        others = (*hand, *taken[1:])
        if _melds_with(rules, card, others, 1 if must_discard else 0):
            depths.append(depth)
    return depths


def claimable_depths(state: HandState) -> tuple[int, ...]:
    """Depths on which Rummy may be called: the card lays off, or melds with what comes along."""
    pile = state.discard
    accepts = state.accepts()
    rules = state.rules
    if rules.rummy_last_discard_only:
        return (0,) if pile and accepts.get(pile[-1]) else ()
    depths = []
    for depth in range(len(pile)):
        taken = taken_cards(state, depth)
        card = taken[0]
        meldable = card != JOKER or rules.wild_jokers or rules.persian_melds
        if accepts.get(card) or (meldable and _melds_with(rules, card, taken[1:], 0)):
            depths.append(depth)
    return tuple(depths)
