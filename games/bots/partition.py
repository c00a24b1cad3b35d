"""Splitting a hand into the melds worth the most points, plus what can be laid off.

Why an exact search with a budget: 500 Rum rewards melded points, not just melded cards, so
"meld what you can" must pick, among overlapping melds (7♥ in a run or in a group of sevens),
the set scoring most. Hands are small (7 or 13 cards, more after a deep take), and the search
branches on the lowest card still in play, so it is exact for ordinary hands; a node budget
keeps a 30-card haul from taking long, falling back on the best set found so far.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from games.engine.cards import SORT_KEY
from games.engine.melds import LayOffSpot, MeldShape, enumerate_melds
from games.engine.persian import enumerate_persian
from games.engine.rules import Rules

from .points import shape_points

NODE_BUDGET = 4000


@dataclass(frozen=True, slots=True)
class Partition:
    """Melds to lay down, lay-offs onto the table, and the cards left over."""

    points: int
    melds: tuple[MeldShape, ...]
    layoffs: tuple[tuple[str, LayOffSpot, int], ...]
    """(card, spot, points) for cards that fit the table as it is now."""
    rest: tuple[str, ...]


_CACHE: dict[tuple[object, ...], Partition] = {}


def clear_cache() -> None:
    """Forget remembered splits (benchmarks time decisions from a cold start)."""
    _CACHE.clear()


def best_partition(
    hand: Sequence[str],
    rules: Rules,
    accepts: dict[str, list[LayOffSpot]],
    layoff_points: dict[str, tuple[LayOffSpot, int]],
    *,
    must_use: str | None = None,
) -> Partition:
    """The disjoint melds and lay-offs from ``hand`` that score most.

    ``layoff_points``: for each card that fits the table, its best spot and points.
    ``must_use``: a card that has to be melded or laid off (a card taken from the pile); when
    no split uses it the best split is returned anyway and the caller sees it in ``rest``.
    """
    ordered = tuple(sorted(hand, key=SORT_KEY.__getitem__))
    key = (ordered, rules, tuple(sorted(layoff_points.items())), must_use)
    found = _CACHE.get(key)
    if found is not None:
        return found
    values = rules.values
    if rules.persian_melds:
        shapes = enumerate_persian(ordered, rules.group_suits_distinct)
    else:
        shapes = enumerate_melds(ordered, rules.wild_jokers, rules.group_suits_distinct)
    search = _Search(ordered, shapes, values, layoff_points)
    full = (1 << len(ordered)) - 1
    best: tuple[int, tuple[int, ...], tuple[str, ...]] | None = None
    if must_use is not None and must_use in ordered:
        for index, (points, need) in enumerate(search.shapes):
            if must_use in need:
                left = search.take(full, need)
                if left is not None:
                    sub = search.run(left)
                    if best is None or sub[0] + points > best[0]:
                        best = (sub[0] + points, (index, *sub[1]), sub[2])
        spot = layoff_points.get(must_use)
        if spot is not None:
            sub = search.run(full & ~(1 << ordered.index(must_use)))
            if best is None or sub[0] + spot[1] > best[0]:
                best = (sub[0] + spot[1], sub[1], (must_use, *sub[2]))
    if best is None:
        best = search.run(full)
    points, meld_indexes, laid = best
    melds = tuple(shapes[index] for index in meld_indexes)
    layoffs = tuple((card, *layoff_points[card]) for card in laid)
    used: Counter[str] = Counter(laid)
    for shape in melds:
        used.update(shape.cards)
    rest_cards = tuple((Counter(ordered) - used).elements())
    result = Partition(points, melds, layoffs, tuple(sorted(rest_cards, key=SORT_KEY.__getitem__)))
    if len(_CACHE) > 50_000:
        _CACHE.clear()
    _CACHE[key] = result
    return result


class _Search:
    """Branch on the lowest card left: meld it in each possible meld, lay it off, or keep it.

    The cards left are a bit mask over the sorted hand; copies of a card are interchangeable,
    so a meld always takes the lowest copies still there, which keeps the memo small.
    """

    def __init__(
        self,
        ordered: tuple[str, ...],
        shapes: list[MeldShape],
        values: object,
        layoff_points: dict[str, tuple[LayOffSpot, int]],
    ) -> None:
        self.positions: dict[str, tuple[int, ...]] = {}
        for index, card in enumerate(ordered):
            self.positions[card] = (*self.positions.get(card, ()), index)
        self.ordered = ordered
        self.shapes: list[tuple[int, dict[str, int]]] = [
            (shape_points(values, shape), dict(Counter(shape.cards)))  # type: ignore[arg-type]
            for shape in shapes
        ]
        self.by_card: dict[str, list[int]] = {}
        for index, (_points, need) in enumerate(self.shapes):
            for card in need:
                self.by_card.setdefault(card, []).append(index)
        self.layoff_points = {card: spot[1] for card, spot in layoff_points.items()}
        playable = 0
        for card, spots in self.positions.items():
            if card in self.by_card or card in self.layoff_points:
                for position in spots:
                    playable |= 1 << position
        self.playable = playable
        self.memo: dict[int, tuple[int, tuple[int, ...], tuple[str, ...]]] = {}
        self.nodes = 0

    def take(self, mask: int, need: dict[str, int]) -> int | None:
        """``mask`` without the lowest copies of ``need``, or None when they are not there."""
        for card, count in need.items():
            for position in self.positions.get(card, ()):
                if count == 0:
                    break
                bit = 1 << position
                if mask & bit:
                    mask &= ~bit
                    count -= 1
            if count:
                return None
        return mask

    def run(self, mask: int) -> tuple[int, tuple[int, ...], tuple[str, ...]]:
        found = self.memo.get(mask)
        if found is not None:
            return found
        self.nodes += 1
        live = mask & self.playable
        if not live:
            result: tuple[int, tuple[int, ...], tuple[str, ...]] = (0, (), ())
            self.memo[mask] = result
            return result
        low = live & -live
        card = self.ordered[low.bit_length() - 1]
        rest = mask & ~low
        options: list[tuple[int, int, int, str | None]] = []
        points = self.layoff_points.get(card)
        if points is not None:
            options.append((points, rest, -1, card))
        for index in self.by_card.get(card, ()):
            shape_points_, need = self.shapes[index]
            left = self.take(mask, need)
            if left is not None:
                options.append((shape_points_, left, index, None))
        if self.nodes > NODE_BUDGET and options:
            options = [max(options, key=lambda option: option[0])]
        else:
            options.append((0, rest, -1, None))
        best: tuple[int, tuple[int, ...], tuple[str, ...]] = (-1, (), ())
        for gained, left, index, laid in options:
            sub = self.run(left)
            total = sub[0] + gained
            if total > best[0]:
                melds = sub[1] if index < 0 else (index, *sub[1])
                layoffs = sub[2] if laid is None else (laid, *sub[2])
                best = (total, melds, layoffs)
        self.memo[mask] = best
        return best


def going_out_split(
    hand: Sequence[str],
    rules: Rules,
    layoff_points: dict[str, tuple[LayOffSpot, int]],
    split: Partition,
) -> tuple[Partition, str | None] | None:
    """A split that empties the hand this turn, and the card to throw last (None: meld all).

    ``split`` is the best split of ``hand``. Going out needs at most one card left over; when
    the rules demand a final discard (boathouse) and everything melds, one card is held back:
    the one whose absence costs fewest points (the returned split lists it as ``rest``).
    """
    if len(split.rest) > 1:
        return None
    if len(split.rest) == 1:
        return split, split.rest[0]
    if not rules.must_discard_to_go_out:
        return split, None
    best: tuple[Partition, str | None] | None = None
    for card in dict.fromkeys(hand):
        rest = list(hand)
        rest.remove(card)
        trial = best_partition(
            rest, rules, {}, {c: layoff_points[c] for c in rest if c in layoff_points}
        )
        if not trial.rest and (best is None or trial.points > best[0].points):
            best = (replace(trial, rest=(card,)), card)
    return best
