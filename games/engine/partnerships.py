"""Partnerships (persian): who plays with whom, the draw that decides it, and the side's score.

Why apart from ``scoring``: every other preset scores seat by seat. Persian pools partners'
hands into one side score, pays a bonus for going out and one for winning the game, and seats
the partners opposite each other after a shown draw. Keeping that here leaves the per-seat
scoring untouched for the rest and gives the partnership rules one place to be read.

Seats: the preset's ``partnerships`` are ``((0, 2), (1, 3))``, so partners sit opposite and
turns alternate between the sides.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import JOKER, RANK_INDEX
from .events import Event
from .rules import Rules


def side_of(rules: Rules, seat: int) -> tuple[int, ...]:
    """The seats of ``seat``'s side (itself alone when the preset has no partnerships)."""
    for side in rules.spec.partnerships:
        if seat in side:
            return side
    return (seat,)


def _draw_rank(card: str, aces_low: bool) -> int:
    if card[0] == "A" and not aces_low:
        return 14
    return RANK_INDEX[card[0]]


@dataclass(frozen=True)
class PartnershipDraw:
    """The shown draw for partners and first dealer.

    ``rounds``: each round's (player, card) pairs, players numbered by their seat before the
    draw; ``order[new_seat]`` is the player who sits there after it (the two highest cards at
    seats 0 and 2, the two lowest at 1 and 3); ``dealer`` is the new seat of the lowest card.
    """

    rounds: tuple[tuple[tuple[int, str], ...], ...]
    order: tuple[int, ...]
    dealer: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "rounds": [[[seat, card] for seat, card in round_] for round_ in self.rounds],
            "order": list(self.order),
            "dealer": self.dealer,
            "seed": self.seed,
        }

    def seated_rounds(self) -> list[list[list[Any]]]:
        """The rounds with each player named by the seat they take after the draw."""
        new_seat = {player: seat for seat, player in enumerate(self.order)}
        return [[[new_seat[player], card] for player, card in round_] for round_ in self.rounds]


def partnership_draw(rules: Rules, num_seats: int, seed: int | None = None) -> PartnershipDraw:
    """Each player draws a card; the two highest play against the two lowest [000].

    Jokers are put aside and drawn again; aces rank as the preset ranks them (high in persian).
    Players whose tie decides who partners whom, or who deals (the lowest card), draw again.
    """
    rules.validate_players(num_seats)
    if seed is None:
        seed = secrets.randbits(64)
    deck = [card for card in rules.deck(num_seats) if card != JOKER]
    random.Random(f"{seed}/partners").shuffle(deck)
    aces_low = rules.spec.aces_low
    rank: dict[int, tuple[int, ...]] = {player: () for player in range(num_seats)}
    rounds: list[tuple[tuple[int, str], ...]] = []
    drawing = list(range(num_seats))
    while drawing:
        if len(deck) < len(drawing):  # a very long run of ties: shuffle a fresh pack in
            fresh = [card for card in rules.deck(num_seats) if card != JOKER]
            random.Random(f"{seed}/partners/{len(rounds)}").shuffle(fresh)
            deck = fresh + deck
        drawn = tuple((player, deck.pop()) for player in drawing)
        rounds.append(drawn)
        for player, card in drawn:
            rank[player] = (*rank[player], _draw_rank(card, aces_low))
        ordered = sorted(range(num_seats), key=lambda player: rank[player])
        half = num_seats // 2
        redraw: set[int] = set()
        lowest = [player for player in ordered if rank[player] == rank[ordered[0]]]
        if len(lowest) > 1:
            redraw.update(lowest)
        border = rank[ordered[half]]
        if rank[ordered[half - 1]] == border:
            redraw.update(player for player in ordered if rank[player] == border)
        drawing = sorted(redraw)
    ordered = sorted(range(num_seats), key=lambda player: rank[player], reverse=True)
    half = num_seats // 2
    high = sorted(ordered[:half])
    low = sorted(ordered[half:])
    order = tuple(player for pair in zip(high, low, strict=True) for player in pair)
    dealer = order.index(ordered[-1])
    return PartnershipDraw(tuple(rounds), order, dealer, seed)


@dataclass(frozen=True)
class SideScore:
    """One partnership's hand: the partners' scores pooled, and the side's game total."""

    seats: tuple[int, ...]
    score: int
    """The partners' hand scores added, bonus for going out included."""
    game_bonus: int
    total_before: int
    total_after: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": list(self.seats),
            "score": self.score,
            "game_bonus": self.game_bonus,
            "total_before": self.total_before,
            "total_after": self.total_after,
        }


def doubled_melds(history: Sequence[Event]) -> frozenset[int]:
    """Ids of the groups of exactly four melded in one go (they score double in persian)."""
    return frozenset(
        int(event.get("meld"))
        for event in history
        if event.kind == "meld"
        and event.get("meld_kind") in ("group", "jokers")
        and len(event.get("cards")) == 4
    )


def side_scores(
    rules: Rules, totals: Sequence[int], counted: Sequence[int], final: bool
) -> tuple[SideScore, ...]:
    """Each side's pooled hand score and total; a finished hand that ends the game adds the
    game bonus to the winning side (Persian: 50 for the side at or above the target, the
    higher side when both are)."""
    sides = rules.spec.partnerships
    scores = [sum(counted[seat] for seat in side) for side in sides]
    after = [totals[side[0]] + score for side, score in zip(sides, scores, strict=True)]
    bonus = [0] * len(sides)
    if final and rules.spec.game_bonus:
        best = max(after)
        if best >= rules.target and after.count(best) == 1:
            bonus[after.index(best)] = rules.spec.game_bonus
    return tuple(
        SideScore(side, scores[index], bonus[index], totals[side[0]], after[index] + bonus[index])
        for index, side in enumerate(sides)
    )


def side_outcome(rules: Rules, totals: Sequence[int]) -> tuple[bool, tuple[int, ...], str]:
    """(over, winning seats, reason): sides compare their totals like players do."""
    sides = rules.spec.partnerships
    side_totals = [totals[side[0]] for side in sides]
    best = max(side_totals)
    if best < rules.target:
        return False, (), f"No side has reached {rules.target} yet."
    leaders = [side for side, total in zip(sides, side_totals, strict=True) if total == best]
    if len(leaders) > 1:
        return False, (), f"The sides tie at {best}: another hand."
    side = leaders[0]
    names = " and ".join(f"seat {seat}" for seat in side)
    return True, side, f"The side of {names} wins with {best}."
