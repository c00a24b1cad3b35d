"""Multi-table tourneys that used to freeze or end wrong: presets for 3+, stopped tables,
disqualifications at the end, the pause after a round and the deal passing on."""

from __future__ import annotations

import itertools
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Table
from games.services import bot_turns, tables
from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tests.tournaments.test_running import ledger_balance
from tournaments import services
from tournaments.models import ChipLedger, Entry, Tournament, TournamentTable
from tournaments.services import Played, TournamentError


def seated(table: TournamentTable) -> list[Entry]:
    return list(Entry.objects.filter(table=table, status=Entry.Status.PLAYING).order_by("seat"))


def settle(t: Tournament, table: TournamentTable, scores: list[int], dealer: int = 0) -> None:
    t.refresh_from_db()
    played = [Played(e.pk, e.seat, s, s, 0) for e, s in zip(seated(table), scores, strict=True)]
    services.hand_settle(tournament=t, table=table, played=played, dealer=dealer)


def test_a_three_player_preset_never_deals_a_two_player_table(db):
    # 5 players at 4-seat tables used to be 3 + 2: classic refused the table of 2 for good
    t = make_tournament(preset="classic", seats_per_table=4)
    enter(t, bot_players(5))
    services.start(tournament_id=t.pk, rng=random.Random(1))
    assert [g.table.num_seats for g in Game.objects.select_related("table")] == [5]


def test_fewer_players_left_than_the_preset_needs_ends_the_event_placed_by_chips(db):
    t = make_tournament(preset="classic", seats_per_table=3, starting_chips=100)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, live=False, rng=random.Random(1))
    table = TournamentTable.objects.get(tournament=t)
    # seat 2 loses everything to seat 0; seat 1 pays a little: two left, classic needs three
    settle(t, table, [50, 48, 0])
    t.refresh_from_db()
    assert services.round_finish(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    places = {e.seat: (e.place, e.status) for e in Entry.objects.filter(tournament=t)}
    assert places == {
        0: (1, Entry.Status.WINNER),
        1: (2, Entry.Status.OUT),
        2: (3, Entry.Status.OUT),
    }


@pytest.mark.parametrize(
    ("preset", "seats", "message"),
    [
        ("classic", 2, "played by 3 to 8 players: tables of 2 cannot be used"),
        ("persian", 3, "played by 4 players: tables of 3 cannot be used"),
        ("bogus", 4, "There is no preset called 'bogus'"),
    ],
)
def test_settings_whose_tables_the_preset_cannot_use_are_refused(db, preset, seats, message):
    t = make_tournament(preset=preset, seats_per_table=seats, format=Tournament.Format.QUICK)
    with pytest.raises(TournamentError, match=message):
        services.check_settings(t)


def test_a_classic_mtt_with_two_entrants_is_refused_at_the_start(db):
    t = make_tournament(preset="classic", seats_per_table=3)
    enter(t, bot_players(2))
    with pytest.raises(TournamentError, match="2 registered, 3 needed"):
        services.start(tournament_id=t.pk)


def test_a_table_stopped_by_staff_is_broken_and_its_players_play_on_elsewhere(db):
    t = make_tournament(seats_per_table=2, starting_chips=300)
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    first = TournamentTable.objects.filter(tournament=t).first()
    assert first.table_id is not None
    tables.table_abort(table_id=first.table_id, reason="Staff test")
    t = drive(t)

    assert t.status == Tournament.Status.FINISHED
    first.refresh_from_db()
    assert first.status == TournamentTable.Status.BROKEN
    assert sorted(Entry.objects.filter(tournament=t).values_list("place", flat=True)) == [
        1,
        2,
        3,
        4,
    ]


def test_when_the_last_players_are_disqualified_those_out_before_take_the_places(db):
    t = make_tournament(seats_per_table=3, starting_chips=100)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, live=False, rng=random.Random(2))
    table = TournamentTable.objects.get(tournament=t)
    settle(t, table, [20, 10, 0])  # seat 2 pays all its 100 chips: out
    t.refresh_from_db()
    assert not services.round_finish(tournament=t)
    services.round_start(tournament=t, live=False)
    for e in Entry.objects.filter(tournament=t, status=Entry.Status.PLAYING):
        services.disqualify(tournament_id=t.pk, user=e.user)

    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    entries = list(Entry.objects.filter(tournament=t))
    assert all(e.chips == ledger_balance(e) for e in entries)
    assert ChipLedger.objects.filter(kind=ChipLedger.Kind.DISQUALIFICATION).count() == 2
    placed = [(e.place, e.status) for e in entries if e.status != Entry.Status.DISQUALIFIED]
    assert placed == [(1, Entry.Status.WINNER)]
    assert [e.place for e in entries if e.status == Entry.Status.DISQUALIFIED] == [None, None]


def _play_round(t: Tournament, rng: random.Random) -> None:
    t.refresh_from_db()
    live = list(
        TournamentTable.objects.filter(tournament=t, round=t.round).values_list(
            "table_id", flat=True
        )
    )
    for _ in range(5000):
        if all(
            Game.objects.filter(table_id=pk).latest("number").status != "playing" for pk in live
        ):
            return
        for pk, version in Table.objects.filter(pk__in=live).values_list("pk", "version"):
            bot_turns.play_one(pk, version, rng=rng)
    raise AssertionError("the round did not end")


def test_the_last_table_of_a_round_waits_for_the_pause_after_its_hand(db, settings):
    settings.HAND_PAUSE_SECONDS = 30
    t = make_tournament(seats_per_table=2, starting_chips=100_000, levels=((1, 1, 50),))
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk, rng=random.Random(4))
    _play_round(t, random.Random(4))
    now = timezone.now()
    services.advance(tournament_id=t.pk, now=now)
    t.refresh_from_db()
    assert t.round == 1 and Game.objects.count() == 1  # settled, reading the scores
    services.advance(tournament_id=t.pk, now=now + timedelta(seconds=31))
    t.refresh_from_db()
    assert t.round == 2 and Game.objects.count() == 2


def test_the_deal_passes_to_the_left_from_round_to_round(db):
    t = make_tournament(seats_per_table=4, starting_chips=100_000, levels=((1, 1, 50),))
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(6))
    rng = random.Random(6)
    dealers = []
    for _ in range(4):
        t.refresh_from_db()
        game = Game.objects.latest("pk")
        dealers.append((game.players, game.first_dealer))
        _play_round(t, rng)
        services.advance(tournament_id=t.pk)
    for (players, dealer), (after, next_dealer) in itertools.pairwise(dealers):
        left = players[(dealer + 1) % len(players)]["user"]
        assert after[next_dealer]["user"] == left


def test_a_player_moved_in_deals_after_everyone_already_at_the_table(db):
    t = make_tournament(seats_per_table=4, starting_chips=100)
    enter(t, bot_players(5))
    services.start(tournament_id=t.pk, live=False, rng=random.Random(5))
    big, small = sorted(
        TournamentTable.objects.filter(tournament=t), key=lambda tt: -len(seated(tt))
    )
    old = [e.pk for e in seated(big)]
    newcomer = seated(small)[0]
    settle(t, big, [10, 0, 0])  # seat 0 dealt
    settle(t, small, [100, 0])  # the other player at the small table is out
    t.refresh_from_db()
    assert not services.round_finish(tournament=t)
    services.round_start(tournament=t, live=False)

    order = [e.pk for e in seated(big)]
    assert order == [old[1], old[2], old[0], newcomer.pk]
