"""Quick games and single table tourneys: every competing seat gets its place, ties shared.

Most tests end the game by writing its outcome the way ``games`` does (status, totals, the
winning seats) and let ``advance`` place everyone, so each case is exact and quick.
"""

from __future__ import annotations

import csv
import io
import random

from django.contrib.auth.models import Group
from django.test import Client

from games.models import Game, Hand, Table
from tests.conftest import make_player
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tests.tournaments.test_running import _play_until_the_hand_is_over
from tournaments import selectors, services
from tournaments.models import Entry, Tournament


def end_game(totals: list[int], winners: list[int]) -> Game:
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, totals=totals, winners=winners
    )
    Table.objects.filter(pk=game.table_id).update(status=Table.Status.FINISHED)
    game.refresh_from_db()
    return game


def entry_at(game: Game, seat: int) -> Entry:
    return Entry.objects.get(user_id=game.players[seat]["user"])


def test_tied_quick_game_winners_share_first_place_and_the_win(db):
    t = make_tournament(format=Tournament.Format.QUICK, hands=1, seats_per_table=3)
    people = [make_player(f"p{i}", f"Player {i}") for i in range(3)]
    enter(t, people)
    services.start(tournament_id=t.pk)
    game = end_game([80, 80, 20], [0, 1])
    assert services.advance(tournament_id=t.pk)

    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    first, second, third = (entry_at(game, seat) for seat in range(3))
    assert (first.place, first.status) == (1, Entry.Status.WINNER)
    assert (second.place, second.status) == (1, Entry.Status.WINNER)
    assert (third.place, third.status) == (3, Entry.Status.OUT)
    wins = {row["user__display_name"]: row["wins"] for row in selectors.leaderboard()}
    assert wins[first.user.display_name] == wins[second.user.display_name] == 1


def test_a_tie_with_a_filler_bot_gives_both_first_place(db):
    t = make_tournament(format=Tournament.Format.QUICK, hands=1, seats_per_table=2, min_entrants=1)
    enter(t, [make_player("solo", "Solo")])
    services.start(tournament_id=t.pk)
    game = Game.objects.get()
    human = next(s for s, p in enumerate(game.players) if p["user"])
    end_game([60, 60], [0, 1])
    services.advance(tournament_id=t.pk)

    assert entry_at(game, human).place == 1
    t.refresh_from_db()
    assert [row["place"] for row in t.bot_results] == [1]


def test_persian_partners_win_together_and_their_seats_follow_the_partner_draw(db):
    t = make_tournament(
        format=Tournament.Format.STT,
        preset="persian",
        options={"partners_by_draw": True},
        seats_per_table=4,
    )
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(2))
    game = Game.objects.get()
    for seat in range(4):
        assert entry_at(game, seat).seat == seat  # the draw re-seated them: entries follow
    end_game([520, 130, 520, 130], [0, 2])
    services.advance(tournament_id=t.pk)

    places = {seat: entry_at(game, seat).place for seat in range(4)}
    assert places == {0: 1, 2: 1, 1: 2, 3: 2}
    assert entry_at(game, 0).status == entry_at(game, 2).status == Entry.Status.WINNER


def _organizer_client() -> Client:
    user = make_player("olga", "Olga", is_staff=True)
    user.groups.add(Group.objects.get(name="Tournament organizers"))
    client = Client()
    client.force_login(user)
    return client


def test_a_single_table_tourney_won_by_a_filler_bot_shows_its_winner(db):
    t = make_tournament(format=Tournament.Format.STT, target=500, seats_per_table=3)
    enter(t, [make_player("ann", "Ann"), make_player("bob", "Bob")])
    services.start(tournament_id=t.pk)
    game = Game.objects.get()
    bot = next(s for s, p in enumerate(game.players) if not p["user"])
    totals = [200, 100, 300]
    totals[bot] = 510
    end_game(totals, [bot])
    services.advance(tournament_id=t.pk)

    t.refresh_from_db()
    rows = selectors.standings(t)
    assert [row.place for row in rows] == [1, 2, 3]
    assert rows[0].user.display_name == game.players[bot]["name"]
    page = Client().get(f"/tournaments/{t.pk}/live/").content.decode()
    assert game.players[bot]["name"] in page
    response = _organizer_client().post(
        "/admin/tournaments/tournament/",
        {"action": "export_results", "_selected_action": [t.pk]},
    )
    lines = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert sorted(row["place"] for row in lines) == ["1", "2", "3"]
    winner = next(row for row in lines if row["place"] == "1")
    assert winner["player"] == game.players[bot]["name"] and winner["bot"].startswith("bot")


def test_a_disqualified_players_bot_played_seat_takes_no_place(db):
    t = make_tournament(format=Tournament.Format.QUICK, hands=1, seats_per_table=2)
    ann, bob = make_player("ann", "Ann"), make_player("bob", "Bob")
    enter(t, [ann, bob])
    services.start(tournament_id=t.pk)
    game = Game.objects.get()
    ann_seat = next(s for s, p in enumerate(game.players) if p["user"] == ann.pk)
    services.disqualify(tournament_id=t.pk, user=ann)
    totals = [0, 0]
    totals[ann_seat], totals[1 - ann_seat] = 300, 100  # the bot did well in her seat
    end_game(totals, [ann_seat])
    services.advance(tournament_id=t.pk)

    assert Entry.objects.get(user=bob).place == 1
    assert Entry.objects.get(user=bob).status == Entry.Status.WINNER
    assert Entry.objects.get(user=ann).place is None


def test_a_single_table_whose_last_competitor_is_disqualified_is_called_off_at_once(db):
    """With everyone disqualified and no filler bots nobody competes any more, yet the bots
    played both seats on to the target and the event then 'finished' with no places."""
    t = make_tournament(format=Tournament.Format.STT, seats_per_table=2, bots_allowed=False)
    ann, bob = make_player("ann", "Ann"), make_player("bob", "Bob")
    enter(t, [ann, bob])
    services.start(tournament_id=t.pk)
    services.disqualify(tournament_id=t.pk, user=ann)
    assert Game.objects.get().status == Game.Status.PLAYING  # Bob still competes
    services.disqualify(tournament_id=t.pk, user=bob)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert t.notice == "Cancelled: every player was disqualified."
    assert Game.objects.get().status == Game.Status.ABORTED
    assert not Entry.objects.filter(tournament=t, place__isnull=False).exists()
    services.advance(tournament_id=t.pk)  # nothing more happens
    t.refresh_from_db()
    assert t.notice == "Cancelled: every player was disqualified."


def test_filler_bots_still_compete_after_every_entrant_is_disqualified(db):
    t = make_tournament(
        format=Tournament.Format.QUICK, hands=1, seats_per_table=3, bots_allowed=True,
        min_entrants=1,
    )  # fmt: skip
    ann = make_player("ann", "Ann")
    enter(t, [ann])
    services.start(tournament_id=t.pk)
    services.disqualify(tournament_id=t.pk, user=ann)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert Game.objects.get().status == Game.Status.PLAYING


def test_a_single_table_tourney_plays_to_the_presets_own_target_by_default(db):
    t = make_tournament(format=Tournament.Format.STT, preset="five-thousand", seats_per_table=2)
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk)
    assert Table.objects.get().rules["options"]["target"] == 5000


def test_the_organizers_target_still_wins_over_the_presets(db):
    t = make_tournament(
        format=Tournament.Format.STT, preset="five-thousand", target=2000, seats_per_table=2
    )
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk)
    assert Table.objects.get().rules["options"]["target"] == 2000


def test_the_standings_show_the_scores_while_the_game_is_played(db):
    t = make_tournament(format=Tournament.Format.QUICK, hands=3, seats_per_table=2)
    enter(t, bot_players(2))
    services.start(tournament_id=t.pk, rng=random.Random(1))
    _play_until_the_hand_is_over(Table.objects.get())
    services.advance(tournament_id=t.pk)

    game = Game.objects.get()
    assert game.status == Game.Status.PLAYING and any(game.totals)
    for seat in range(2):
        assert entry_at(game, seat).score == game.totals[seat]
    assert Hand.objects.filter(game=game).count() == 2  # and the next hand was dealt


def test_tied_leaders_too_few_for_the_preset_play_on_with_everyone(db):
    # two classic players cannot play off alone (classic needs three): the game goes on
    t = make_tournament(
        format=Tournament.Format.STT, preset="classic", target=1000, seats_per_table=3
    )
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(5))
    _play_until_the_hand_is_over(Table.objects.get())
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(totals=[1000, 1000, 30])
    services.advance(tournament_id=t.pk)

    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.hands.count() == 2
    assert not Entry.objects.filter(tournament=t, place__isnull=False).exists()
