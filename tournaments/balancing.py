"""Seating and table balancing for multi-table tourneys: pure functions over ids.

Between rounds the services pass the players still in, table by table, and apply the plan
this returns (move players, close broken tables). Tables are kept as full as the organizer's
size allows, so the table count is the smallest that seats everyone, and sizes differ by at
most one. To move as few people as possible, the fullest tables are kept and the emptiest
broken, and a table that must shrink sends away the players seated last.

A table may never hold fewer players than the preset needs (``minimum``: 2, or 3 for
classic): when the organizer's size would leave a table short (two-seat tables and an odd
number of players; 5 players at 4-seat tables of a 3-player preset), the plan uses one table
fewer and seats the extra players at the others, up to the preset's ``maximum`` even past the
organizer's size. Fewer players than ``minimum`` in all cannot be seated: the services end the
event then (docs/tournaments.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


class BalancingError(ValueError):
    """Impossible input: a player seated twice, or a table size outside 2-4."""


@dataclass(frozen=True)
class Move:
    player: int
    source: int
    target: int


@dataclass
class Plan:
    """The seating after balancing; new tables (none existed) get ids -1, -2, ..."""

    layout: dict[int, list[int]]
    moves: list[Move] = field(default_factory=list)
    broken: list[int] = field(default_factory=list)


MIN_SEATS, MAX_SEATS = 2, 4


def table_count(players: int, seats: int, minimum: int = MIN_SEATS, maximum: int = 8) -> int:
    """The fewest tables that seat ``players`` with sizes within one of each other.

    No table below ``minimum``; a table may then go past ``seats``, never past ``maximum``.
    """
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise BalancingError(f"Tables seat {MIN_SEATS} to {MAX_SEATS} players.")
    if not MIN_SEATS <= minimum <= seats <= maximum:
        raise BalancingError(
            f"Tables of {seats} do not suit a game for {minimum} to {maximum} players."
        )
    if players < minimum:
        return 0
    count = -(-players // seats)
    while count > 1 and players // count < minimum:
        count -= 1  # one table fewer, the extra players seated at the others
    if -(-players // count) > maximum:
        raise BalancingError(f"{players} players cannot sit at tables of {minimum} to {maximum}.")
    return count


def target_sizes(players: int, count: int) -> list[int]:
    """Sizes of ``count`` tables seating ``players``, largest first."""
    if count == 0:
        return []
    base, extra = divmod(players, count)
    return [base + 1 if i < extra else base for i in range(count)]


def seat(
    players: Sequence[int], seats: int, minimum: int = MIN_SEATS, maximum: int = 8
) -> list[list[int]]:
    """The first seating: players dealt round the tables in the order given (shuffle first)."""
    count = table_count(len(players), seats, minimum, maximum)
    tables: list[list[int]] = [[] for _ in range(count)]
    for i, player in enumerate(players):
        tables[i % count].append(player)
    return tables


def rebalance(
    tables: Mapping[int, Sequence[int]],
    seats: int,
    minimum: int = MIN_SEATS,
    maximum: int = 8,
    *,
    unseated: Sequence[int] = (),
) -> Plan:
    """Break and even out tables; ``tables`` maps a table id to its players in seat order.

    ``unseated`` players (their table was stopped by staff) are seated wherever room is made.
    """
    everyone = [p for players in tables.values() for p in players] + list(unseated)
    if len(set(everyone)) != len(everyone):
        raise BalancingError("A player is seated at two tables.")
    count = table_count(len(everyone), seats, minimum, maximum)
    # Keep the fullest tables (ties: the older, lower id); break the rest.
    ranked = sorted(tables, key=lambda t: (-len(tables[t]), t))
    kept = ranked[:count]
    broken = sorted(ranked[count:])
    kept += [-(i + 1) for i in range(count - len(kept))]
    sizes = dict(zip(kept, target_sizes(len(everyone), count), strict=True))
    layout = {t: list(tables.get(t, ())) for t in kept}
    pool: list[tuple[int, int]] = [(p, 0) for p in unseated]
    pool += [(p, t) for t in broken for p in tables[t]]
    for t in kept:
        while len(layout[t]) > sizes[t]:
            pool.append((layout[t].pop(), t))
    moves: list[Move] = []
    for t in kept:
        while len(layout[t]) < sizes[t]:
            player, source = pool.pop(0)
            layout[t].append(player)
            moves.append(Move(player=player, source=source, target=t))
    return Plan(layout=layout, moves=moves, broken=broken)
