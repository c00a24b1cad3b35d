"""Ruling 18's "unless it lets you go out": can a turn still end with the hand gone?

A meld, lay-off or switch that would leave a player holding only the lone top card they kept
(which may not be discarded this turn) is allowed only when the cards left can all be played
this turn in a way that ends the hand legally under the table's options: laid off or switched
and then discarded (``boathouse`` demands that last discard), or laid down to float
(``floating``). The answer is found by playing the turn on: the plays after such a move are
few (one card is left), so trying them all is exact and cheap, and it uses the very checks that
``legal_actions`` uses, so the list of legal moves after the play still holds the way out.

Why the imports of ``moves`` and ``transitions`` sit inside the functions: both modules import
``validation``, which asks this module, so a top-level import would be circular.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .action_cache import cached, layoff_action, meld_action
from .actions import Action, Discard, Float, PlayNatural, SwitchJoker
from .state import HandState, Phase


def play_lets_you_go_out(
    state: HandState, seat: int, kind: str, detail: Any, used: Sequence[str]
) -> bool:
    """True when ``seat`` can still go out this turn after this meld / lay-off / switch."""
    from .transitions import EXECUTORS

    action = _play_action(seat, kind, detail, used)
    after = EXECUTORS[type(action)](state, action, detail, [])
    return can_go_out_this_turn(after, seat)


def can_go_out_this_turn(state: HandState, seat: int) -> bool:
    """True when ``seat``, in the middle of its turn, can play out its hand legally now.

    Going out: the hand ends with ``seat`` out (its last card melded, laid off or discarded),
    or, with ``floating``, the hand is empty and the turn ends with a float.
    """
    if state.phase is Phase.HAND_OVER:
        end = state.end
        return end is not None and end.reason == "went_out" and end.seat == seat
    if state.phase is not Phase.PLAY or state.current != seat:
        return False
    from .moves import apply, legal_actions

    last_card = len(state.hands[seat]) == 1
    for action in legal_actions(state, seat):
        if isinstance(action, Float):
            return True
        if isinstance(action, Discard):
            if last_card:
                return True
            continue
        if can_go_out_this_turn(apply(state, action)[0], seat):
            return True
    return False


def _play_action(seat: int, kind: str, detail: Any, used: Sequence[str]) -> Action:
    if kind == "meld":
        return meld_action(seat, detail)
    if kind == "lay_off":
        return layoff_action(seat, used[0], detail)
    if kind == "switch":
        action: Action = cached(SwitchJoker, seat, used[0], detail[0])
        return action
    natural: Action = cached(PlayNatural, seat, used[0], detail)
    return natural
