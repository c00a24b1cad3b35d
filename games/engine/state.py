"""The state of one hand, and dealing a new one.

Why a slotted class copied on every move rather than a frozen dataclass: ``apply`` makes a new
state for each move and bots make thousands, so the copy must be cheap (a shallow copy of about
thirty references; the tuples inside are shared). Treat a state as immutable: the engine never
changes a state it has handed out, and nothing else should either.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, NamedTuple

from .actions import Action
from .cards import card_label, is_card, sort_cards
from .errors import RulesError
from .events import Event
from .melds import LayOffSpot, TableMeld, table_accepts
from .persian import persian_accepts
from .rules import Rules
from .wilds import wild_accepts


class Phase(StrEnum):
    """The step of the hand: who may do what."""

    DRAW = "draw"
    """The player to move takes from the stock or the pile."""
    PLAY = "play"
    """The player melds, lays off, switches jokers, and ends with a discard."""
    CLAIM = "claim"
    """After a discard: the other players may call Rummy (option rummy_call)."""
    HAND_OVER = "hand_over"
    """Nobody may move; the hand is scored."""
    OFFER = "offer"
    """Oklahoma: the first up-card is offered around the table, one seat at a time."""


class Obligation(NamedTuple):
    """A card taken from the pile that must still be used, and how."""

    card: str
    seat: int
    timing: str
    """"next_play" (the very next play), "this_turn" (before the discard) or "lay_off" (a
    Rummy call under rummy_last_discard_only: lay it off and the turn ends); michigan's Stop
    call: "stop" (lay it off) then "stop_discard" (discard one card)."""
    new_meld_only: bool
    source: str
    """"pile" or "claim"."""

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "seat": self.seat,
            "timing": self.timing,
            "new_meld_only": self.new_meld_only,
            "source": self.source,
        }

    def text(self) -> str:
        """The duty in words, for the player who carries it."""
        card = card_label(self.card)
        if self.timing == "lay_off":
            return f"You called Rummy on the {card}: lay it off on a meld."
        if self.timing == "stop":
            return f"You called Stop on the {card}: lay it off on a meld, then discard a card."
        if self.timing == "stop_discard":
            return "You called Stop: discard a card to end your play."
        how = "in a new meld" if self.new_meld_only else "in a meld or as a lay-off"
        when = "with your next play" if self.timing == "next_play" else "before you discard"
        return f"You took the {card} from the pile: use it {how} {when}."


class ClaimWindow(NamedTuple):
    """An open Rummy-call window after ``discarder``'s discard."""

    discarder: int
    depths: tuple[int, ...]
    next_seat: int
    """Who draws next if nobody claims."""

    def to_json(self) -> dict[str, Any]:
        return {"discarder": self.discarder, "depths": list(self.depths), "next": self.next_seat}


class HandEnd(NamedTuple):
    """Why the hand ended: "went_out", "declined", "cannot_draw" or "last_stock_card"."""

    reason: str
    seat: int


_FIELDS = (
    "rules",
    "num_seats",
    "dealer",
    "seed",
    "deck",
    "totals",
    "on_board",
    "phase",
    "to_act",
    "current",
    "hands",
    "stock",
    "discard",
    "scatter",
    "melds",
    "fronts",
    "obligation",
    "locked",
    "claim",
    "resume",
    "displayed",
    "floating_turn",
    "refills",
    "melded_at_refill",
    "last_stock_drawn",
    "history",
    "actions",
    "end",
)


class HandState:
    """One hand: every card's place, whose move and what they owe, and what happened.

    Fields: ``rules``; ``num_seats``; ``dealer``; ``seed`` (the shuffle's seed, secret until
    the hand is over); ``deck`` (the explicit deal order when one was given, else None);
    ``totals`` and ``on_board`` (game totals before this hand, and the thirty-point flags);
    ``phase``; ``to_act`` (the seat to move, the seats that may call Rummy, or empty);
    ``current`` (whose turn it is; during a claim window the discarder); ``hands``; ``stock``
    (top card first); ``discard`` (bottom to top); ``scatter`` (throw-down: per pile card, the
    bit mask of earlier pile cards it lies over; empty for a stacked pile); ``melds``
    (``TableMeld``, id = index + 1); ``fronts`` (five-thousand: (seat, card, meld id) for each
    natural card played in front of a seat for a wild card in that meld);
    ``obligation``; ``locked`` (a lone top card taken this turn, which may not be discarded);
    ``claim`` (the open claim window); ``resume`` (who moves after an out-of-turn Rummy turn);
    ``displayed`` (per seat, cards on show under discards_displayed); ``floating_turn`` (the
    mover began this turn with an empty hand); ``refills`` and ``melded_at_refill`` (for
    stock_refill); ``last_stock_drawn`` (rummy-school: the hand ends with this turn);
    ``history`` (public events); ``actions`` (every move applied); ``end`` (why it ended).
    """

    __slots__ = (*_FIELDS, "wild", "_accepts", "_plans")

    rules: Rules
    num_seats: int
    dealer: int
    seed: int
    deck: tuple[str, ...] | None
    totals: tuple[int, ...]
    on_board: tuple[bool, ...]
    phase: Phase
    to_act: tuple[int, ...]
    current: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    discard: tuple[str, ...]
    scatter: tuple[int, ...]
    melds: tuple[TableMeld, ...]
    fronts: tuple[tuple[int, str, int], ...]
    obligation: Obligation | None
    locked: str | None
    claim: ClaimWindow | None
    resume: int | None
    displayed: tuple[tuple[str, ...], ...]
    floating_turn: bool
    refills: int
    melded_at_refill: int
    last_stock_drawn: bool
    history: tuple[Event, ...]
    actions: tuple[Action, ...]
    end: HandEnd | None
    wild: str | None
    """The rank whose cards are wild this hand (derived from the rules and the deal)."""
    _accepts: dict[str, list[LayOffSpot]] | None
    _plans: dict[int, dict[Any, Any]] | None

    def copy(self) -> HandState:
        """A shallow copy for the next state (caches that depend on the move are dropped)."""
        new = object.__new__(HandState)
        new.rules = self.rules
        new.num_seats = self.num_seats
        new.dealer = self.dealer
        new.seed = self.seed
        new.deck = self.deck
        new.totals = self.totals
        new.on_board = self.on_board
        new.phase = self.phase
        new.to_act = self.to_act
        new.current = self.current
        new.hands = self.hands
        new.stock = self.stock
        new.discard = self.discard
        new.scatter = self.scatter
        new.melds = self.melds
        new.fronts = self.fronts
        new.obligation = self.obligation
        new.locked = self.locked
        new.claim = self.claim
        new.resume = self.resume
        new.displayed = self.displayed
        new.floating_turn = self.floating_turn
        new.refills = self.refills
        new.melded_at_refill = self.melded_at_refill
        new.last_stock_drawn = self.last_stock_drawn
        new.history = self.history
        new.actions = self.actions
        new.end = self.end
        new.wild = self.wild
        new._accepts = self._accepts
        new._plans = None
        return new

    def accepts(self) -> dict[str, list[LayOffSpot]]:
        """Card code -> where it can be laid off now (computed once per table layout)."""
        accepts = self._accepts
        if accepts is None:
            rules = self.rules
            if rules.persian_melds:
                accepts = persian_accepts(self.melds, rules.group_suits_distinct)
            elif self.wild is None:
                accepts = table_accepts(self.melds, rules.wild_jokers, rules.group_suits_distinct)
            else:
                accepts = wild_accepts(
                    self.melds, self.wild, rules.wild_jokers, rules.group_suits_distinct
                )
            self._accepts = accepts
        return accepts

    def cards_on_table(self) -> int:
        """How many cards lie in melds."""
        return sum(len(meld.cards) for meld in self.melds)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.HAND_OVER

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<HandState {self.rules.preset} seats={self.num_seats} phase={self.phase.value} "
            f"to_act={self.to_act} stock={len(self.stock)} pile={len(self.discard)} "
            f"melds={len(self.melds)}>"
        )


def _check_setup(
    rules: Rules,
    num_seats: int,
    dealer: int,
    totals: Sequence[int] | None,
    on_board: Sequence[bool] | None,
) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    if not isinstance(rules, Rules):
        raise RulesError("new_hand needs a Rules object (see make_rules).")
    rules.validate_players(num_seats)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < num_seats:
        raise RulesError(f"The dealer must be a seat from 0 to {num_seats - 1}, not {dealer!r}.")
    if totals is None:
        totals = (0,) * num_seats
    totals = tuple(totals)
    if len(totals) != num_seats or any(
        isinstance(total, bool) or not isinstance(total, int) for total in totals
    ):
        raise RulesError(f"Totals must be {num_seats} whole numbers, one per seat.")
    if on_board is None:
        on_board = tuple(total != 0 for total in totals)
    on_board = tuple(on_board)
    if len(on_board) != num_seats or any(not isinstance(flag, bool) for flag in on_board):
        raise RulesError(f"on_board must be {num_seats} true/false flags, one per seat.")
    return totals, on_board


FACE_UP_COUNTS = {"A": 11, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}
"""five-thousand: how many more cards the face-up first card of a deal brings."""


def face_up_count(card: str) -> int:
    """How many cards follow the face-up ``card`` (2-9: that many, 10-K: 10, ace: 11)."""
    return FACE_UP_COUNTS[card[0]]


def wild_rank_for(rules: Rules, history: Sequence[Event]) -> str | None:
    """The wild rank of a hand: the preset's, or (five-thousand) the dealer's face-up rank."""
    if rules.spec.wild_rank == "dealer":
        if history and history[0].kind == "deal":
            rank = history[0].get("wild_rank")
            return rank if isinstance(rank, str) else None
        return None
    return rules.wild_rank


def shuffled_deck(rules: Rules, num_seats: int, seed: int) -> list[str]:
    """The deck for a hand, shuffled by a generator seeded with the hand's own seed."""
    deck = list(rules.deck(num_seats))
    random.Random(seed).shuffle(deck)
    return deck


def new_hand(
    rules: Rules,
    num_seats: int,
    dealer: int,
    totals: Sequence[int] | None = None,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
    on_board: Sequence[bool] | None = None,
) -> HandState:
    """Shuffle (or take ``deck``), deal, turn the up-card and give the move to dealer's left.

    ``seed``: the hand's own seed; when None a fresh one comes from ``secrets`` (never derive it
    from another hand's or the game's seed). ``deck``: an explicit order for tests, ``deck[0]``
    dealt first: one card at a time clockwise from the dealer's left, then the up-card, then
    the stock (top first). ``on_board``: the thirty-point flags (default: a nonzero total).
    """
    totals_t, on_board_t = _check_setup(rules, num_seats, dealer, totals, on_board)
    if seed is None:
        seed = secrets.randbits(64)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise RulesError(f"A hand's seed is a whole number, not {seed!r}.")
    explicit: tuple[str, ...] | None = None
    if deck is None:
        order = shuffled_deck(rules, num_seats, seed)
    else:
        order = list(deck)
        expected = Counter(rules.deck(num_seats))
        if not all(is_card(card) for card in order) or Counter(order) != expected:
            raise RulesError(
                f"An explicit deck must hold exactly the {sum(expected.values())} cards of the "
                f"{rules.preset} deck for {num_seats} players."
            )
        explicit = tuple(order)
    size = rules.deal_size(num_seats)
    hands: list[list[str]] = [[] for _ in range(num_seats)]
    position = 0
    details: tuple[tuple[str, Any], ...] = ()
    if rules.spec.deal_face_up_count:
        by_seat = [""] * num_seats
        for offset in range(1, num_seats + 1):
            receiver = (dealer + offset) % num_seats
            shown = order[position]
            count = 1 + face_up_count(shown)
            hands[receiver] = list(order[position : position + count])
            position += count
            by_seat[receiver] = shown
        details = (("face_up", tuple(by_seat)), ("wild_rank", by_seat[dealer][0]))
        size = 0
    else:
        for _ in range(size):
            for offset in range(1, num_seats + 1):
                hands[(dealer + offset) % num_seats].append(order[position])
                position += 1
    upcard = order[position]
    first = (dealer + 1) % num_seats
    state = object.__new__(HandState)
    state.rules = rules
    state.num_seats = num_seats
    state.dealer = dealer
    state.seed = seed
    state.deck = explicit
    state.totals = totals_t
    state.on_board = on_board_t
    state.phase = Phase.OFFER if rules.spec.upcard_offered else Phase.DRAW
    state.to_act = (first,)
    state.current = first
    state.hands = tuple(tuple(hand) for hand in hands)
    state.stock = tuple(order[position + 1 :])
    state.discard = (upcard,)
    state.scatter = (0,) if rules.scattered else ()
    state.melds = ()
    state.fronts = ()
    state.obligation = None
    state.locked = None
    state.claim = None
    state.resume = None
    state.displayed = ((),) * num_seats
    state.floating_turn = False
    state.refills = 0
    state.melded_at_refill = 0
    state.last_stock_drawn = False
    state.history = (
        Event(
            "deal",
            dealer,
            (("cards_each", size), ("upcard", upcard), ("first", first), *details),
        ),
    )
    state.actions = ()
    state.end = None
    state.wild = wild_rank_for(rules, state.history)
    state._accepts = None
    state._plans = None
    return state


def stack_deck(
    rules: Rules,
    num_seats: int,
    dealer: int,
    hands: dict[int, Sequence[str]] | None = None,
    upcard: str | None = None,
    stock: Sequence[str] = (),
) -> tuple[str, ...]:
    """A deck order that deals the given hands, up-card and top of stock (for tests).

    Seats and cards not given are filled from the rest of the deck in a fixed order, so the
    result is deterministic. Raises RulesError when the cards are not in the deck.
    """
    rules.validate_players(num_seats)
    size = rules.deal_size(num_seats)
    remaining = Counter(rules.deck(num_seats))
    wanted: list[str] = []
    hands = hands or {}
    face_up = rules.spec.deal_face_up_count
    for seat, cards in hands.items():
        if face_up and (not cards or len(cards) != 1 + face_up_count(cards[0])):
            raise RulesError(f"Seat {seat}'s hand must be its face-up card and what it brings.")
        if not face_up and len(cards) > size:
            raise RulesError(f"Seat {seat} can be dealt at most {size} cards.")
        wanted.extend(cards)
    if upcard is not None:
        wanted.append(upcard)
    wanted.extend(stock)
    need = Counter(wanted)
    for card, count in need.items():
        if remaining[card] < count:
            raise RulesError(f"The deck does not hold {count} x {card_label(card)}.")
    remaining.subtract(need)
    filler = iter(sort_cards(remaining.elements()))
    if face_up:
        order: list[str] = []
        for offset in range(1, num_seats + 1):
            seat = (dealer + offset) % num_seats
            if seat in hands:
                order.extend(hands[seat])
            else:
                first = next(filler)
                order.extend([first, *(next(filler) for _ in range(face_up_count(first)))])
        order.append(upcard if upcard is not None else next(filler))
        order.extend(stock)
        order.extend(filler)
        return tuple(order)
    seat_cards = {
        seat: list(hands.get(seat, ()))
        + [next(filler) for _ in range(size - len(hands.get(seat, ())))]
        for seat in range(num_seats)
    }
    order = []
    for index in range(size):
        for offset in range(1, num_seats + 1):
            order.append(seat_cards[(dealer + offset) % num_seats][index])
    order.append(upcard if upcard is not None else next(filler))
    order.extend(stock)
    order.extend(filler)
    return tuple(order)
