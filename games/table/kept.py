"""Region texts kept from one table version to the next, by exactly what they were built from.

Most of a browser frame's regions come out the same from one move to the next: the score
sheet changes only when a hand ends, the hand-end panel only when a hand ends or a player
presses Ready, a seat's melds only when someone melds or lays off. Rendering them again at
every version was most of the browser path's cost (docs/performance.md, "Third pass"). So a
table keeps, per slot (a region, or a region as one seat sees it), the last text it built and
the key it built it from: a small tuple of everything that text reads. The next version builds
its key (cheap), and reuses the text when the key is the same. A wrong key would show stale
text, so every key is the template's whole input and the tests compare every kept region with
its template over whole games.

Process-wide and bounded: the tables a process renders most recently (a socket's table renders
every version), least recently used dropped first. Socket frames are built on a pool of
threads, so the table order is guarded by a lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

TABLES_KEPT = 512
"""Tables remembered per process: a web process serves a few dozen tables' sockets at once."""

_tables: OrderedDict[int, dict[Hashable, tuple[Hashable, Any]]] = OrderedDict()
_lock = threading.Lock()


def kept(table_id: int, slot: Hashable, key: Hashable, build: Callable[[], T]) -> T:
    """The text of ``slot`` at this table for ``key``: the last one built if it was built
    for an equal key, else ``build()`` (then kept in its place). (A few slots keep what
    texts are built from, such as the melds with their cards' faces: read it, never
    change it.)"""
    with _lock:
        slots = _tables.get(table_id)
        if slots is None:
            slots = _tables[table_id] = {}
            if len(_tables) > TABLES_KEPT:
                _tables.popitem(last=False)
        else:
            _tables.move_to_end(table_id)
        hit = slots.get(slot)
    if hit is not None and hit[0] == key:
        return hit[1]
    text = build()
    slots[slot] = (key, text)
    return text


def forget(table_id: int | None = None) -> None:
    """Drop what one table (or, with None, every table) keeps: for tests and benchmarks
    that must start cold."""
    with _lock:
        if table_id is None:
            _tables.clear()
        else:
            _tables.pop(table_id, None)
