"""A whole game: who deals first, the deal passing left, totals carried from hand to hand.

Why a separate small value: the server stores a game between hands, tournaments read its
totals, and the rules for the next hand (dealer, prior totals, thirty-point flags) all come
from it. Each hand still gets its own fresh seed from ``secrets``: nothing about one hand's
cards can be learned from another's seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from .cards import JOKER, RANK_INDEX
from .errors import IllegalAction, RulesError
from .rules import Rules
from .scoring import GameOutcome, game_outcome, hand_result, settle_game
from .state import HandState, Phase, new_hand


def next_dealer(rules: Rules, dealer: int, num_seats: int) -> int:
    """The deal passes one seat to the left (clockwise) after every hand."""
    del rules  # every preset so far passes the deal to the left
    return (dealer + 1) % num_seats


@dataclass(frozen=True)
class DealerDraw:
    """The shown draw for first dealer: each round's (seat, card) pairs and the dealer."""

    rounds: tuple[tuple[tuple[int, str], ...], ...]
    dealer: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": [[[seat, card] for seat, card in round_] for round_ in self.rounds],
            "dealer": self.dealer,
            "seed": self.seed,
        }


def first_dealer_draw(rules: Rules, num_seats: int, seed: int | None = None) -> DealerDraw:
    """Each seat draws a card from a shuffled deck; lowest deals (ace low); ties draw again.

    A joker drawn is put aside and the seat draws again in the same round, except where the
    preset counts a joker lowest (oklahoma-jokers).
    """
    rules.validate_players(num_seats)
    if seed is None:
        import secrets

        seed = secrets.randbits(64)
    deck = list(rules.deck(num_seats))
    random.Random(f"{seed}/first-dealer").shuffle(deck)
    drawing = list(range(num_seats))
    rounds: list[tuple[tuple[int, str], ...]] = []
    joker_lowest = rules.spec.joker_lowest_in_draw

    def rank(card: str) -> int:
        return 0 if card == JOKER else RANK_INDEX[card[0]]

    while True:
        drawn: list[tuple[int, str]] = []
        for seat in drawing:
            card = deck.pop()
            while card == JOKER and not joker_lowest:
                card = deck.pop()
            drawn.append((seat, card))
        rounds.append(tuple(drawn))
        lowest = min(rank(card) for _seat, card in drawn)
        drawing = [seat for seat, card in drawn if rank(card) == lowest]
        if len(drawing) == 1:
            return DealerDraw(tuple(rounds), drawing[0], seed)


@dataclass(frozen=True)
class GameState:
    """Between hands: the dealer of the next hand, the totals and who is on the board."""

    rules: Rules
    num_seats: int
    dealer: int
    totals: tuple[int, ...]
    on_board: tuple[bool, ...]
    hands_played: int = 0
    scores: tuple[tuple[int, ...], ...] = ()
    """Each finished hand's counted scores, in order."""
    excluded: tuple[int, ...] = ()
    """Per seat, points in the totals that do not count toward the target (oklahoma)."""

    @property
    def outcome(self) -> GameOutcome:
        return game_outcome(
            self.rules,
            self.totals,
            hands_played=self.hands_played,
            excluded=self.excluded or None,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "num_seats": self.num_seats,
            "dealer": self.dealer,
            "totals": list(self.totals),
            "on_board": list(self.on_board),
            "hands_played": self.hands_played,
            "scores": [list(scores) for scores in self.scores],
            "excluded": list(self.excluded),
        }


def new_game(rules: Rules, num_seats: int, dealer: int) -> GameState:
    """A game with zero totals; ``dealer`` deals the first hand (see ``first_dealer_draw``)."""
    rules.validate_players(num_seats)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < num_seats:
        raise RulesError(f"The dealer must be a seat from 0 to {num_seats - 1}.")
    return GameState(rules, num_seats, dealer, (0,) * num_seats, (False,) * num_seats)


def start_hand(
    game: GameState, seed: int | None = None, deck: tuple[str, ...] | None = None
) -> HandState:
    """The game's next hand, with a fresh seed from ``secrets`` unless one is given."""
    if game.outcome.over:
        raise IllegalAction("The game is over: no more hands are dealt.")
    return new_hand(
        game.rules, game.num_seats, game.dealer, game.totals, seed, deck, on_board=game.on_board
    )


def finish_hand(game: GameState, hand: HandState) -> GameState:
    """The game after ``hand``: new totals and flags, and the deal passed to the left."""
    if hand.phase is not Phase.HAND_OVER:
        raise IllegalAction("The hand is still being played.")
    if (
        hand.rules != game.rules
        or hand.num_seats != game.num_seats
        or hand.dealer != game.dealer
        or hand.totals != game.totals
    ):
        raise IllegalAction("That hand does not belong to this game's next deal.")
    result = hand_result(hand)
    excluded = tuple(
        before + now
        for before, now in zip(game.excluded or (0,) * game.num_seats, result.excluded, strict=True)
    )
    _outcome, totals = settle_game(game.rules, result.totals, excluded)
    return replace(
        game,
        dealer=next_dealer(game.rules, game.dealer, game.num_seats),
        totals=totals,
        excluded=excluded if any(excluded) else game.excluded,
        on_board=result.on_board,
        hands_played=game.hands_played + 1,
        scores=(*game.scores, tuple(seat.counted for seat in result.seats)),
    )
