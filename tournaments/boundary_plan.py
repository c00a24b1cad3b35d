"""Rebalancing with independent tables: what to do at the tables now between two hands.

Pure (ids in, a plan out), like ``balancing``, which plans a whole lock-step round. Here
only some tables are free (their hand is settled, their pause is over): a table whose hand
is in play is never touched. It may be told that a player will join it, and they sit down
at its next hand boundary; a player moved there waits for that hand to end.

The rules, applied in this order (docs/tournaments.md, "Independent tables"):
1. Too many tables for the players left (``balancing.table_count``): a free table that is
   one of the shortest is broken; its players go to the shortest other tables.
2. Players without a seat (late entrants when every table was full) fill free seats, the
   shortest table first; once at least the preset's minimum of them wait and the field
   needs another table, they open a new one together.
3. Tables are evened out: while a free table holds two or more players than the shortest
   table, it sends one there, the player due to deal its next hand (they would have dealt
   here; the deal passes to the next player on). Among tables of equal size a free one is
   preferred as the target, so the player moved plays at once.
4. A free table left below the preset's minimum sends its players to the others when they
   have room; otherwise it waits for players (it is "short").
Seat order at a free table: its players from the left of the last dealer (the first deals),
then those joining, in the order they were sent.

Tables in play need not be listed one by one: only their sizes count, and only the shortest
can receive a player. ``busy`` gives the shortest by size, ``farther`` the others as a
count per size (see ``plan``), so a boundary reads the free tables, the players waiting and a
few short tables, whatever the size of the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournaments import balancing


@dataclass(frozen=True)
class TableNow:
    id: int
    players: Sequence[int]
    """Seated, in dealing order: the first deals the table's next hand."""
    joining: Sequence[int] = ()
    """Sent here earlier, waiting for this table's boundary."""
    free: bool = False
    """At a hand boundary and ready to deal: may be changed now."""


@dataclass
class BoundaryPlan:
    seating: dict[int, list[int]] = field(default_factory=dict)
    """Every free table kept (new ones too, ids -1, -2, ...): its next hand's players."""
    joining: dict[int, list[int]] = field(default_factory=dict)
    """Players newly sent to a table in play."""
    broken: list[int] = field(default_factory=list)
    waiting: list[int] = field(default_factory=list)
    moves: list[balancing.Move] = field(default_factory=list)
    """Each player who changed table (source 0: had no seat; target < 0: a new table)."""


def movable(tables: Sequence[TableNow], waiting: Sequence[int]) -> int:
    """How many players a plan may send to tables in play, at most: those waiting and those of
    the free tables (a player sent to a table in play stays there). So the ``movable``
    shortest tables in play are all the targets a plan can need among them."""
    return len(waiting) + sum(len(t.players) + len(t.joining) for t in tables if t.free)


def plan(
    tables: Sequence[TableNow],
    waiting: Sequence[int],
    seats: int,
    minimum: int = balancing.MIN_SEATS,
    maximum: int = 8,
    *,
    busy: Mapping[int, int] | None = None,
    farther: Mapping[int, int] | None = None,
) -> BoundaryPlan:
    """What to change at the free tables (see the module's rules).

    Tables in play may come as sizes instead of ``TableNow``: ``busy`` maps a table's id to
    its players (seated and joining), ``farther`` maps a size to how many more tables in
    play have it. Those ``farther`` are never a target, so the caller gives, in ``tables`` and
    ``busy``, the shortest tables in play by (size, id), at least ``movable`` of them (or
    all): whoever is sent to a table in play stays there, so no more of them can be reached.
    The plan is then the one the whole field would give.
    """
    busy, farther = busy or {}, {k: n for k, n in (farther or {}).items() if n}
    everyone = [p for t in tables for p in (*t.players, *t.joining)] + list(waiting)
    if len(set(everyone)) != len(everyone):
        raise balancing.BalancingError("A player is seated at two tables.")
    listed_in_play = sum(1 for t in tables if not t.free) + len(busy)
    if farther and listed_in_play < movable(tables, waiting):
        raise balancing.BalancingError("Too few tables in play listed for the players moving.")
    players = len(everyone) + sum(busy.values()) + sum(k * n for k, n in farther.items())
    count = balancing.table_count(players, seats, minimum, maximum)
    sizes = balancing.target_sizes(players, count)
    cap = max(sizes, default=seats)
    out = BoundaryPlan()
    size: dict[int, int] = {t.id: len(t.players) + len(t.joining) for t in tables}
    free: dict[int, bool] = {t.id: t.free for t in tables}
    for k, n in busy.items():
        size[k], free[k] = n, False
    others = sum(farther.values())  # tables in play never a target: counted, not listed
    least_other = min(farther, default=None)
    room_other = sum((cap - k) * n for k, n in farther.items() if k < cap)

    def tables_now() -> int:
        return len(size) + others

    def least() -> int:
        return min([*size.values(), *([least_other] if least_other is not None else [])])

    for t in tables:
        if t.free:
            out.seating[t.id] = [*t.players, *t.joining]
    pool: list[tuple[int, int]] = [(p, 0) for p in waiting]

    def send(player: int, source: int, target: int) -> None:
        if free[target]:
            out.seating[target].append(player)
        else:
            out.joining.setdefault(target, []).append(player)
        size[target] += 1
        if source != target:
            out.moves.append(balancing.Move(player=player, source=source, target=target))

    def shortest(exclude: int | None = None, below: int | None = None) -> int | None:
        options = [k for k in size if k != exclude and (below is None or size[k] < below)]
        if not options:
            return None
        return min(options, key=lambda k: (size[k], not free[k], abs(k), k))

    # 1. break free tables while there are too many (the shortest only)
    for t in sorted((t for t in tables if t.free), key=lambda t: (size[t.id], -t.id)):
        if tables_now() <= max(count, 1):
            break
        if size[t.id] > least() and size[t.id] >= minimum:
            break
        out.broken.append(t.id)
        pool += [(p, t.id) for p in out.seating.pop(t.id)]
        del size[t.id]
    # 2. the unseated fill free seats, then open new tables together
    while pool:
        target = shortest(below=cap)
        if target is None:
            break
        player, source = pool.pop(0)
        send(player, source, target)
    new = 0
    while len(pool) >= minimum and tables_now() < count:
        new -= 1
        size[new], free[new] = 0, True
        out.seating[new] = []
        for _ in range(min(len(pool), cap)):
            player, source = pool.pop(0)
            send(player, source, new)
    out.waiting = [p for p, _source in pool]
    # 3. even out: the fullest free table sends its next dealer to the shortest table
    while True:
        givers = [k for k in out.seating if size[k] > 0]
        if not givers:
            break
        big = max(givers, key=lambda k: (size[k], -abs(k)))
        small = shortest(exclude=big)
        if small is None or size[big] - size[small] < 2:
            break
        player = out.seating[big].pop(0)
        size[big] -= 1
        send(player, big, small)
    # 4. a free table below the minimum empties into the others if they have room
    for k in [k for k in out.seating if size[k] < minimum]:
        room = sum(cap - size[o] for o in size if o != k and size[o] < cap) + room_other
        if tables_now() < 2 or room < size[k]:
            continue
        players = out.seating.pop(k)
        del size[k]
        if k > 0:
            out.broken.append(k)
        for player in players:
            target = shortest(below=cap)
            assert target is not None
            send(player, k, target)
    out.moves = [m for m in out.moves if m.source != m.target]
    return out
