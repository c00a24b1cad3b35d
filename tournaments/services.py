"""Every write to tournaments goes through here: registration, start, rounds, chips, the end.

Each service locks the tournament row, checks that the request makes sense in the current
state (a ``TournamentError`` with a sentence for people otherwise, nothing written), and
changes everything it must in one transaction. The tournament is driven by ``advance``: it
looks at the live tables and does whatever is due (settle a finished hand, end the round,
rebalance, deal the next round). It is idempotent, so the Celery task armed when a game ends,
the sweeper and a worker restarted in the middle may all call it: work done is never redone
(each table records the last round it settled) and nothing is lost (the state is in the rows).

Live play sits on managed ``games`` tables (``games.services.managed.managed_game_start``); the
headless simulation (``simulate_tournament``) calls ``round_start(live=False)``,
``hand_settle`` and ``round_finish`` itself with hands the engine played in-process.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, Max, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from games import engine
from games.models import Game, Hand, Seat
from games.services import managed, shared
from games.services import tables as tables_service
from tournaments import (
    balancing,
    breaks,
    duplicate,
    independent,
    late_registration,
    prizes,
    schedule,
    settlement,
)
from tournaments.models import ChipLedger, Entry, Level, Tournament, TournamentTable

log = logging.getLogger(__name__)

Status = Tournament.Status


class TournamentError(Exception):
    """A refused request: nothing was changed. ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --- helpers ---------------------------------------------------------------------------------


def _locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentError("no_tournament", "There is no such tournament.") from None


def _after_commit(fn: Callable[[], None]) -> None:
    transaction.on_commit(fn)


def _changed(tournament_id: int) -> None:
    """After commit: tell the tournament's pages (standings, lobbies) to refresh."""
    from tournaments import broadcast

    _after_commit(lambda: broadcast.tournament_changed(tournament_id))


def steps(tournament: Tournament) -> list[schedule.Step]:
    return [
        schedule.Step(level.number, level.pcr, level.duration)
        for level in Level.objects.filter(tournament=tournament)
    ]


def table_size_limit(tournament: Tournament) -> int:
    """How many people one tournament may hold: a single table, or the organizer's maximum."""
    if tournament.is_mtt:
        return tournament.max_entrants
    return min(tournament.max_entrants, tournament.seats_per_table)


def preset_seats(tournament: Tournament) -> tuple[int, int]:
    """How many players the tournament's preset is played by: (minimum, maximum)."""
    info = engine.PRESETS.get(tournament.preset)
    if info is None:
        return balancing.MIN_SEATS, balancing.MAX_SEATS
    return info.min_players, info.max_players


def check_settings(tournament: Tournament) -> None:
    """Refuse a tournament whose settings cannot run (also used by the admin form)."""
    info = engine.PRESETS.get(tournament.preset)
    if info is None:
        raise TournamentError(
            "invalid_preset",
            f"There is no preset called {tournament.preset!r}: choose one from the list.",
        )
    if not balancing.MIN_SEATS <= tournament.seats_per_table <= balancing.MAX_SEATS:
        raise TournamentError("invalid_seats", "Tables seat 2 to 4 players.")
    seats = tournament.seats_per_table
    if not info.min_players <= seats <= info.max_players:
        players = (
            f"{info.min_players} players"
            if info.min_players == info.max_players
            else f"{info.min_players} to {info.max_players} players"
        )
        raise TournamentError(
            "invalid_seats",
            f"{info.title} is played by {players}: tables of {seats} cannot be used.",
        )
    if tournament.min_entrants > tournament.max_entrants:
        raise TournamentError(
            "invalid_entrants", "The minimum number of entrants is above the maximum."
        )
    room, needed = table_size_limit(tournament), needed_entrants(tournament)
    if room < needed:
        raise TournamentError(
            "invalid_maximum",
            f"It could never start: it takes at most {room} entrants and needs {needed}.",
        )
    if tournament.pk is not None and tournament.status in Tournament.UPCOMING:
        # Settings changed after players entered (format, seats, maximum): the event must
        # still hold them, or the start would seat them all at one table of fewer seats.
        entered = Entry.objects.filter(tournament_id=tournament.pk).count()
        if entered > room:
            if tournament.is_mtt or room < tournament.seats_per_table:
                why, fix = f"more than the maximum of {room}", "raise it"
            else:
                why = f"and a single table seats {room}"
                fix = "choose the multi-table format"
            raise TournamentError(
                "too_many_entered",
                f"{entered} players have entered already, {why}: {fix}, or remove entrants "
                "(Admin \u2192 Entries) first.",
            )
    low, high = tables_service.MIN_TURN_SECONDS, tables_service.MAX_TURN_SECONDS
    if not low <= tournament.turn_seconds <= high:
        raise TournamentError(
            "invalid_clock", f"Turn time must be between {low} seconds and {high // 60} minutes."
        )
    opens, closes = tournament.registration_opens_at, tournament.registration_closes_at
    if opens and closes and closes <= opens:
        raise TournamentError("invalid_window", "Registration must close after it opens.")
    if opens and tournament.scheduled_start and tournament.scheduled_start <= opens:
        # the sweeper would open it after its start and cancel it in the same sweep
        raise TournamentError(
            "invalid_start", "The scheduled start must come after registration opens."
        )
    if closes and tournament.scheduled_start and tournament.scheduled_start < closes:
        raise TournamentError(
            "invalid_start", "The scheduled start must not come before registration closes."
        )
    if tournament.format == Tournament.Format.QUICK and tournament.hands < 1:
        raise TournamentError("invalid_hands", "A quick game needs at least one hand.")
    if tournament.format == Tournament.Format.STT and tournament.target:
        low, high = engine.OPTIONS["target"].allowed
        if not low <= tournament.target <= high:
            raise TournamentError(
                "invalid_target",
                f"The target must be between {low} and {high} points (empty: the preset's).",
            )
    try:
        prizes.check_table(tournament.prizes)
    except prizes.PrizeError as exc:
        raise TournamentError("invalid_prizes", str(exc)) from None
    if tournament.sit_and_go:
        low, high = SIT_AND_GO_SECONDS
        if not low <= tournament.sit_and_go_seconds <= high:
            raise TournamentError(
                "invalid_countdown", f"The sit-and-go countdown is {low} to {high} seconds."
            )
        if tournament.is_mtt and tournament.max_entrants > SIT_AND_GO_MTT_CAP:
            raise TournamentError(
                "invalid_seat_cap",
                "A multi-table sit-and-go starts when its seat cap is reached: set the "
                f"maximum entrants to at most {SIT_AND_GO_MTT_CAP}.",
            )
        if sit_and_go_seats(tournament) < needed_entrants(tournament):
            raise TournamentError(
                "invalid_entrants",
                "A sit-and-go starts when its seats are full: there are fewer seats "
                "than the entrants it needs.",
            )
    if tournament.duplicate and not tournament.is_mtt:
        raise TournamentError(
            "invalid_duplicate", "Duplicate deals are for multi-table tourneys only."
        )
    if tournament.break_every and tournament.break_minutes < 1:
        raise TournamentError("invalid_break", "A break lasts at least one minute.")
    if tournament.is_mtt and tournament.starting_chips < 1:
        raise TournamentError("invalid_chips", "Players need starting chips.")
    try:
        rules = engine.make_rules(tournament.preset, **_options(tournament))
    except engine.RulesError as exc:
        raise TournamentError("invalid_rules", str(exc)) from None
    if tournament.is_mtt and rules.spec.partnerships:
        raise TournamentError(
            "invalid_rules", "Multi-table tourneys use presets without partnerships."
        )


def _options(tournament: Tournament) -> dict[str, Any]:
    """House rules for the tables; an STT's own target only when the organizer set one (the
    preset's target otherwise: 5000 for five-thousand, 1000 for oklahoma)."""
    options = dict(tournament.options or {})
    if tournament.format == Tournament.Format.STT and tournament.target:
        options["target"] = tournament.target
    return options


def needed_entrants(t: Tournament) -> int:
    """How many must have entered to start: bots fill a single table's seats when allowed."""
    if not t.is_mtt and t.bots_allowed:
        return max(t.min_entrants, 1)
    return max(t.min_entrants, 2, preset_seats(t)[0])


# --- registration ----------------------------------------------------------------------------


def registration_open(
    *, tournament_id: int, now: datetime | None = None, by_hand: bool = False
) -> Tournament:
    """Open registration now: the sweeper at the window's opening, or the organizer
    (``by_hand``, see ``_window_opened_by_hand``)."""
    now = now or timezone.now()
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in (Status.DRAFT, Status.CLOSED):
            raise TournamentError(
                "bad_state",
                f"Registration cannot open: the tournament is {t.get_status_display()}.",
            )
        fields = ["status", *(_window_opened_by_hand(t, now) if by_hand else [])]
        t.status = Status.REGISTRATION
        t.save(update_fields=fields)
        _changed(t.pk)
    return t


def _window_opened_by_hand(t: Tournament, now: datetime) -> list[str]:
    """The registration window follows the organizer's "open now" (the fields changed).

    An opening time still ahead becomes now and a closing time already past is cleared, or
    players would read "open" and be refused (and the sweeper would close it again at once).
    A scheduled start already past is refused: the sweeper would start or cancel the event
    the moment it opened.
    """
    if t.scheduled_start and t.scheduled_start <= now:
        raise TournamentError(
            "start_passed", "Its scheduled start has passed: set a new one (or clear it) first."
        )
    fields = []
    if t.registration_opens_at and t.registration_opens_at > now:
        t.registration_opens_at = now
        fields.append("registration_opens_at")
    if t.registration_closes_at and t.registration_closes_at <= now:
        t.registration_closes_at = None
        fields.append("registration_closes_at")
    return fields


def registration_close(*, tournament_id: int) -> Tournament:
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Status.REGISTRATION:
            raise TournamentError("bad_state", "Registration is not open.")
        t.status = Status.CLOSED
        t.save(update_fields=["status"])
        _changed(t.pk)
    return t


def register(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """A player enters during the registration window."""
    now = now or timezone.now()
    if user.is_bot:
        raise TournamentError("forbidden", "Bot accounts cannot enter tournaments.")
    with transaction.atomic():
        t = _locked(tournament_id)
        if late_registration.is_open(t):
            return _add_entry(t, user, now, late=True)
        if t.status in Tournament.IN_PLAY:
            raise TournamentError("started", "This tournament is already in progress.")
        if t.status != Status.REGISTRATION:
            raise TournamentError("closed", "Registration for this tournament is not open.")
        if t.registration_opens_at and now < t.registration_opens_at:
            raise TournamentError("too_early", "Registration has not opened yet.")
        if t.registration_closes_at and now >= t.registration_closes_at:
            raise TournamentError("too_late", "Registration for this tournament has closed.")
        return _add_entry(t, user, now)


def _add_entry(
    t: Tournament, user: User, now: datetime | None = None, *, late: bool = False
) -> Entry:
    if not user.is_active:  # deleted or suspended: nobody would play the seat but a bot
        raise TournamentError(
            "inactive_account", f"{user} is a deleted or suspended account and cannot enter."
        )
    if Entry.objects.filter(tournament=t, user=user).exists():
        raise TournamentError("already_registered", f"{user} is already registered.")
    limit = table_size_limit(t)
    if Entry.objects.filter(tournament=t).count() >= limit:
        raise TournamentError("full", f"This tournament is full ({limit} entrants).")
    if late:  # seated at a table's next hand boundary (tournaments.late_registration)
        entry = late_registration.enter(t, user, now or timezone.now())
        _changed(t.pk)
        _arm(t.pk)
        return entry
    entry = Entry.objects.create(tournament=t, user=user)
    _sit_and_go_check(t, now or timezone.now())
    _changed(t.pk)
    return entry


def unregister(*, tournament_id: int, user: User, now: datetime | None = None) -> None:
    now = now or timezone.now()
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Status.REGISTRATION or (
            t.registration_closes_at and now >= t.registration_closes_at
        ):
            raise TournamentError("closed", "You can only withdraw while registration is open.")
        if not Entry.objects.filter(tournament=t, user=user).delete()[0]:
            raise TournamentError("not_registered", "You are not registered.")
        _sit_and_go_check(t, now)
        _changed(t.pk)


def entrant_add(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """An organizer adds a player (bot accounts too) before the start, window or not."""
    with transaction.atomic():
        t = _locked(tournament_id)
        if late_registration.is_open(t):
            return _add_entry(t, user, now, late=True)
        if t.status not in Tournament.UPCOMING:
            raise TournamentError("started", "Entrants can only be added before the start.")
        return _add_entry(t, user, now)


def entrant_remove(*, tournament_id: int, user: User, now: datetime | None = None) -> None:
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in Tournament.UPCOMING:
            raise TournamentError(
                "started", "After the start a player can only be disqualified, not removed."
            )
        if not Entry.objects.filter(tournament=t, user=user).delete()[0]:
            raise TournamentError("not_registered", f"{user} is not registered.")
        _sit_and_go_check(t, now or timezone.now())
        _changed(t.pk)


# --- sit-and-go ------------------------------------------------------------------------------

SIT_AND_GO_SECONDS = (0, 300)
# A multi-table sit-and-go waits for max_entrants players; the largest such events on card
# sites seat a few hundred. Above this the cap is most likely the untouched default (1000),
# and the event would wait for ever.
SIT_AND_GO_MTT_CAP = 360
"""The countdown an organizer may set, in seconds (0: the moment the last seat is taken)."""


def sit_and_go_seats(t: Tournament) -> int:
    """The seats a sit-and-go waits for: one table's, or a multi-table's maximum entrants."""
    return table_size_limit(t)


def seats_taken(t: Tournament) -> int:
    """Entrants who fill a seat for sit-and-go: bot accounts only where bots are allowed."""
    entries = Entry.objects.filter(tournament=t)
    if not t.bots_allowed:
        entries = entries.exclude(user__is_bot=True)
    return entries.count()


def _sit_and_go_check(t: Tournament, now: datetime) -> None:
    """After an entry comes or goes (``t`` locked): start the countdown once every seat is
    taken, cancel it when one frees. The start itself is ``sit_and_go_due``'s, armed here
    and backed by the sweeper, so nothing starts inside a player's registration request."""
    if not t.sit_and_go or t.status not in (Status.REGISTRATION, Status.CLOSED):
        return
    full = seats_taken(t) >= sit_and_go_seats(t)
    if full and t.sit_and_go_at is None:
        t.sit_and_go_at = now + timedelta(seconds=t.sit_and_go_seconds)
        t.save(update_fields=["sit_and_go_at"])
        _arm_sit_and_go(t.pk, t.sit_and_go_seconds)
    elif not full and t.sit_and_go_at is not None:
        t.sit_and_go_at = None
        t.save(update_fields=["sit_and_go_at"])


def _sit_and_go_refresh(tournament_id: int, now: datetime) -> None:
    with transaction.atomic():
        _sit_and_go_check(_locked(tournament_id), now)


def _arm_sit_and_go(tournament_id: int, countdown: float) -> None:
    from tournaments import tasks

    _after_commit(
        lambda: tasks.sit_and_go.apply_async((tournament_id,), countdown=max(countdown, 0))
    )


def sit_and_go_due(
    *,
    tournament_id: int,
    now: datetime | None = None,
    rng: random.Random | None = None,
    live: bool = True,
) -> bool:
    """Start a full sit-and-go whose countdown is over. False (nothing done) if it is not due:
    the countdown runs on, was cancelled by a withdrawal, or the event already started.

    Safe to repeat; the task armed at the countdown and the sweeper both call it. ``live``
    as for ``start`` (False: a headless multi-table run, for the simulation and tests).
    """
    now = now or timezone.now()
    with transaction.atomic():
        t = _locked(tournament_id)
        if (
            not t.sit_and_go
            or t.sit_and_go_at is None
            or t.sit_and_go_at > now
            or t.status not in (Status.REGISTRATION, Status.CLOSED)
        ):
            return False
        if seats_taken(t) < sit_and_go_seats(t):  # a seat freed without the check (admin)
            t.sit_and_go_at = None
            t.save(update_fields=["sit_and_go_at"])
            return False
        start(tournament_id=t.pk, now=now, rng=rng, live=live)
    return True


# --- start, pause, cancel --------------------------------------------------------------------


def start(
    *,
    tournament_id: int,
    now: datetime | None = None,
    rng: random.Random | None = None,
    live: bool = True,
) -> Tournament:
    """Seat the entrants and deal the first hands. Refused (nothing done) when it cannot run.

    ``live=False`` (multi-table only) seats without games tables, for the headless simulation.
    """
    now = now or timezone.now()
    rng = rng or random.Random()
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in (Status.REGISTRATION, Status.CLOSED):
            raise TournamentError(
                "bad_state",
                f"Only a tournament with registration open or closed can start; "
                f"this one is {t.get_status_display()}.",
            )
        check_settings(t)
        entries = list(Entry.objects.filter(tournament=t).select_related("user"))
        needed = needed_entrants(t)
        if len(entries) < needed:
            raise TournamentError(
                "too_few", f"Too few entrants: {len(entries)} registered, {needed} needed."
            )
        if t.is_mtt:
            found = schedule.problems(steps(t))
            if found:
                raise TournamentError("invalid_levels", " ".join(found))
        t.status = Status.RUNNING
        t.started_at = now
        t.sit_and_go_at = None
        t.save(update_fields=["status", "started_at", "sit_and_go_at"])
        try:
            if t.is_mtt:
                _stacks(t, entries)
                round_start(tournament=t, live=live, rng=rng, now=now)
                if independent.drives(t):  # each table keeps its own level from now on
                    TournamentTable.objects.filter(tournament=t).update(level=t.level, pcr=t.pcr)
            else:
                _start_single(t, entries, rng)
        except shared.TableError as exc:
            raise TournamentError("table", exc.message) from None
        _changed(t.pk)
    return t


def _stacks(t: Tournament, entries: list[Entry]) -> None:
    ChipLedger.objects.bulk_create(
        ChipLedger(
            tournament=t, kind=ChipLedger.Kind.STACK, payee=e, amount=t.starting_chips, round=0
        )
        for e in entries
    )
    Entry.objects.filter(tournament=t).update(chips=t.starting_chips, status=Entry.Status.PLAYING)


def _new_table(t: Tournament, number: int, size: int, *, live: bool) -> TournamentTable:
    live_table = None
    if live:
        live_table = managed.managed_table_create(
            name=f"{t.name} · table {number}",
            preset=t.preset,
            options=_options(t),
            num_seats=size,
            turn_seconds=t.turn_seconds,
            spectators_allowed=t.spectators_allowed,
            # An MTT's one-hand games are not whole games: they do not move ratings.
            rated=not t.is_mtt,
        )
    return TournamentTable.objects.create(tournament=t, number=number, table=live_table)


def _start_single(t: Tournament, entries: list[Entry], rng: random.Random) -> None:
    """Quick game or single table tourney: everyone at one table, bots in the empty seats."""
    players: list[User | None] = [e.user for e in entries]
    rng.shuffle(players)
    if t.bots_allowed:
        players += [None] * max(0, t.seats_per_table - len(players))
    table = _new_table(t, 1, len(players), live=True)
    table.round = 1
    table.save(update_fields=["round"])
    Entry.objects.filter(tournament=t).update(status=Entry.Status.PLAYING, table=table)
    for e in entries:
        Entry.objects.filter(pk=e.pk).update(seat=players.index(e.user))
    t.round = 1
    t.bot_results = []
    t.save(update_fields=["round", "bot_results"])
    assert table.table is not None
    game = managed.managed_game_start(
        table_id=table.table.pk,
        players=players,
        hands_per_game=t.hands if t.format == Tournament.Format.QUICK else None,
        autoplay=frozenset(u.pk for u in players if u is not None and u.is_bot),
    )
    _sync_seats(t, game)
    from tournaments import announce

    announce.seated(t, Entry.objects.filter(tournament=t).select_related("user", "table"))


def _sync_seats(t: Tournament, game: Game) -> None:
    """Entries' seats as the game has them (a partner draw re-seats the players)."""
    for seat, e in _seat_entries(t, game).items():
        if e.seat != seat:
            Entry.objects.filter(pk=e.pk).update(seat=seat)


def cancel(*, tournament_id: int, notice: str) -> Tournament:
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in Tournament.UPCOMING:
            raise TournamentError(
                "bad_state", "Only a tournament that has not started can be cancelled."
            )
        t.status = Status.CANCELLED
        t.notice = notice[:300]
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "notice", "finished_at"])
        from tournaments import announce

        announce.cancelled(t)
        _changed(t.pk)
    return t


def _live_tables(t: Tournament) -> list[TournamentTable]:
    return list(
        TournamentTable.objects.filter(
            tournament=t, status=TournamentTable.Status.OPEN, table__isnull=False
        )
    )


def pause(*, tournament_id: int, now: datetime | None = None) -> Tournament:
    """Stop every clock and bot; no new round starts until ``resume``."""
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Status.RUNNING:
            raise TournamentError("bad_state", "Only a running tournament can be paused.")
        t.status = Status.PAUSED
        t.paused_at = now or timezone.now()
        t.save(update_fields=["status", "paused_at"])
        for table in _live_tables(t):
            managed.table_pause(table_id=table.table_id)  # type: ignore[arg-type]
        _changed(t.pk)
    return t


def resume(*, tournament_id: int, now: datetime | None = None) -> Tournament:
    """Resume a paused tournament, or one held as needing attention after repeated failures
    (the organizer looked at ``last_error``): it is advanced again at once."""
    now = now or timezone.now()
    with transaction.atomic():
        t = _locked(tournament_id)
        held = t.needs_attention or t.error_count > 0
        if t.status != Status.PAUSED and not (held and t.status == Status.RUNNING):
            raise TournamentError(
                "bad_state", "Only a paused tournament or one that needs attention can resume."
            )
        fields = ["needs_attention", "error_count", "retry_at"]
        t.needs_attention, t.error_count, t.retry_at = False, 0, None
        if t.status == Status.PAUSED:
            if t.paused_at is not None:
                paused = now - t.paused_at
                t.paused_seconds += int(paused.total_seconds())
                # A break running when the pause began was stopped with every other clock:
                # what was left of it is still owed (else it ends unseen during the pause
                # and is taken off the level clock a second time, which then goes back).
                if t.break_until is not None and t.break_until > t.paused_at:
                    t.break_until += paused
                    fields.append("break_until")
                TournamentTable.objects.filter(tournament=t, break_until__gt=t.paused_at).update(
                    break_until=F("break_until") + paused
                )
            t.status = Status.RUNNING
            t.paused_at = None
            fields += ["status", "paused_at", "paused_seconds"]
            for table in _live_tables(t):
                managed.table_resume(table_id=table.table_id)  # type: ignore[arg-type]
        t.save(update_fields=fields)
        _changed(t.pk)
    _arm(t.pk)
    return t


def _arm(tournament_id: int, countdown: float = 0) -> None:
    from tournaments import tasks

    if countdown > 0:
        _after_commit(lambda: tasks.advance.apply_async((tournament_id,), countdown=countdown))
    else:
        _after_commit(lambda: tasks.advance.delay(tournament_id))


# --- a table stopped by the organizer --------------------------------------------------------

STOPPED = "Stopped by the organizer."


def table_stop(*, tournament_id: int, table_id: int) -> TournamentTable:
    """Stop one table's game (a broken one, say), as staff can from the games admin.

    Its hand in play moves no chips. In a multi-table tourney its players are seated at the
    other tables at the next boundary; a quick game or STT has no other table, so it is
    cancelled with a notice (``advance`` does both, armed here).
    """
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in Tournament.IN_PLAY:
            raise TournamentError(
                "bad_state",
                f"Only a running or paused tournament's tables can be stopped; "
                f"this one is {t.get_status_display()}.",
            )
        table = TournamentTable.objects.filter(
            tournament=t, pk=table_id, status=TournamentTable.Status.OPEN, table__isnull=False
        ).first()
        if table is None:
            raise TournamentError("no_table", "That table is not playing.")
        try:
            tables_service.table_abort(table_id=table.table_id, reason=STOPPED)
        except shared.TableError as exc:
            raise TournamentError("between_hands", f"{table}: {exc.message} Try again.") from None
        _arm(t.pk)
        _changed(t.pk)
    return table


# --- disqualification ------------------------------------------------------------------------


def disqualify(*, tournament_id: int, user: User, now: datetime | None = None) -> Entry:
    """Take a player out for good, with no place; see docs/tournaments.md.

    Their chips go back to the bank (a ``dq`` ledger row with no payee), so nobody profits
    from a disqualification; a bot finishes their seat's current hand, which no longer counts
    for them. An MTT whose last players are all disqualified ends at once; otherwise the
    round plays on and its end decides (one left wins, too few for the preset ends it).
    """
    now = now or timezone.now()
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in Tournament.IN_PLAY:
            raise TournamentError(
                "bad_state", "Only players in a running tournament can be disqualified."
            )
        entry = Entry.objects.filter(tournament=t, user=user).select_related("table").first()
        if entry is None or not entry.is_in:
            raise TournamentError("not_in", f"{user} is not playing in this tournament.")
        table = entry.table
        if t.is_mtt and entry.chips:
            ChipLedger.objects.create(
                tournament=t,
                table=table,
                round=t.round,
                kind=ChipLedger.Kind.DISQUALIFICATION,
                payer=entry,
                payee=None,
                amount=entry.chips,
                pcr=t.pcr,
                level=t.level,
            )
        entry.status = Entry.Status.DISQUALIFIED
        entry.chips = 0
        entry.place = None
        entry.out_at = now
        entry.out_round = t.round
        entry.save(update_fields=["status", "chips", "place", "out_at", "out_round"])
        if table is not None and table.table_id is not None:
            with contextlib.suppress(shared.TableError):  # between games: nothing to hand over
                tables_service.seat_leave(table_id=table.table_id, user=user)
        if t.is_mtt and not Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING):
            _end_mtt(t, now)  # nobody left to play: those out before them take the places
        elif not t.is_mtt and not _anyone_competes(t, table):
            _call_off_single(t, table, now)
        _changed(t.pk)
    _arm(t.pk)
    return entry


ALL_DISQUALIFIED = "Cancelled: every player was disqualified."


def _anyone_competes(t: Tournament, table: TournamentTable | None) -> bool:
    """A quick game or STT still has a seat playing for a place: an entrant, or a filler
    bot (a seat with no account)."""
    if Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING).exists():
        return True
    if table is None or table.table_id is None:
        return False
    return Seat.objects.filter(table_id=table.table_id, user__isnull=True).exists()


def _call_off_single(t: Tournament, table: TournamentTable | None, now: datetime) -> None:
    """Every entrant of a single table is disqualified and no filler bot plays: nobody can
    take a place, so the game stops and the event is cancelled with that reason (the bots
    would otherwise play the seats on to the end for nobody)."""
    if table is not None and table.table_id is not None:
        with contextlib.suppress(shared.TableError):  # between hands: nothing is dealt again
            tables_service.table_abort(table_id=table.table_id, reason=ALL_DISQUALIFIED)
        table.status = TournamentTable.Status.DONE
        table.save(update_fields=["status"])
    t.status = Status.CANCELLED
    t.notice = ALL_DISQUALIFIED
    t.finished_at = now
    t.save(update_fields=["status", "notice", "finished_at"])
    from tournaments import announce

    announce.cancelled(t)


# --- rounds (multi-table) --------------------------------------------------------------------


def _current_level(t: Tournament, now: datetime) -> schedule.Step:
    found = steps(t)
    if t.level_unit == Tournament.LevelUnit.HANDS:
        elapsed = float(t.round - 1)
    else:  # the event's clock, stopped during pauses and breaks
        elapsed = breaks.clock_minutes(t, now)
    return schedule.level_at(found, elapsed)


def round_start(
    *,
    tournament: Tournament,
    live: bool,
    rng: random.Random | None = None,
    now: datetime | None = None,
) -> balancing.Plan:
    """Start the next round: set the level, seat or rebalance, and (live) deal at every table.

    The caller holds the tournament's row lock in a transaction. Seat ``DEALER_SEAT`` deals:
    at a table that played before, its players are seated from the left of the last dealer
    (so the deal passes on to the left) and players moved in after them (they deal after
    everyone already there). No table is formed below the preset's minimum.
    """
    t = tournament
    now = now or timezone.now()
    rng = rng or random.Random()
    t.round += 1
    step = _current_level(t, now)
    t.level, t.pcr = step.number, step.pcr
    t.save(update_fields=["round", "level", "pcr"])
    playing = list(
        Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING).select_related("user")
    )
    by_id = {e.pk: e for e in playing}
    minimum, maximum = preset_seats(t)
    open_tables = {tt.pk: tt for tt in TournamentTable.objects.filter(tournament=t, status="open")}
    if not open_tables:
        ids = list(by_id)
        rng.shuffle(ids)
        first = balancing.seat(ids, t.seats_per_table, minimum, maximum)
        plan = balancing.Plan(layout={-(i + 1): ps for i, ps in enumerate(first)})
    else:
        plan = balancing.rebalance(
            _seating_from_the_dealers_left(open_tables, playing),
            t.seats_per_table,
            minimum,
            maximum,
            unseated=sorted(e.pk for e in playing if e.table_id not in open_tables),
        )
    if plan.broken:
        TournamentTable.objects.filter(pk__in=plan.broken).update(
            status=TournamentTable.Status.BROKEN
        )
    number = TournamentTable.objects.filter(tournament=t).count()
    previous = {e.pk: (e.table_id, e.seat) for e in playing}
    autoplay = _autoplay_users(t, playing) if live else frozenset()
    fresh = [k for k in plan.layout if k < 0]
    if live:
        for key in fresh:
            number += 1
            open_tables[key] = _new_table(t, number, len(plan.layout[key]), live=True)
    else:  # headless: no games tables to create, so one insert for all
        made = TournamentTable.objects.bulk_create(
            TournamentTable(tournament=t, number=number + i + 1, round=t.round)
            for i in range(len(fresh))
        )
        open_tables.update(zip(fresh, made, strict=True))
    TournamentTable.objects.filter(pk__in=[open_tables[k].pk for k in plan.layout]).update(
        round=t.round
    )
    deals: list[tuple[TournamentTable, int, Game | None]] = []
    for key, members in plan.layout.items():
        table = open_tables[key]
        table.round = t.round
        for seat, pk in enumerate(members):
            by_id[pk].table = table
            by_id[pk].seat = seat
        seed = duplicate.seed_for(t, t.round, len(members)) if t.duplicate else None
        game = None
        if live and table.table_id is not None:
            game = managed.managed_game_start(
                table_id=table.table_id,
                players=[by_id[pk].user for pk in members],
                hands_per_game=1,
                autoplay=autoplay,
                dealer=DEALER_SEAT,
                seed=seed,
            )
        deals.append((table, len(members), game))
    if t.duplicate:
        duplicate.record_deals(t, deals)
    _write_seats(
        [e for e in playing if e.table_id != previous[e.pk][0]],
        [e for e in playing if e.seat != previous[e.pk][1]],
    )
    if live:  # seated at the start, moved after: notices that the player's pages follow
        from tournaments import announce

        announce.seats_changed(t, playing, {pk: table for pk, (table, _s) in previous.items()})
    return plan


DEALER_SEAT = 0
"""Who deals an MTT round's hand at every table (``round_start`` seats players around it)."""


def _seating_from_the_dealers_left(
    open_tables: dict[int, TournamentTable], playing: list[Entry]
) -> dict[int, list[int]]:
    """Each open table's players in dealing order: first the one left of the last dealer.

    The last dealer (whoever dealt the table's last settled hand) comes last if still there;
    if they left, the deal still goes to the first player left of their seat.
    """
    by_id = {e.pk: e for e in playing}
    dealers = [tt.dealer_id for tt in open_tables.values() if tt.dealer_id]
    dealer_seat = {pk: by_id[pk].seat for pk in dealers if pk in by_id}
    gone = [pk for pk in dealers if pk not in by_id]  # out, or moved on: ask the database
    if gone:
        dealer_seat.update(Entry.objects.filter(pk__in=gone).values_list("pk", "seat"))
    seating: dict[int, list[int]] = {pk: [] for pk in open_tables}
    for e in playing:
        if e.table_id in seating:
            seating[e.table_id].append(e.pk)
    for pk, members in seating.items():
        last = dealer_seat.get(open_tables[pk].dealer_id, -1)  # type: ignore[arg-type]
        if last is None:  # the last dealer has left their seat (independent tables)
            last = -1
        members.sort(key=lambda m: ((by_id[m].seat or 0) <= last, by_id[m].seat or 0, m))
    return seating


def _write_seats(moved: list[Entry], reseated: list[Entry]) -> None:
    """Save the new tables and seats of these entries in one statement (PostgreSQL and SQLite
    3.33+ alike, as ``_write_chips``).

    Cheaper than bulk_update's per-row CASE expressions (about 0.4 ms of Python a row) and
    than one UPDATE per table and seat number (each built by the ORM: a hand boundary, where
    everyone at the table moves one seat on, sent four or five).
    """
    changed = list({e.pk: e for e in (*moved, *reseated)}.values())
    if len(changed) < 2:
        for e in changed:
            Entry.objects.filter(pk=e.pk).update(table_id=e.table_id, seat=e.seat)
        return
    table = connection.ops.quote_name(Entry._meta.db_table)
    rows = ", ".join(["(%s, %s, %s)"] * len(changed))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET table_id = v.column2, seat = v.column3 "
            f"FROM (VALUES {rows}) AS v WHERE {table}.id = v.column1",
            [value for e in changed for value in (e.pk, e.table_id, e.seat)],
        )


def _autoplay_users(t: Tournament, playing: list[Entry]) -> frozenset[int]:
    """Bot accounts, and people a bot covers for at their last table who have not come back."""
    bots = {e.user_id for e in playing if e.user.is_bot}
    last_table = dict(
        TournamentTable.objects.filter(tournament=t, table__isnull=False).values_list(
            "pk", "table_id"
        )
    )
    where = {e.user_id: last_table.get(e.table_id) for e in playing if e.table_id}
    absent = (
        Seat.objects.filter(
            table_id__in=set(where.values()) - {None}, autoplay=True, user__isnull=False
        )
        .exclude(present_until__gt=timezone.now())  # not online: no fresh socket heartbeat
        .values_list("user_id", "table_id")
    )
    return frozenset(bots | {user for user, table in absent if where.get(user) == table})


@dataclass(frozen=True)
class Played:
    """One entrant's scored hand, as settlement needs it."""

    entry_id: int
    seat: int
    score: int
    melded: int
    in_hand: int


def hand_settle(
    *,
    tournament: Tournament,
    table: TournamentTable,
    played: Sequence[Played],
    dealer: int,
    hand: Hand | None = None,
    now: datetime | None = None,
) -> list[settlement.Transfer]:
    """Move chips for one finished hand by the PCR rule; players at 0 are out.

    The caller holds the tournament's row lock. Entrants no longer playing (disqualified
    during the hand) are left out of the settlement.
    """
    t = tournament
    now = now or timezone.now()
    if t.duplicate:
        duplicate.record_hand(t, table, played)
    entries = {
        e.pk: e
        for e in Entry.objects.filter(
            pk__in=[p.entry_id for p in played], status=Entry.Status.PLAYING
        )
    }
    hands = [
        settlement.SeatHand(p.seat, p.score, p.melded, p.in_hand, entries[p.entry_id].chips)
        for p in played
        if p.entry_id in entries
    ]
    if not hands:
        table.settled_round = t.round
        TournamentTable.objects.filter(pk=table.pk).update(settled_round=t.round)
        return []
    seat_entry = {p.seat: entries[p.entry_id] for p in played if p.entry_id in entries}
    transfers = settlement.settle(hands, pcr=t.pcr, dealer=dealer)
    before = {seat: e.chips for seat, e in seat_entry.items()}
    ChipLedger.objects.bulk_create(
        ChipLedger(
            tournament=t,
            table=table,
            hand=hand,
            round=t.round,
            kind=ChipLedger.Kind.HAND,
            payer=seat_entry[tr.payer],
            payee=seat_entry[tr.payee],
            amount=tr.amount,
            pcr=t.pcr,
            level=t.level,
        )
        for tr in transfers
    )
    # Chips that moved go back in one UPDATE ... FROM (VALUES ...): far cheaper than
    # bulk_update's CASE expressions or one UPDATE per player (docs/performance-tournaments.md).
    moved: list[tuple[int, int]] = []
    for seat, chips in settlement.apply(hands, transfers).items():
        entry = seat_entry[seat]
        if chips == entry.chips:
            continue
        entry.chips = chips
        if chips:
            moved.append((entry.pk, chips))
            continue
        entry.status = Entry.Status.OUT
        entry.out_round = t.round
        entry.out_at = now
        entry.chips_before_out = before[seat]
        Entry.objects.filter(pk=entry.pk).update(
            chips=0,
            status=entry.status,
            out_round=t.round,
            out_at=now,
            chips_before_out=before[seat],
        )
    _write_chips(moved)
    dealt = next((p.entry_id for p in played if p.seat == dealer), None)
    table.settled_round, table.dealer_id = t.round, dealt
    TournamentTable.objects.filter(pk=table.pk).update(settled_round=t.round, dealer_id=dealt)
    return transfers


def _write_chips(moved: list[tuple[int, int]]) -> None:
    """New balances (entry id, chips) in one statement (PostgreSQL and SQLite 3.33+ alike)."""
    if len(moved) < 2:
        for pk, chips in moved:
            Entry.objects.filter(pk=pk).update(chips=chips)
        return
    table = connection.ops.quote_name(Entry._meta.db_table)
    rows = ", ".join(["(%s, %s)"] * len(moved))
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET chips = v.column2 FROM (VALUES {rows}) AS v "
            f"WHERE {table}.id = v.column1",
            [value for row in moved for value in row],
        )


def round_finish(*, tournament: Tournament, now: datetime | None = None) -> bool:
    """Place this round's eliminated players; True when the tournament is over.

    Places follow elimination order; players out in the same round rank by the chips they
    held before it (more chips, better place; equal chips share the place). The event ends
    when one player is left, or fewer than the preset needs at a table (placed by chips).
    Safe to repeat: the places already written stay.
    """
    t = tournament
    duplicate.score_round(t)
    remaining = Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING).count()
    out_now = Entry.objects.filter(tournament=t, status=Entry.Status.OUT, out_round=t.round)
    richer = (
        out_now.filter(chips_before_out__gt=OuterRef("chips_before_out"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    # One statement however many went out: place = those left + 1 + those out richer.
    out_now.filter(place__isnull=True).update(
        place=Value(remaining + 1) + Coalesce(Subquery(richer), Value(0)), table=None
    )
    if remaining >= max(2, preset_seats(t)[0]):
        return False
    _end_mtt(t, now)
    return True


def _end_mtt(t: Tournament, now: datetime | None = None) -> None:
    """Too few left to play on: those still in are placed by their chips, then it is over."""
    now = now or timezone.now()
    left = list(Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING))
    for e in left:
        place = 1 + sum(1 for other in left if other.chips > e.chips)
        status = Entry.Status.WINNER if place == 1 else Entry.Status.OUT
        Entry.objects.filter(pk=e.pk).update(
            place=place, status=status, out_round=t.round if place > 1 else None,
            out_at=now if place > 1 else None,
        )  # fmt: skip
    _finish(t, now)


def _finish(t: Tournament, now: datetime | None = None) -> None:
    if t.is_mtt:  # single tables place only those still competing: no gaps to close
        _renumber_places(t)
    TournamentTable.objects.filter(tournament=t, status=TournamentTable.Status.OPEN).update(
        status=TournamentTable.Status.DONE
    )
    _award_prizes(t)
    t.status = Status.FINISHED
    t.finished_at = now or timezone.now()
    t.save(update_fields=["status", "finished_at"])
    from tournaments import announce

    announce.finished(t)


def _award_prizes(t: Tournament) -> None:
    """Write each entrant's trophies from the final places (``prizes.shares``).

    Filler bots' seats (quick game, STT) hold their places like anyone, so the prize of a
    place a bot took, or its share of a tie, is not paid to anybody.
    """
    entries = list(
        Entry.objects.filter(tournament=t, place__isnull=False)
        .exclude(status=Entry.Status.DISQUALIFIED)
        .order_by("place", "-chips", "-score", "registered_at", "pk")
    )
    bots = [row for row in t.bot_results or [] if row.get("place")]
    finishers: list[tuple[Any, int, int, int]] = [
        (e.pk, e.place, e.chips, e.score) for e in entries if e.place
    ]
    finishers += [
        (("bot", i), int(row["place"]), 0, int(row.get("score", 0))) for i, row in enumerate(bots)
    ]
    finishers.sort(key=lambda f: (f[1], -f[2], -f[3]))
    field = Entry.objects.filter(tournament=t).count() + len(t.bot_results or [])
    table = prizes.table_for(t.prizes, field)
    won = prizes.shares([(key, place) for key, place, _c, _s in finishers], table)
    for e in entries:
        if won.get(e.pk):
            Entry.objects.filter(pk=e.pk).update(trophies=won[e.pk])


def _renumber_places(t: Tournament) -> None:
    """Close the gaps the disqualified leave: places run 1..n, tied players sharing one.

    A place is written when a player goes out, counting those still in then; a player
    disqualified later takes no place, so everyone placed before them moves up. If nobody
    is left to win (all disqualified), the best of those out before them is first.
    """
    placed = list(
        Entry.objects.filter(tournament=t, place__isnull=False)
        .exclude(status=Entry.Status.DISQUALIFIED)
        .values_list("pk", "place")
    )
    olds = sorted(place for _pk, place in placed)
    new_place = {}
    for i, place in enumerate(olds):
        new_place.setdefault(place, i + 1)
    moves: dict[int, list[int]] = {}
    for pk, place in placed:
        if new_place[place] != place:
            moves.setdefault(new_place[place], []).append(pk)
    for place, ids in moves.items():
        Entry.objects.filter(pk__in=ids).update(place=place)
    Entry.objects.filter(tournament=t, place=1).exclude(
        status__in=(Entry.Status.WINNER, Entry.Status.DISQUALIFIED)
    ).update(status=Entry.Status.WINNER)


def _round_settled(t: Tournament) -> bool:
    return not TournamentTable.objects.filter(
        tournament=t, status=TournamentTable.Status.OPEN, round=t.round, settled_round__lt=t.round
    ).exists()


# --- the driver ------------------------------------------------------------------------------


def advance(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Do whatever is due in a running tournament. True if anything changed; safe to repeat."""
    now = now or timezone.now()
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Status.RUNNING:
            return False
        changed = _advance_mtt(t, now) if t.is_mtt else _advance_single(t, now)
        if changed:
            _changed(t.pk)
    return changed


ADVANCE_TRIES = 3
"""Failures in a row before a tournament is held for an organizer (``needs_attention``)."""
RETRY_BASE_SECONDS = 10
"""The first retry waits this long, each later one twice as long as the one before."""


def advance_safely(*, tournament_id: int, now: datetime | None = None) -> bool:
    """``advance`` for the sweeper and the tasks: a failure never reaches the caller.

    It is logged and stored on the tournament (``last_error``, ``error_at``, ``error_count``);
    the tournament is skipped until ``retry_at`` (10 s, 20 s, ...) and after
    ``ADVANCE_TRIES`` failures in a row held (``needs_attention``) until ``resume``.
    """
    now = now or timezone.now()
    state = (
        Tournament.objects.filter(pk=tournament_id)
        .values_list("needs_attention", "retry_at", "error_count")
        .first()
    )
    if state is None or state[0] or (state[1] is not None and state[1] > now):
        return False
    try:
        changed = advance(tournament_id=tournament_id, now=now)
    except Exception as exc:  # one failure must not stop the others
        log.exception("advancing tournament %s failed", tournament_id)
        _record_failure(tournament_id, exc, now)
        return False
    if state[2]:
        Tournament.objects.filter(pk=tournament_id).update(error_count=0, retry_at=None)
    return changed


def _record_failure(tournament_id: int, exc: Exception, now: datetime) -> None:
    with transaction.atomic():
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None:
            return
        t.error_count += 1
        t.last_error = f"{type(exc).__name__}: {exc}"[:2000]
        t.error_at = now
        t.needs_attention = t.error_count >= ADVANCE_TRIES
        t.retry_at = now + timedelta(seconds=RETRY_BASE_SECONDS * 2 ** (t.error_count - 1))
        t.save(
            update_fields=["error_count", "last_error", "error_at", "needs_attention", "retry_at"]
        )
        _changed(t.pk)


def _advance_mtt(t: Tournament, now: datetime) -> bool:
    if t.duplicate and duplicate.round_live(t):
        return False  # chips, standings and ledger would tell a table still playing the deal
    if independent.drives(t):  # the default: each table deals again on its own
        return independent.advance(t, now)
    changed = False
    waiting = TournamentTable.objects.filter(
        tournament=t,
        status=TournamentTable.Status.OPEN,
        round=t.round,
        settled_round__lt=t.round,
        table__isnull=False,
    )
    for table in waiting:
        game = Game.objects.filter(table_id=table.table_id).order_by("-number").first()
        if game is None or game.status == Game.Status.PLAYING:
            continue
        changed = True
        hand = Hand.objects.filter(game=game).order_by("-number").first()
        if game.status != Game.Status.FINISHED or hand is None or not hand.result:
            # Stopped by staff: the hand moves no chips and the table is done; its players
            # are seated elsewhere at the next round start.
            table.settled_round = t.round
            table.status = TournamentTable.Status.BROKEN
            table.save(update_fields=["settled_round", "status"])
            continue
        hand_settle(
            tournament=t,
            table=table,
            played=_played(t, table, game, hand),
            dealer=hand.dealer,
            hand=hand,
            now=now,
        )
    if not _round_settled(t):
        return changed
    if round_finish(tournament=t, now=now):
        return True
    left = max(_pause_left(t, now), _round_break_left(t, now))
    if left > 0:  # the last table to finish reads its scores first, like every other table
        _arm(t.pk, countdown=left)
        return changed
    round_start(tournament=t, live=True, now=now)
    return True


def _round_break_left(t: Tournament, now: datetime) -> float:
    """Hand-for-hand: the event's break between rounds, started here when the schedule owes
    one (after rounds, or on the clock of levels by minutes)."""
    if not t.break_every:
        return 0.0
    minutes = t.level_unit == Tournament.LevelUnit.MINUTES
    elapsed = breaks.clock_minutes(t, now) if minutes else float(t.round)
    if not minutes:  # independent tables before the switch took their own breaks: not again
        taken = TournamentTable.objects.filter(tournament=t).aggregate(m=Max("breaks_taken"))
        t.breaks_taken = max(t.breaks_taken, taken["m"] or 0)
    before = t.breaks_taken
    if breaks.event_break_tick(t, steps(t), elapsed, now):
        t.save(update_fields=["break_until", "break_seconds", "breaks_taken"])
        if t.breaks_taken > before:
            from tournaments import announce

            announce.on_break(t, None)
    return breaks.event_break_left(t, now)


def _pause_left(t: Tournament, now: datetime) -> float:
    """Seconds left of the pause after the round's hands: the longest of its tables' pauses,
    each as games.services.clock defines it (so a table whose people all said Ready waits no
    more)."""
    from games.services import clock

    live = TournamentTable.objects.filter(tournament=t, round=t.round, table__isnull=False)
    tables = live.values_list("table_id", flat=True)
    return max(clock.tables_pause_left(list(tables), now).values(), default=0.0)


def _played(t: Tournament, table: TournamentTable, game: Game, hand: Hand) -> list[Played]:
    users = {p.get("user"): seat for seat, p in enumerate(game.players)}
    entries = Entry.objects.filter(tournament=t, user_id__in=[u for u in users if u])
    seats = {s["seat"]: s for s in (hand.result or {}).get("seats", [])}
    played = []
    for e in entries:
        seat = users[e.user_id]
        line = seats[seat]
        played.append(Played(e.pk, seat, line["score"], line["melded"], line["in_hand"]))
    return played


# --- quick games and single table tourneys ----------------------------------------------------


def _advance_single(t: Tournament, now: datetime) -> bool:
    """Quick game and STT: deal the next hand after the pause, start a play-off, or place."""
    table = TournamentTable.objects.filter(tournament=t).first()
    if table is None or table.table_id is None:
        return False
    game = Game.objects.filter(table_id=table.table_id).order_by("-number").first()
    if game is None:
        return False
    if game.status == Game.Status.PLAYING:
        return _between_hands(t, table, game, now)
    if game.status != Game.Status.FINISHED:
        t.status = Status.CANCELLED
        t.notice = "The table was stopped by staff; the tournament has no result."
        t.finished_at = now
        t.save(update_fields=["status", "notice", "finished_at"])
        from tournaments import announce

        announce.cancelled(t)
        return True
    playoff = t.round > 1
    units = _competing_units(t, game)
    totals = list(game.totals)
    if playoff:
        leaders = _leading_units(units, totals)
        if len(leaders) > 1 and _playoff_possible(t, game, leaders):
            _place(t, game, [u for u in units if u not in leaders], units, now, score=False)
            _playoff(t, table, game, [seat for unit in leaders for seat in unit])
            return True
    _place(t, game, units, units, now, score=not playoff)
    table.status = TournamentTable.Status.DONE
    table.settled_round = t.round
    table.save(update_fields=["status", "settled_round"])
    _finish(t, now)
    return True


Unit = tuple[int, ...]
"""The seats that win or lose together: one seat, or a partnership's seats (persian)."""


def _units(game: Game) -> list[Unit]:
    sides = engine.Rules.from_json(game.rules).spec.partnerships
    seats = len(game.players)
    if sides and all(seat < seats for side in sides for seat in side):
        return [tuple(side) for side in sides]
    return [(seat,) for seat in range(seats)]


def _competing_units(t: Tournament, game: Game) -> list[Unit]:
    """Units with a seat that still competes: a disqualified player's seat (played on by a
    bot) does not, a filler bot's does."""
    dq = set(
        Entry.objects.filter(tournament=t, status=Entry.Status.DISQUALIFIED).values_list(
            "user_id", flat=True
        )
    )
    competing = {
        seat for seat, p in enumerate(game.players) if p.get("user") not in dq or not p.get("user")
    }
    return [unit for unit in _units(game) if competing & set(unit)]


def _unit_total(unit: Unit, totals: list[int]) -> int:
    return max(totals[seat] for seat in unit)


def _leading_units(units: list[Unit], totals: list[int]) -> list[Unit]:
    if not units:
        return []
    best = max(_unit_total(u, totals) for u in units)
    return [u for u in units if _unit_total(u, totals) == best]


def _playoff_possible(t: Tournament, game: Game, leaders: list[Unit]) -> bool:
    """Tied leaders play off when their seats alone can play the preset (else they share)."""
    minimum = preset_seats(t)[0]
    return sum(len(u) for u in leaders) >= minimum


def _place(
    t: Tournament,
    game: Game,
    placing: list[Unit],
    units: list[Unit],
    now: datetime,
    *,
    score: bool,
) -> None:
    """Place the seats of ``placing`` by their totals among ``units`` (better total, better
    place; a tie shares it): entrants on their entries, filler bots in ``bot_results``."""
    totals = list(game.totals)
    seats = _seat_entries(t, game)
    bots = list(t.bot_results or [])
    for unit in placing:
        mine = _unit_total(unit, totals)
        place = 1 + sum(1 for other in units if _unit_total(other, totals) > mine)
        for seat in unit:
            e = seats.get(seat)
            if e is None:
                player = game.players[seat]
                if not player.get("user"):
                    bots.append(
                        {"name": player.get("name", "Bot"), "place": place, "score": totals[seat]}
                    )
                continue
            if e.status != Entry.Status.PLAYING:
                continue
            if score:
                e.score = totals[seat]
            e.place = place
            e.status = Entry.Status.WINNER if place == 1 else Entry.Status.OUT
            e.out_at = None if place == 1 else now
            e.save(update_fields=["score", "place", "status", "out_at"])
    if bots != list(t.bot_results or []):
        t.bot_results = bots
        t.save(update_fields=["bot_results"])


def _seat_entries(t: Tournament, game: Game) -> dict[int, Entry]:
    users = {p.get("user"): seat for seat, p in enumerate(game.players) if p.get("user")}
    return {
        users[e.user_id]: e for e in Entry.objects.filter(tournament=t, user_id__in=list(users))
    }


def _between_hands(t: Tournament, table: TournamentTable, game: Game, now: datetime) -> bool:
    """After a hand: the scores at once, then after the pause the next deal or a play-off.

    STT: when leaders tie at or over the target, the others are out (placed by total) and the
    tied leaders play on, one-hand games among themselves until one scores alone on top.
    """
    from games.services import clock

    hand = Hand.objects.filter(game=game).order_by("-number").first()
    if hand is None or hand.status != Hand.Status.OVER:
        return False
    totals = list(game.totals)
    changed = t.round == 1 and _write_scores(t, game, totals)
    left = clock.table_pause_left(game.table_id, now)
    if left > 0:
        _arm(t.pk, countdown=left)
        return changed
    assert table.table_id is not None
    units = _competing_units(t, game)
    leaders = _leading_units(units, totals)
    target = engine.Rules.from_json(game.rules).target
    if (
        t.format == Tournament.Format.STT
        and leaders
        and _unit_total(leaders[0], totals) >= target
        and len(leaders) > 1
        and _playoff_possible(t, game, leaders)
    ):
        managed.game_end(table_id=table.table_id, winners=[])
        _place(t, game, [u for u in units if u not in leaders], units, now, score=True)
        _playoff(t, table, game, [seat for unit in leaders for seat in unit])
        return True
    return tables_service.hand_next(table_id=table.table_id) is not None or changed


def _write_scores(t: Tournament, game: Game, totals: list[int]) -> bool:
    """The standings show the game totals while it is played, not only at the end."""
    changed = False
    for seat, e in _seat_entries(t, game).items():
        if e.score != totals[seat]:
            Entry.objects.filter(pk=e.pk).update(score=totals[seat])
            changed = True
    return changed


def _playoff(t: Tournament, table: TournamentTable, game: Game, seats: list[int]) -> None:
    assert table.table_id is not None
    ids = [game.players[seat].get("user") for seat in seats]
    users = {u.pk: u for u in User.objects.filter(pk__in=[i for i in ids if i])}
    players = [users.get(i) if i else None for i in ids]
    absent = (
        Seat.objects.filter(table_id=table.table_id, autoplay=True, user__isnull=False)
        .exclude(present_until__gt=timezone.now())  # not online: no fresh socket heartbeat
        .values_list("user_id", flat=True)
    )
    dq = Entry.objects.filter(
        tournament=t, status=Entry.Status.DISQUALIFIED, user_id__in=list(users)
    ).values_list("user_id", flat=True)
    t.round += 1
    t.save(update_fields=["round"])
    table.round = t.round
    table.save(update_fields=["round"])
    new = managed.managed_game_start(
        table_id=table.table_id,
        players=players,
        hands_per_game=1,
        autoplay=frozenset({u.pk for u in users.values() if u.is_bot} | set(absent) | set(dq)),
    )
    _sync_seats(t, new)


# --- the clock of the tournament (Celery beat) -------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Open and close registration, start or cancel at the scheduled time, advance the running.

    Each step goes through the services above, so a repeat does nothing more; a failure in
    one tournament is logged and stored on it, and never stops the others.
    """
    now = now or timezone.now()
    done = {"opened": 0, "closed": 0, "started": 0, "cancelled": 0, "advanced": 0, "failed": 0}
    done["reminded"] = _reminders(now)
    for pk in Tournament.objects.filter(
        status__in=(Status.REGISTRATION, Status.CLOSED),
        sit_and_go=True,
        sit_and_go_at__lte=now,
        needs_attention=False,
    ).values_list("pk", flat=True):
        done["started"] += sit_and_go_safely(tournament_id=pk, now=now)
    for pk in Tournament.objects.filter(
        status__in=(Status.REGISTRATION, Status.CLOSED), sit_and_go=True, sit_and_go_at=None
    ).values_list("pk", flat=True):
        _sit_and_go_refresh(pk, now)  # made a sit-and-go (admin) after its seats filled
    for pk in Tournament.objects.filter(
        status=Status.DRAFT, registration_opens_at__lte=now
    ).values_list("pk", flat=True):
        done["opened"] += _quietly(registration_open, tournament_id=pk)
    for pk in Tournament.objects.filter(
        status=Status.REGISTRATION, registration_closes_at__lte=now
    ).values_list("pk", flat=True):
        done["closed"] += _quietly(registration_close, tournament_id=pk)
    due = (
        Tournament.objects.filter(
            status__in=(Status.REGISTRATION, Status.CLOSED),
            scheduled_start__lte=now,
            needs_attention=False,
        )
        .annotate(n=Count("entries"))
        .only("pk", "format", "preset", "min_entrants", "bots_allowed")
    )
    for due_t in due:
        pk, count, needed = due_t.pk, due_t.n, needed_entrants(due_t)  # type: ignore[attr-defined]
        if count < needed:  # the rules' own minimum too (3 for classic), not only the form's
            done["cancelled"] += _quietly(
                cancel,
                tournament_id=pk,
                notice=f"Cancelled: {count} entered, at least {needed} were needed.",
            )
            continue
        refused: list[str] = []
        outcome = _quietly(start, tournament_id=pk, now=now, refused=refused)
        if outcome == 1:
            done["started"] += 1
        elif outcome == 0:
            reason = f"Cancelled: it could not start. {' '.join(refused)}".strip()
            _quietly(cancel, tournament_id=pk, notice=reason)
            done["cancelled"] += 1
        else:
            done["failed"] += 1
    running = Tournament.objects.filter(status=Status.RUNNING, needs_attention=False).filter(
        Q(retry_at__isnull=True) | Q(retry_at__lte=now)
    )
    for pk, before in running.values_list("pk", "error_count"):
        moved = advance_safely(tournament_id=pk, now=now)
        done["advanced"] += int(moved)
        after = Tournament.objects.filter(pk=pk).values_list("error_count", flat=True).first()
        done["failed"] += int((after or 0) > before)
    return done


def _reminders(now: datetime) -> int:
    """ "Starts in 2 minutes" to the entrants of events due soon (once each). Never raises:
    a reminder that fails must not stop the sweep's starts."""
    from tournaments import announce

    try:
        with transaction.atomic():
            return announce.starting_soon(now)
    except Exception:
        log.exception("tournament start reminders failed")
        return 0


def sit_and_go_safely(*, tournament_id: int, now: datetime | None = None) -> int:
    """1 started; 0 not due or refused (a refusal clears the countdown, so it is not retried
    every sweep and the next entry or withdrawal decides again). Never raises."""
    now = now or timezone.now()
    try:
        return int(sit_and_go_due(tournament_id=tournament_id, now=now))
    except TournamentError as exc:
        log.info("sit-and-go start refused", extra={"code": exc.code})
        Tournament.objects.filter(pk=tournament_id).update(sit_and_go_at=None, notice=exc.message)
        return 0
    except Exception as exc:  # one failure must not stop the others
        log.exception("sit-and-go start of tournament %s failed", tournament_id)
        _record_failure(tournament_id, exc, now)
        return 0


def _quietly(fn: Callable[..., Any], *, refused: list[str] | None = None, **kwargs: Any) -> int:
    """1 done, 0 refused (a ``TournamentError``, its sentence added to ``refused``), -1
    failed (logged and stored on it)."""
    try:
        fn(**kwargs)
    except TournamentError as exc:
        log.info("tournament sweep step refused", extra={"code": exc.code})
        if refused is not None:
            refused.append(exc.message)
        return 0
    except Exception as exc:  # one failure must not stop the others
        log.exception("tournament sweep step %s failed", getattr(fn, "__name__", fn))
        pk = kwargs.get("tournament_id")
        if pk is not None:
            _record_failure(pk, exc, kwargs.get("now") or timezone.now())
        return -1
    return 1
