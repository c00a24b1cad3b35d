"""What the turn clock plays for a player who ran out of time: safe, predictable, legal.

Pass on an offered up-card (oklahoma) or a Rummy call; draw from the stock; if a card taken
from the pile must still be used, its first legal use;
otherwise discard the card that would cost the most left in hand. Pure: a seat's view and
its legal actions in, one of those actions out (like the bots).
"""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine.scoring import in_hand_line


def timeout_action(view: dict[str, Any], legal: list[engine.Action]) -> engine.Action:
    if not legal:
        raise ValueError("There is nothing this seat may do.")
    for kind in (engine.PassClaim, engine.PassUpcard, engine.DrawStock):
        for action in legal:
            if isinstance(action, kind):
                return action
    obligation = view.get("obligation")
    if obligation is not None and obligation.get("seat") == view.get("seat"):
        card = obligation["card"]
        for action in legal:
            if _uses(action, card):
                return action
    discards = [a for a in legal if isinstance(a, engine.Discard)]
    if discards:
        values = engine.Rules.from_json(view["rules"]).values
        return max(discards, key=lambda a: (-in_hand_line(values, a.card).points, a.card))
    for kind in (engine.DeclineDraw, engine.Float):
        for action in legal:
            if isinstance(action, kind):
                return action
    return legal[0]


def _uses(action: engine.Action, card: str) -> bool:
    if isinstance(action, engine.Meld):
        return card in action.cards
    if isinstance(action, engine.LayOff | engine.SwitchJoker | engine.PlayNatural):
        return action.card == card
    return False
