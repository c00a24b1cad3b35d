"""Finished bot hands and scripted positions for the review tests."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from games import engine
from games.bots import choose_action
from games.engine.events import Event


def bot_hand(preset: str = "standard", seats: int = 2, seed: int = 3) -> engine.HandState:
    """One hand played to its end by medium bots (deterministic for ``seed``)."""
    rules = engine.make_rules(preset)
    state = engine.new_hand(rules, seats, 0, seed=seed)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(seats)]
    while state.phase is not engine.Phase.HAND_OVER:
        seat = state.to_act[0]
        legal = engine.legal_actions(state, seat)
        action = choose_action("medium", engine.view(state, seat), legal, rngs[seat])
        state, _events = engine.apply(state, action)
    return state


def scripted(
    *,
    hands: dict[int, Sequence[str]],
    pile: Sequence[str],
    known: dict[int, Sequence[str]] | None = None,
    seats: int = 2,
    preset: str = "standard",
) -> engine.HandState:
    """Seat 0 to draw with exactly these hands and pile; ``known[s]``: cards seat ``s`` is
    known to hold (it took them from the pile earlier, as the history says)."""
    rules = engine.make_rules(preset)
    state = engine.new_hand(rules, seats, seats - 1, seed=1)
    named: Counter[str] = Counter(pile)
    for cards in hands.values():
        named.update(cards)
    spare = list((Counter(rules.deck(seats)) - named).elements())
    new = state.copy()
    new.hands = tuple(tuple(hands[seat]) for seat in range(seats))
    new.discard = tuple(pile)
    new.stock = tuple(spare)
    new.history = tuple(
        Event("take_discard", seat, (("depth", 0), ("cards", tuple(cards))))
        for seat, cards in (known or {}).items()
    )
    new._accepts = None
    new._plans = None
    return new


@pytest.fixture(name="bot_hand")
def bot_hand_fixture():
    return bot_hand


@pytest.fixture(name="scripted")
def scripted_fixture():
    return scripted
