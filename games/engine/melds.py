"""Runs and groups: reading, checking, enumerating and extending melds.

Positions: a run is an interval of positions 1..14 in one suit, where the ace sits at 1 (low,
before the 2) or 14 (high, after the king), never both, so a run spans at most 13 positions
and can never wrap around (K-A-2 is not a run). A group is 3 or 4 cards of one rank.

Wild cards: a joker stands for one definite card, fixed when it is laid down. In a run its
reading is a full code (``"8C"``); in a group only the rank matters (``"9*"``). Every meld holds
at least one natural card.

Why these functions are plain and allocation-light: ``legal_actions`` calls them for every state
in bot play and in the benchmark, so they must stay fast for 7-13 card hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from .cards import ANY_SUIT, JOKER, RANK_INDEX, RANKS, SUIT_INDEX, card_label, is_reading, labels
from .errors import IllegalAction

POS_RANK = {index + 1: rank for index, rank in enumerate(RANKS)}
POS_RANK[14] = "A"
MAX_RUN = 13
MAX_GROUP = 4


POSITION_BITS = {
    rank + suit: (1 << RANK_INDEX[rank]) | ((1 << 14) if rank == "A" else 0)
    for rank in RANKS
    for suit in "CDHS"
}
"""Bit mask of a natural card's run positions (an ace has two: 1 and 14)."""


def code_at(suit: str, position: int) -> str:
    """The natural card at ``position`` (1..14) of ``suit``."""
    return POS_RANK[position] + suit


class MeldShape(NamedTuple):
    """A meld as it would be laid down: cards in order and what each stands for."""

    kind: str
    cards: tuple[str, ...]
    reading: tuple[str, ...]
    suit: str
    rank: str
    lo: int
    hi: int


class TableMeld(NamedTuple):
    """A meld on the table; ``owners[i]`` is the seat credited with ``cards[i]``."""

    id: int
    kind: str
    cards: tuple[str, ...]
    reading: tuple[str, ...]
    owners: tuple[int, ...]
    suit: str
    rank: str
    lo: int
    hi: int

    def to_json(self) -> dict[str, object]:
        """{"id", "kind", "cards": [{"card", "as", "owner"}]} as views and storage show it."""
        return {
            "id": self.id,
            "kind": self.kind,
            "cards": [
                {"card": card, "as": reading, "owner": owner}
                for card, reading, owner in zip(self.cards, self.reading, self.owners, strict=True)
            ],
        }


class LayOffSpot(NamedTuple):
    """Where a card may be laid off: meld id, what it reads as, and at which end."""

    meld: int
    reading: str
    end: str
    """"lo", "hi" (runs) or "group"."""
    ace_end: str | None = None
    """"low" or "high" only where an ace (or a wild card read as one) fits both ends of a run
    that holds every other rank; the player then says which end (Ruling 1)."""


def place_meld(shape: MeldShape, meld_id: int, owner: int) -> TableMeld:
    """The shape laid down by ``owner`` as meld ``meld_id``."""
    return TableMeld(
        meld_id,
        shape.kind,
        shape.cards,
        shape.reading,
        (owner,) * len(shape.cards),
        shape.suit,
        shape.rank,
        shape.lo,
        shape.hi,
    )


# Enumeration ------------------------------------------------------------------------------


def enumerate_melds(hand: Sequence[str], wild_jokers: bool, distinct: bool) -> list[MeldShape]:
    """Every distinct meld that can be laid down from ``hand``, each with its reading.

    Runs are listed with cards in ascending order; groups with naturals in suit order and
    jokers last. A joker may stand for a card the hand also holds (a distinct meld).
    """
    jokers = 0
    by_rank: dict[str, str] = {}
    by_suit: dict[str, int] = {}
    for code in hand:
        if code == JOKER:
            jokers += 1
            continue
        rank = code[0]
        suit = code[1]
        by_rank[rank] = by_rank.get(rank, "") + suit
        by_suit[suit] = by_suit.get(suit, 0) | POSITION_BITS[code]
    if not wild_jokers:
        jokers = 0
    found: list[MeldShape] = []
    need = 3 - jokers
    ranks = [rank for rank, suits in by_rank.items() if len(suits) >= need]
    if len(ranks) > 1:
        ranks.sort(key=RANK_INDEX.__getitem__)
    for rank in ranks:
        _groups(rank, list(by_rank[rank]), jokers, distinct, found)
    for suit in "CDHS":
        bits = by_suit.get(suit, 0)
        if jokers:
            if bits and bits.bit_count() + jokers >= 3:
                _runs_with_jokers(suit, _positions(bits), jokers, found)
        elif bits & (bits >> 1) & (bits >> 2):
            _natural_runs(suit, _positions(bits), found)
    return found


def _positions(bits: int) -> set[int]:
    return {position for position in range(1, 15) if bits >> position & 1}


def _groups(rank: str, suits: list[str], jokers: int, distinct: bool, out: list[MeldShape]) -> None:
    pool = sorted(set(suits) if distinct else suits, key=SUIT_INDEX.__getitem__)
    wild_reading = rank + ANY_SUIT
    for size in range(1, min(MAX_GROUP, len(pool)) + 1):
        low = max(0, 3 - size)
        high = min(jokers, MAX_GROUP - size)
        if low > high:
            continue
        choices = combinations(pool, size)
        chosen = list(dict.fromkeys(choices)) if not distinct else list(choices)
        for combo in chosen:
            naturals = tuple(rank + suit for suit in combo)
            for wild in range(low, high + 1):
                out.append(
                    MeldShape(
                        "group",
                        naturals + (JOKER,) * wild,
                        naturals + (wild_reading,) * wild,
                        "",
                        rank,
                        0,
                        0,
                    )
                )


def _natural_runs(suit: str, positions: set[int], out: list[MeldShape]) -> None:
    ordered = sorted(positions)
    start = previous = ordered[0]
    for position in [*ordered[1:], 99]:
        if position == previous + 1:
            previous = position
            continue
        if previous - start >= 2:
            codes = [code_at(suit, p) for p in range(start, previous + 1)]
            for lo in range(start, previous - 1):
                for hi in range(lo + 2, min(previous, lo + MAX_RUN - 1) + 1):
                    cards = tuple(codes[lo - start : hi - start + 1])
                    out.append(MeldShape("run", cards, cards, suit, "", lo, hi))
        start = previous = position


def _runs_with_jokers(suit: str, positions: set[int], jokers: int, out: list[MeldShape]) -> None:
    for lo in range(1, 13):
        missing = 0
        present: list[int] = []
        for hi in range(lo, min(lo + MAX_RUN - 1, 14) + 1):
            if hi in positions:
                present.append(hi)
            else:
                missing += 1
                if missing > jokers:
                    break
            if hi - lo < 2 or not present:
                continue
            reading = tuple(code_at(suit, p) for p in range(lo, hi + 1))
            spare = jokers - missing
            for count in range(0, min(spare, len(present) - 1) + 1):
                for replaced in combinations(present, count):
                    cards = tuple(
                        code_at(suit, p) if p in positions and p not in replaced else JOKER
                        for p in range(lo, hi + 1)
                    )
                    out.append(MeldShape("run", cards, reading, suit, "", lo, hi))


# Checking a proposed meld -------------------------------------------------------------------


def _positions_in_order(readings: Sequence[str]) -> tuple[int, int] | None:
    """(lo, hi) when ``readings`` are consecutive cards of one suit in ascending order.

    An ace first is the low ace (position 1), an ace last the high ace (14), an ace anywhere
    else makes it no run.
    """
    suit = readings[0][1]
    last = len(readings) - 1
    if last + 1 > MAX_RUN:
        return None
    expected = 0
    lo = 0
    for index, code in enumerate(readings):
        if code[1] != suit:
            return None
        if code[0] == "A":
            if index == 0:
                position = 1
            elif index == last:
                position = 14
            else:
                return None
        else:
            position = RANK_INDEX[code[0]]
        if index == 0:
            lo = position
        elif position != expected:
            return None
        expected = position + 1
    return lo, expected - 1


def _run_shape(cards: tuple[str, ...], readings: Sequence[str]) -> MeldShape | None:
    if any(code[1] == ANY_SUIT for code in readings):
        return None
    span = _positions_in_order(readings)
    if span is None:
        return None
    return MeldShape("run", cards, tuple(readings), readings[0][1], "", span[0], span[1])


def _group_shape(
    cards: tuple[str, ...], readings: Sequence[str], distinct: bool
) -> MeldShape | None:
    rank = readings[0][0]
    if len(cards) > MAX_GROUP or any(code[0] != rank for code in readings):
        return None
    naturals = [card for card in cards if card != JOKER]
    if distinct and len({card[1] for card in naturals}) != len(naturals):
        return None
    naturals.sort(key=lambda card: SUIT_INDEX[card[1]])
    wild = len(cards) - len(naturals)
    ordered = (*naturals, *(JOKER,) * wild)
    reading = (*naturals, *(rank + ANY_SUIT,) * wild)
    return MeldShape("group", ordered, reading, "", rank, 0, 0)


def _sorted_natural_runs(cards: tuple[str, ...]) -> list[MeldShape]:
    """Natural cards given out of order: the runs they make once sorted (ace low or high)."""
    shapes = []
    for ace in (1, 14):
        ordered = tuple(
            sorted(cards, key=lambda card: ace if card[0] == "A" else RANK_INDEX[card[0]])
        )
        shape = _run_shape(ordered, ordered)
        if shape is not None and shape not in shapes:
            shapes.append(shape)
    return shapes


def resolve_meld(
    cards: tuple[str, ...],
    reading: tuple[str, ...] | None,
    wild_jokers: bool,
    distinct: bool,
    shown: tuple[str, ...] | None = None,
) -> MeldShape:
    """The meld these cards make, or IllegalAction saying why not or what to clarify.

    Laying cards out in order is the declaration: ``reading`` is needed only when the cards can
    be read more than one way (a 9 with two jokers: a group, or one of three runs).
    ``shown``: the cards as the player laid them, when ``cards`` stands wild cards of a wild
    rank in as jokers (see ``wilds``); messages then name the real cards.
    """
    wild_word = "joker" if shown is None or JOKER in shown else "wild card"
    if len(cards) < 3:
        raise IllegalAction("A meld needs at least three cards.")
    jokers = cards.count(JOKER)
    if jokers and not wild_jokers:
        raise IllegalAction("Jokers are not wild in this game, so they cannot be melded.")
    if jokers == len(cards):
        raise IllegalAction(f"A meld needs at least one natural card besides its {wild_word}s.")
    described = labels(shown if shown is not None else cards)
    if reading is not None:
        if len(reading) != len(cards):
            raise IllegalAction("Say what each card of the meld stands for, one for each card.")
        for read in reading:
            if not is_reading(read):
                raise IllegalAction(f"{read!r} is not a card a wild card can stand for.")
        for card, read in zip(cards, reading, strict=True):
            if card != JOKER and read != card:
                raise IllegalAction(f"The {card_label(card)} can only stand for itself.")
        same_rank = all(read[0] == reading[0][0] for read in reading)
        if same_rank:
            group = _group_shape(cards, reading, distinct)
            if group is None:
                raise IllegalAction(_group_problem(shown if shown is not None else cards, distinct))
            return group
        run = _run_shape(cards, reading)
        if run is None:
            raise IllegalAction(
                f"{described} read as {labels(reading)} is not a run: a run is three or more "
                "cards of one suit in a row, with the ace only at either end."
            )
        return run
    shapes: list[MeldShape] = []
    naturals = [card for card in cards if card != JOKER]
    if all(card[0] == naturals[0][0] for card in naturals):
        group = _group_shape(cards, [naturals[0][0] + ANY_SUIT] * len(cards), distinct)
        if group is not None:
            shapes.append(group)
    run = _run_from_order(cards)
    if run is not None:
        shapes.append(run)
    elif not jokers:
        shapes.extend(_sorted_natural_runs(cards))
    if len(shapes) == 1:
        return shapes[0]
    if shapes:
        raise IllegalAction(
            f"{described} can be read more than one way: say which card each {wild_word} stands for"
            if jokers
            else f"{described} can be read more than one way: lay the ace at the end you mean"
        )
    if all(card[0] == naturals[0][0] for card in naturals):
        raise IllegalAction(_group_problem(shown if shown is not None else cards, distinct))
    hint = f" Lay the cards out in order, each {wild_word} in the place it takes." if jokers else ""
    raise IllegalAction(
        f"{described} do not form a meld: a run needs three or more cards of one suit in a "
        "row (the ace only at either end) and a group three or four cards of one rank." + hint
    )


def _group_problem(cards: tuple[str, ...], distinct: bool) -> str:
    if len(cards) > MAX_GROUP:
        return (
            f"{labels(cards)} is too many for a group: a group holds at most four cards, "
            "so there is no fifth card for a joker to be."
        )
    if distinct:
        return f"{labels(cards)} is not a group: the cards of a group must be of different suits."
    return f"{labels(cards)} is not a group."  # pragma: no cover - every other case is caught


def _run_from_order(cards: tuple[str, ...]) -> MeldShape | None:
    """The run the cards make in the order given, jokers filling their places."""
    first = next(index for index, card in enumerate(cards) if card != JOKER)
    natural = cards[first]
    suit = natural[1]
    if any(card != JOKER and card[1] != suit for card in cards):
        return None
    starts = [1 - first, 14 - first] if natural[0] == "A" else [RANK_INDEX[natural[0]] - first]
    for lo in starts:
        hi = lo + len(cards) - 1
        if lo < 1 or hi > 14 or hi - lo + 1 > MAX_RUN:
            continue
        reading = tuple(code_at(suit, position) for position in range(lo, hi + 1))
        if all(card in (JOKER, read) for card, read in zip(cards, reading, strict=True)):
            return MeldShape("run", cards, reading, suit, "", lo, hi)
    return None


# Laying off and switching --------------------------------------------------------------------


def layoff_spots(meld: TableMeld, card: str, wild_jokers: bool, distinct: bool) -> list[LayOffSpot]:
    """Every way ``card`` can extend ``meld``.

    An ace (or a joker read as one) that fits both ends of a 2..K run gets two spots, the high
    end first, each marked with its ``ace_end``: the player says which end (Ruling 1).
    """
    spots: list[LayOffSpot] = []
    size = len(meld.cards)
    if card == JOKER:
        if not wild_jokers:
            return spots
        if meld.kind == "group":
            if size < MAX_GROUP:
                spots.append(LayOffSpot(meld.id, meld.rank + ANY_SUIT, "group"))
            return spots
        if size >= MAX_RUN:
            return spots
        if meld.lo == 2 and meld.hi == 13:
            return _both_ace_ends(meld, "A" + meld.suit)
        if meld.hi < 14:
            spots.append(LayOffSpot(meld.id, code_at(meld.suit, meld.hi + 1), "hi"))
        if meld.lo > 1:
            spots.append(LayOffSpot(meld.id, code_at(meld.suit, meld.lo - 1), "lo"))
        return spots
    if meld.kind == "group":
        if card[0] != meld.rank or size >= MAX_GROUP:
            return spots
        if distinct and any(read[1] == card[1] for read in meld.reading):
            return spots
        spots.append(LayOffSpot(meld.id, card, "group"))
        return spots
    if card[1] != meld.suit or size >= MAX_RUN:
        return spots
    rank = card[0]
    if rank == "A":
        if meld.hi == 13 and meld.lo == 2:
            return _both_ace_ends(meld, card)
        if meld.hi == 13:
            spots.append(LayOffSpot(meld.id, card, "hi"))
        elif meld.lo == 2:
            spots.append(LayOffSpot(meld.id, card, "lo"))
        return spots
    position = RANK_INDEX[rank]
    if position == meld.hi + 1:
        spots.append(LayOffSpot(meld.id, card, "hi"))
    elif position == meld.lo - 1:
        spots.append(LayOffSpot(meld.id, card, "lo"))
    return spots


def _both_ace_ends(meld: TableMeld, reading: str) -> list[LayOffSpot]:
    """The two spots of an ace on a 2..K run: high end first (the bots' choice), then low."""
    return [
        LayOffSpot(meld.id, reading, "hi", "high"),
        LayOffSpot(meld.id, reading, "lo", "low"),
    ]


def table_accepts(
    melds: Sequence[TableMeld], wild_jokers: bool, distinct: bool
) -> dict[str, list[LayOffSpot]]:
    """Card code -> every lay-off spot for it on the table (a lookup table for a state)."""
    accepts: dict[str, list[LayOffSpot]] = {}
    for meld in melds:
        for code, spot in _meld_spots(meld, wild_jokers, distinct):
            spots = accepts.get(code)
            if spots is None:
                accepts[code] = [spot]
            else:
                spots.append(spot)
    return accepts


@lru_cache(maxsize=8192)
def _meld_spots(
    meld: TableMeld, wild_jokers: bool, distinct: bool
) -> tuple[tuple[str, LayOffSpot], ...]:
    """Every (card, spot) by which ``meld`` can be extended (melds are values: cached)."""
    candidates: list[str] = []
    if meld.kind == "group":
        candidates = [meld.rank + suit for suit in "CDHS"]
    else:
        if meld.lo > 1:
            candidates.append(code_at(meld.suit, meld.lo - 1))
        if meld.hi < 14:
            candidates.append(code_at(meld.suit, meld.hi + 1))
    if wild_jokers:
        candidates.append(JOKER)
    return tuple(
        (code, spot)
        for code in dict.fromkeys(candidates)
        for spot in layoff_spots(meld, code, wild_jokers, distinct)
    )


def extend_meld(meld: TableMeld, card: str, spot: LayOffSpot, owner: int) -> TableMeld:
    """``meld`` with ``card`` laid off at ``spot`` by ``owner``."""
    if spot.end == "lo":
        return meld._replace(
            cards=(card, *meld.cards),
            reading=(spot.reading, *meld.reading),
            owners=(owner, *meld.owners),
            lo=meld.lo - 1,
        )
    return meld._replace(
        cards=(*meld.cards, card),
        reading=(*meld.reading, spot.reading),
        owners=(*meld.owners, owner),
        hi=meld.hi + 1 if spot.end == "hi" else meld.hi,
    )


def joker_slot_for(meld: TableMeld, card: str, distinct: bool) -> int | None:
    """Index of a joker in ``meld`` that the natural ``card`` can replace, or None."""
    if card == JOKER:
        return None
    for index, (physical, read) in enumerate(zip(meld.cards, meld.reading, strict=True)):
        if physical != JOKER:
            continue
        if meld.kind == "run":
            if read == card:
                return index
        elif read[0] == card[0]:
            if distinct and any(other[1] == card[1] for other in meld.reading):
                return None
            return index
    return None


def switch_joker_in(meld: TableMeld, index: int, card: str, owner: int) -> TableMeld:
    """``meld`` with the joker at ``index`` replaced by ``card``, credited to ``owner``."""
    return meld._replace(
        cards=(*meld.cards[:index], card, *meld.cards[index + 1 :]),
        reading=(*meld.reading[:index], card, *meld.reading[index + 1 :]),
        owners=(*meld.owners[:index], owner, *meld.owners[index + 1 :]),
    )


def meld_exists_with(card: str, others: Sequence[str], wild_jokers: bool, distinct: bool) -> bool:
    """True when ``card`` and some of ``others`` make a meld (a quick test, no enumeration)."""
    if card == JOKER:
        if not wild_jokers:
            return False
        return any(
            JOKER in shape.cards for shape in enumerate_melds([*others, card], True, distinct)
        )
    jokers = others.count(JOKER) if wild_jokers else 0
    rank = card[0]
    suit = card[1]
    if distinct:
        suits = {other[1] for other in others if other[0] == rank and other != JOKER}
        suits.discard(suit)
        if len(suits) + jokers >= 2:
            return True
    elif sum(1 for other in others if other[0] == rank and other != JOKER) + jokers >= 2:
        return True
    positions = {RANK_INDEX[other[0]] for other in others if other[1] == suit}
    if "A" + suit in others:
        positions.add(14)
    return run_window_fits(card, positions, jokers)


def run_window_fits(card: str, positions: set[int] | frozenset[int], jokers: int) -> bool:
    """True when ``card`` sits in some 3-card window of its suit with the gaps filled by jokers."""
    rank = card[0]
    own = (1, 14) if rank == "A" else (RANK_INDEX[rank],)
    for position in own:
        for start in (position - 2, position - 1, position):
            if start < 1 or start + 2 > 14:
                continue
            missing = 0
            for other in (start, start + 1, start + 2):
                if other != position and other not in positions:
                    missing += 1
            if missing <= jokers:
                return True
    return False


def meld_from_parts(
    meld_id: int,
    kind: str,
    cards: tuple[str, ...],
    reading: tuple[str, ...],
    owners: tuple[int, ...],
    wild_rank: str | None = None,
) -> TableMeld | None:
    """Rebuild a table meld from stored parts; None when they do not make that kind of meld.

    ``wild_rank``: cards of this rank may stand for another card, like jokers (oklahoma's
    deuces); one reading as itself is a natural card.
    """
    if len(cards) < 3 or not (len(cards) == len(reading) == len(owners)):
        return None
    if not any(card != JOKER and card == read for card, read in zip(cards, reading, strict=True)):
        return None
    for card, read in zip(cards, reading, strict=True):
        wild = card == JOKER or card[0] == wild_rank
        if not is_reading(read) or (not wild and read != card):
            return None
    if kind == "group":
        rank = reading[0][0]
        if len(cards) > MAX_GROUP or any(read[0] != rank for read in reading):
            return None
        if any(
            card != read and read != rank + ANY_SUIT
            for card, read in zip(cards, reading, strict=False)
        ):
            return None
        return TableMeld(meld_id, kind, cards, reading, owners, "", rank, 0, 0)
    if kind == "run" and not any(read[1] == ANY_SUIT for read in reading):
        span = _positions_in_order(reading)
        if span is not None:
            return TableMeld(meld_id, kind, cards, reading, owners, reading[0][1], "", *span)
    return None
