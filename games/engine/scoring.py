"""Scoring a hand card by card, and deciding the game.

Why per-card lines: players dispute scores, and a bot or a tournament needs to explain a chip
payment. Every melded card scores for the seat that laid it (``TableMeld.owners``), every card
left in a hand counts against its holder, and each line says why it is worth what it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .cards import JOKER, RANK_INDEX, card_label
from .melds import TableMeld
from .michigan import single_hand_outcome
from .oklahoma import going_out_bonus
from .partnerships import SideScore, doubled_melds, side_outcome, side_scores
from .presets import CardValues
from .rules import Rules
from .state import HandState, Phase


@dataclass(frozen=True)
class ScoreLine:
    """One card's contribution: positive when melded, negative when left in hand."""

    card: str
    points: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"card": self.card, "points": self.points, "reason": self.reason}


@dataclass(frozen=True)
class SeatScore:
    """One seat's hand: melded points, points left in hand, and what counts for the game."""

    seat: int
    melded: int
    in_hand: int
    score: int
    counted: int
    """What is added to the total (differs from ``score`` only under thirty_point_rule)."""
    total_before: int
    total_after: int
    on_board: bool
    lines: tuple[ScoreLine, ...]
    bonus: int = 0
    """Going-out bonus (persian 25; oklahoma 100 or 250; five-thousand: the cards left in the
    other hands), part of ``score``."""
    excluded: int = 0
    """The part of ``counted`` that does not count toward the target (oklahoma's 250)."""
    bonus_reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "melded": self.melded,
            "in_hand": self.in_hand,
            "bonus": self.bonus,
            "bonus_reason": self.bonus_reason,
            "excluded": self.excluded,
            "score": self.score,
            "counted": self.counted,
            "total_before": self.total_before,
            "total_after": self.total_after,
            "on_board": self.on_board,
            "lines": [line.to_json() for line in self.lines],
        }


@dataclass(frozen=True)
class HandResult:
    """The scored hand. ``final`` is False when scored before the hand ended (a projection)."""

    seats: tuple[SeatScore, ...]
    final: bool
    reason: str | None
    went_out: int | None
    sides: tuple[SideScore, ...] = ()
    """Partnerships (persian): each side's pooled score and total; seats carry the side total."""

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(seat.score for seat in self.seats)

    @property
    def totals(self) -> tuple[int, ...]:
        """Game totals after this hand."""
        return tuple(seat.total_after for seat in self.seats)

    @property
    def on_board(self) -> tuple[bool, ...]:
        return tuple(seat.on_board for seat in self.seats)

    @property
    def excluded(self) -> tuple[int, ...]:
        """Per seat, points of this hand that do not count toward the target."""
        return tuple(seat.excluded for seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "final": self.final,
            "reason": self.reason,
            "went_out": self.went_out,
            "seats": [seat.to_json() for seat in self.seats],
        }
        if self.sides:
            data["sides"] = [side.to_json() for side in self.sides]
        return data


@dataclass(frozen=True)
class GameOutcome:
    """Whether the game is over after these totals, and who won."""

    over: bool
    winners: tuple[int, ...]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"over": self.over, "winners": list(self.winners), "reason": self.reason}


def _natural_value(values: CardValues, code: str) -> int | None:
    for special, melded, _in_hand in values.special:
        if special == code:
            return melded
    return None


def _wild_value(values: CardValues, card: str, wild: str | None) -> int | None:
    """five-thousand: a card of the wild rank has one value wherever it is."""
    if wild is None or values.wild_rank_value is None or card == JOKER or card[0] != wild:
        return None
    if wild == "A" and values.wild_ace_value is not None:
        return values.wild_ace_value
    return values.wild_rank_value


def melded_line(
    values: CardValues, meld: TableMeld, index: int, wild: str | None = None
) -> ScoreLine:
    """What the card at ``index`` of ``meld`` is worth to its owner, and why."""
    card = meld.cards[index]
    read = meld.reading[index]
    fixed = _wild_value(values, card, wild)
    if fixed is not None:
        return ScoreLine(card, fixed, f"wild card as {card_label(read)}")
    if card == JOKER and values.joker_melded is not None:
        return ScoreLine(card, values.joker_melded, f"joker as {card_label(read)}")
    prefix = "joker as " if card == JOKER else ""
    rank = read[0]
    if rank == "A":
        if meld.kind == "group":
            points, where = values.ace_group, "ace in a group"
        elif meld.lo + index == 1:
            points, where = values.ace_low, "low ace in a run"
        else:
            points, where = values.ace_high, "high ace in a run"
        return ScoreLine(card, points, f"{prefix}{where}".strip())
    special = _natural_value(values, read) if card != JOKER else None
    if card != read and card != JOKER:
        for wild_for, points in values.wild_as:
            if wild_for == read:
                special = points
    points = special if special is not None else values.pips[RANK_INDEX[rank]]
    kind = "in a group" if meld.kind == "group" else "in a run"
    return ScoreLine(card, points, f"{prefix}{card_label(read)} {kind}")


def in_hand_line(values: CardValues, card: str, wild: str | None = None) -> ScoreLine:
    """What a card left in hand costs (a negative line)."""
    fixed = _wild_value(values, card, wild)
    if fixed is not None:
        points = fixed
    elif card == JOKER:
        points = values.joker_in_hand
    elif card[0] == "A":
        points = values.ace_in_hand
    else:
        points = values.pips[RANK_INDEX[card[0]]]
        for special, _melded, in_hand in values.special:
            if special == card:
                points = in_hand
    return ScoreLine(card, -points, "left in hand")


def hand_result(state: HandState) -> HandResult:
    """Score the hand: per seat, melded minus in-hand, with the game totals after it.

    Before the hand is over this is a projection ("if the hand ended now"), marked not final.
    """
    rules = state.rules
    spec = rules.spec
    values = rules.values
    wild = state.wild
    doubled = doubled_melds(state.history) if spec.double_group_of_four else frozenset()
    melded_lines: list[list[ScoreLine]] = [[] for _ in range(state.num_seats)]
    for meld in state.melds:
        for index, owner in enumerate(meld.owners):
            line = melded_line(values, meld, index, wild)
            if meld.id in doubled:
                line = ScoreLine(line.card, 2 * line.points, f"{line.reason}, four at once: double")
            melded_lines[owner].append(line)
    for owner, card, meld_id in state.fronts:
        natural = -in_hand_line(values, card, wild).points
        melded_lines[owner].append(
            ScoreLine(card, natural, f"in front, for the wild card in meld {meld_id}")
        )
    seats = []
    end = state.end
    out = end.seat if end is not None and end.reason == "went_out" else None
    to_winner = rules.spec.in_hand_to_winner
    for seat in range(state.num_seats):
        lines = list(melded_lines[seat])
        if to_winner:  # five-thousand: whoever goes out scores the cards left in the hands
            lines.extend(
                ScoreLine(card, 0, "left in hand (scores for whoever goes out)")
                for card in state.hands[seat]
            )
        else:
            lines.extend(in_hand_line(values, card, wild) for card in state.hands[seat])
        melded = sum(line.points for line in lines if line.points > 0)
        in_hand = -sum(line.points for line in lines if line.points < 0)
        bonus, excluded, why = 0, 0, ""
        if seat == out and spec.going_out_bonus:
            bonus, excluded, why = going_out_bonus(state, seat)
        if seat == out and to_winner:
            bonus = sum(
                -in_hand_line(values, card, wild).points
                for other, hand in enumerate(state.hands)
                if other != seat
                for card in hand
            )
            why = "the cards left in the other hands"
        score = melded - in_hand + bonus
        on_board = state.on_board[seat] or score >= 30
        counted = score if (not rules.thirty_point_rule or on_board) else 0
        if not counted:
            excluded = 0
        total = state.totals[seat]
        seats.append(
            SeatScore(
                seat,
                melded,
                in_hand,
                score,
                counted,
                total,
                total + counted,
                on_board,
                tuple(lines),
                bonus,
                excluded,
                why,
            )
        )
    final = state.phase is Phase.HAND_OVER
    sides: tuple[SideScore, ...] = ()
    if spec.partnerships:
        sides = side_scores(rules, state.totals, [seat.counted for seat in seats], final)
        by_seat = {seat: side for side in sides for seat in side.seats}
        seats = [replace(seat, total_after=by_seat[seat.seat].total_after) for seat in seats]
    return HandResult(tuple(seats), final, end.reason if end else None, out, sides)


def game_outcome(
    rules: Rules,
    totals: tuple[int, ...] | list[int],
    *,
    hands_played: int = 1,
    excluded: tuple[int, ...] | list[int] | None = None,
) -> GameOutcome:
    """Over when a total reaches the target and one seat alone has the highest total.

    A tie for the highest total at or above the target means another hand is played.
    ``hands_played``: hands finished so far (the server asks right after scoring one); it
    matters only where a game is a single hand (michigan).
    ``excluded``: per seat, points in the total that do not count toward the target
    (oklahoma's concealed going-out bonus); the winner is then the highest total among the
    seats that reached the target without them.
    """
    totals = tuple(totals)
    if not totals:
        return GameOutcome(False, (), "No scores yet.")
    if rules.spec.single_hand_game:
        return GameOutcome(*single_hand_outcome(totals, hands_played))
    if rules.spec.partnerships:
        return GameOutcome(*side_outcome(rules, totals))
    reached = list(range(len(totals)))
    if excluded:
        reached = [seat for seat in reached if totals[seat] - excluded[seat] >= rules.target]
        if not reached:
            return GameOutcome(False, (), f"Nobody has reached {rules.target} yet.")
    best = max(totals[seat] for seat in reached)
    if best < rules.target:
        return GameOutcome(False, (), f"Nobody has reached {rules.target} yet.")
    leaders = tuple(seat for seat in reached if totals[seat] == best)
    if len(leaders) > 1:
        return GameOutcome(
            False, (), f"Seats {', '.join(map(str, leaders))} tie at {best}: another hand."
        )
    return GameOutcome(True, leaders, f"Seat {leaders[0]} wins with {best}.")


def settle_game(
    rules: Rules,
    totals: tuple[int, ...] | list[int],
    excluded: tuple[int, ...] | list[int] | None = None,
) -> tuple[GameOutcome, tuple[int, ...]]:
    """The outcome after a hand, and the totals with the winner's game bonus (oklahoma 200).

    Partnerships (persian) add their side's game bonus in ``hand_result`` already.
    """
    outcome = game_outcome(rules, totals, excluded=excluded)
    final = list(totals)
    bonus = 0 if rules.spec.partnerships else rules.spec.game_bonus
    if outcome.over and bonus:
        for seat in outcome.winners:
            final[seat] += bonus
    return outcome, tuple(final)


def excluded_totals(results: list[Any], num_seats: int) -> tuple[int, ...]:
    """Per seat, the points that do not count toward the target, summed over stored results
    (``HandResult.to_json()`` documents)."""
    sums = [0] * num_seats
    for result in results:
        for seat in (result or {}).get("seats", ()):
            index = seat.get("seat")
            if isinstance(index, int) and 0 <= index < num_seats:
                sums[index] += int(seat.get("excluded", 0) or 0)
    return tuple(sums)
