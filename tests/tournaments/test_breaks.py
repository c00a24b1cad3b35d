"""Breaks on the schedule: each table starts its break at its next hand boundary, and no
clock runs during it (docs/tournaments.md, "Breaks")."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from games.models import Game, Table
from games.services import bot_turns
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tests.tournaments.test_independent_tables import NO_PAUSE, headless, settle
from tournaments import breaks, independent, services
from tournaments.models import Tournament, TournamentTable

ONE_HAND_LEVELS = ((1, 5, 1), (2, 20, 1), (3, 100, 1))


def test_levels_done_and_when_a_break_is_owed():
    steps = services.schedule.Step
    levels = [steps(1, 5, 2), steps(2, 20, 2), steps(3, 100, 2)]
    assert [breaks.levels_done(levels, h) for h in (0, 1, 2, 3, 4, 9)] == [0, 0, 1, 1, 2, 2]
    assert breaks.due(2, 2, 0) and not breaks.due(2, 1, 0) and not breaks.due(2, 2, 1)
    assert not breaks.due(0, 5, 0)  # no breaks set


def test_with_levels_by_hands_a_table_takes_its_own_break_at_its_boundary(db):
    t = headless(8, levels=ONE_HAND_LEVELS, break_every=1, break_minutes=5)
    first, second = TournamentTable.objects.filter(tournament=t)
    now = timezone.now()
    settle(t, first, now)
    dealt, wait = independent.boundaries(t, now, live=False, **NO_PAUSE)
    first.refresh_from_db()
    assert dealt == [] and wait == 300
    assert first.break_until == now + timedelta(minutes=5) and first.breaks_taken == 1
    second.refresh_from_db()
    assert second.break_until is None and second.round == 1  # its hand plays on
    assert independent.boundaries(t, now + timedelta(minutes=4), live=False, **NO_PAUSE)[0] == []
    dealt, _ = independent.boundaries(t, now + timedelta(minutes=5), live=False, **NO_PAUSE)
    first.refresh_from_db()
    assert [tt.pk for tt in dealt] == [first.pk] and first.round == 2
    assert first.break_until is None and first.breaks_taken == 1


def test_with_levels_by_minutes_the_event_breaks_and_its_level_clock_stops(db):
    t = headless(
        8,
        levels=((1, 5, 10), (2, 20, 10), (3, 100, 10)),
        level_unit=Tournament.LevelUnit.MINUTES,
        break_every=1,
        break_minutes=5,
    )
    now = timezone.now()
    Tournament.objects.filter(pk=t.pk).update(started_at=now - timedelta(minutes=11))
    t.refresh_from_db()
    first = TournamentTable.objects.filter(tournament=t).first()
    settle(t, first, now)
    dealt, wait = independent.boundaries(t, now, live=False, **NO_PAUSE)
    t.refresh_from_db()
    assert dealt == [] and wait == 300 and t.break_until == now + timedelta(minutes=5)
    frozen = breaks.clock_minutes(t, now)
    assert breaks.clock_minutes(t, now + timedelta(minutes=4)) == frozen
    after = now + timedelta(minutes=5)
    dealt, _ = independent.boundaries(t, after, live=False, **NO_PAUSE)
    t.refresh_from_db()
    assert [tt.pk for tt in dealt] == [first.pk]
    assert t.break_until is None and t.break_seconds == 300
    assert breaks.clock_minutes(t, after) == frozen  # the clock resumes where it stopped
    first.refresh_from_db()
    assert first.level == 2  # 11 minutes played: the second level


def _finish_the_round(t: Tournament) -> None:
    rng = random.Random(6)
    tables = list(TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True))
    for _ in range(6000):
        games = [Game.objects.filter(table_id=pk).latest("number") for pk in tables]
        if all(g.status != Game.Status.PLAYING for g in games):
            return
        for pk, version in Table.objects.filter(pk__in=tables).values_list("pk", "version"):
            bot_turns.play_one(pk, version, rng=rng)
    raise AssertionError("the round did not end")


def test_hand_for_hand_rounds_break_between_rounds(db):
    t = make_tournament(
        seats_per_table=2,
        starting_chips=100_000,
        levels=ONE_HAND_LEVELS,
        hand_for_hand=True,
        break_every=1,
        break_minutes=5,
    )
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(2))
    _finish_the_round(t)
    now = timezone.now()
    services.advance(tournament_id=t.pk, now=now)
    t.refresh_from_db()
    assert t.round == 1 and t.break_until is not None and t.breaks_taken == 1
    assert not services.advance(tournament_id=t.pk, now=now + timedelta(minutes=4))
    services.advance(tournament_id=t.pk, now=t.break_until)
    t.refresh_from_db()
    assert t.round == 2 and t.break_until is None


def test_the_players_of_a_table_starting_its_break_are_told_once(db, alice):
    from accounts.models import Notice
    from tournaments.models import Entry

    t = headless(8, levels=ONE_HAND_LEVELS, break_every=1, break_minutes=5)
    first = TournamentTable.objects.filter(tournament=t).first()
    Entry.objects.filter(table=first, seat=1).update(user=alice)  # a person at the table
    now = timezone.now()
    settle(t, first, now)
    independent.boundaries(t, now, live=False, **NO_PAUSE)
    independent.boundaries(t, now + timedelta(minutes=1), live=False, **NO_PAUSE)  # still on it
    told = Notice.objects.filter(user=alice)
    assert [(n.kind, n.text) for n in told] == [("break", f"{t.name}: break for 5 minutes.")]
    assert told.get().url == f"/tournaments/{t.pk}/lobby/"
    assert Notice.objects.count() == 1  # the bots at the table are told nothing


def test_hand_for_hand_breaks_tell_the_people_playing(db, alice):
    from accounts.models import Notice
    from games.models import Seat

    t = make_tournament(
        seats_per_table=2,
        starting_chips=100_000,
        levels=ONE_HAND_LEVELS,
        hand_for_hand=True,
        break_every=1,
        break_minutes=5,
    )
    enter(t, [alice, *bot_players(3)])
    services.start(tournament_id=t.pk, rng=random.Random(2))
    Seat.objects.filter(user=alice).update(autoplay=True)  # a bot plays her turns
    _finish_the_round(t)
    services.advance(tournament_id=t.pk, now=timezone.now())
    t.refresh_from_db()
    assert t.break_until is not None
    told = Notice.objects.filter(user=alice, kind="break")
    assert [n.text for n in told] == [f"{t.name}: break for 5 minutes."]


def test_switching_to_hand_for_hand_owes_no_break_the_tables_already_took(db):
    """Levels by hands: each independent table took its own break after level 1; the
    hand-for-hand rounds that follow count the event's breaks from there, not from zero
    (which gave every player a second break, back to back with the first)."""
    t = make_tournament(
        seats_per_table=2,
        starting_chips=100_000,
        levels=ONE_HAND_LEVELS,
        break_every=1,
        break_minutes=5,
    )
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(2))
    _finish_the_round(t)
    now = timezone.now()
    services.advance(tournament_id=t.pk, now=now)
    tables = TournamentTable.objects.filter(tournament=t)
    assert [tt.breaks_taken for tt in tables] == [1, 1]  # each its own, after its hand
    Tournament.objects.filter(pk=t.pk).update(hand_for_hand_tables=2)  # from here on
    after = now + timedelta(minutes=5, seconds=1)
    services.advance(tournament_id=t.pk, now=after)  # the switch, at the break's end
    services.advance(tournament_id=t.pk, now=after)  # the first hand-for-hand round
    t.refresh_from_db()
    assert t.lock_step and t.break_until is None and t.round == 2


def test_a_pause_during_a_break_stops_the_break_too_and_the_level_clock_never_goes_back(db):
    """Paused one minute into a 5-minute break and resumed 10 minutes later: the break had
    'ended' during the pause, and both the pause and the whole break were taken off the level
    clock, so it went back from 11 minutes to 7 and the next hand was dealt at level 1 again.
    A pause stops the break's countdown as it stops every clock: 4 minutes of break are left."""
    t = headless(
        8,
        levels=((1, 5, 10), (2, 20, 10), (3, 100, 10)),
        level_unit=Tournament.LevelUnit.MINUTES,
        break_every=1,
        break_minutes=5,
    )
    now = timezone.now()
    Tournament.objects.filter(pk=t.pk).update(started_at=now - timedelta(minutes=11))
    t.refresh_from_db()
    first = TournamentTable.objects.filter(tournament=t).first()
    settle(t, first, now)
    independent.boundaries(t, now, live=False, **NO_PAUSE)
    t.refresh_from_db()
    assert t.break_until == now + timedelta(minutes=5)
    frozen = breaks.clock_minutes(t, now)
    services.pause(tournament_id=t.pk, now=now + timedelta(minutes=1))
    back = now + timedelta(minutes=11)
    services.resume(tournament_id=t.pk, now=back)
    t.refresh_from_db()
    assert t.break_until == back + timedelta(minutes=4)  # the break's 4 minutes still to come
    assert breaks.clock_minutes(t, back) == frozen
    assert independent.boundaries(t, back, live=False, **NO_PAUSE)[0] == []  # still on break
    after = back + timedelta(minutes=4)
    dealt, _ = independent.boundaries(t, after, live=False, **NO_PAUSE)
    t.refresh_from_db()
    assert [tt.pk for tt in dealt] == [first.pk]
    assert breaks.clock_minutes(t, after) == frozen  # resumes where it stopped
    first.refresh_from_db()
    assert first.level == 2
