"""Shared helpers for the engine tests: arrange a table, play moves, play at random.

``arrange`` builds a mid-hand state from the cards each place should hold and passes it
through ``state_from_json``, so every arranged table is checked for conservation and meld
validity exactly like a stored hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from games.engine import (
    Action,
    HandState,
    Phase,
    apply,
    legal_actions,
    make_rules,
    new_hand,
    sort_cards,
    state_from_json,
    state_to_json,
)
from games.engine.melds import resolve_meld
from games.engine.wilds import resolve_wild_meld

MeldSpec = tuple[int, str] | tuple[int, str, str]


def cards(text: str) -> list[str]:
    """ "5H 6H 7H" -> ["5H", "6H", "7H"]."""
    return text.split()


def arrange(
    preset: str = "standard",
    num_seats: int = 4,
    *,
    hands: dict[int, str] | None = None,
    melds: Sequence[MeldSpec] = (),
    discard: str = "",
    stock: str | None = None,
    to_move: int = 1,
    phase: str = "draw",
    dealer: int | None = None,
    totals: Sequence[int] | None = None,
    on_board: Sequence[bool] | None = None,
    filler: int | None = None,
    exact_stock: bool = False,
    extra: dict[str, Any] | None = None,
    wild_rank: str | None = None,
    **options: Any,
) -> HandState:
    """A state with these hands, melds (owner, cards[, reading]), pile (bottom first) and stock.

    Seats without a given hand get ``filler`` cards (default: the deal size) from the rest of
    the deck; ``stock`` lists the top of the stock (the rest follows in a fixed order). With
    ``exact_stock`` (or ``stock=""``) the stock is exactly ``stock`` and the leftover cards go
    to the bottom of the pile. ``extra`` overrides stored fields (e.g. refill counters).
    ``wild_rank``: five-thousand's wild rank for the hand (the dealer's face-up rank).
    """
    rules = make_rules(preset, **options)
    dealer = (to_move - 1) % num_seats if dealer is None else dealer
    base = new_hand(rules, num_seats, dealer, totals=totals, on_board=on_board, seed=7)
    data = state_to_json(base)
    hands = hands or {}
    wanted: Counter[str] = Counter()
    for text in hands.values():
        wanted.update(cards(text))
    deal_event = dict(data["history"][0])
    if rules.spec.deal_face_up_count:
        deal_event.pop("face_up", None)
        if wild_rank is not None:
            deal_event["wild_rank"] = wild_rank
    wild = deal_event.get("wild_rank") if rules.spec.wild_rank == "dealer" else rules.wild_rank
    meld_items = []
    for number, spec in enumerate(melds, start=1):
        owner, meld_text = spec[0], spec[1]
        reading = tuple(cards(spec[2])) if len(spec) == 3 else None  # type: ignore[misc]
        if wild is None:
            shape = resolve_meld(
                tuple(cards(meld_text)), reading, rules.wild_jokers, rules.group_suits_distinct
            )
        else:
            shape = resolve_wild_meld(
                tuple(cards(meld_text)),
                reading,
                wild,
                rules.wild_jokers,
                rules.group_suits_distinct,
            )
        wanted.update(shape.cards)
        meld_items.append(
            {
                "id": number,
                "kind": shape.kind,
                "cards": [
                    {"card": card, "as": read, "owner": owner}
                    for card, read in zip(shape.cards, shape.reading, strict=True)
                ],
            }
        )
    pile = cards(discard)
    top_of_stock = cards(stock) if stock else []
    wanted.update(pile)
    wanted.update(top_of_stock)
    rest = Counter(rules.deck(num_seats))
    rest.subtract(wanted)
    if any(count < 0 for count in rest.values()):
        raise ValueError(f"arrange: more copies than the deck holds: {-rest}")
    spare = sort_cards(rest.elements())
    size = rules.deal_size(num_seats) if filler is None else filler
    seat_hands = []
    for seat in range(num_seats):
        if seat in hands:
            seat_hands.append(cards(hands[seat]))
        else:
            seat_hands.append(spare[:size])
            spare = spare[size:]
    if stock == "" or exact_stock:
        pile = spare + pile
        spare = []
    data.update(
        hands=seat_hands,
        melds=meld_items,
        discard=pile,
        stock=top_of_stock + spare,
        phase=phase,
        to_act=[to_move],
        current=to_move,
        history=[deal_event],
        actions=[],
    )
    if rules.scattered:
        data["scatter"] = [0] * len(pile)  # throw-down: nothing lies over anything (see extra)
    data.update(extra or {})
    return state_from_json(data)


def play(state: HandState, *actions: Action) -> HandState:
    """Apply moves in order; the final state."""
    for action in actions:
        state, _events = apply(state, action)
    return state


def movers(state: HandState) -> list[int]:
    """Seats that may move now (with -1, the clock, during a claim window)."""
    seats = list(state.to_act)
    if state.phase is Phase.CLAIM:
        seats.append(-1)
    return seats


def random_states(
    preset: str, num_seats: int, seed: int, max_steps: int = 3000, **options: Any
) -> Iterator[tuple[HandState, Action | None]]:
    """Yield (state, move about to be made) through one hand of random legal play."""
    rules = make_rules(preset, **options)
    chooser = random.Random(seed)
    state = new_hand(rules, num_seats, seed % num_seats, seed=chooser.getrandbits(64))
    for _ in range(max_steps):
        if state.phase is Phase.HAND_OVER:
            yield state, None
            return
        seat = chooser.choice(movers(state))
        options_now = legal_actions(state, seat)
        action = chooser.choice(options_now)
        yield state, action
        state, _events = apply(state, action)
    raise AssertionError(f"hand did not end within {max_steps} moves")


def play_out(preset: str, num_seats: int, seed: int, **options: Any) -> HandState:
    """The final state of one hand of random legal play."""
    final = None
    for state, action in random_states(preset, num_seats, seed, **options):
        if action is None:
            final = state
    assert final is not None
    return final


def all_cards(state: HandState) -> Counter[str]:
    """Every card in stock, pile, hands and melds."""
    counted: Counter[str] = Counter(state.stock)
    counted.update(state.discard)
    for hand in state.hands:
        counted.update(hand)
    for meld in state.melds:
        counted.update(meld.cards)
    counted.update(card for _seat, card, _meld in state.fronts)
    return counted


def kinds(events: Iterable[Any]) -> list[str]:
    return [event.kind for event in events]
