"""Tournaments played to the end by bots through the real services, and the start's refusals."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db.models import Sum
from django.utils import timezone

from games.models import Game, Table
from games.services import bot_turns, moves, presence, shared
from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tournaments import services
from tournaments.models import ChipLedger, Entry, Level, Tournament, TournamentTable
from tournaments.services import TournamentError


def ledger_balance(entry: Entry) -> int:
    received = ChipLedger.objects.filter(payee=entry).aggregate(s=Sum("amount"))["s"] or 0
    paid = ChipLedger.objects.filter(payer=entry).aggregate(s=Sum("amount"))["s"] or 0
    return received - paid


def test_a_sixteen_bot_multi_table_tourney_runs_to_one_winner(db):
    t = make_tournament(seats_per_table=4, starting_chips=500)
    enter(t, bot_players(16))
    services.start(tournament_id=t.pk, rng=random.Random(7))
    assert TournamentTable.objects.filter(tournament=t).count() == 4
    t = drive(t)

    assert t.status == Tournament.Status.FINISHED
    entries = list(Entry.objects.filter(tournament=t))
    assert sorted(e.place for e in entries)[0] == 1
    winner = [e for e in entries if e.place == 1]
    assert len(winner) == 1 and winner[0].status == Entry.Status.WINNER
    assert winner[0].chips == 16 * 500
    assert all(e.chips == ledger_balance(e) for e in entries)
    assert all(e.chips >= 0 for e in entries)
    assert all(e.status == Entry.Status.OUT for e in entries if e.place != 1)
    # places follow elimination order: a later round never gets a worse place
    out = [e for e in entries if e.place != 1]
    assert all(a.place > b.place for a in out for b in out if a.out_round < b.out_round)
    assert sorted({e.place for e in out})[-1] <= 16
    assert t.round > 1 and t.level >= 2
    # every hand's transfers carry the PCR of the level in force then
    levels = {lv.number: lv.pcr for lv in Level.objects.filter(tournament=t)}
    hands = ChipLedger.objects.filter(tournament=t, kind=ChipLedger.Kind.HAND)
    assert hands.exists() and all(row.pcr == levels[row.level] for row in hands)


def test_advance_twice_in_a_row_changes_nothing_more(db):
    t = make_tournament(seats_per_table=2)
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    # play the first round's hands, then advance once: the round is settled and the next dealt
    rng = random.Random(5)
    live = list(TournamentTable.objects.filter(tournament=t).values_list("table_id", flat=True))
    for _ in range(5000):
        if all(
            Game.objects.filter(table_id=pk).latest("number").status != Game.Status.PLAYING
            for pk in live
        ):
            break
        for pk, version in Table.objects.filter(pk__in=live).values_list("pk", "version"):
            bot_turns.play_one(pk, version, rng=rng)
    assert services.advance(tournament_id=t.pk)
    rows = ChipLedger.objects.count()
    t.refresh_from_db()
    rounds = t.round
    assert not services.advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert (ChipLedger.objects.count(), t.round) == (rows, rounds)


def test_a_quick_game_ends_after_its_hands_with_places(db):
    t = make_tournament(format=Tournament.Format.QUICK, hands=2, seats_per_table=3)
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk)
    t = drive(t)
    assert t.status == Tournament.Status.FINISHED
    game = Game.objects.get(table__in=TournamentTable.objects.values("table"))
    assert game.hands.count() == 2
    entries = list(Entry.objects.filter(tournament=t))
    assert all(e.place is not None for e in entries)
    best = max(game.totals)
    for e in entries:
        assert (e.place == 1) == (e.score == best)


def test_a_single_table_tourney_ends_at_the_target(db):
    t = make_tournament(format=Tournament.Format.STT, target=100, seats_per_table=2)
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk)
    t = drive(t)
    assert t.status == Tournament.Status.FINISHED
    winner = Entry.objects.get(tournament=t, place=1)
    other = Entry.objects.get(tournament=t, place=2)
    assert winner.score >= 100 and winner.score > other.score


def test_starting_with_too_few_entrants_is_refused_and_changes_nothing(db):
    t = make_tournament(min_entrants=4)
    enter(t, bot_players(3))
    with pytest.raises(TournamentError, match="Too few entrants"):
        services.start(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    assert not TournamentTable.objects.exists() and not ChipLedger.objects.exists()


def test_a_single_table_with_more_entrants_than_seats_is_refused_at_the_start(db):
    """Entered as an MTT, then made a single table tourney (the settings changed outside the
    form): the start seated all seven at one table of seven seats."""
    t = make_tournament(seats_per_table=4)
    enter(t, bot_players(7))
    Tournament.objects.filter(pk=t.pk).update(format=Tournament.Format.STT)
    with pytest.raises(TournamentError, match="7 players have entered already"):
        services.start(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION
    assert not Table.objects.exists() and not TournamentTable.objects.exists()


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        (((1, 0, 5),), "PCR must be a positive"),
        (((1, -2, 5),), "PCR must be a positive"),
        (((1, 2, 5), (3, 3, 5)), "without gaps"),
        (((1, 2, 0),), "duration"),
        ((), "at least one level"),
    ],
)
def test_a_bad_level_schedule_is_refused_at_the_start(db, levels, message):
    t = make_tournament(levels=levels)
    enter(t, bot_players(4))
    with pytest.raises(TournamentError, match=message):
        services.start(tournament_id=t.pk)
    assert not Table.objects.exists()


def test_starting_twice_is_refused(db):
    t = make_tournament()
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk)
    with pytest.raises(TournamentError, match="Only a tournament"):
        services.start(tournament_id=t.pk)


def test_pause_stops_the_clocks_and_resume_restarts_them(db):
    t = make_tournament()
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk)
    table = Table.objects.get()
    assert table.due_at is not None
    services.pause(tournament_id=t.pk)
    table.refresh_from_db()
    assert table.paused_at is not None and table.due_at is None
    with pytest.raises(shared.TableError, match="paused"):
        seat = 0
        moves.move_submit(
            table_id=table.pk, seat=seat, action={"type": "draw_stock"}, expected_version=None
        )
    assert not services.advance(tournament_id=t.pk)
    services.resume(tournament_id=t.pk)
    table.refresh_from_db()
    assert table.paused_at is None and table.due_at is not None


def test_a_disqualified_players_chips_go_back_to_the_bank_by_a_ledger_row(db):
    t = make_tournament(seats_per_table=4, starting_chips=1000)
    players = bot_players(4)
    enter(t, players)
    services.start(tournament_id=t.pk)
    services.disqualify(tournament_id=t.pk, user=players[0])
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=t)}
    out = entries[players[0].pk]
    assert (out.status, out.chips, out.place) == (Entry.Status.DISQUALIFIED, 0, None)
    assert sorted(entries[p.pk].chips for p in players[1:]) == [1000, 1000, 1000]
    row = ChipLedger.objects.get(kind=ChipLedger.Kind.DISQUALIFICATION)
    assert (row.payer_id, row.payee_id, row.amount) == (out.pk, None, 1000)
    assert all(e.chips == ledger_balance(e) for e in entries.values())
    with pytest.raises(TournamentError):
        services.disqualify(tournament_id=t.pk, user=players[0])


def test_a_player_covered_by_a_bot_stays_covered_next_round_until_back(db, alice):
    t = make_tournament(seats_per_table=2, starting_chips=100_000)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(1))
    services.start(tournament_id=t.pk)
    table = Table.objects.get()
    from games.models import Seat

    # Alice never opened the table: after the grace period a bot plays for her
    seat = Seat.objects.get(table=table, user=alice)
    Seat.objects.filter(pk=seat.pk).update(disconnected_at=timezone.now())
    later = timezone.now() + timedelta(hours=1)
    assert presence.seat_disconnect_expired(table_id=table.pk, seat=seat.index, now=later)
    drive_one_round(t)
    assert Seat.objects.get(table=table, user=alice).autoplay
    presence.seat_back(table_id=table.pk, user=alice)
    playing = list(Entry.objects.filter(tournament=t).select_related("user"))
    assert alice.pk not in services._autoplay_users(t, playing)


def drive_one_round(t: Tournament) -> None:
    t.refresh_from_db()
    start_round = t.round
    rng = random.Random(9)
    for _ in range(5000):
        t.refresh_from_db()
        if t.round > start_round:
            return
        moved = False
        for pk, version in Table.objects.values_list("pk", "version"):
            moved |= bot_turns.play_one(pk, version, rng=rng)
        if not moved:
            services.advance(tournament_id=t.pk)
    raise AssertionError("the round did not end")


def test_players_out_in_the_same_round_are_placed_by_their_chips_before_it(db):
    t = make_tournament(seats_per_table=4, starting_chips=1000)
    players = bot_players(4)
    enter(t, players)
    services.start(tournament_id=t.pk, live=False)
    t.refresh_from_db()
    table = TournamentTable.objects.get(tournament=t)
    entries = {e.user_id: e for e in Entry.objects.filter(tournament=t)}
    # seat order by the entries' seats; give two of them short stacks first
    seated = sorted(entries.values(), key=lambda e: e.seat)
    Entry.objects.filter(pk=seated[1].pk).update(chips=50)
    Entry.objects.filter(pk=seated[2].pk).update(chips=80)
    Entry.objects.filter(pk=seated[0].pk).update(chips=2870)
    played = [
        services.Played(seated[0].pk, 0, 100, 100, 0),
        services.Played(seated[1].pk, 1, 0, 0, 0),
        services.Played(seated[2].pk, 2, 0, 0, 0),
        services.Played(seated[3].pk, 3, 90, 90, 0),
    ]
    services.hand_settle(tournament=t, table=table, played=played, dealer=3)
    assert not services.round_finish(tournament=t)
    places = dict(Entry.objects.filter(tournament=t).values_list("pk", "place"))
    assert places[seated[2].pk] == 3  # 80 chips before the hand
    assert places[seated[1].pk] == 4  # 50 chips before the hand
    assert places[seated[0].pk] is None and places[seated[3].pk] is None


def _play_until_the_hand_is_over(table: Table) -> None:
    from games.models import Hand

    rng = random.Random(4)
    for _ in range(3000):
        hand = Hand.objects.filter(game__table=table).order_by("-game__number", "-number")[0]
        if hand.status == Hand.Status.OVER:
            return
        table.refresh_from_db()
        bot_turns.play_one(table.pk, table.version, rng=rng)
    raise AssertionError("the hand did not end")


def test_a_managed_table_waits_for_its_tournament_to_deal_the_next_hand(db):
    t = make_tournament(format=Tournament.Format.QUICK, hands=3, seats_per_table=2)
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk)
    table = Table.objects.get()
    _play_until_the_hand_is_over(table)
    table.refresh_from_db()
    assert table.due_kind == "" and Game.objects.get().hands.count() == 1
    assert services.advance(tournament_id=t.pk)
    assert Game.objects.get().hands.count() == 2


def test_stt_leaders_tied_at_the_target_play_off_and_the_others_are_out(db):
    # a target no first hand reaches, then the totals of a tie at it
    t = make_tournament(format=Tournament.Format.STT, target=1000, seats_per_table=3)
    players = bot_players(3)
    enter(t, players)
    services.start(tournament_id=t.pk, rng=random.Random(5))
    table = Table.objects.get()
    _play_until_the_hand_is_over(table)
    game = Game.objects.get()
    assert game.status == Game.Status.PLAYING
    Game.objects.filter(pk=game.pk).update(totals=[1000, 1000, 30])
    assert services.advance(tournament_id=t.pk)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    third = Entry.objects.get(tournament=t, user_id=game.players[2]["user"])
    assert (third.status, third.place, third.score) == (Entry.Status.OUT, 3, 30)
    playoff = Game.objects.exclude(pk=game.pk).get()
    leaders = {game.players[0]["user"], game.players[1]["user"]}
    assert {p["user"] for p in playoff.players} == leaders
    t = drive(t)
    assert t.status == Tournament.Status.FINISHED
    places = sorted(Entry.objects.filter(tournament=t).values_list("place", flat=True))
    assert places == [1, 2, 3]
    assert Entry.objects.get(tournament=t, place=1).user_id in leaders
