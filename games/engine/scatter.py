"""Throw-down: discards that land scattered, each over a random few of the cards already there.

Why a layout beside the pile rather than a new pile type: every other preset keeps the pile as
a stack, and the rest of the engine (events, views, bots) keeps reading ``state.discard`` as
"the cards in the discard area, oldest first". Throw-down adds ``state.scatter``, one bit mask
per card of the pile: the earlier cards (by their index in the pile) that this card lies on
directly. A card can only land on cards that were there before it, so a card's mask only holds
lower bits, and "taking a card takes every card lying over it" is a scan upwards from it.

The landing of each discard comes from a generator seeded with the hand's seed and the number
of moves made so far (Ruling 14): a hand replays identically, and nobody can predict a landing
before the hand's seed is revealed at its end.

Depths keep their meaning (0 = the newest card): the card taken at depth ``d`` is
``discard[-1 - d]``, and the cards that come with it are the ones lying over it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

MAX_COVERED = 3
"""A discard lands over at most this many cards (Ruling 14's "a random few")."""


def landing(seed: int, moves_made: int, pile_size: int) -> int:
    """The bit mask of the cards (pile indexes) a new discard lands over.

    One to ``MAX_COVERED`` cards, chosen at random among those already in the discard area
    (none when it is empty).
    """
    if pile_size == 0:
        return 0
    rng = random.Random(f"{seed}/scatter/{moves_made}")
    count = rng.randint(1, min(MAX_COVERED, pile_size))
    mask = 0
    for index in rng.sample(range(pile_size), count):
        mask |= 1 << index
    return mask


def over(scatter: Sequence[int], index: int) -> list[int]:
    """Indexes of every card lying over the card at ``index``, directly or not, in pile order."""
    reached = 1 << index
    above = []
    for later in range(index + 1, len(scatter)):
        if scatter[later] & reached:
            reached |= 1 << later
            above.append(later)
    return above


def taken_at(discard: Sequence[str], scatter: Sequence[int], depth: int) -> tuple[str, ...]:
    """The cards a take at ``depth`` picks up: the chosen card first, then those over it."""
    index = len(discard) - 1 - depth
    return (discard[index], *(discard[later] for later in over(scatter, index)))


def take(
    discard: Sequence[str], scatter: Sequence[int], depth: int
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]:
    """(cards taken, the discard area left, its layout): the masks are renumbered."""
    index = len(discard) - 1 - depth
    gone = [index, *over(scatter, index)]
    gone_mask = 0
    for position in gone:
        gone_mask |= 1 << position
    renumber: dict[int, int] = {}
    kept_cards: list[str] = []
    kept_masks: list[int] = []
    for position, card in enumerate(discard):
        if gone_mask >> position & 1:
            continue
        mask = 0
        for old, new in renumber.items():
            if scatter[position] >> old & 1:
                mask |= 1 << new
        renumber[position] = len(kept_cards)
        kept_cards.append(card)
        kept_masks.append(mask)
    taken = tuple(discard[position] for position in gone)
    return taken, tuple(kept_cards), tuple(kept_masks)


def covered_by(scatter: Sequence[int], index: int) -> list[int]:
    """Indexes of the cards the card at ``index`` lies on directly (for showing the layout)."""
    mask = scatter[index]
    return [position for position in range(index) if mask >> position & 1]


def layout_problem(discard: Sequence[str], scatter: Sequence[int]) -> str | None:
    """Why a stored layout cannot belong to this pile, or None when it can."""
    if len(scatter) != len(discard):
        return "The scattered layout must give one entry per card in the discard area."
    for index, mask in enumerate(scatter):
        if isinstance(mask, bool) or not isinstance(mask, int) or mask < 0 or mask >> index:
            return "A scattered card can only lie over cards discarded before it."
    return None
