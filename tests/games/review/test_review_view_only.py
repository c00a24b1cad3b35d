"""The reviewer never reads hidden state: it works from a seat's view, like the bots."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.bots import ViewError
from games.engine.views import known_holdings
from games.review import Budget, decisions_of, review_decision
from games.review.hands import review_hand

BUDGET = Budget(deals=8, confirm_deals=8)


def _swap_hidden(state: engine.HandState, seat: int, rng: random.Random) -> engine.HandState:
    """The same position as ``seat`` sees it, with every card it cannot see dealt anew."""
    known = known_holdings(state.history, state.num_seats)
    pool: list[str] = list(state.stock)
    kept: list[list[str]] = []
    for other, hand in enumerate(state.hands):
        rest = list(hand)
        stays = []
        if other != seat:
            for card in known[other]:
                rest.remove(card)
                stays.append(card)
            pool.extend(rest)
        kept.append(stays if other != seat else list(hand))
    rng.shuffle(pool)
    hands = []
    for other, hand in enumerate(state.hands):
        if other == seat:
            hands.append(tuple(hand))
            continue
        need = len(hand) - len(kept[other])
        hands.append((*kept[other], *pool[:need]))
        pool = pool[need:]
    swapped = state.copy()
    swapped.hands = tuple(hands)
    swapped.stock = tuple(pool)
    swapped._accepts = None
    swapped._plans = None
    return swapped


def test_swapping_the_hidden_cards_gives_the_same_verdicts(bot_hand):
    final = bot_hand(seed=5)
    reviewed = review_hand(final, [0], seed=2, budget=BUDGET)
    by_index = {decision["index"]: decision for decision in reviewed}
    decisions = decisions_of(final, [0])
    assert len(decisions) == len(reviewed) > 5
    changed = 0
    for index, before, action in decisions:
        swapped = _swap_hidden(before, 0, random.Random(index))
        changed += swapped.hands[1] != before.hands[1]
        assert engine.view(swapped, 0) == engine.view(before, 0)
        rng = random.Random(f"review/2/0/{index}")
        again = review_decision(engine.view(swapped, 0), action, rng, BUDGET, index)
        assert again.to_json(None, before) == by_index[index] | {
            "played_text": again.to_json(None, before)["played_text"]
        }
    assert changed > len(decisions) // 2


def test_it_refuses_a_hand_state():
    state = engine.new_hand(engine.make_rules("standard"), 2, 0, seed=1)
    with pytest.raises(ViewError, match="view"):
        review_decision(state, engine.DrawStock(1), random.Random(1))  # type: ignore[arg-type]


def test_it_refuses_a_view_that_shows_every_hand():
    state = engine.new_hand(engine.make_rules("standard"), 2, 0, seed=1)
    seen = engine.view(state, 1)
    seen["hands"] = [list(hand) for hand in state.hands]
    with pytest.raises(ViewError, match="every hand"):
        review_decision(seen, engine.DrawStock(1), random.Random(1))
