"""Persian melds: aces high only, and jokers that are not wild but meld as a group of their own.

Why wrappers around ``melds`` rather than new flags inside it: the shared meld code is the
engine's hot path, tuned for the presets most tables play. Persian filters its results (no
run starts with a low ace, no ace laid off below a 2) and adds its one new meld, the group of
three or four jokers (kind ``"jokers"``), which no other preset can hold.

Canonical moves: a joker group is melded as ``Meld(seat, ("JK", "JK", "JK"))`` and a joker
laid off on it as ``LayOff(seat, "JK", meld)``, both without a reading (a joker here stands for
nothing but itself).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import JOKER
from .errors import IllegalAction
from .melds import (
    MAX_GROUP,
    LayOffSpot,
    MeldShape,
    TableMeld,
    enumerate_melds,
    layoff_spots,
    resolve_meld,
    table_accepts,
)

JOKER_GROUP = "jokers"
"""The meld kind of a group of jokers (and the lay-off spot's ``end`` on one)."""


def joker_group(size: int) -> MeldShape:
    """A group of ``size`` jokers as it is laid down."""
    cards = (JOKER,) * size
    return MeldShape(JOKER_GROUP, cards, cards, "", "", 0, 0)


def _low_ace_run(shape: MeldShape | TableMeld) -> bool:
    return shape.kind == "run" and shape.lo == 1


def enumerate_persian(hand: Sequence[str], distinct: bool) -> list[MeldShape]:
    """Every meld ``hand`` can lay down under Persian rules."""
    shapes = [shape for shape in enumerate_melds(hand, False, distinct) if not _low_ace_run(shape)]
    jokers = hand.count(JOKER)
    for size in range(3, min(jokers, MAX_GROUP) + 1):
        shapes.append(joker_group(size))
    return shapes


def resolve_persian(
    cards: tuple[str, ...], reading: tuple[str, ...] | None, distinct: bool
) -> MeldShape:
    """The meld these cards make under Persian rules, or IllegalAction with the reason."""
    jokers = cards.count(JOKER)
    if jokers:
        if jokers != len(cards):
            raise IllegalAction(
                "Jokers are not wild in Persian Rummy: they meld only in a group of jokers."
            )
        if not 3 <= len(cards) <= MAX_GROUP:
            raise IllegalAction("A group of jokers holds three or four jokers.")
        if reading is not None and any(read != JOKER for read in reading):
            raise IllegalAction("A joker stands for nothing but itself in Persian Rummy.")
        return joker_group(len(cards))
    shape = resolve_meld(cards, reading, False, distinct)
    if _low_ace_run(shape):
        raise IllegalAction(
            "Aces are high in Persian Rummy: an ace can follow a king, never come before a 2."
        )
    return shape


def persian_layoff_spots(meld: TableMeld, card: str, distinct: bool) -> list[LayOffSpot]:
    """Every way ``card`` can extend ``meld`` under Persian rules."""
    if meld.kind == JOKER_GROUP:
        if card == JOKER and len(meld.cards) < MAX_GROUP:
            return [LayOffSpot(meld.id, JOKER, JOKER_GROUP)]
        return []
    return [
        spot
        for spot in layoff_spots(meld, card, False, distinct)
        if not (spot.end == "lo" and spot.reading[0] == "A")
    ]


def persian_accepts(melds: Sequence[TableMeld], distinct: bool) -> dict[str, list[LayOffSpot]]:
    """Card code -> every lay-off spot for it on the table, under Persian rules."""
    accepts = table_accepts([meld for meld in melds if meld.kind != JOKER_GROUP], False, distinct)
    for code in [code for code in accepts if code[0] == "A"]:
        spots = [spot for spot in accepts[code] if spot.end != "lo"]
        if spots:
            accepts[code] = spots
        else:
            del accepts[code]
    for meld in melds:
        if meld.kind == JOKER_GROUP and len(meld.cards) < MAX_GROUP:
            accepts.setdefault(JOKER, []).append(LayOffSpot(meld.id, JOKER, JOKER_GROUP))
    return accepts


def joker_meld_from_parts(
    meld_id: int, cards: tuple[str, ...], reading: tuple[str, ...], owners: tuple[int, ...]
) -> TableMeld | None:
    """Rebuild a stored group of jokers; None when the parts are not one."""
    if not 3 <= len(cards) <= MAX_GROUP or not len(cards) == len(reading) == len(owners):
        return None
    if any(card != JOKER for card in cards) or any(read != JOKER for read in reading):
        return None
    return TableMeld(meld_id, JOKER_GROUP, cards, reading, owners, "", "", 0, 0)
