"""The legal actions sorted by kind, so a bot can ask "may I take depth 3?" in one lookup.

Why: the engine hands a bot a flat list; every level needs the same questions answered, and a
bot must only ever return an element of that list, never an action it built itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.engine.actions import (
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
    SwitchJoker,
    TakeDiscard,
)
from games.engine.melds import MeldShape


@dataclass(slots=True)
class LegalMoves:
    """The legal actions of one decision, by kind."""

    actions: list[Action]
    draw_stock: DrawStock | None = None
    decline: DeclineDraw | None = None
    float_: Float | None = None
    pass_claim: PassClaim | None = None
    takes: dict[int, TakeDiscard] = field(default_factory=dict)
    claims: dict[int, ClaimRummy] = field(default_factory=dict)
    melds: list[Meld] = field(default_factory=list)
    layoffs: list[LayOff] = field(default_factory=list)
    switches: list[SwitchJoker] = field(default_factory=list)
    discards: dict[str, Discard] = field(default_factory=dict)
    close: CloseClaims | None = None

    def meld_for(self, shape: MeldShape) -> Meld | None:
        """The legal Meld action laying down ``shape``, if there is one."""
        for action in self.melds:
            if action.cards == shape.cards and (
                action.reading is None or action.reading == shape.reading
            ):
                return action
        return None

    def layoffs_of(self, card: str) -> list[LayOff]:
        return [action for action in self.layoffs if action.card == card]


def sort_legal(legal: Sequence[Action]) -> LegalMoves:
    """Sort ``legal`` by kind (keeps the engine's order within each kind).

    An ace offered at both ends of a 2..K run is kept only at the high end: it never scores
    less there, so the low twin (``ace_end="low"``) is left out of every bot's choice.
    """
    if any(isinstance(action, LayOff) and action.ace_end == "low" for action in legal):
        legal = [action for action in legal if not _low_ace_twin(action, legal)]
    moves = LegalMoves(list(legal))
    for action in legal:
        if isinstance(action, Discard):
            moves.discards[action.card] = action
        elif isinstance(action, Meld):
            moves.melds.append(action)
        elif isinstance(action, LayOff):
            moves.layoffs.append(action)
        elif isinstance(action, TakeDiscard):
            moves.takes[action.depth] = action
        elif isinstance(action, DrawStock):
            moves.draw_stock = action
        elif isinstance(action, ClaimRummy):
            moves.claims[action.depth] = action
        elif isinstance(action, PassClaim):
            moves.pass_claim = action
        elif isinstance(action, SwitchJoker):
            moves.switches.append(action)
        elif isinstance(action, DeclineDraw):
            moves.decline = action
        elif isinstance(action, Float):
            moves.float_ = action
        elif isinstance(action, CloseClaims):
            moves.close = action
    return moves


def _low_ace_twin(action: Action, legal: Sequence[Action]) -> bool:
    """True for a low-end ace lay-off whose high-end twin is also legal."""
    if not isinstance(action, LayOff) or action.ace_end != "low":
        return False
    high = LayOff(action.seat, action.card, action.meld, action.reading)
    return high in legal
