"""Every write to tournaments goes through here: registration, start, rounds, chips, the end.

Each service locks the tournament row, checks that the request makes sense in the current
state (a ``TournamentError`` with a sentence for people otherwise, nothing written), and
changes everything it must in one transaction. The tournament is driven by ``advance``: it
looks at the live tables and does whatever is due (settle a finished hand, end the round,
rebalance, deal the next round). It is idempotent, so the Celery task armed when a game ends,
the sweeper and a worker restarted in the middle may all call it: work done is never redone
(each table records the last round it settled) and nothing is lost (the state is in the rows).

Live play sits on managed ``games`` tables (``games.services.managed_game_start``); the
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

from django.db import transaction
from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from games import engine
from games import services as games
from games.models import Game, Hand, Seat
from tournaments import balancing, schedule, settlement
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


def check_settings(tournament: Tournament) -> None:
    """Refuse a tournament whose settings cannot run (also used by the admin form)."""
    if not balancing.MIN_SEATS <= tournament.seats_per_table <= balancing.MAX_SEATS:
        raise TournamentError("invalid_seats", "Tables seat 2 to 4 players.")
    if tournament.min_entrants > tournament.max_entrants:
        raise TournamentError(
            "invalid_entrants", "The minimum number of entrants is above the maximum."
        )
    opens, closes = tournament.registration_opens_at, tournament.registration_closes_at
    if opens and closes and closes <= opens:
        raise TournamentError("invalid_window", "Registration must close after it opens.")
    if closes and tournament.scheduled_start and tournament.scheduled_start < closes:
        raise TournamentError(
            "invalid_window", "The scheduled start must not come before registration closes."
        )
    if tournament.format == Tournament.Format.QUICK and tournament.hands < 1:
        raise TournamentError("invalid_hands", "A quick game needs at least one hand.")
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
    options = dict(tournament.options or {})
    if tournament.format == Tournament.Format.STT:
        options["target"] = tournament.target
    return options


# --- registration ----------------------------------------------------------------------------


def registration_open(*, tournament_id: int) -> Tournament:
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in (Status.DRAFT, Status.CLOSED):
            raise TournamentError(
                "bad_state",
                f"Registration cannot open: the tournament is {t.get_status_display()}.",
            )
        t.status = Status.REGISTRATION
        t.save(update_fields=["status"])
        _changed(t.pk)
    return t


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
        if t.status in Tournament.IN_PLAY:
            raise TournamentError("started", "This tournament is already in progress.")
        if t.status != Status.REGISTRATION:
            raise TournamentError("closed", "Registration for this tournament is not open.")
        if t.registration_opens_at and now < t.registration_opens_at:
            raise TournamentError("too_early", "Registration has not opened yet.")
        if t.registration_closes_at and now >= t.registration_closes_at:
            raise TournamentError("too_late", "Registration for this tournament has closed.")
        return _add_entry(t, user)


def _add_entry(t: Tournament, user: User) -> Entry:
    if Entry.objects.filter(tournament=t, user=user).exists():
        raise TournamentError("already_registered", f"{user} is already registered.")
    limit = table_size_limit(t)
    if Entry.objects.filter(tournament=t).count() >= limit:
        raise TournamentError("full", f"This tournament is full ({limit} entrants).")
    entry = Entry.objects.create(tournament=t, user=user)
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
        _changed(t.pk)


def entrant_add(*, tournament_id: int, user: User) -> Entry:
    """An organizer adds a player (bot accounts too) before the start, window or not."""
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in Tournament.UPCOMING:
            raise TournamentError("started", "Entrants can only be added before the start.")
        return _add_entry(t, user)


def entrant_remove(*, tournament_id: int, user: User) -> None:
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status not in Tournament.UPCOMING:
            raise TournamentError(
                "started", "After the start a player can only be disqualified, not removed."
            )
        if not Entry.objects.filter(tournament=t, user=user).delete()[0]:
            raise TournamentError("not_registered", f"{user} is not registered.")
        _changed(t.pk)


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
        needed = max(t.min_entrants, 2 if (t.is_mtt or not t.bots_allowed) else 1)
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
        t.save(update_fields=["status", "started_at"])
        try:
            if t.is_mtt:
                _stacks(t, entries)
                round_start(tournament=t, live=live, rng=rng, now=now)
            else:
                _start_single(t, entries, rng)
        except games.TableError as exc:
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
        live_table = games.managed_table_create(
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
    t.save(update_fields=["round"])
    assert table.table is not None
    games.managed_game_start(
        table_id=table.table.pk,
        players=players,
        hands_per_game=t.hands if t.format == Tournament.Format.QUICK else None,
        autoplay=frozenset(u.pk for u in players if u is not None and u.is_bot),
    )


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
            games.table_pause(table_id=table.table_id)  # type: ignore[arg-type]
        _changed(t.pk)
    return t


def resume(*, tournament_id: int, now: datetime | None = None) -> Tournament:
    now = now or timezone.now()
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Status.PAUSED:
            raise TournamentError("bad_state", "Only a paused tournament can resume.")
        if t.paused_at is not None:
            t.paused_seconds += int((now - t.paused_at).total_seconds())
        t.status = Status.RUNNING
        t.paused_at = None
        t.save(update_fields=["status", "paused_at", "paused_seconds"])
        for table in _live_tables(t):
            games.table_resume(table_id=table.table_id)  # type: ignore[arg-type]
        _changed(t.pk)
    _arm(t.pk)
    return t


def _arm(tournament_id: int) -> None:
    from tournaments import tasks

    _after_commit(lambda: tasks.advance.delay(tournament_id))


# --- disqualification ------------------------------------------------------------------------


def disqualify(*, tournament_id: int, user: User) -> Entry:
    """Take a player out for good; see docs/tournaments.md for where their chips go.

    Their chips are shared equally among the others still in at their table (the odd chips to
    the lowest seats); a bot finishes their seat's current hand, which no longer counts for them.
    """
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
            mates = list(
                Entry.objects.filter(tournament=t, table=table, status=Entry.Status.PLAYING)
                .exclude(pk=entry.pk)
                .order_by("seat")
            )
            if not mates:
                mates = list(
                    Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING)
                    .exclude(pk=entry.pk)
                    .order_by("pk")
                )
            _share(t, entry, mates, table)
        entry.status = Entry.Status.DISQUALIFIED
        entry.chips = 0
        entry.place = None
        entry.out_at = timezone.now()
        entry.out_round = t.round
        entry.save(update_fields=["status", "chips", "place", "out_at", "out_round"])
        if table is not None and table.table_id is not None:
            with contextlib.suppress(games.TableError):  # between games: nothing to hand over
                games.seat_leave(table_id=table.table_id, user=user)
        _changed(t.pk)
    _arm(t.pk)
    return entry


def _share(t: Tournament, entry: Entry, mates: list[Entry], table: TournamentTable | None) -> None:
    if not mates:
        return
    share, odd = divmod(entry.chips, len(mates))
    rows = []
    for i, mate in enumerate(mates):
        amount = share + (1 if i < odd else 0)
        if amount:
            rows.append(
                ChipLedger(
                    tournament=t,
                    table=table,
                    round=t.round,
                    kind=ChipLedger.Kind.DISQUALIFICATION,
                    payer=entry,
                    payee=mate,
                    amount=amount,
                    pcr=t.pcr,
                    level=t.level,
                )
            )
            mate.chips += amount
    ChipLedger.objects.bulk_create(rows)
    Entry.objects.bulk_update(mates, ["chips"])


# --- rounds (multi-table) --------------------------------------------------------------------


def _current_level(t: Tournament, now: datetime) -> schedule.Step:
    found = steps(t)
    if t.level_unit == Tournament.LevelUnit.HANDS:
        elapsed = float(t.round - 1)
    else:
        started = t.started_at or now
        elapsed = ((now - started).total_seconds() - t.paused_seconds) / 60
    return schedule.level_at(found, elapsed)


def round_start(
    *,
    tournament: Tournament,
    live: bool,
    rng: random.Random | None = None,
    now: datetime | None = None,
) -> balancing.Plan:
    """Start the next round: set the level, seat or rebalance, and (live) deal at every table.

    The caller holds the tournament's row lock in a transaction.
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
    open_tables = {tt.pk: tt for tt in TournamentTable.objects.filter(tournament=t, status="open")}
    if not open_tables:
        ids = list(by_id)
        rng.shuffle(ids)
        plan = balancing.Plan(
            layout={-(i + 1): ps for i, ps in enumerate(balancing.seat(ids, t.seats_per_table))}
        )
    else:
        seating: dict[int, list[int]] = {pk: [] for pk in open_tables}
        for e in sorted(playing, key=lambda e: (e.seat or 0, e.pk)):
            if e.table_id in seating:
                seating[e.table_id].append(e.pk)
        plan = balancing.rebalance(seating, t.seats_per_table)
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
    for key, members in plan.layout.items():
        table = open_tables[key]
        table.round = t.round
        for seat, pk in enumerate(members):
            by_id[pk].table = table
            by_id[pk].seat = seat
        if live and table.table_id is not None:
            games.managed_game_start(
                table_id=table.table_id,
                players=[by_id[pk].user for pk in members],
                hands_per_game=1,
                autoplay=autoplay,
            )
    _write_seats([e for e in playing if (e.table_id, e.seat) != previous[e.pk]])
    moved = [e.user_id for e in playing if previous[e.pk][0] != e.table_id]
    if live and moved:
        from tournaments import broadcast

        tid = t.pk
        _after_commit(lambda: broadcast.players_moved(tid, moved))
    return plan


def _write_seats(changed: list[Entry]) -> None:
    """Save new tables and seats with one UPDATE per table and one per seat number.

    Cheaper than bulk_update's per-row CASE expressions when a broken table moves many.
    """
    by_table: dict[int, list[int]] = {}
    by_seat: dict[int, list[int]] = {}
    for e in changed:
        by_table.setdefault(e.table_id, []).append(e.pk)  # type: ignore[arg-type]
        by_seat.setdefault(e.seat, []).append(e.pk)  # type: ignore[arg-type]
    for table_id, ids in by_table.items():
        Entry.objects.filter(pk__in=ids).update(table_id=table_id)
    for seat, ids in by_seat.items():
        Entry.objects.filter(pk__in=ids).update(seat=seat)


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
    # One plain UPDATE per player whose chips moved: a handful of rows, and far cheaper to
    # build than bulk_update's CASE expressions (see docs/performance-tournaments.md).
    for seat, chips in settlement.apply(hands, transfers).items():
        entry = seat_entry[seat]
        if chips == entry.chips:
            continue
        entry.chips = chips
        changes: dict[str, Any] = {"chips": chips}
        if chips == 0:
            entry.status = Entry.Status.OUT
            entry.out_round = t.round
            entry.out_at = now
            entry.chips_before_out = before[seat]
            changes.update(
                status=entry.status,
                out_round=t.round,
                out_at=now,
                chips_before_out=before[seat],
            )
        Entry.objects.filter(pk=entry.pk).update(**changes)
    table.settled_round = t.round
    TournamentTable.objects.filter(pk=table.pk).update(settled_round=t.round)
    return transfers


def round_finish(*, tournament: Tournament, now: datetime | None = None) -> bool:
    """Place this round's eliminated players; True when the tournament is over.

    Places follow elimination order; players out in the same round rank by the chips they
    held before it (more chips, better place; equal chips share the place).
    """
    t = tournament
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
    if remaining > 1:
        return False
    _finish(t, now)
    return True


def _finish(t: Tournament, now: datetime | None = None) -> None:
    Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING).update(
        status=Entry.Status.WINNER, place=1
    )
    TournamentTable.objects.filter(tournament=t, status=TournamentTable.Status.OPEN).update(
        status=TournamentTable.Status.DONE
    )
    t.status = Status.FINISHED
    t.finished_at = now or timezone.now()
    t.save(update_fields=["status", "finished_at"])


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


def _advance_mtt(t: Tournament, now: datetime) -> bool:
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
            table.settled_round = t.round  # aborted by staff: the hand moves no chips
            table.save(update_fields=["settled_round"])
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
    if not round_finish(tournament=t, now=now):
        round_start(tournament=t, live=True, now=now)
    return True


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
        return True
    seats = _seat_entries(t, game)
    totals = list(game.totals)
    winners = list(game.winners)
    playoff = t.round > 1
    for seat, e in seats.items():
        if not playoff:
            e.score = totals[seat]
        if e.status == Entry.Status.PLAYING and (seat not in winners or len(winners) == 1):
            e.place = 1 + sum(1 for x in totals if x > totals[seat])
            e.status = Entry.Status.WINNER if e.place == 1 else Entry.Status.OUT
            e.out_at = now
        e.save(update_fields=["score", "place", "status", "out_at"])
    if playoff and len(winners) > 1:
        _playoff(t, table, game, winners)  # tied again: another hand among them
        return True
    table.status = TournamentTable.Status.DONE
    table.settled_round = t.round
    table.save(update_fields=["status", "settled_round"])
    t.status = Status.FINISHED
    t.finished_at = now
    t.save(update_fields=["status", "finished_at"])
    return True


def _seat_entries(t: Tournament, game: Game) -> dict[int, Entry]:
    users = {p.get("user"): seat for seat, p in enumerate(game.players) if p.get("user")}
    return {
        users[e.user_id]: e for e in Entry.objects.filter(tournament=t, user_id__in=list(users))
    }


def _between_hands(t: Tournament, table: TournamentTable, game: Game, now: datetime) -> bool:
    """After the pause that lets players read the scores: the next deal, or an STT play-off.

    STT: when leaders tie at or over the target, the others are out (placed by total) and the
    tied leaders play on, one-hand games among themselves until one scores alone on top.
    """
    from games import clock

    hand = Hand.objects.filter(game=game).order_by("-number").first()
    if hand is None or hand.status != Hand.Status.OVER:
        return False
    if hand.finished_at and hand.finished_at + timedelta(seconds=clock.hand_pause_s()) > now:
        return False
    assert table.table_id is not None
    totals = list(game.totals)
    best = max(totals)
    leaders = [seat for seat, total in enumerate(totals) if total == best]
    if t.format == Tournament.Format.STT and best >= t.target and len(leaders) > 1:
        games.game_end(table_id=table.table_id, winners=[])
        for seat, e in _seat_entries(t, game).items():
            e.score = totals[seat]
            if e.status == Entry.Status.PLAYING and seat not in leaders:
                e.place = 1 + sum(1 for x in totals if x > totals[seat])
                e.status = Entry.Status.OUT
                e.out_at = now
            e.save(update_fields=["score", "place", "status", "out_at"])
        _playoff(t, table, game, leaders)
        return True
    return games.hand_next(table_id=table.table_id) is not None


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
    t.round += 1
    t.save(update_fields=["round"])
    table.round = t.round
    table.save(update_fields=["round"])
    games.managed_game_start(
        table_id=table.table_id,
        players=players,
        hands_per_game=1,
        autoplay=frozenset({u.pk for u in users.values() if u.is_bot} | set(absent)),
    )


# --- the clock of the tournament (Celery beat) -------------------------------------------------


def sweep(now: datetime | None = None) -> dict[str, int]:
    """Open and close registration, start or cancel at the scheduled time, advance the running.

    Each step goes through the services above, so a repeat does nothing more.
    """
    now = now or timezone.now()
    done = {"opened": 0, "closed": 0, "started": 0, "cancelled": 0, "advanced": 0}
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
            status__in=(Status.REGISTRATION, Status.CLOSED), scheduled_start__lte=now
        )
        .annotate(n=Count("entries"))
        .values_list("pk", "n", "min_entrants")
    )
    for pk, count, minimum in due:
        if count < max(minimum, 1):
            done["cancelled"] += _quietly(
                cancel,
                tournament_id=pk,
                notice=f"Cancelled: {count} entered, at least {minimum} were needed.",
            )
        elif not _quietly(start, tournament_id=pk, now=now):
            _quietly(cancel, tournament_id=pk, notice="Cancelled: the tournament could not start.")
            done["cancelled"] += 1
        else:
            done["started"] += 1
    for pk in Tournament.objects.filter(status=Status.RUNNING).values_list("pk", flat=True):
        done["advanced"] += int(advance(tournament_id=pk, now=now))
    return done


def _quietly(fn: Callable[..., Any], **kwargs: Any) -> int:
    try:
        fn(**kwargs)
    except TournamentError as exc:
        log.info("tournament sweep step refused", extra={"code": exc.code})
        return 0
    return 1
