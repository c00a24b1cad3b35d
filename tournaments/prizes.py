"""Prizes: trophies (site points, never money) by finishing place.

An organizer sets a table (trophies for 1st, 2nd, ...); without one the default pays about
the top 15% of the field from a pool of ``POOL_PER_PLAYER`` trophies a player, the winner
most. Players tied on a place share the prizes of the places they cover equally, rounded
down, the remainder going to the first of them in the standings (see docs/tournaments.md).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from itertools import pairwise
from typing import TypeVar

POOL_PER_PLAYER = 10
"""Trophies the default table shares out for each player in the field."""
PAID_SHARE = 0.15
"""The default table pays about this share of the field (always at least the winner)."""
MAX_PLACES = 1000
"""The longest table an organizer may set."""

K = TypeVar("K", bound=Hashable)


class PrizeError(ValueError):
    """A prize table that cannot be used; the message is for people."""


def paid_places(field: int) -> int:
    """How many places the default table pays: 15% of the field, rounded, at least one."""
    return max(1, math.floor(field * PAID_SHARE + 0.5)) if field > 0 else 0


def default_table(field: int) -> list[int]:
    """The pool split by weights paid, paid-1, ..., 1 (rounded down; the rest to the winner)."""
    paid = paid_places(field)
    if paid == 0:
        return []
    pool = POOL_PER_PLAYER * field
    weights = list(range(paid, 0, -1))
    total = sum(weights)
    table = [pool * w // total for w in weights]
    table[0] += pool - sum(table)
    return table


def check_table(table: object) -> list[int]:
    """An organizer's table as whole trophies that never rise from one place to the next."""
    if not isinstance(table, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in table
    ):
        raise PrizeError("Prizes are whole numbers of trophies, one a place.")
    if len(table) > MAX_PLACES:
        raise PrizeError(f"Prizes can be set for at most {MAX_PLACES} places.")
    if any(p < 0 for p in table):
        raise PrizeError("A prize cannot be negative.")
    if any(later > earlier for earlier, later in pairwise(table)):
        raise PrizeError("A place cannot pay more than the place above it.")
    return table


def parse(text: str) -> list[int]:
    """ "100, 60, 30" (commas or spaces) into a checked table; empty text: the default."""
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        table = [int(p) for p in parts]
    except ValueError:
        raise PrizeError(
            "Write the prizes as whole numbers of trophies, first place first, "
            "separated by commas (for example 100, 60, 30)."
        ) from None
    return check_table(table)


def table_for(prizes: Sequence[int] | None, field: int) -> list[int]:
    """The organizer's table, or the default one for a field of this size."""
    return list(prizes) if prizes else default_table(field)


def shares(places: Sequence[tuple[K, int]], table: Sequence[int]) -> dict[K, int]:
    """Trophies for each finisher, from ``(key, place)`` in standings order.

    The k players on one place cover the next k positions of the table (after everyone
    placed better) and share their prizes: each the sum divided by k rounded down, the first
    of them in the given order also the remainder. With ranks that skip after a tie
    (1, 2, 2, 4) the positions are the places themselves; with the dense ranks of a
    partnership event (sides 1, 1, 2, 2) the winning partners share 1st and 2nd, the others
    3rd and 4th. Positions beyond the table pay nothing.
    """
    groups: dict[int, list[K]] = {}
    for key, place in places:
        groups.setdefault(place, []).append(key)
    won: dict[K, int] = {}
    before = 0
    for place in sorted(groups):
        keys = groups[place]
        total = sum(table[before : before + len(keys)])
        each, rest = divmod(total, len(keys))
        for i, key in enumerate(keys):
            won[key] = each + (rest if i == 0 else 0)
        before += len(keys)
    return won
