"""The one write path for moves: every move, whoever makes it (a person's socket, a bot task, the
turn clock), goes through ``move_submit``.

Lock-free snapshot, engine apply, then compare-and-swap of the table version, append the move,
and only after commit tell the table's group "version n". The version check is a conditional
UPDATE, so it holds on SQLite too, where ``select_for_update`` does nothing (there the
IMMEDIATE transaction already serialises writers). A move that ends the hand scores it here.
"""

from __future__ import annotations

from copy import copy
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import engine, signals
from games.models import Game, Hand, Move, Seat, Table
from games.services import clock, move_statement
from games.services.shared import MoveOutcome, TableError, after_commit, announce


def move_submit(
    *,
    table_id: int,
    seat: int,
    action: dict[str, Any],
    expected_version: int | None,
    client_id: str = "",
    actor: str = Move.Actor.HUMAN,
) -> MoveOutcome:
    """Apply one action for ``seat``; a repeated ``client_id`` gets its first answer again.

    Raises TableError (nothing changed) when refused.
    """
    try:
        return _apply_move(
            table_id=table_id,
            seat=seat,
            action=action,
            expected_version=expected_version,
            client_id=client_id,
            actor=actor,
        )
    except _Duplicate as repeat:
        return repeat.outcome
    except IntegrityError:
        # The move was rolled back whole. A client id already used by this seat for another
        # move of the hand is the sender's mistake, not the server's: say so.
        if client_id and _id_used(table_id, seat, client_id[:64]):
            raise TableError(
                "duplicate_id", "That move id was used for another move; send a new id."
            ) from None
        raise


def _id_used(table_id: int, seat: int, client_id: str) -> bool:
    hand = (
        Hand.objects.filter(game__table_id=table_id)
        .order_by("-game__number", "-number")
        .values_list("pk", flat=True)
        .first()
    )
    return Move.objects.filter(hand_id=hand, seat=seat, client_id=client_id).exists()


def _apply_move(
    *,
    table_id: int,
    seat: int,
    action: dict[str, Any],
    expected_version: int | None,
    client_id: str,
    actor: str,
) -> MoveOutcome:
    """Apply one action for ``seat``. Raises TableError (nothing changed) when refused.

    ``expected_version`` is the table version the sender acted on; bots and clocks pass the
    version they were armed for, so a late or duplicated task is refused as stale.

    The engine runs on the snapshot of the version being acted on, before the transaction;
    the transaction then only has to win ``UPDATE ... WHERE version = v`` (which takes the
    row lock on PostgreSQL and holds on SQLite too, where writers queue on the IMMEDIATE
    lock) and write the move. Every change to a hand bumps the table version, so winning the
    swap proves the snapshot's state is the stored one.
    """
    from games import selectors

    client_id = client_id[:64]
    try:
        # The version the sender acted on is usually cached: no query. If the table has
        # moved on since, the swap below fails and the move is refused as stale.
        snap = selectors.load_snapshot(table_id, expected_version)
    except Table.DoesNotExist:
        raise TableError("no_table", "There is no such table.") from None
    hand = snap.hand
    if expected_version is not None and expected_version != snap.version:
        raise _stale(snap, seat, client_id)
    if snap.table.status != Table.Status.PLAYING or hand is None or snap.state is None:
        raise TableError("not_playing", "No game is being played at this table.")
    if hand.status != Hand.Status.PLAYING:
        raise TableError("hand_over", "This hand is over.", version=snap.version)
    if snap.table.paused_at is not None:
        raise TableError("paused", "The game is paused; it goes on when it resumes.")
    if actor == Move.Actor.HUMAN and 0 <= seat < len(snap.seats) and snap.seats[seat].left:
        # Leaving is final (seat_back refuses it): a bot finishes the game for this seat.
        raise TableError("left", "You left this game; a bot finishes it for you.")
    try:
        parsed = engine.action_from_json(action, seat)
        new_state, events = engine.apply(snap.state, parsed)
    except engine.IllegalAction as exc:
        # Judged on the version the sender saw (from cache); if the table has moved on, the
        # honest answer is "stale" and a resync, not a refusal of an old position.
        current = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
        if current != snap.version:
            raise _stale(snap, seat, client_id, current) from None
        raise TableError("illegal", str(exc), version=snap.version) from None

    version = snap.version + 1
    seq = hand.moves_count + 1
    table, hand, game = copy(snap.table), copy(hand), copy(snap.game)
    table.version, hand.moves_count = version, seq
    hand.state = engine.state_to_json(new_state)
    hand_over = new_state.phase == engine.Phase.HAND_OVER
    game_over = _score_hand(table, hand, game, new_state) if hand_over else False
    after = selectors.TableSnapshot(
        table=table,
        seats=_seats_after_move(snap.seats, seat, actor),
        game=game,
        hand=hand,
        state=new_state,
        past_hands=snap.past_hands + ((hand,) if hand_over else ()),
        clock_moves=snap.clock_moves | ({seq} if actor == Move.Actor.CLOCK else set()),
        earlier_hand=snap.earlier_hand,
    )
    now = timezone.now()
    table.due_kind, table.due_at = clock.due_after(after, before=snap, now=now)
    deadline_moved = (table.due_kind, table.due_at) != (snap.table.due_kind, snap.table.due_at)
    # The clock task is armed for a deadline, not a version: it stays valid while the same
    # turn goes on, and an earlier task not yet fired re-arms itself for a later deadline.
    arm_clock_at = None
    if deadline_moved and table.due_kind == clock.CLOCK:
        # The clock's own moves run in the task the table recorded: it is spent.
        outstanding = None if actor == Move.Actor.CLOCK else snap.table.clock_task_at
        arm_clock_at = clock.arm_at(outstanding, table.due_at, now)
        if arm_clock_at is not None:
            table.clock_task_at = arm_clock_at
    # A person's own move ends their run of timeouts, and takes their seat back from a bot
    # that covered for them (as "I'm back" would): else the bot would go on playing it.
    reset_timeouts = actor == Move.Actor.HUMAN and (
        bool(snap.seats[seat].timeouts) or snap.seats[seat].autoplay
    )
    if not hand_over and not reset_timeouts and move_statement.available():
        won = move_statement.write_move(
            table_id=table_id,
            expected_version=snap.version,
            version=version,
            due_kind=table.due_kind,
            due_at=table.due_at,
            clock_task_at=arm_clock_at,
            hand_id=hand.pk,
            seq=seq,
            seat=seat,
            actor=actor,
            client_id=client_id,
            action=engine.action_to_json(parsed),
            state=hand.state,
            now=now,
        )
        if not won:
            raise _lost_race(table_id, hand.pk, seat, client_id)
    else:
        with transaction.atomic():
            _write_move_in_transaction(
                snap, table, hand, game, seat=seat, actor=actor, client_id=client_id,
                action=engine.action_to_json(parsed), game_over=game_over,
                reset_timeouts=reset_timeouts, arm_clock_at=arm_clock_at,
            )  # fmt: skip
    # Outside a transaction these run at once (the write is committed); inside a caller's
    # they wait for its commit.
    after_commit(lambda: selectors.remember(after))
    if hand_over:  # --- hook for apps built on games (games.signals) ---
        after_commit(
            lambda: signals.hand_finished.send(
                sender=Table,
                table_id=table_id,
                game_id=game.pk,
                hand_id=hand.pk,
                game_over=game_over,
            )
        )
    announce(
        table_id,
        version,
        lobby=game_over,
        work=selectors.work_for(after),
        arm_clock=arm_clock_at is not None,
    )
    return MoveOutcome(
        version=version,
        seq=seq,
        events=[e.to_json() for e in events],
        hand_over=hand_over,
        game_over=game_over,
    )


def _write_move_in_transaction(
    snap: Any,
    table: Table,
    hand: Hand,
    game: Game,
    *,
    seat: int,
    actor: str,
    client_id: str,
    action: dict[str, Any],
    game_over: bool,
    reset_timeouts: bool,
    arm_clock_at: Any,
) -> None:
    """The ORM twin of ``move_statement.write_move``, for SQLite and for moves that end a hand
    (which also write the hand's result and the game's totals)."""
    won = Table.objects.filter(
        pk=table.pk, version=snap.version, status=Table.Status.PLAYING
    ).update(
        version=table.version,
        due_kind=table.due_kind,
        due_at=table.due_at,
        status=table.status,
        finished_at=table.finished_at,
        **({"clock_task_at": arm_clock_at} if arm_clock_at is not None else {}),
    )
    if won != 1:
        raise _lost_race(table.pk, hand.pk, seat, client_id)
    Move.objects.create(
        hand=hand,
        seq=hand.moves_count,
        seat=seat,
        actor=actor,
        client_id=client_id,
        action=action,
        table_version=table.version,
    )
    if hand.status == Hand.Status.OVER:
        hand.save(update_fields=["state", "moves_count", "status", "result", "finished_at"])
        game.save(update_fields=["totals", "on_board", "status", "winners", "finished_at"])
        if game_over:  # ratings, leaderboards and the review (games.tasks), after the commit
            signals.game_finished.send(sender=Game, game_id=game.pk)
    else:
        hand.save(update_fields=["state", "moves_count"])
    if reset_timeouts:
        Seat.objects.filter(table_id=table.pk, index=seat).update(timeouts=0, autoplay=False)


class _Duplicate(TableError):
    """Not an error: the move was applied before; carries the first answer."""

    def __init__(self, outcome: MoveOutcome) -> None:
        super().__init__("duplicate", "Already applied.", version=outcome.version)
        self.outcome = outcome


def _stale(snap: Any, seat: int, client_id: str, current: int | None = None) -> TableError:
    """A move for an old version: a repeat of one applied before, or really stale."""
    if client_id and snap.hand is not None:
        done = _done_move(snap.hand.pk, seat, client_id)
        if done is not None:
            return _Duplicate(done)
    return TableError(
        "stale",
        "The table has moved on since you acted; here is where it stands now.",
        version=snap.version if current is None else current,
    )


def _done_move(hand_id: int, seat: int, client_id: str) -> MoveOutcome | None:
    done = (
        Move.objects.filter(hand_id=hand_id, seat=seat, client_id=client_id)
        .values_list("table_version", "seq")
        .first()
    )
    if done is None:
        return None
    return MoveOutcome(version=done[0], seq=done[1], duplicate=True)


def _lost_race(table_id: int, hand_id: int, seat: int, client_id: str) -> TableError:
    """Another write got in between the snapshot and the swap: say why the move lost."""
    current = Table.objects.filter(pk=table_id).values_list("version", "status").first()
    if current is None:
        return TableError("no_table", "There is no such table.")
    if client_id:
        done = _done_move(hand_id, seat, client_id)
        if done is not None:
            return _Duplicate(done)
    version, status = current
    if status != Table.Status.PLAYING:
        return TableError("not_playing", "No game is being played at this table.", version=version)
    return TableError("stale", "Someone else moved first.", version=version)


def _score_hand(table: Table, hand: Hand, game: Game, state: Any) -> bool:
    """Score the finished hand into (copies of) the hand, game and table; True if game over."""
    result = engine.hand_result(state)
    now = timezone.now()
    hand.status = Hand.Status.OVER
    hand.result = result.to_json()
    hand.finished_at = now
    game.on_board = list(result.on_board)
    game.totals = list(result.totals)
    if table.hands_per_game:
        # A fixed number of hands: the target does not end it; tied leaders share the win.
        if hand.number < table.hands_per_game:
            return False
        best = max(game.totals)
        winners = [seat for seat, total in enumerate(game.totals) if total == best]
    else:
        rules = engine.Rules.from_json(game.rules)
        excluded = None
        if rules.spec.concealed_going_out_bonus:  # oklahoma: the 250 does not count toward 1000
            earlier = Hand.objects.filter(game=game, status=Hand.Status.OVER).exclude(pk=hand.pk)
            results = [*earlier.values_list("result", flat=True), hand.result]
            excluded = engine.excluded_totals(results, len(result.totals))
        outcome, totals = engine.settle_game(rules, result.totals, excluded)
        game.totals = list(totals)  # with the winner's game bonus (oklahoma 200)
        if not outcome.over:
            return False
        winners = list(outcome.winners)
    game.status = Game.Status.FINISHED
    game.winners = winners
    game.finished_at = now
    table.status = Table.Status.FINISHED
    table.finished_at = now
    return True


def _seats_after_move(seats: tuple[Any, ...], seat: int, actor: str) -> tuple[Any, ...]:
    """A person's own move ends their run of timeouts and any bot cover of their seat."""
    from dataclasses import replace

    if actor != Move.Actor.HUMAN or not 0 <= seat < len(seats):
        return seats
    if not seats[seat].timeouts and not seats[seat].autoplay:
        return seats
    return tuple(replace(s, timeouts=0, autoplay=False) if s.index == seat else s for s in seats)
