"""Wild ranks (oklahoma's deuces, later five-thousand's dealer rank) through the joker machinery.

Why no second implementation: a wild deuce behaves exactly like a joker (it stands for one
declared card, a group reading names the rank only, a meld needs a natural card), so the meld
functions run on a *masked* hand in which every card of the wild rank is a joker, and the
results are *unmasked*: each joker place gets back a real card. A deuce that stands for itself
(the 2♥ read as the 2♥, say in A♥-2♥-3♥) is a natural deuce; any other reading makes it wild.

Canonical placement: which of several wild cards fills which wild place changes nothing for
deuces (a wild deuce is worth the card it stands for, whatever its suit), so a meld lists its
deuces naturals first (a deuce in the place it reads as itself), then the others in card order.
Which deuces are used, and which places real jokers take, are the player's choice and listed
as distinct moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from .cards import JOKER, SORT_KEY, SUITS
from .errors import IllegalAction
from .melds import (
    LayOffSpot,
    MeldShape,
    TableMeld,
    enumerate_melds,
    layoff_spots,
    resolve_meld,
    table_accepts,
)


def is_wild(card: str, rank: str | None, wild_jokers: bool) -> bool:
    """True for a card that may stand for another: a wild joker or a card of the wild rank."""
    if card == JOKER:
        return wild_jokers
    return card[0] == rank


def mask(cards: Sequence[str], rank: str) -> tuple[str, ...]:
    """``cards`` with every card of the wild ``rank`` shown as a joker."""
    return tuple(JOKER if card[0] == rank and card != JOKER else card for card in cards)


def _fill(
    cards: list[str], reading: Sequence[str], places: Sequence[int], wilds: Sequence[str]
) -> None:
    """Put ``wilds`` (cards of the wild rank) into ``places``: naturals first, then in order."""
    pool = sorted(wilds, key=SORT_KEY.__getitem__)
    rest = []
    for place in places:
        read = reading[place]
        if read in pool:
            pool.remove(read)
            cards[place] = read
        else:
            rest.append(place)
    for place, card in zip(rest, pool, strict=True):
        cards[place] = card


def _placements(shape: MeldShape, chosen: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct way to lay the wild cards ``chosen`` into the joker places of ``shape``."""
    places = [index for index, card in enumerate(shape.cards) if card == JOKER]
    jokers = chosen.count(JOKER)
    deuces = [card for card in chosen if card != JOKER]
    if shape.kind == "group":
        joker_choices: list[tuple[int, ...]] = [tuple(places[:jokers])]
    else:
        joker_choices = list(combinations(places, jokers))
    out = []
    for joker_places in joker_choices:
        cards = list(shape.cards)
        others = [place for place in places if place not in joker_places]
        _fill(cards, shape.reading, others, deuces)
        out.append(tuple(cards))
    return out


def wild_melds(
    hand: Sequence[str], rank: str, wild_jokers: bool, distinct: bool
) -> list[MeldShape]:
    """Every distinct meld ``hand`` can lay down when cards of ``rank`` are wild."""
    masked = mask(hand, rank)
    if not wild_jokers and JOKER in hand:
        masked = tuple(card for card, real in zip(masked, hand, strict=True) if real != JOKER)
    wilds = sorted(
        (card for card in hand if is_wild(card, rank, wild_jokers)), key=SORT_KEY.__getitem__
    )
    found: list[MeldShape] = []
    for shape in enumerate_melds(masked, True, distinct):
        count = shape.cards.count(JOKER)
        if not count:
            found.append(shape)
            continue
        for chosen in dict.fromkeys(combinations(wilds, count)):
            for cards in _placements(shape, chosen):
                found.append(shape._replace(cards=cards))
    return found


def resolve_wild_meld(
    cards: tuple[str, ...],
    reading: tuple[str, ...] | None,
    rank: str,
    wild_jokers: bool,
    distinct: bool,
) -> MeldShape:
    """The meld ``cards`` make when cards of ``rank`` are wild, in canonical placement."""
    if JOKER in cards and not wild_jokers:
        raise IllegalAction("Jokers are not wild in this game, so they cannot be melded.")
    masked = mask(cards, rank)
    if all(card == JOKER for card in masked) and len(cards) >= 3:
        raise IllegalAction(
            "A meld needs at least one card that is not wild: every card of that meld is wild."
        )
    shape = resolve_meld(masked, reading, True, distinct, shown=cards)
    if JOKER not in shape.cards:
        return shape
    placed = list(shape.cards)
    places = [index for index, card in enumerate(placed) if card == JOKER]
    real_jokers = cards.count(JOKER)
    deuces = [card for card in cards if card != JOKER and card[0] == rank]
    if shape.kind == "group":
        others = places[real_jokers:]
    else:
        others = [index for index in places if cards[index] != JOKER]
    _fill(placed, shape.reading, others, deuces)
    return shape._replace(cards=tuple(placed))


def wild_accepts(
    melds: Sequence[TableMeld], rank: str, wild_jokers: bool, distinct: bool
) -> dict[str, list[LayOffSpot]]:
    """Card code -> lay-off spots, where each card of ``rank`` fits as itself or as a wild card."""
    accepts = table_accepts(melds, True, distinct)
    wild_spots = accepts.get(JOKER, [])
    if not wild_jokers:
        accepts.pop(JOKER, None)
    if not wild_spots:
        return accepts
    for suit in SUITS:
        code = rank + suit
        natural = accepts.get(code, [])
        seen = {(spot.meld, spot.reading) for spot in natural}
        merged = list(natural)
        for spot in wild_spots:
            if (spot.meld, spot.reading) not in seen:
                merged.append(spot)
        accepts[code] = merged
    return accepts


def card_spots(
    meld: TableMeld, card: str, rank: str | None, wild_jokers: bool, distinct: bool
) -> list[LayOffSpot]:
    """Every way ``card`` fits ``meld``; a card of the wild ``rank`` as itself first, then wild."""
    if card == JOKER:
        return layoff_spots(meld, card, wild_jokers, distinct)
    natural = layoff_spots(meld, card, False, distinct)
    if rank is None or card == JOKER or card[0] != rank:
        return natural
    seen = {spot.reading for spot in natural}
    return natural + [
        spot for spot in layoff_spots(meld, JOKER, True, distinct) if spot.reading not in seen
    ]
