"""Chip settlement after one multi-table hand: the PCR rule as a pure function.

No Django, no I/O: the tournament services feed it the scored hand and the balances they hold
under lock, and write the transfers it returns to the chip ledger. Keeping the arithmetic here
lets tests pin it with the seed's examples and with random hands (chips conserved, nobody
below zero) without a database.

The rule (RULINGS.md, Tournaments): the hand's winner is the highest hand score; ties go to the
higher melded score, then the lower penalty left in hand. Every other player pays the winner
``(winner's score - their score) x PCR``. A player who cannot pay in full pays what they have.
If players are still tied after both tie-breaks they share each payment equally; a chip that
does not divide goes to the first of them left of the dealer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatHand:
    """One player's part of a scored hand, and the chips they hold before settling it."""

    seat: int
    score: int
    melded: int
    in_hand: int
    chips: int


@dataclass(frozen=True)
class Transfer:
    """Chips that move from one seat to another (``amount`` > 0)."""

    payer: int
    payee: int
    amount: int
    owed: int
    """What the rule asked of the payer for this payee's share, before the short-stack cap."""


class SettlementError(ValueError):
    """The input cannot be settled (a programming error upstream, not a player's mistake)."""


def rank_key(hand: SeatHand) -> tuple[int, int, int]:
    """Higher is better: score, then melded points, then fewer points left in hand."""
    return (hand.score, hand.melded, -hand.in_hand)


def winners(hands: Sequence[SeatHand], dealer: int) -> list[int]:
    """The seats that win the hand, in order from the dealer's left (several only on a full tie)."""
    if not hands:
        raise SettlementError("A hand needs players to settle.")
    best = max(rank_key(h) for h in hands)
    tied = [h.seat for h in hands if rank_key(h) == best]
    return sorted(tied, key=lambda seat: _left_of(dealer, seat, hands))


def _left_of(dealer: int, seat: int, hands: Sequence[SeatHand]) -> int:
    """Distance clockwise from the dealer: 1 for the dealer's left, the dealer itself last."""
    size = max(max(h.seat for h in hands), dealer) + 1
    return (seat - dealer - 1) % size


def settle(hands: Sequence[SeatHand], *, pcr: int, dealer: int) -> list[Transfer]:
    """The chip transfers that settle one hand at one table.

    ``hands`` holds every player still in at the table, whatever their seat numbers.
    """
    if pcr <= 0:
        raise SettlementError("The point-chip ratio must be positive.")
    seats = [h.seat for h in hands]
    if len(set(seats)) != len(seats):
        raise SettlementError("A seat appears twice.")
    if any(h.chips < 0 for h in hands):
        raise SettlementError("A balance is negative.")
    won = winners(hands, dealer)
    by_seat = {h.seat: h for h in hands}
    top = by_seat[won[0]].score
    transfers: list[Transfer] = []
    for loser in sorted(hands, key=lambda h: _left_of(dealer, h.seat, hands)):
        if loser.seat in won:
            continue
        owed = (top - loser.score) * pcr
        paid = min(owed, loser.chips)
        if paid <= 0:
            continue
        share, odd = divmod(paid, len(won))
        owed_share, owed_odd = divmod(owed, len(won))
        for i, payee in enumerate(won):
            amount = share + (1 if i < odd else 0)
            if amount > 0:
                transfers.append(
                    Transfer(
                        payer=loser.seat,
                        payee=payee,
                        amount=amount,
                        owed=owed_share + (1 if i < owed_odd else 0),
                    )
                )
    return transfers


def apply(hands: Sequence[SeatHand], transfers: Sequence[Transfer]) -> dict[int, int]:
    """Balances per seat after the transfers (what the ledger will derive)."""
    chips = {h.seat: h.chips for h in hands}
    for t in transfers:
        chips[t.payer] -= t.amount
        chips[t.payee] += t.amount
    return chips
