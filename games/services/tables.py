"""Tables and their seats, from creation to the last hand: create, join, change seat, leave,
bots, the host's limits and the one-game rule, start, deal, the next hand, Ready between
hands, abort and expiry.

Tables a manager runs (tournaments) are started in games.services.managed; moves are written in
games.services.moves.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import engine, signals
from games.models import Game, Hand, Seat, Table
from games.services import clock
from games.services.presence import presence_from_sockets
from games.services.shared import (
    TableError,
    after_commit,
    announce,
    bump,
    locked_table,
    own_seat,
    refresh_due,
    table_seats,
)
from games.text_rules import text_problem

BOT_LEVELS = ("easy", "medium", "hard")


MIN_TURN_SECONDS = 15


MAX_TURN_SECONDS = 300


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
    name = name.strip()
    problem = text_problem(name)
    if problem is not None:
        raise TableError("invalid_name", f"A table name {problem}.")
    name = name or default_table_name(host.display_name)
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
        if auto_start and fill_with_bots:
            # Every seat is taken at once (the host and bots): "starts by itself when every
            # seat is taken" holds from the start, as it does when the last person joins.
            start_game(table, table_seats(table))
        announce(table.pk, table.version, lobby=True)
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
    table = locked_table(table_id)
    if table.status != Table.Status.WAITING:
        raise TableError("started", "The game at this table has already started.")
    return table


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
        seats = table_seats(table)
        if any(s.user_id == user.pk for s in seats):
            raise TableError("already_seated", "You already have a seat at this table.")
        _check_not_busy(user)
        seat = _free_seat(seats, index)
        seat.user = user
        seat.disconnected_at = None
        seat.save(update_fields=["user", "disconnected_at"])
        presence_from_sockets(table.pk)
        version = bump(table)
        if table.auto_start and all(not s.is_empty for s in seats):
            _check_seated_not_busy(table, seats)
            start_game(table, seats)
            version = table.version
        announce(table.pk, version, lobby=True)
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
        seats = table_seats(table)
        mine = own_seat(seats, user)
        target = _free_seat(seats, index)
        mine.user, target.user = None, user
        target.disconnected_at = None
        mine.save(update_fields=["user"])
        target.save(update_fields=["user", "disconnected_at"])
        presence_from_sockets(table.pk)
        announce(table.pk, bump(table), lobby=True)
    return target


def seat_leave(*, table_id: int, user: User) -> None:
    """Stand up. At a running game a bot finishes for you and the result stays yours; once
    the game is over you are simply not in the next one. A tournament's finished table is
    its organizer's to clear."""
    with transaction.atomic():
        table = locked_table(table_id)
        seats = table_seats(table)
        seat = own_seat(seats, user)
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
            version = bump(table)
            refresh_due(table)
            announce(table.pk, version, lobby=True)
            return
        elif table.status == Table.Status.FINISHED and not table.managed and not seat.left:
            # Between games: the host may play again with the same seats, and someone who
            # is done should not be pulled into that game (a bot takes a leaver's seat then,
            # ``_seat_bots_for_leavers``). The host's part passes to someone still seated.
            seat.left = True
            seat.save(update_fields=["left"])
            if table.host_id == user.pk:
                stays = [s.user for s in seats if s.user_id and s.user_id != user.pk and not s.left]
                if stays:
                    table.host = stays[0]
                    table.save(update_fields=["host"])
        elif table.status == Table.Status.FINISHED and seat.left:
            raise TableError("left", "You have already left this table.")
        else:
            raise TableError("finished", "This table has finished.")
        announce(table.pk, bump(table), lobby=True)


def seat_set_bot(*, table_id: int, by: User, index: int, level: str | None) -> None:
    """Host only, before the start: put a bot in an empty seat, or take one out (level None)."""
    if level is not None and level not in BOT_LEVELS:
        raise TableError("invalid_bot", f"Bot level must be one of {', '.join(BOT_LEVELS)}.")
    with transaction.atomic():
        table = _waiting_table(table_id)
        _require_host(table, by)
        seats = table_seats(table)
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
        version = bump(table)
        if level is not None and table.auto_start and all(not s.is_empty for s in seats):
            _check_seated_not_busy(table, seats)
            start_game(table, seats)
            version = table.version
        announce(table.pk, version, lobby=True)


def seat_remove_player(*, table_id: int, by: User, index: int) -> None:
    """Host only, before the start: free a seat a person holds."""
    with transaction.atomic():
        table = _waiting_table(table_id)
        _require_host(table, by)
        seats = table_seats(table)
        if not 0 <= index < len(seats) or seats[index].user_id is None:
            raise TableError("no_player", "Nobody sits in that seat.")
        if seats[index].user_id == by.pk:
            raise TableError("forbidden", "Leave the table instead of removing yourself.")
        seats[index].user = None
        seats[index].save(update_fields=["user"])
        announce(table.pk, bump(table), lobby=True)


def _require_host(table: Table, user: User) -> None:
    if table.host_id != user.pk:
        raise TableError("not_host", "Only the host can do that.")


def table_start(*, table_id: int, by: User) -> Game:
    with transaction.atomic():
        table = locked_table(table_id)
        again = table.status == Table.Status.FINISHED  # "play again" with the same seats
        if not again and table.status != Table.Status.WAITING:
            raise TableError("started", "The game at this table has already started.")
        if table.managed:
            raise TableError("managed", "This table is started by its organizer.")
        _require_host(table, by)
        if again and Seat.objects.filter(table=table, user=by, left=True).exists():
            # the last person to leave a finished table stays its host, with no one to play
            raise TableError("left", "You have left this table.")
        if again:
            table.status = Table.Status.WAITING
            _seat_bots_for_leavers(table)
        seats = table_seats(table)
        if any(s.is_empty for s in seats):
            raise TableError("not_full", "Every seat must be taken (add bots to fill them).")
        _check_seated_not_busy(table, seats)
        game = start_game(table, seats)
        announce(table.pk, table.version, lobby=True)
    return game


def _seat_bots_for_leavers(table: Table) -> None:
    """Before a game is played again: a person who left the last one (a bot finished it for
    them) is not put into the next; a bot of the table's level takes the seat. Left in, a
    bot played the whole new game in their name and its result was theirs, though they had
    gone and might be playing at another table."""
    Seat.objects.filter(table=table, left=True).update(
        user=None,
        bot_level=table.bot_level,
        left=False,
        autoplay=False,
        timeouts=0,
        disconnected_at=None,
        present_until=None,
    )


def start_game(
    table: Table, seats: list[Seat], dealer: int | None = None, seed: int | None = None
) -> Game:
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
    _deal(table, game, rules, dealer, seed)
    refresh_due(table)
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


def _deal(
    table: Table, game: Game, rules: engine.Rules, dealer: int, seed: int | None = None
) -> Hand:
    number = (game.hands.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    state = engine.new_hand(
        rules,
        table.num_seats,
        dealer,
        totals=list(game.totals),
        on_board=list(game.on_board) or None,
        seed=seed,
    )
    hand = Hand.objects.create(
        game=game, number=number, dealer=dealer, state=engine.state_to_json(state)
    )
    bump(table)
    return hand


def hand_next(*, table_id: int, expected_version: int | None = None) -> Hand | None:
    """Deal the next hand once the last one is over. Safe to call twice: the second does nothing."""
    with transaction.atomic():
        table = locked_table(table_id)
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
        refresh_due(table)
        announce(table.pk, table.version)
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
        table = locked_table(table_id)
        hand = current_hand(table)
        if hand is None or not _between_hands(table, hand):
            raise TableError("not_between_hands", "There is no pause between hands now.")
        seats = table_seats(table)
        mine = next((s for s in seats if s.user_id == user.pk and not s.left), None)
        if mine is None:
            raise TableError("not_seated", "Only the players at this table say Ready.")
        now = timezone.now()
        if clock.hand_pause_left(hand.finished_at, now) <= 0 and table.managed:
            raise TableError("not_between_hands", "The pause is over; the next hand is coming.")
        result = dict(hand.result or {})
        if mine.index in result.get("ready", []):
            # A repeat changes nothing, and at a managed table it must not tell the manager
            # again: every press used to queue another tournament advance.
            raise TableError(
                "already_ready",
                "You said Ready already: the next hand starts once everyone here has, "
                "or when the pause ends.",
            )
        ready = sorted({*result.get("ready", []), mine.index})
        result["ready"] = ready
        Hand.objects.filter(pk=hand.pk).update(result=result)
        over = clock.everyone_ready(seats, ready, now)
        version = table.version
        if over and table.managed:
            after_commit(
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


def table_abort(*, table_id: int, reason: str) -> None:
    """Staff: stop a broken game. Recorded on the table and told to the players."""
    with transaction.atomic():
        table = locked_table(table_id)
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
        announce(table.pk, bump(table), lobby=True)


def hand_pause_seconds() -> float:
    """The pause between hands: defined once, in games.services.clock."""
    return clock.hand_pause_s()


def table_expire(*, table_id: int) -> bool:
    """A table that never started is closed after a while, so the lobby stays fresh."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status != Table.Status.WAITING:
            return False
        table.status = Table.Status.EXPIRED
        table.finished_at = timezone.now()
        table.save(update_fields=["status", "finished_at"])
        announce(table.pk, bump(table), lobby=True)
    return True


def default_table_name(host_name: str) -> str:
    return f"{host_name}'s table"[:60]
