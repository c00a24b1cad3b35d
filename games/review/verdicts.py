"""From per-move losses to verdicts and an accuracy figure.

A move's *loss* is how many points of expected hand score the best alternative found beats
it by (0 when the move played is the best found). It is marked only when the loss passes a
threshold *and* the 95% interval of that difference lies wholly above zero, so a difference
the sampled deals cannot tell from noise is never held against a player.

Accuracy of one decision: ``100 * exp(-loss / ACCURACY_SCALE)`` (a loss of 0 scores 100, one
of 10 points about 67, 25 points about 37, 50 points about 14). A player's accuracy over a
game is the mean over their reviewed decisions; forced moves do not count.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

ACCURACY_SCALE = 25.0


@dataclass(frozen=True)
class Thresholds:
    """Points of expected hand score by which the best alternative must win (tunable)."""

    inaccuracy: float = 10.0
    mistake: float = 25.0
    blunder: float = 50.0

    def __post_init__(self) -> None:
        if not 0 <= self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("Thresholds must grow: 0 <= inaccuracy <= mistake <= blunder.")


DEFAULT_THRESHOLDS = Thresholds()
VERDICTS = ("forced", "good", "inaccuracy", "mistake", "blunder")


def verdict(loss: float, low: float, thresholds: Thresholds = DEFAULT_THRESHOLDS) -> str:
    """The mark for a non-forced move whose best alternative wins by ``loss`` (interval low
    end ``low``)."""
    if low <= 0:
        return "good"
    if loss > thresholds.blunder:
        return "blunder"
    if loss > thresholds.mistake:
        return "mistake"
    if loss > thresholds.inaccuracy:
        return "inaccuracy"
    return "good"


def move_accuracy(loss: float) -> float:
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def accuracy(losses: Iterable[float]) -> float | None:
    """Mean per-decision accuracy (None without a reviewed decision)."""
    values = [move_accuracy(loss) for loss in losses]
    return round(sum(values) / len(values), 1) if values else None
