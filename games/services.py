"""Every write to tables, seats, games and hands goes through here.

One path applies every move, whoever makes it (a person's socket, a bot task, the turn
clock): lock the table row, compare-and-swap its version, apply the engine, save the state,
append the move, and only after commit tell the table's group "version n". The version check
is a conditional UPDATE, so it holds on SQLite too, where ``select_for_update`` does nothing
(there the IMMEDIATE transaction already serialises writers).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from copy import copy
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import clock, engine, move_statement, signals
from games.models import Game, Hand, Move, Seat, SeatSocket, Table

log = logging.getLogger(__name__)

BOT_LEVELS = ("easy", "medium", "hard")
MIN_TURN_SECONDS = 15
MAX_TURN_SECONDS = 300


class TableError(Exception):
    """A refused request, with a code for clients and a sentence for people."""

    def __init__(self, code: str, message: str, *, version: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.version = version


@dataclass(frozen=True)
class MoveOutcome:
    version: int
    seq: int
    duplicate: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    hand_over: bool = False
    game_over: bool = False


# --- after-commit effects -------------------------------------------------------------------


def _after_commit(fn: Callable[[], None]) -> None:
    transaction.on_commit(fn)


def _announce(
    table_id: int, version: int, *, lobby: bool = False, work: Any = None, arm_clock: bool = True
) -> None:
    """After commit: tell the table's sockets, the lobby if asked, and arm bots or the next hand.

    ``work`` (a selectors.PendingWork) spares a read when the caller already knows it.
    """
    from games import broadcast, tasks

    def send() -> None:
        broadcast.table_changed(table_id, version)
        if lobby:
            broadcast.lobby_changed()
        tasks.schedule_table_work(table_id, version, work=work, arm_clock=arm_clock)

    _after_commit(send)


def _bump(table: Table) -> int:
    """Advance the version of a table whose row this transaction holds."""
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.version += 1
    return table.version


def _refresh_due(table: Table) -> None:
    """Store what the table waits for next, after a write other than a move changed it."""
    from games import selectors

    table.due_kind, table.due_at = clock.due_after(selectors.read_snapshot(table))
    Table.objects.filter(pk=table.pk).update(due_kind=table.due_kind, due_at=table.due_at)


def _locked_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise TableError("no_table", "There is no such table.") from None


# --- creating and seating ------------------------------------------------------------------


def build_rules(preset: str, options: dict[str, Any]) -> engine.Rules:
    try:
        return engine.make_rules(preset, **options)
    except engine.RulesError as exc:
        raise TableError("invalid_rules", str(exc)) from None


def table_create(
    *,
    host: User,
    name: str,
    preset: str,
    options: dict[str, Any],
    num_seats: int,
    turn_seconds: int | None,
    is_private: bool = False,
    spectators_allowed: bool = True,
    chat_enabled: bool = True,
    auto_start: bool = False,
    fill_with_bots: bool = False,
    bot_level: str = "easy",
    rated: bool = True,
) -> Table:
    """Create a table with the host in seat 0 (and bots in the rest, if asked)."""
    rules = build_rules(preset, options)
    try:
        rules.validate_players(num_seats)
    except engine.RulesError as exc:
        raise TableError("invalid_seats", str(exc)) from None
    if turn_seconds is None:
        if not is_private:
            raise TableError("invalid_clock", "Only private tables may be untimed.")
    elif not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
        raise TableError(
            "invalid_clock",
            f"Turn time must be between {MIN_TURN_SECONDS} seconds and "
            f"{MAX_TURN_SECONDS // 60} minutes.",
        )
    if bot_level not in BOT_LEVELS:
        raise TableError("invalid_bot", f"Bot level must be one of {', '.join(BOT_LEVELS)}.")
    name = name.strip() or _default_table_name(host.display_name)
    with transaction.atomic():
        _check_not_busy(host)
        _check_table_limits(host)
        table = Table.objects.create(
            name=name[:60],
            host=host,
            preset=preset,
            rules=rules.to_json(),
            num_seats=num_seats,
            turn_seconds=turn_seconds,
            is_private=is_private,
            spectators_allowed=spectators_allowed,
            chat_enabled=chat_enabled,
            auto_start=auto_start,
            bot_level=bot_level,
            rated=rated,
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                index=i,
                user=host if i == 0 else None,
                bot_level=bot_level if (fill_with_bots and i > 0) else "",
            )
            for i in range(num_seats)
        )
        _announce(table.pk, table.version, lobby=True)
    return table


TABLE_LIMIT_CODES = frozenset({"too_many_waiting", "too_many_created"})


def _check_table_limits(host: User) -> None:
    """One account must not fill the lobby: a few tables waiting at once, a few new ones a
    minute (settings TABLES_WAITING_PER_HOST, TABLES_CREATED_PER_MINUTE).

    The host's row is locked first, so that simultaneous requests are counted one after
    the other rather than each seeing the count before the others' tables.
    """
    User.objects.select_for_update().filter(pk=host.pk).values_list("pk", flat=True).first()
    hosted = Table.objects.filter(host=host, managed=False)
    waiting_limit = settings.TABLES_WAITING_PER_HOST
    if hosted.filter(status=Table.Status.WAITING).count() >= waiting_limit:
        raise TableError(
            "too_many_waiting",
            f"You already host {waiting_limit} tables waiting for players. Leave one you "
            "no longer need before you create another.",
        )
    per_minute = settings.TABLES_CREATED_PER_MINUTE
    since = timezone.now() - timedelta(minutes=1)
    if hosted.filter(created_at__gte=since).count() >= per_minute:
        raise TableError(
            "too_many_created",
            f"You can create at most {per_minute} tables a minute. Wait a moment and try again.",
        )


ONE_GAME_RULE = (
    "A person plays at one running game at a time (tournament tables included); "
    "you may watch any number of tables."
)


def _check_not_busy(user: User) -> None:
    """The one rule for sitting down and for creating a table: one running game per person.

    Any table whose game is running counts, a tournament's tables too (they are tables like
    any other); watching never counts.
    """
    busy = Seat.objects.filter(
        user=user, table__status=Table.Status.PLAYING, left=False
    ).select_related("table")
    for seat in busy:
        raise TableError(
            "busy",
            f"You are already playing at “{seat.table.name}”. {ONE_GAME_RULE} "
            "Finish or leave that game first.",
        )


def _check_seated_not_busy(table: Table, seats: list[Seat]) -> None:
    """Before a game starts: nobody seated here may be playing a running game elsewhere (a
    person can sit at several waiting tables; the first to start is the one they play)."""
    people = [s.user_id for s in seats if s.user_id is not None and not s.left]
    busy = (
        Seat.objects.filter(user_id__in=people, table__status=Table.Status.PLAYING, left=False)
        .exclude(table=table)
        .select_related("table", "user")
        .first()
    )
    if busy is not None:
        raise TableError(
            "busy",
            f"{busy.user.display_name} is already playing at “{busy.table.name}”. "
            f"{ONE_GAME_RULE} The game can start once they finish or leave it.",
        )


def _waiting_table(table_id: int) -> Table:
    table = _locked_table(table_id)
    if table.status != Table.Status.WAITING:
        raise TableError("started", "The game at this table has already started.")
    return table


def _seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user").order_by("index"))


def seat_join(
    *,
    table_id: int,
    user: User,
    index: int | None = None,
    invite: str | None = None,
) -> Seat:
    """Sit down at a waiting table: in the seat asked for, else the first free one.

    A private table takes only people who bring its invite token.
    """
    if user.is_bot:
        raise TableError("forbidden", "Bot accounts cannot sit down.")
    with transaction.atomic():
        table = _waiting_table(table_id)
        if table.is_private and not secrets.compare_digest(invite or "", table.invite_token):
            raise TableError("no_invite", "This table is private: use the invite link to join.")
        seats = _seats(table)
        if any(s.user_id == user.pk for s in seats):
            raise TableError("already_seated", "You already have a seat at this table.")
        _check_not_busy(user)
        seat = _free_seat(seats, index)
        seat.user = user
        seat.disconnected_at = None
        seat.save(update_fields=["user", "disconnected_at"])
        _presence_from_sockets(table.pk)
        version = _bump(table)
        if table.auto_start and all(not s.is_empty for s in seats):
            _check_seated_not_busy(table, seats)
            _start_game(table, seats)
            version = table.version
        _announce(table.pk, version, lobby=True)
    return seat


def _free_seat(seats: list[Seat], index: int | None) -> Seat:
    if index is None:
        for seat in seats:
            if seat.is_empty:
                return seat
        raise TableError("full", "Every seat at this table is taken.")
    if not 0 <= index < len(seats):
        raise TableError("no_seat", "There is no such seat.")
    if not seats[index].is_empty:
        raise TableError("seat_taken", "That seat is taken.")
    return seats[index]


def seat_change(*, table_id: int, user: User, index: int) -> Seat:
    with transaction.atomic():
        table = _waiting_table(table_id)
        seats = _seats(table)
        mine = _own_seat(seats, user)
        target = _free_seat(seats, index)
        mine.user, target.user = None, user
        target.disconnected_at = None
        mine.save(update_fields=["user"])
        target.save(update_fields=["user", "disconnected_at"])
        _presence_from_sockets(table.pk)
        _announce(table.pk, _bump(table), lobby=True)
    return target


def _own_seat(seats: list[Seat], user: User) -> Seat:
    for seat in seats:
        if seat.user_id == user.pk:
            return seat
    raise TableError("not_seated", "You have no seat at this table.")


def seat_leave(*, table_id: int, user: User) -> None:
    """Stand up. At a running game a bot finishes for you and the result stays yours."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seats = _seats(table)
        seat = _own_seat(seats, user)
        if table.status == Table.Status.WAITING:
            seat.user = None
            seat.save(update_fields=["user"])
            if table.host_id == user.pk:
                others = [s.user for s in seats if s.user_id and s.user_id != user.pk]
                if others:
                    table.host = others[0]
                    table.save(update_fields=["host"])
                else:  # it stays theirs: the creation limits count the tables one opened
                    table.status = Table.Status.EXPIRED
                    table.finished_at = timezone.now()
                    table.save(update_fields=["status", "finished_at"])
        elif table.status == Table.Status.PLAYING:
            seat.left = True
            seat.autoplay = True
            seat.save(update_fields=["left", "autoplay"])
            # The result stays the player's (leaving cannot dodge a rating); the game record
            # says that a bot finished it for them.
            game = Game.objects.filter(table=table, status=Game.Status.PLAYING).first()
            if game is not None:
                game.players[seat.index]["bot_finished"] = True
                game.save(update_fields=["players"])
            version = _bump(table)
            _refresh_due(table)
            _announce(table.pk, version, lobby=True)
            return
        else:
            raise TableError("finished", "This table has finished.")
        _announce(table.pk, _bump(table), lobby=True)


def seat_set_bot(*, table_id: int, by: User, index: int, level: str | None) -> None:
    """Host only, before the start: put a bot in an empty seat, or take one out (level None)."""
    if level is not None and level not in BOT_LEVELS:
        raise TableError("invalid_bot", f"Bot level must be one of {', '.join(BOT_LEVELS)}.")
    with transaction.atomic():
        table = _waiting_table(table_id)
        _require_host(table, by)
        seats = _seats(table)
        if not 0 <= index < len(seats):
            raise TableError("no_seat", "There is no such seat.")
        seat = seats[index]
        if level is None:
            if not seat.is_bot:
                raise TableError("not_bot", "There is no bot in that seat.")
            seat.bot_level = ""
        else:
            if seat.user_id is not None:
                raise TableError("seat_taken", "That seat is taken.")
            seat.bot_level = level
        seat.save(update_fields=["bot_level"])
        _announce(table.pk, _bump(table), lobby=True)


def seat_remove_player(*, table_id: int, by: User, index: int) -> None:
    """Host only, before the start: free a seat a person holds."""
    with transaction.atomic():
        table = _waiting_table(table_id)
        _require_host(table, by)
        seats = _seats(table)
        if not 0 <= index < len(seats) or seats[index].user_id is None:
            raise TableError("no_player", "Nobody sits in that seat.")
        if seats[index].user_id == by.pk:
            raise TableError("forbidden", "Leave the table instead of removing yourself.")
        seats[index].user = None
        seats[index].save(update_fields=["user"])
        _announce(table.pk, _bump(table), lobby=True)


def _require_host(table: Table, user: User) -> None:
    if table.host_id != user.pk:
        raise TableError("not_host", "Only the host can do that.")


# --- games and hands -----------------------------------------------------------------------


def table_start(*, table_id: int, by: User) -> Game:
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status == Table.Status.FINISHED:
            table.status = Table.Status.WAITING  # "play again" with the same seats
        elif table.status != Table.Status.WAITING:
            raise TableError("started", "The game at this table has already started.")
        if table.managed:
            raise TableError("managed", "This table is started by its organizer.")
        _require_host(table, by)
        seats = _seats(table)
        if any(s.is_empty for s in seats):
            raise TableError("not_full", "Every seat must be taken (add bots to fill them).")
        _check_seated_not_busy(table, seats)
        game = _start_game(table, seats)
        _announce(table.pk, table.version, lobby=True)
    return game


def _start_game(table: Table, seats: list[Seat], dealer: int | None = None) -> Game:
    rules = engine.Rules.from_json(table.rules)
    if dealer is not None and not rules.spec.partnerships and 0 <= dealer < len(seats):
        shown: Any = []  # a manager (tournament) names the dealer: no draw
    elif rules.spec.partnerships and rules.partners_by_draw:
        seating = engine.partnership_draw(rules, len(seats))
        seats = _reseat(seats, seating.order)
        dealer, shown = seating.dealer, seating.seated_rounds()
    else:
        draw = engine.first_dealer_draw(rules, len(seats))
        dealer, shown = draw.dealer, draw.to_json()["rounds"]
    number = (table.games.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    game = Game.objects.create(
        table=table,
        number=number,
        rules=table.rules,
        players=[_player_record(s) for s in seats],
        first_dealer=dealer,
        dealer_draw=shown,
        totals=[0] * len(seats),
    )
    Seat.objects.filter(table=table).update(timeouts=0)
    table.status = Table.Status.PLAYING
    table.started_at = table.started_at or timezone.now()
    table.finished_at = None
    table.save(update_fields=["status", "started_at", "finished_at"])
    _deal(table, game, rules, dealer)
    _refresh_due(table)
    return game


_OCCUPANT_FIELDS = ("user", "bot_level", "autoplay", "left", "disconnected_at", "present_until")


def _reseat(seats: list[Seat], order: tuple[int, ...]) -> list[Seat]:
    """Move the players so that ``order[i]`` (a seat before) sits at seat ``i`` (partnerships).

    Users are cleared first: a person may hold only one seat of a table at any moment.
    """
    moved = [{name: getattr(seats[old], name) for name in _OCCUPANT_FIELDS} for old in order]
    for seat in seats:
        seat.user = None
    Seat.objects.bulk_update(seats, ["user"])
    for seat, occupant in zip(seats, moved, strict=True):
        for name, value in occupant.items():
            setattr(seat, name, value)
    Seat.objects.bulk_update(seats, list(_OCCUPANT_FIELDS))
    return seats


def _player_record(seat: Seat) -> dict[str, Any]:
    if seat.user_id:
        return {"user": seat.user_id, "name": seat.user.display_name, "bot": ""}
    return {"user": None, "name": f"{seat.bot_level.title()} bot", "bot": seat.bot_level}


def _deal(table: Table, game: Game, rules: engine.Rules, dealer: int) -> Hand:
    number = (game.hands.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    state = engine.new_hand(
        rules,
        table.num_seats,
        dealer,
        totals=list(game.totals),
        on_board=list(game.on_board) or None,
    )
    hand = Hand.objects.create(
        game=game, number=number, dealer=dealer, state=engine.state_to_json(state)
    )
    _bump(table)
    return hand


def hand_next(*, table_id: int, expected_version: int | None = None) -> Hand | None:
    """Deal the next hand once the last one is over. Safe to call twice: the second does nothing."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if expected_version is not None and table.version != expected_version:
            return None
        hand = current_hand(table)
        if table.status != Table.Status.PLAYING or hand is None:
            return None
        if hand.status != Hand.Status.OVER or hand.game.status != Game.Status.PLAYING:
            return None
        game = hand.game
        rules = engine.Rules.from_json(game.rules)
        new = _deal(table, game, rules, engine.next_dealer(rules, hand.dealer, table.num_seats))
        _refresh_due(table)
        _announce(table.pk, table.version)
    return new


def hand_ready(*, table_id: int, user: User) -> bool:
    """The person says they are ready for the next hand, during the pause between hands.

    The pause (clock.hand_pause_left, the site's one definition) ends early once every
    person seated and connected has said so; it never lasts longer than the setting: the
    task armed when the hand ended deals at its end whoever pressed what. Who is ready is
    kept in the finished hand's result (no version bump, so the armed task stays valid).

    At a table of ours the next hand is dealt now. A managed table's next deal (or round) is
    its manager's: it is told the pause is over (signals.hand_pause_over) and deals when its
    own wait, which asks the same definition, finds it so. Returns whether the pause ended.
    """
    with transaction.atomic():
        table = _locked_table(table_id)
        hand = current_hand(table)
        if hand is None or not _between_hands(table, hand):
            raise TableError("not_between_hands", "There is no pause between hands now.")
        seats = _seats(table)
        mine = next((s for s in seats if s.user_id == user.pk and not s.left), None)
        if mine is None:
            raise TableError("not_seated", "Only the players at this table say Ready.")
        now = timezone.now()
        if clock.hand_pause_left(hand.finished_at, now) <= 0 and table.managed:
            raise TableError("not_between_hands", "The pause is over; the next hand is coming.")
        result = dict(hand.result or {})
        ready = sorted({*result.get("ready", []), mine.index})
        result["ready"] = ready
        Hand.objects.filter(pk=hand.pk).update(result=result)
        over = clock.everyone_ready(seats, ready, now)
        version = table.version
        if over and table.managed:
            _after_commit(
                lambda: signals.hand_pause_over.send(
                    sender=Table, table_id=table_id, hand_id=hand.pk
                )
            )
    if not over:
        return False
    if table.managed:
        return True
    return hand_next(table_id=table_id, expected_version=version) is not None


def _between_hands(table: Table, hand: Hand) -> bool:
    """A finished hand whose next deal is still to come: at a table of ours, while its game
    goes on; at a managed table (a tournament's), also after a one-hand game, since the
    manager's next round follows the same pause."""
    if table.paused_at is not None or hand.status != Hand.Status.OVER:
        return False
    if table.managed:
        return table.status in (Table.Status.PLAYING, Table.Status.FINISHED)
    return table.status == Table.Status.PLAYING and hand.game.status == Game.Status.PLAYING


def current_hand(table: Table) -> Hand | None:
    return (
        Hand.objects.filter(game__table=table)
        .select_related("game")
        .order_by("-game__number", "-number")
        .first()
    )


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
    reset_timeouts = actor == Move.Actor.HUMAN and bool(snap.seats[seat].timeouts)
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
    _after_commit(lambda: selectors.remember(after))
    if hand_over:  # --- hook for apps built on games (games.signals) ---
        _after_commit(
            lambda: signals.hand_finished.send(
                sender=Table,
                table_id=table_id,
                game_id=game.pk,
                hand_id=hand.pk,
                game_over=game_over,
            )
        )
    _announce(
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
        if game_over:  # ratings and leaderboards (games.ratings), after the commit
            from games.tasks import rate_game_after_commit

            rate_game_after_commit(game.pk)
    else:
        hand.save(update_fields=["state", "moves_count"])
    if reset_timeouts:
        Seat.objects.filter(table_id=table.pk, index=seat).update(timeouts=0)


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
    """A person's own move ends their run of timeouts."""
    from dataclasses import replace

    if actor != Move.Actor.HUMAN or not 0 <= seat < len(seats) or not seats[seat].timeouts:
        return seats
    return tuple(replace(s, timeouts=0) if s.index == seat else s for s in seats)


def table_abort(*, table_id: int, reason: str) -> None:
    """Staff: stop a broken game. Recorded on the table and told to the players."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if not table.is_open:
            raise TableError("finished", "This table is not running.")
        Game.objects.filter(table=table, status=Game.Status.PLAYING).update(
            status=Game.Status.ABORTED, finished_at=timezone.now()
        )
        Hand.objects.filter(game__table=table, status=Hand.Status.PLAYING).update(
            status=Hand.Status.ABORTED, finished_at=timezone.now()
        )
        table.status = Table.Status.ABORTED
        table.abort_reason = reason[:200] or "Stopped by staff."
        table.finished_at = timezone.now()
        table.due_kind, table.due_at = "", None
        table.save(update_fields=["status", "abort_reason", "finished_at", "due_kind", "due_at"])
        _announce(table.pk, _bump(table), lobby=True)


def hand_pause_seconds() -> float:
    """The pause between hands: defined once, in games.clock."""
    return clock.hand_pause_s()


# --- presence and chat (no version bump: neither changes the game) --------------------------


def presence_expiry_s() -> float:
    return clock.presence_expiry_s()


def presence_seen(*, table_id: int, user_id: int, socket: str, now: Any = None) -> bool:
    """A seated person's socket is alive (it connected, pinged or sent a frame): refresh its
    heartbeat. Returns whether the user holds a seat there (only then is a row kept).

    The heartbeat lapses ``PRESENCE_EXPIRY_SECONDS`` later unless refreshed again, so a
    socket whose web process died stops counting by itself; nothing needs its clean close.
    The seat is looked up by user each time, so a seat taken or changed while the socket is
    open is the one kept alive.
    """
    from games import broadcast

    now = now or timezone.now()
    until = now + timedelta(seconds=presence_expiry_s())
    seats = Seat.objects.filter(table_id=table_id, user_id=user_id)
    with transaction.atomic():
        row = seats.values_list("index", "present_until", "disconnected_at").first()
        if row is None:
            SeatSocket.objects.filter(socket=socket).delete()
            return False
        index, present_until, disconnected_at = row
        if not SeatSocket.objects.filter(socket=socket, table_id=table_id).update(
            expires_at=until, user_id=user_id
        ):
            SeatSocket.objects.filter(socket=socket).delete()  # a reused channel name
            SeatSocket.objects.create(
                socket=socket, table_id=table_id, user_id=user_id, expires_at=until
            )
        seats.update(present_until=until, disconnected_at=None)
    if present_until is None or present_until <= now or disconnected_at is not None:
        broadcast.table_presence(table_id, presence_info(index, online=True))
    return True


def presence_gone(*, table_id: int, user_id: int, socket: str, now: Any = None) -> None:
    """A socket closed cleanly. If it was the person's last live one, they are known to be
    gone now: the table is told, and in a running game the grace period starts."""
    from django.db.models import Max

    from games import tasks

    now = now or timezone.now()
    with transaction.atomic():
        SeatSocket.objects.filter(socket=socket).delete()
        live = SeatSocket.objects.filter(
            table_id=table_id, user_id=user_id, expires_at__gt=now
        ).aggregate(until=Max("expires_at"))["until"]
        seats = Seat.objects.filter(table_id=table_id, user_id=user_id)
        if live is not None:
            seats.update(present_until=live)
            return
        row = seats.values_list("index", "table__status").first()
        if row is None:
            return
        seats.update(present_until=now, disconnected_at=now)
    index, status = row
    _announce_gone(table_id, index)
    if status == Table.Status.PLAYING:
        tasks.disconnect_check.apply_async((table_id, index), countdown=clock.disconnect_grace_s())


def presence_expired(*, table_id: int, seat: int, now: Any = None) -> bool:
    """The sweeper found a seat whose every heartbeat lapsed (its web process was killed or
    stopped, or the network went): it is known gone from the moment the last one expired."""
    now = now or timezone.now()
    seats = Seat.objects.filter(
        table_id=table_id,
        index=seat,
        user__isnull=False,
        present_until__lte=now,
        disconnected_at__isnull=True,
    )
    if not seats.update(disconnected_at=F("present_until")):
        return False
    _announce_gone(table_id, seat)
    return True


def presence_info(index: int, *, online: bool, bot: bool = False) -> dict[str, Any]:
    """A seat's presence as every page and JSON client shows it: a bot is a bot."""
    state = "bot" if bot else ("online" if online else "away")
    return {"seat": index, "connected": bot or online, "state": state}


def _announce_gone(table_id: int, index: int) -> None:
    from games import broadcast

    broadcast.table_presence(table_id, presence_info(index, online=False))


def _presence_from_sockets(table_id: int) -> None:
    """Set every seat's ``present_until`` from the live sockets of whoever sits there now
    (after a manager reseats a table, the heartbeats belong to people, not seat numbers)."""
    from django.db.models import Max, OuterRef, Subquery

    live = (
        SeatSocket.objects.filter(
            table_id=table_id, user_id=OuterRef("user_id"), expires_at__gt=timezone.now()
        )
        .values("user_id")
        .annotate(until=Max("expires_at"))
        .values("until")
    )
    Seat.objects.filter(table_id=table_id).update(present_until=Subquery(live[:1]))


def seat_disconnect_expired(*, table_id: int, seat: int, now: Any = None) -> bool:
    """The grace period after a player's last socket closed is over: a bot takes the seat."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=clock.disconnect_grace_s())
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.Status.PLAYING:
            return False
        taken = (
            Seat.objects.filter(
                table=table,
                index=seat,
                user__isnull=False,
                autoplay=False,
                disconnected_at__lte=cutoff,
            )
            .exclude(present_until__gt=now)
            .update(autoplay=True)
        )
        if not taken:
            return False
        version = _bump(table)
        _refresh_due(table)
        _announce(table.pk, version)
    return True


def seat_back(*, table_id: int, user: User) -> None:
    """ "I'm back": a player takes their seat back from the bot that covered for them."""
    with transaction.atomic():
        table = _locked_table(table_id)
        seat = _own_seat(_seats(table), user)
        if table.status != Table.Status.PLAYING:
            raise TableError("not_playing", "No game is being played at this table.")
        if seat.left:
            raise TableError("left", "You left this game; a bot finishes it for you.")
        if not seat.autoplay:
            raise TableError("not_autoplay", "You are already playing your seat.")
        seat.autoplay = False
        seat.timeouts = 0
        seat.save(update_fields=["autoplay", "timeouts"])
        version = _bump(table)
        _refresh_due(table)
        _announce(table.pk, version)


def clock_expired(
    *, table_id: int, version: int | None = None, deadline: Any = None, now: Any = None
) -> bool:
    """Play the default for a turn (or close a claim window) whose time ran out.

    Does nothing unless the table's clock is due and still the one the caller means: the
    same ``deadline`` (the armed task's) or the same ``version`` (the sweeper's), so a late,
    repeated or superseded call is harmless. A move that ends the turn just before the
    deadline wins: the deadline moves on with the next turn, and this sees that.
    """
    from games import selectors
    from games.timeouts import timeout_action

    now = now or timezone.now()
    snap = selectors.load_snapshot(table_id)
    table = snap.table
    if table.due_kind != clock.CLOCK or table.due_at is None or snap.state is None:
        return False
    if version is not None and snap.version != version:
        return False
    if deadline is not None and table.due_at > deadline:
        _rearm_clock(table_id, fired_for=deadline, due_at=table.due_at)
        return False
    if deadline is not None and table.due_at != deadline:
        return False
    if table.due_at > now:
        return False
    version = snap.version
    state = snap.state
    if state.phase == engine.Phase.CLAIM:
        _clock_move(table_id, -1, {"type": "close_claims"}, version)
        return True
    seat = state.to_act[0]
    for _ in range(100):  # a turn is a handful of moves; the bound only guards a bug
        snap = selectors.load_snapshot(table_id)
        state = snap.state
        if (
            snap.hand is None
            or snap.hand.status != Hand.Status.PLAYING
            or state.phase == engine.Phase.CLAIM
            or state.current != seat
            or seat not in state.to_act
        ):
            break
        action = timeout_action(engine.view(state, seat), engine.legal_actions(state, seat))
        if not _clock_move(table_id, seat, engine.action_to_json(action), snap.version):
            break
    _count_timeout(table_id, seat)
    return True


def _rearm_clock(table_id: int, *, fired_for: Any, due_at: Any) -> None:
    """The task armed for ``fired_for`` found the deadline moved later (clock.arm_at): arm one
    for the new deadline. Only the task the table last recorded does it, so a duplicated or
    superseded task arms nothing; the table's version does not change."""
    from games import tasks

    handed_on = Table.objects.filter(
        pk=table_id, clock_task_at=fired_for, due_kind=clock.CLOCK, due_at=due_at
    ).update(clock_task_at=due_at)
    if handed_on:
        _after_commit(
            lambda: tasks.turn_timeout.apply_async((table_id, due_at.isoformat()), eta=due_at)
        )


def _clock_move(table_id: int, seat: int, action: dict[str, Any], version: int) -> bool:
    try:
        move_submit(
            table_id=table_id,
            seat=seat,
            action=action,
            expected_version=version,
            actor=Move.Actor.CLOCK,
        )
    except TableError as exc:
        log.info("clock move refused", extra={"table": table_id, "code": exc.code})
        return False
    return True


def _count_timeout(table_id: int, seat: int) -> None:
    """A second timeout in a row hands the seat to a bot until the player says they are back."""
    with transaction.atomic():
        table = _locked_table(table_id)
        Seat.objects.filter(table=table, index=seat).update(timeouts=F("timeouts") + 1)
        handed = Seat.objects.filter(
            table=table,
            index=seat,
            timeouts__gte=clock.TIMEOUTS_BEFORE_AUTOPLAY,
            autoplay=False,
            user__isnull=False,
        ).update(autoplay=True)
        # A person's first timeout is news to them too: the page says "time ran out; a move
        # was made for you" (a new version, so the pages hear of it).
        person = Seat.objects.filter(table=table, index=seat, user__isnull=False).exists()
        if (handed or person) and table.status == Table.Status.PLAYING:
            version = _bump(table)
            _refresh_due(table)
            _announce(table.pk, version)


CHAT_MIN_INTERVAL_S = 1.0


def chat_post(*, table_id: int, user: User, text: str) -> Any:
    """Post a line of chat as a player at the table. Escaping happens when it is shown."""
    from games.models import ChatMessage

    text = " ".join(text.split())
    if not text:
        raise TableError("empty", "Say something first.")
    if len(text) > ChatMessage.MAX_LENGTH:
        limit = ChatMessage.MAX_LENGTH
        raise TableError("too_long", f"Chat lines are limited to {limit} characters.")
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise TableError("no_table", "There is no such table.")
        if not table.chat_enabled:
            raise TableError("chat_off", "Chat is turned off at this table.")
        if not Seat.objects.filter(table=table, user=user).exists():
            raise TableError("not_seated", "Only the players at this table can chat.")
        last = (
            ChatMessage.objects.filter(table=table, user=user)
            .order_by("-created_at")
            .values_list("created_at", flat=True)
            .first()
        )
        if last is not None and (timezone.now() - last).total_seconds() < CHAT_MIN_INTERVAL_S:
            raise TableError("rate_limited", "You are chatting too fast; wait a moment.")
        message = ChatMessage.objects.create(table=table, user=user, text=text)
    from games import broadcast

    _after_commit(lambda: broadcast.table_chat(table_id, message.pk))
    return message


def chat_mute(*, user: User, muted: User) -> None:
    from games.models import ChatMute

    if user.pk == muted.pk:
        raise TableError("forbidden", "You cannot mute yourself.")
    ChatMute.objects.get_or_create(user=user, muted=muted)


def chat_unmute(*, user: User, muted: User) -> None:
    from games.models import ChatMute

    ChatMute.objects.filter(user=user, muted=muted).delete()


def chat_report(*, message_id: int, reporter: User, reason: str = "") -> None:
    from games.models import ChatMessage, ChatReport

    message = ChatMessage.objects.filter(pk=message_id).select_related("table").first()
    if message is None:
        raise TableError("no_message", "There is no such message.")
    if not Seat.objects.filter(table=message.table, user=reporter).exists():
        raise TableError("forbidden", "Only players at that table can report its chat.")
    ChatReport.objects.get_or_create(
        message=message, reporter=reporter, defaults={"reason": reason[:200]}
    )


def table_expire(*, table_id: int) -> bool:
    """A table that never started is closed after a while, so the lobby stays fresh."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.status != Table.Status.WAITING:
            return False
        table.status = Table.Status.EXPIRED
        table.finished_at = timezone.now()
        table.save(update_fields=["status", "finished_at"])
        _announce(table.pk, _bump(table), lobby=True)
    return True


# --- tables run by an outside manager (no host) ---------------------------------------------


def managed_table_create(
    *,
    name: str,
    preset: str,
    options: dict[str, Any],
    num_seats: int,
    turn_seconds: int,
    spectators_allowed: bool = True,
    bot_level: str = "easy",
    rated: bool = True,
) -> Table:
    """A hostless table whose games another app starts (``managed_game_start``)."""
    rules = build_rules(preset, options)
    try:
        rules.validate_players(num_seats)
    except engine.RulesError as exc:
        raise TableError("invalid_seats", str(exc)) from None
    with transaction.atomic():
        table = Table.objects.create(
            name=name[:60],
            host=None,
            preset=preset,
            rules=rules.to_json(),
            num_seats=num_seats,
            turn_seconds=turn_seconds,
            spectators_allowed=spectators_allowed,
            chat_enabled=False,
            bot_level=bot_level,
            managed=True,
            rated=rated,
        )
        Seat.objects.bulk_create(
            Seat(table=table, index=i, bot_level=bot_level) for i in range(num_seats)
        )
    return table


def managed_game_start(
    *,
    table_id: int,
    players: list[User | None],
    hands_per_game: int | None = None,
    autoplay: frozenset[int] = frozenset(),
    dealer: int | None = None,
) -> Game:
    """Seat ``players`` (None: a bot) in order and start a game at a managed table.

    The table must not be playing. ``autoplay`` holds ids of users a bot plays for from the
    first move (people who did not show up before). ``dealer``: the seat that deals first
    (a tournament passes the deal on between its one-hand games); None draws for it.
    """
    with transaction.atomic():
        table = _locked_table(table_id)
        if not table.managed:
            raise TableError("not_managed", "Only managed tables are started this way.")
        if table.status == Table.Status.PLAYING:
            raise TableError("started", "The game at this table has already started.")
        if table.status not in (Table.Status.WAITING, Table.Status.FINISHED):
            raise TableError("finished", "This table is closed.")
        try:
            engine.Rules.from_json(table.rules).validate_players(len(players))
        except engine.RulesError as exc:
            raise TableError("invalid_seats", str(exc)) from None
        Seat.objects.filter(table=table).update(user=None)
        Seat.objects.filter(table=table, index__gte=len(players)).delete()
        have = set(Seat.objects.filter(table=table).values_list("index", flat=True))
        Seat.objects.bulk_create(
            Seat(table=table, index=i) for i in range(len(players)) if i not in have
        )
        for index, user in enumerate(players):
            Seat.objects.filter(table=table, index=index).update(
                user=user,
                bot_level="" if user is not None else table.bot_level,
                autoplay=user is not None and user.pk in autoplay,
                left=False,
                timeouts=0,
                disconnected_at=None,
            )
        _presence_from_sockets(table.pk)
        table.num_seats = len(players)
        table.hands_per_game = hands_per_game
        table.paused_at = None
        table.save(update_fields=["num_seats", "hands_per_game", "paused_at"])
        game = _start_game(table, _seats(table), dealer)
        _announce(table.pk, table.version, lobby=True)
    return game


def game_end(*, table_id: int, winners: list[int]) -> Game:
    """A manager ends a managed table's game between hands (e.g. to start a play-off)."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if not table.managed:
            raise TableError("not_managed", "Only a managed table's game is ended this way.")
        hand = current_hand(table)
        if table.status != Table.Status.PLAYING or hand is None:
            raise TableError("not_playing", "No game is being played at this table.")
        if hand.status != Hand.Status.OVER:
            raise TableError("hand_playing", "A game ends only between hands.")
        game = hand.game
        now = timezone.now()
        game.status = Game.Status.FINISHED
        game.winners = list(winners)
        game.finished_at = now
        game.save(update_fields=["status", "winners", "finished_at"])
        table.status = Table.Status.FINISHED
        table.finished_at = now
        table.due_kind, table.due_at = "", None
        table.save(update_fields=["status", "finished_at", "due_kind", "due_at"])
        _announce(table.pk, _bump(table), lobby=True)
    return game


def table_pause(*, table_id: int) -> bool:
    """Stop a running table's clocks and bots (a manager's pause). False if already paused."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.paused_at is not None or table.status != Table.Status.PLAYING:
            return False
        table.paused_at = timezone.now()
        table.due_kind, table.due_at = "", None
        table.save(update_fields=["paused_at", "due_kind", "due_at"])
        _announce(table.pk, _bump(table))
    return True


def table_resume(*, table_id: int) -> bool:
    """Restart clocks and bots; the player to act gets a fresh turn clock."""
    with transaction.atomic():
        table = _locked_table(table_id)
        if table.paused_at is None:
            return False
        table.paused_at = None
        table.save(update_fields=["paused_at"])
        version = _bump(table)
        _refresh_due(table)
        _announce(table.pk, version)
    return True


# --- deleted accounts ----------------------------------------------------------------------


def player_forget(*, user_id: int, old_name: str, anonymous: str) -> None:
    """Remove a deleted account's name from what games stored by value, in the deletion's
    transaction (accounts.services.account_delete).

    Game rows keep each seat's name as it was at the start (so that a renamed player's past
    games read as they were played); default table names ("Ivy's table") were made from the
    host's name. Both now read ``anonymous``. The account's ratings, results and period
    totals go too: the leaderboards never show a deleted account, and rating a game that
    finishes later writes none for it (games.ratings skips deleted accounts).
    """
    from games.models import GameResult, PlayerPeriodStats, Rating

    games = Game.objects.only("players")
    if transaction.get_connection().vendor == "postgresql":
        games = games.filter(players__contains=[{"user": user_id}])
    changed = []
    for game in games.iterator(chunk_size=2000):
        touched = False
        for player in game.players:
            if player.get("user") == user_id and not player.get("bot"):
                player["name"] = anonymous
                touched = True
        if touched:
            changed.append(game)
    Game.objects.bulk_update(changed, ["players"], batch_size=500)
    Table.objects.filter(host_id=user_id, name=_default_table_name(old_name)).update(
        name=_default_table_name(anonymous)
    )
    for model in (GameResult, PlayerPeriodStats, Rating):
        model.objects.filter(user_id=user_id).delete()


def _default_table_name(host_name: str) -> str:
    return f"{host_name}'s table"[:60]
