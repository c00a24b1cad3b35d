"""What cards are worth to the bots: melded (a gain) and left in hand (a loss).

Why not call the engine's scoring per card: the bots value thousands of candidate melds per
decision, so the values are looked up in small per-rules tables built once. The numbers are the
engine's own (``scoring.melded_line`` / ``in_hand_line``); the tests check they agree.
"""

from __future__ import annotations

from functools import lru_cache

from games.engine.cards import ALL_CODES, JOKER, RANK_INDEX
from games.engine.melds import LayOffSpot, MeldShape, TableMeld
from games.engine.presets import CardValues


@lru_cache(maxsize=32)
def in_hand_table(values: CardValues) -> dict[str, int]:
    """Card code -> what it costs when left in hand (a positive number)."""
    table = {}
    for code in ALL_CODES:
        if code == JOKER:
            points = values.joker_in_hand
        elif code[0] == "A":
            points = values.ace_in_hand
        else:
            points = values.pips[RANK_INDEX[code[0]]]
        table[code] = points
    for code, _melded, in_hand in values.special:
        table[code] = in_hand
    return table


@lru_cache(maxsize=32)
def natural_table(values: CardValues) -> dict[str, int]:
    """Card code -> its melded value as a natural card (aces: the high/group value)."""
    table = {}
    for code in ALL_CODES:
        if code == JOKER:
            continue
        table[code] = values.ace_high if code[0] == "A" else values.pips[RANK_INDEX[code[0]]]
    for code, melded, _in_hand in values.special:
        table[code] = melded
    return table


def reading_points(values: CardValues, card: str, read: str, kind: str, low_ace: bool) -> int:
    """Points of ``card`` melded as ``read`` (``low_ace``: an ace at the low end of a run)."""
    if card == JOKER and values.joker_melded is not None:
        return values.joker_melded
    if read[0] == "A":
        if kind == "group":
            return values.ace_group
        return values.ace_low if low_ace else values.ace_high
    if card == read or (card != JOKER and read[1] == "*" and read[0] == card[0]):
        return natural_table(values)[card]
    for wild_for, points in values.wild_as:
        if wild_for == read and card != JOKER:
            return points
    return values.pips[RANK_INDEX[read[0]]]


_SHAPE_POINTS: dict[tuple[CardValues, MeldShape], int] = {}


def shape_points(values: CardValues, shape: MeldShape) -> int:
    """What laying down ``shape`` scores."""
    key = (values, shape)
    points = _SHAPE_POINTS.get(key)
    if points is None:
        points = 0
        for index, (card, read) in enumerate(zip(shape.cards, shape.reading, strict=True)):
            low = shape.kind == "run" and shape.lo + index == 1
            points += reading_points(values, card, read, shape.kind, low)
        if len(_SHAPE_POINTS) > 100_000:
            _SHAPE_POINTS.clear()
        _SHAPE_POINTS[key] = points
    return points


def spot_points(values: CardValues, card: str, spot: LayOffSpot, meld: TableMeld) -> int:
    """What laying ``card`` off at ``spot`` of ``meld`` scores."""
    low = meld.kind == "run" and spot.end == "lo" and meld.lo - 1 == 1
    return reading_points(values, card, spot.reading, meld.kind, low)
