"""Michigan Rummy [000]: scores that run during the hand, one hand per game, the "Stop" call.

Why apart: these are the only rules in which a game is a single hand and in which a discard can
be claimed just to lay it off and throw another card, with the turn then going back where it
was. The claim reuses the Rummy-call window (phase CLAIM, ``ClaimRummy`` at depth 0); what the
caller must then do is carried by two duty timings:

- ``"stop"``: lay the claimed card off (nothing else may come first);
- ``"stop_discard"``: the card is laid off; now discard one card, which ends the out-of-turn
  play, and the player after the original discarder moves next.
"""

from __future__ import annotations

from collections.abc import Sequence

from .state import HandState

STOP = "stop"
STOP_DISCARD = "stop_discard"


def stop_depths(state: HandState) -> tuple[int, ...]:
    """(0,) when the latest discard could be laid off on a meld on the table, else ()."""
    pile = state.discard
    return (0,) if pile and state.accepts().get(pile[-1]) else ()


def single_hand_outcome(
    totals: Sequence[int], hands_played: int
) -> tuple[bool, tuple[int, ...], str]:
    """(over, winners, reason): the game is over after its one hand; the highest score wins,
    and players who share it share the win (there is no further hand to break the tie)."""
    if hands_played < 1:
        return False, (), "The hand has not been played yet."
    best = max(totals)
    winners = tuple(seat for seat, total in enumerate(totals) if total == best)
    if len(winners) == 1:
        return True, winners, f"Seat {winners[0]} wins the hand with {best}."
    seats = ", ".join(map(str, winners))
    return True, winners, f"Seats {seats} share the win with {best}."
