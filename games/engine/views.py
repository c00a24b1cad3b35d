"""What one seat may see, and a full state rebuilt from it (for search bots).

A *leak* is any card in what a seat receives that its view does not allow it to see. The view
holds the seat's own hand, the sizes of the other hands, everything on the table, the public
history, and the cards the rules or the history make public (taken from the pile and not yet
played, or on show under discards_displayed). It never holds another hand's unknown cards, the
stock's order or, before the hand is over, the seed. ``deal_from_view`` checks the promise the
other way: from a view and a guess of the hidden cards it builds a state whose view for that
seat is the same view.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .actions import (
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
from .cards import JOKER, is_card
from .errors import FormatError, RulesError
from .events import Event
from .melds import TableMeld, meld_from_parts
from .persian import JOKER_GROUP, joker_meld_from_parts
from .rules import Rules
from .scoring import hand_result
from .state import ClaimWindow, HandEnd, HandState, Obligation, Phase, wild_rank_for

VIEW_FORMAT = 1


def known_holdings(history: Iterable[Event], num_seats: int) -> list[list[str]]:
    """Per seat, cards everyone knows are in that hand (taken from the pile, not played since).

    When a seat plays a card it may hold twice, the known copy is forgotten: what stays known
    is always part of the real hand.
    """
    known: list[list[str]] = [[] for _ in range(num_seats)]
    for event in history:
        kind = event.kind
        seat = event.seat
        if kind == "deal" and event.get("face_up"):
            for other, card in enumerate(event.get("face_up")):
                known[other].append(card)
        elif kind in ("take_discard", "claim_rummy"):
            known[seat].extend(event.get("cards"))
        elif kind == "meld":
            _forget(known[seat], event.get("cards"))
        elif kind in ("lay_off", "discard", "play_natural"):
            _forget(known[seat], (event.get("card"),))
        elif kind == "switch_joker":
            _forget(known[seat], (event.get("card"),))
            known[seat].append(JOKER)
    return known


def _forget(cards: list[str], played: Iterable[str]) -> None:
    for card in played:
        if card in cards:
            cards.remove(card)


def view(state: HandState, seat: int | None = None) -> dict[str, Any]:
    """The hand as ``seat`` may see it (None: a spectator), as JSON-ready data."""
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_seats
    ):
        raise ValueError(f"There is no seat {seat!r} at this table.")
    over = state.phase is Phase.HAND_OVER
    data: dict[str, Any] = {
        "format": VIEW_FORMAT,
        "preset": state.rules.preset,
        "rules": state.rules.to_json(),
        "seat": seat,
        "num_seats": state.num_seats,
        "dealer": state.dealer,
        "phase": state.phase.value,
        "to_act": list(state.to_act),
        "current": state.current,
        "hand_sizes": [len(hand) for hand in state.hands],
        "melds": [meld.to_json() for meld in state.melds],
        "fronts": [list(front) for front in state.fronts],
        "wild_rank": state.wild,
        "discard": list(state.discard),
        "scatter": list(state.scatter),
        "stock_count": len(state.stock),
        "totals": list(state.totals),
        "on_board": list(state.on_board),
        "obligation": None if state.obligation is None else state.obligation.to_json(),
        "locked": state.locked,
        "claim": None if state.claim is None else state.claim.to_json(),
        "resume": state.resume,
        "floating_turn": state.floating_turn,
        "refills": state.refills,
        "melded_at_refill": state.melded_at_refill,
        "last_stock_drawn": state.last_stock_drawn,
        "history": [event.to_json() for event in state.history],
        "public_cards": {
            "displayed": [list(cards) for cards in state.displayed],
            "known": known_holdings(state.history, state.num_seats),
        },
        "end": None if state.end is None else {"reason": state.end.reason, "seat": state.end.seat},
    }
    if state.rules.spec.single_hand_game:
        data["running"] = [seat_score.melded for seat_score in hand_result(state).seats]
    if seat is not None:
        data["hand"] = list(state.hands[seat])
    if over:
        data["hands"] = [list(hand) for hand in state.hands]
        data["result"] = hand_result(state).to_json()
        data["seed"] = state.seed
    return data


def view_for_seat(public: dict[str, Any], state: HandState, seat: int) -> dict[str, Any]:
    """``view(state, seat)``, given ``public``: the spectator's ``view(state)`` of the same
    state. A seat sees what a spectator sees plus its own cards, so a caller that needs
    every seat's view of one state (a browser frame for each seat after a move) copies the
    spectator's instead of walking the whole history again per seat. The result shares its
    lists with ``public``: read it, never change it."""
    if public["seat"] is not None:
        raise ValueError("A seat's view is built from the spectator's view.")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_seats:
        raise ValueError(f"There is no seat {seat!r} at this table.")
    data = {**public, "seat": seat}
    data["hand"] = list(state.hands[seat])
    return data


# Rebuilding a state from a view ---------------------------------------------------------------


def actions_from_history(history: Iterable[Event]) -> tuple[Action, ...]:
    """The moves recorded in a history (every move leaves exactly one event of its kind)."""
    actions: list[Action] = []
    for event in history:
        action = _action_of(event)
        if action is not None:
            actions.append(action)
    return tuple(actions)


def move_numbers(history: Iterable[Event]) -> list[int]:
    """Per event, the number of the move that left it (1 for the hand's first move, as
    ``Move.seq`` counts); 0 for what came before any move (the deal). Every move leaves
    exactly one event of its own kind first, so the events that follow it without one
    (a claim window, a refilled stock, the hand's end) are that move's consequences."""
    numbers: list[int] = []
    count = 0
    for event in history:
        if _action_of(event) is not None:
            count += 1
        numbers.append(count)
    return numbers


def _action_of(event: Event) -> Action | None:
    kind = event.kind
    seat = event.seat
    if kind == "draw_stock":
        return DrawStock(seat)
    if kind == "take_discard":
        return TakeDiscard(seat, event.get("depth"))
    if kind == "claim_rummy":
        return ClaimRummy(seat, event.get("depth"))
    if kind == "meld":
        cards = tuple(event.get("cards"))
        reading = tuple(event.get("reading"))
        return Meld(seat, cards, reading if reading != cards else None)
    if kind == "lay_off":
        card = event.get("card")
        read = event.get("reading")
        return LayOff(
            seat, card, event.get("meld"), read if read != card else None, event.get("ace_end")
        )
    if kind == "switch_joker":
        return SwitchJoker(seat, event.get("card"), event.get("meld"))
    if kind == "discard":
        return Discard(seat, event.get("card"))
    if kind == "pass_claim":
        return PassClaim(seat)
    if kind == "close_claims":
        return CloseClaims(-1)
    if kind == "decline_draw":
        return DeclineDraw(seat)
    if kind == "float":
        return Float(seat)
    if kind == "pass_upcard":
        return PassUpcard(seat)
    if kind == "play_natural":
        return PlayNatural(seat, event.get("card"), event.get("meld"))
    return None


def melds_from_json(
    items: Sequence[Mapping[str, Any]], wild_rank: str | None = None
) -> tuple[TableMeld, ...]:
    """Table melds from their JSON form; FormatError when one is not a meld."""
    melds = []
    for position, item in enumerate(items, start=1):
        try:
            entries = item["cards"]
            parts = (
                int(item["id"]),
                tuple(entry["card"] for entry in entries),
                tuple(entry["as"] for entry in entries),
                tuple(int(entry["owner"]) for entry in entries),
            )
            kind = str(item["kind"])
            if kind == JOKER_GROUP:
                meld = joker_meld_from_parts(*parts)
            else:
                meld = meld_from_parts(parts[0], kind, *parts[1:], wild_rank)
        except (KeyError, TypeError, ValueError) as error:
            raise FormatError(f"Meld {position} is malformed: {error}.") from error
        if meld is None or meld.id != position:
            raise FormatError(f"Meld {position} is not a valid meld.")
        melds.append(meld)
    return tuple(melds)


def deal_from_view(
    seen: Mapping[str, Any],
    sample: Mapping[int, Sequence[str]] | random.Random | None = None,
) -> HandState:
    """A full, legal state that ``seen`` (a seat's view) could be a view of.

    ``sample``: the hidden cards guessed per seat (each seat's whole hand, known cards
    included; key -1 may give the stock, top first), or a ``random.Random`` to deal the unseen
    cards at random (default: a fresh generator). The new state's seed is made up: it is
    hidden from the viewer, so a bot cannot learn the real one.
    """
    try:
        return _deal_from_view(seen, sample)
    except (KeyError, TypeError, ValueError, RulesError) as error:
        if isinstance(error, FormatError):
            raise
        raise FormatError(f"This view cannot be dealt out: {error}") from error


def _deal_from_view(
    seen: Mapping[str, Any], sample: Mapping[int, Sequence[str]] | random.Random | None
) -> HandState:
    if seen.get("format") != VIEW_FORMAT:
        raise FormatError(f"Unknown view format {seen.get('format')!r}.")
    rules = Rules.from_json(seen["rules"])
    num_seats = int(seen["num_seats"])
    seat = seen["seat"]
    sizes = [int(size) for size in seen["hand_sizes"]]
    history = tuple(Event.from_json(item) for item in seen["history"])
    wild = wild_rank_for(rules, history)
    melds = melds_from_json(seen["melds"], wild)
    fronts = tuple((int(s), str(c), int(m)) for s, c, m in seen.get("fronts", ()))
    known = known_holdings(history, num_seats)
    discard = tuple(seen["discard"])
    deck = Counter(rules.deck(num_seats))
    rng = sample if isinstance(sample, random.Random) else random.Random()
    hands: list[list[str] | None] = [None] * num_seats
    if "hands" in seen:
        hands = [list(hand) for hand in seen["hands"]]
    elif seat is not None:
        hands[seat] = list(seen["hand"])
    visible: Counter[str] = Counter(discard)
    visible.update(card for _seat, card, _meld in fronts)
    for meld in melds:
        visible.update(meld.cards)
    for other, hand in enumerate(hands):
        visible.update(hand if hand is not None else known[other])
    unseen = deck - visible
    if sum(visible.values()) + sum(unseen.values()) != sum(deck.values()) or any(
        visible[card] > deck[card] for card in visible
    ):
        raise FormatError("The view shows cards that are not in the deck.")
    pool = list(unseen.elements())
    if isinstance(sample, Mapping):
        for other, cards in sample.items():
            if other == -1 or hands[other] is not None:
                continue
            guess = list(cards)
            if not all(is_card(card) for card in guess) or len(guess) != sizes[other]:
                raise FormatError(f"The guess for seat {other} must be {sizes[other]} cards.")
            extra = Counter(guess) - Counter(known[other])
            if Counter(known[other]) - Counter(guess):
                raise FormatError(
                    f"The guess for seat {other} leaves out cards it is known to hold."
                )
            for card, count in extra.items():
                if unseen[card] < count:
                    raise FormatError(f"The guess for seat {other} uses a card that is not hidden.")
                unseen[card] -= count
            hands[other] = guess
        pool = list(unseen.elements())
        rng.shuffle(pool)
    else:
        rng.shuffle(pool)
    for other in range(num_seats):
        if hands[other] is None:
            need = sizes[other] - len(known[other])
            if need < 0 or need > len(pool):
                raise FormatError(f"Seat {other}'s hand size does not fit the unseen cards.")
            hands[other] = [*known[other], *pool[:need]]
            pool = pool[need:]
    if isinstance(sample, Mapping) and -1 in sample:
        stock = list(sample[-1])
        if Counter(stock) != Counter(pool):
            raise FormatError("The guessed stock must hold exactly the cards left over.")
        pool = stock
    if len(pool) != int(seen["stock_count"]):
        raise FormatError("The stock size does not fit the unseen cards.")
    state = object.__new__(HandState)
    state.rules = rules
    state.num_seats = num_seats
    state.dealer = int(seen["dealer"])
    state.seed = int(seen["seed"]) if "seed" in seen else rng.getrandbits(64)
    state.deck = None
    state.totals = tuple(int(total) for total in seen["totals"])
    state.on_board = tuple(bool(flag) for flag in seen["on_board"])
    state.phase = Phase(seen["phase"])
    state.to_act = tuple(int(other) for other in seen["to_act"])
    state.current = int(seen["current"])
    state.hands = tuple(tuple(hand or ()) for hand in hands)
    state.stock = tuple(pool)
    state.discard = discard
    state.scatter = tuple(int(mask) for mask in seen.get("scatter", ()))
    state.melds = melds
    state.fronts = fronts
    state.wild = wild
    duty = seen["obligation"]
    state.obligation = None if duty is None else Obligation(**duty)
    state.locked = seen["locked"]
    claim = seen["claim"]
    state.claim = (
        None
        if claim is None
        else ClaimWindow(int(claim["discarder"]), tuple(claim["depths"]), int(claim["next"]))
    )
    state.resume = seen["resume"]
    state.displayed = tuple(tuple(cards) for cards in seen["public_cards"]["displayed"])
    state.floating_turn = bool(seen["floating_turn"])
    state.refills = int(seen["refills"])
    state.melded_at_refill = int(seen["melded_at_refill"])
    state.last_stock_drawn = bool(seen["last_stock_drawn"])
    state.history = history
    state.actions = actions_from_history(history)
    end = seen["end"]
    state.end = None if end is None else HandEnd(end["reason"], int(end["seat"]))
    state._accepts = None
    state._plans = None
    return state
