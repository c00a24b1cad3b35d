"""Scripted hands for the bot tests: the cards where we want them, the rest of the deck fixed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from games import engine
from games.engine.melds import resolve_meld


def build_hand(
    preset: str = "standard",
    *,
    seats: int = 2,
    hands: dict[int, Sequence[str]],
    pile: Sequence[str] = (),
    melds: Sequence[tuple[int, Sequence[str]]] = (),
    stock_count: int | None = None,
    to_act: int = 0,
    **options: object,
) -> engine.HandState:
    """A hand in its DRAW phase for seat ``to_act`` with exactly these hands, pile and melds.

    Melds are (owner, cards in order). Cards not named fill the stock in a fixed order; the
    stock is cut to ``stock_count`` cards by moving the rest to the bottom of the pile.
    """
    rules = engine.make_rules(preset, **options)
    state = engine.new_hand(rules, seats, (to_act - 1) % seats, seed=1)
    named: Counter[str] = Counter()
    for cards in hands.values():
        named.update(cards)
    named.update(pile)
    for _owner, cards in melds:
        named.update(cards)
    spare = list((Counter(rules.deck(seats)) - named).elements())
    assert not (named - Counter(rules.deck(seats))), "cards named twice or not in the deck"
    new = state.copy()
    new.hands = tuple(tuple(hands.get(seat, ())) for seat in range(seats))
    table = []
    for meld_id, (owner, cards) in enumerate(melds, start=1):
        shape = resolve_meld(tuple(cards), None, rules.wild_jokers, rules.group_suits_distinct)
        table.append(engine.melds.place_meld(shape, meld_id, owner))
    new.melds = tuple(table)
    filler: list[str] = []
    if stock_count is not None and stock_count < len(spare):
        filler = spare[stock_count:]
        spare = spare[:stock_count]
    new.discard = (*filler, *pile)
    new.stock = tuple(spare)
    new.history = ()
    new._accepts = None
    new._plans = None
    return new


@pytest.fixture
def scripted() -> Callable[..., engine.HandState]:
    return build_hand
