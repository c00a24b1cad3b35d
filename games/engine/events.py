"""What happened, in public: the events ``apply`` returns and the hand's history keeps.

Why events besides actions: some things happen without a move (the stock is refilled, a claim
window opens, the hand ends), and a move's public effect needs the state to describe (which
cards a pile take brought in). Events never carry hidden cards: a draw from the stock says that
someone drew, not what.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import RANK_LABELS, card_label, labels_read


@dataclass(frozen=True, slots=True)
class Event:
    """One public happening: ``kind``, the seat it concerns (-1: the table) and its details."""

    kind: str
    seat: int
    data: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        """A detail by name."""
        for name, value in self.data:
            if name == key:
                return value
        return default

    def to_json(self) -> dict[str, Any]:
        """{"kind", "seat", ...details} with tuples as lists."""
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat}
        for name, value in self.data:
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """Inverse of ``to_json`` (lists become tuples)."""
        details = tuple(
            (name, tuple(value) if isinstance(value, list) else value)
            for name, value in data.items()
            if name not in ("kind", "seat")
        )
        return cls(str(data["kind"]), int(data["seat"]), details)

    def text(self, names: list[str] | None = None, call: str = "Rummy") -> str:
        """The event as a sentence for the table's log. ``call``: what claiming a discard is
        called at the table (``Rules.claims_word``: "Stop" in michigan)."""
        who = _who(names, self.seat)
        kind = self.kind
        if kind == "deal" and self.get("face_up"):
            shown = ", ".join(card_label(card) for card in self.get("face_up"))
            rank = self.get("wild_rank")
            return (
                f"{who} dealt; the face-up cards were {shown}, so every "
                f"{RANK_LABELS.get(rank, rank)} is wild; the {card_label(self.get('upcard'))} "
                "starts the pile"
            )
        if kind == "deal":
            return (
                f"{who} dealt {self.get('cards_each')} cards each; "
                f"the {card_label(self.get('upcard'))} starts the pile"
            )
        if kind == "draw_stock":
            return f"{who} drew from the stock"
        if kind == "take_discard" and self.get("depth") == 0 and len(self.get("cards")) > 1:
            cards = self.get("cards")  # oklahoma: the top card, and the whole pile with it
            below = len(cards) - 1
            return (
                f"{who} took the {card_label(cards[-1])} and the whole pile with it "
                f"({below} card{'s' if below > 1 else ''} below it)"
            )
        if kind in ("take_discard", "claim_rummy"):
            cards = self.get("cards")
            above = len(cards) - 1
            tail = "" if not above else f" and {above} card{'s' if above > 1 else ''} above it"
            verb = "took" if kind == "take_discard" else f"called {call} and took"
            return f"{who} {verb} the {card_label(cards[0])}{tail} from the pile"
        if kind == "meld":
            melded = labels_read(self.get("cards"), self.get("reading") or self.get("cards"))
            return f"{who} melded {melded} (meld {self.get('meld')})"
        if kind == "lay_off":
            text = f"{who} laid off the {card_label(self.get('card'))} on meld {self.get('meld')}"
            if self.get("card") != self.get("reading"):
                text += f" as {card_label(self.get('reading'))}"
            if self.get("ace_end"):
                text += f" at the {self.get('ace_end')} end"
            return text
        if kind == "switch_joker":
            return (
                f"{who} put the {card_label(self.get('card'))} in place of the joker in meld "
                f"{self.get('meld')} and took the joker"
            )
        if kind == "discard":
            return f"{who} discarded the {card_label(self.get('card'))}"
        if kind == "claim_window":
            return f"{call} may be called on the pile"
        if kind == "pass_claim":
            return f"{who} did not call {call}"
        if kind == "close_claims":
            return f"The time to call {call} ran out"
        if kind == "stock_refilled":
            return f"The discard pile but its top card ({self.get('cards')} cards) became the stock"
        if kind == "decline_draw":
            return f"{who} did not take from the pile"
        if kind == "float":
            return f"{who} floats with an empty hand"
        if kind == "pass_upcard":
            return f"{who} passed on the up-card"
        if kind == "play_natural":
            return (
                f"{who} put the {card_label(self.get('card'))} down in front, for the wild card "
                f"in meld {self.get('meld')}"
            )
        if kind == "hand_over":
            return _ending(self.get("reason"), who)
        return f"{kind} ({who})"


def _who(names: list[str] | None, seat: int) -> str:
    if seat < 0:
        return "The table"
    if names and seat < len(names):
        return names[seat]
    return f"Seat {seat}"


def _ending(reason: str, who: str) -> str:
    if reason == "went_out":
        return f"{who} went out; the hand is over"
    if reason == "last_stock_card":
        return "The last card of the stock was drawn; the hand is over"
    if reason == "stock_out":
        return "The stock ran out; the hand is over and only melds count"
    if reason == "block":
        return f"{who} took the last stock card and did not go out: a block ends the hand"
    if reason == "declined":
        return f"The stock is empty and {who} did not take from the pile; the hand is over"
    return f"The stock is empty and {who} cannot take from the pile; the hand is over"
