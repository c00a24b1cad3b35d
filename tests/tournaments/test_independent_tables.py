"""Independent tables: each table deals again on its own; rebalancing only at hand boundaries;
places by the moment out; hand-for-hand as the organizer's option (docs/tournaments.md)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tournaments import boundary_plan, independent, services
from tournaments.models import Entry, Tournament, TournamentTable
from tournaments.services import Played

NO_PAUSE = {"pause_left": lambda table, now: 0.0}


def headless(players: int, prefix: str = "bot", **fields) -> Tournament:
    t = make_tournament(seats_per_table=4, **fields)
    enter(t, bot_players(players, prefix))
    services.start(tournament_id=t.pk, rng=random.Random(3), live=False)
    t.refresh_from_db()
    return t


def settle(t: Tournament, table: TournamentTable, at, scores=None) -> None:
    """One hand at ``table`` with these scores by seat (default: seat 0 wins by 10)."""
    seated = list(Entry.objects.filter(table=table, status="playing", seat__isnull=False))
    seated.sort(key=lambda e: e.seat)
    scores = scores or {0: 10}
    played = [Played(e.pk, e.seat, scores.get(e.seat, 0), scores.get(e.seat, 0), 0) for e in seated]
    independent.settle(t, table, played, services.DEALER_SEAT, at)
    independent.place_the_out(t)


def test_a_table_deals_its_next_hand_while_another_is_still_playing(db):
    t = headless(8)
    first, second = TournamentTable.objects.filter(tournament=t)
    now = timezone.now()
    settle(t, first, now)
    dealt, _wait = independent.boundaries(t, now, live=False, **NO_PAUSE)
    assert [tt.pk for tt in dealt] == [first.pk]
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.round, first.settled_round) == (2, 1)
    assert (second.round, second.settled_round) == (1, 0)  # untouched, still in its hand


def test_a_table_waits_for_its_between_hands_pause(db):
    t = headless(8)
    first = TournamentTable.objects.filter(tournament=t).first()
    now = timezone.now()
    settle(t, first, now)
    dealt, wait = independent.boundaries(t, now, live=False, pause_left=lambda table, at: 4.0)
    assert dealt == [] and wait == 4.0
    first.refresh_from_db()
    assert first.round == 1


def test_levels_by_hands_count_each_tables_own_hands(db):
    t = headless(8, levels=((1, 5, 2), (2, 20, 2), (3, 100, 1)))
    first, second = TournamentTable.objects.filter(tournament=t)
    now = timezone.now()
    for _ in range(2):  # the first table plays two hands, the second none yet
        settle(t, first, now, {0: 1})
        independent.boundaries(t, now, live=False, **NO_PAUSE)
        first.refresh_from_db()
    second.refresh_from_db()
    assert (first.round, first.level, first.pcr) == (3, 2, 20)
    assert independent.hands_to_next_level(t, first) == 2
    assert independent.hands_to_next_level(t, second) == 2  # its first in play
    assert second.round == 1


def test_players_out_at_different_tables_are_placed_by_the_moment_they_went_out(db):
    t = headless(8, starting_chips=100)
    first, second = TournamentTable.objects.filter(tournament=t)
    now = timezone.now()
    # seat 1 at each table is wiped out; the second table's hand ends later
    settle(t, first, now, {0: 200, 2: 200, 3: 200})
    settle(t, second, now + timedelta(seconds=30), {0: 200, 2: 200, 3: 200})
    early, late = sorted(Entry.objects.filter(tournament=t, status="out"), key=lambda e: e.out_at)
    assert (early.place, late.place) == (8, 7)


def test_players_out_at_the_same_moment_are_placed_by_their_chips_before_the_hand(db):
    t = headless(8, starting_chips=100)
    first, second = TournamentTable.objects.filter(tournament=t)
    poorer = Entry.objects.get(table=second, seat=1)
    Entry.objects.filter(pk=poorer.pk).update(chips=60)
    richer = Entry.objects.get(table=first, seat=2)
    Entry.objects.filter(pk=richer.pk).update(chips=140)
    now = timezone.now()
    wipe = {0: 300, 1: 300, 3: 300}
    settle(t, first, now, wipe)
    settle(t, second, now, {0: 300, 2: 300, 3: 300})
    assert Entry.objects.get(pk=richer.pk).place == 7
    assert Entry.objects.get(pk=poorer.pk).place == 8


def test_a_table_in_play_is_never_touched_by_rebalancing():
    plan = boundary_plan.plan(
        [
            boundary_plan.TableNow(1, [10, 11, 12, 13], free=True),
            boundary_plan.TableNow(2, [20, 21], free=False),
        ],
        [],
        4,
    )
    assert plan.seating == {1: [11, 12, 13]}  # the player due to deal next is moved
    assert plan.joining == {2: [10]}  # to sit at the other table's next boundary
    assert plan.broken == []


def test_the_shortest_free_table_is_broken_when_fewer_tables_will_do():
    plan = boundary_plan.plan(
        [
            boundary_plan.TableNow(1, [10, 11], free=True),
            boundary_plan.TableNow(2, [20, 21, 22], free=False),
            boundary_plan.TableNow(3, [30, 31, 32], free=True),
        ],
        [],
        4,
    )
    assert plan.broken == [1]
    assert sorted(plan.seating[3]) == [10, 30, 31, 32]
    assert plan.joining == {2: [11]}


def test_players_without_a_seat_open_a_new_table_once_enough_wait():
    full = [boundary_plan.TableNow(1, [1, 2, 3, 4], free=True)]
    one = boundary_plan.plan(full, [9], 4)
    assert one.waiting == [9] and -1 not in one.seating  # one alone keeps waiting
    two = boundary_plan.plan(full, [8, 9], 4)
    assert sorted(two.seating[-1]) == [1, 8, 9] and two.seating[1] == [2, 3, 4]


def test_a_live_independent_event_plays_to_one_winner_with_tables_out_of_step(db):
    t = make_tournament(seats_per_table=2, starting_chips=300)
    enter(t, bot_players(6))
    services.start(tournament_id=t.pk, rng=random.Random(2))
    t = drive(t)
    assert t.status == Tournament.Status.FINISHED
    places = sorted(Entry.objects.filter(tournament=t).values_list("place", flat=True))
    assert places[0] == 1 and places.count(1) == 1 and len(places) == 6
    tables = TournamentTable.objects.filter(tournament=t)
    rounds = set(tables.values_list("settled_round", flat=True))
    assert len(rounds) > 1  # tables played different numbers of hands
    assert not t.lock_step


def test_hand_for_hand_from_the_start_keeps_every_table_on_one_round(db):
    t = make_tournament(seats_per_table=2, starting_chips=300, hand_for_hand=True)
    enter(t, bot_players(6))
    services.start(tournament_id=t.pk, rng=random.Random(2))
    assert not independent.drives(t)
    t = drive(t)
    assert t.status == Tournament.Status.FINISHED
    out = list(Entry.objects.filter(tournament=t).exclude(place=1))
    assert all(a.place > b.place for a in out for b in out if a.out_round < b.out_round)


def test_hand_for_hand_from_two_tables_left_waits_for_every_table_then_steps_together(db):
    t = headless(12, hand_for_hand_tables=2)
    tables = list(TournamentTable.objects.filter(tournament=t))
    assert len(tables) == 3
    now = timezone.now()
    for table in tables[:2]:  # three players wiped out at each of two tables
        settle(t, table, now, {0: 10_000})
        independent.boundaries(t, now, live=False, **NO_PAUSE)
    t.refresh_from_db()
    open_tables = TournamentTable.objects.filter(tournament=t, status="open")
    assert open_tables.count() == 2 and not t.lock_step
    dealt, _ = independent.boundaries(t, now, live=False, **NO_PAUSE)
    t.refresh_from_db()
    assert t.lock_step and dealt == []
    in_play = [tt for tt in open_tables if tt.round > tt.settled_round]
    assert in_play  # the switch waits for these hands
    assert independent.drives(t)
    for table in in_play:
        settle(t, table, now)
        independent.boundaries(t, now, live=False, **NO_PAUSE)
    t.refresh_from_db()
    assert set(open_tables.values_list("round", flat=True)) == {t.round}
    assert not independent.drives(t)  # the lock-step rounds take over
    with transaction.atomic():
        services.round_finish(tournament=t)
        services.round_start(tournament=t, live=False, rng=random.Random(1))
    assert set(open_tables.values_list("round", flat=True)) == {t.round}


def test_a_player_a_bot_covers_for_stays_covered_at_the_table_they_are_moved_to(db, alice):
    from games.models import Seat
    from games.services import tables as tables_service
    from tests.tournaments.conftest import drive

    t = make_tournament(seats_per_table=2, starting_chips=300)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    Seat.objects.filter(user=alice).update(autoplay=True)  # away: a bot plays for her
    first = Entry.objects.get(tournament=t, user=alice).table
    tables_service.table_abort(table_id=first.table_id, reason="Staff test")
    later_seats = Seat.objects.filter(user=alice).exclude(table_id=first.table_id)
    # Until she sits down elsewhere (stuck if her seat at the new table waited for her); once
    # out of chips her seat there is gone, so the check is made the moment she has one.
    drive(t, until=later_seats.exists)
    assert later_seats.exists() and all(s.autoplay for s in later_seats)


def test_when_staff_stop_the_only_table_its_players_open_a_new_one_and_play_on(db):
    from games.services import tables as tables_service

    t = make_tournament(seats_per_table=2, starting_chips=300)
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    only = TournamentTable.objects.get(tournament=t)
    tables_service.table_abort(table_id=only.table_id, reason="Staff test")
    finished = drive(t)  # stuck if the two waiting players never got a table
    assert finished.status == Tournament.Status.FINISHED
    assert TournamentTable.objects.filter(tournament=t).count() == 2


@contextmanager
def rows_read() -> Iterator[list[tuple[str, int]]]:
    """Each statement sent, with the rows a SELECT returns (counted by running it again
    wrapped in a COUNT, before its caller fetches them)."""
    from django.db import connection

    seen: list[tuple[str, int]] = []
    counting = [False]

    def wrapper(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if not counting[0]:
            rows = 0
            if sql.lstrip().upper().startswith("SELECT"):
                counting[0] = True
                try:
                    with connection.cursor() as cursor:
                        cursor.execute(f"SELECT COUNT(*) FROM ({sql}) AS counted", params)
                        rows = cursor.fetchone()[0]
                finally:
                    counting[0] = False
            seen.append((sql, rows))
        return result

    with connection.execute_wrapper(wrapper):
        yield seen


def boundary_reads(players: int) -> list[tuple[str, int]]:
    """The statements of one boundary where the free table sends a player to a table in play,
    with the rows each one reads."""
    t = headless(players, f"bot{players}x", starting_chips=100)
    first, second = TournamentTable.objects.filter(tournament=t).order_by("number")[:2]
    now = timezone.now()
    settle(t, first, now, {0: 200, 1: 200})  # two of its four are out: it plays on with two
    independent.boundaries(t, now, live=False, **NO_PAUSE)
    settle(t, second, now)
    with rows_read() as seen:
        dealt, _wait = independent.boundaries(t, now, live=False, **NO_PAUSE)
    assert [tt.pk for tt in dealt] == [second.pk]
    assert Entry.objects.filter(table=first, seat__isnull=True).count() == 1  # joins at its end
    return seen


def test_a_boundary_reads_as_much_with_fifteen_tables_as_with_five(db):
    """Its queries and the rows they return depend on the tables involved, not the field."""
    small, large = boundary_reads(20), boundary_reads(60)
    assert len(small) == len(large) <= 12, large
    assert [rows for _sql, rows in small] == [rows for _sql, rows in large], large


def live_hand_end_queries(players: int) -> int:
    """Queries of ``advance`` when one live table's hand has ended (settle it, deal again)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.models import Game, Table
    from games.services import bot_turns

    t = make_tournament(seats_per_table=4, starting_chips=1_000_000)
    enter(t, bot_players(players, f"live{players}x"))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    first = TournamentTable.objects.filter(tournament=t).order_by("number").first()
    rng = random.Random(5)
    while Game.objects.filter(table_id=first.table_id, status="playing").exists():
        version = Table.objects.get(pk=first.table_id).version
        assert bot_turns.play_one(first.table_id, version, rng=rng)
    with CaptureQueriesContext(connection) as queries:
        assert services.advance(tournament_id=t.pk)
    first.refresh_from_db()
    assert (first.round, first.settled_round) == (2, 1)  # settled and dealt again
    return len(queries)


def test_a_live_hand_end_costs_as_many_queries_with_fifteen_tables_as_with_five(db):
    """``advance`` holds the tournament's lock: it finds the tables whose hand ended and the
    pauses of those between hands in a few queries, not one or two per table."""
    assert live_hand_end_queries(20) == live_hand_end_queries(60)
