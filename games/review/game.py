"""Reviewing a whole game: every hand, then per player accuracy and costliest decisions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from games.engine import HandState, side_of

from .hands import DEFAULT_BUDGET, Budget, review_hand
from .verdicts import accuracy

COSTLIEST = 3
FORMAT = 1


def review_game(
    hands: Sequence[HandState],
    seats: Iterable[int],
    seed: int | str,
    budget: Budget = DEFAULT_BUDGET,
    names: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    numbers: Sequence[int] | None = None,
) -> dict[str, Any]:
    """The review of a game's finished ``hands`` (in order) for ``seats``, as JSON.

    ``progress(done, total)`` is called before each hand (done = hands finished so far) and
    once at the end. ``numbers``: the hands' numbers in the game (default 1, 2, ...).
    Deterministic for ``seed`` and ``budget``.
    """
    seats = sorted(set(seats))
    reviewed_hands = []
    numbers = list(numbers) if numbers is not None else list(range(1, len(hands) + 1))
    for done, (number, final) in enumerate(zip(numbers, hands, strict=True)):
        if progress is not None:
            progress(done, len(hands))
        decisions = review_hand(final, seats, seed, budget, hand_key=number, names=names)
        reviewed_hands.append({"number": number, "decisions": decisions})
    if progress is not None:
        progress(len(hands), len(hands))
    rules = hands[0].rules if hands else None
    players = []
    for seat in seats:
        mine = [
            {**decision, "hand": hand["number"]}
            for hand in reviewed_hands
            for decision in hand["decisions"]
            if decision["seat"] == seat
        ]
        weighed = [decision for decision in mine if decision["verdict"] != "forced"]
        costliest = sorted(
            (decision for decision in weighed if decision["loss"] > 0),
            key=lambda decision: (-decision["loss"], decision["hand"], decision["index"]),
        )[:COSTLIEST]
        counts = {
            mark: sum(1 for decision in mine if decision["verdict"] == mark)
            for mark in ("forced", "good", "inaccuracy", "mistake", "blunder")
        }
        players.append(
            {
                "seat": seat,
                "name": names[seat] if names and seat < len(names) else f"Seat {seat + 1}",
                "side": list(side_of(rules, seat)) if rules and rules.spec.partnerships else [seat],
                "accuracy": accuracy(decision["loss"] for decision in weighed),
                "decisions": len(weighed),
                "mean_loss": round(sum(d["loss"] for d in weighed) / len(weighed), 2)
                if weighed
                else None,
                "counts": counts,
                "costliest": costliest,
            }
        )
    return {
        "format": FORMAT,
        "seed": str(seed),
        "deals": budget.deals,
        "thresholds": {
            "inaccuracy": budget.thresholds.inaccuracy,
            "mistake": budget.thresholds.mistake,
            "blunder": budget.thresholds.blunder,
        },
        "scored_as": "side" if rules and rules.spec.partnerships else "seat",
        "hands": reviewed_hands,
        "players": players,
    }
