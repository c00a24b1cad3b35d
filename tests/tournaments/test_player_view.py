"""What players and visitors see during an event: level, next PCR, chips or score, results."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Hand, Table
from games.services import bot_turns
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import selectors, services
from tournaments.models import Entry, Tournament, TournamentTable

pytestmark = pytest.mark.django_db


def running_mtt(**fields) -> Tournament:
    t = make_tournament(**fields)
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(1))
    t.refresh_from_db()
    return t


def play_first_hand(t: Tournament) -> Game:
    """Bot moves at the event's one table until its first hand is over."""
    table_id = TournamentTable.objects.get(tournament=t).table_id
    rng = random.Random(3)
    for _ in range(5000):
        if Hand.objects.filter(game__table_id=table_id, status=Hand.Status.OVER).exists():
            return Game.objects.get(table_id=table_id)
        version = Table.objects.get(pk=table_id).version
        assert bot_turns.play_one(table_id, version, rng=rng), "the bots are stuck"
    raise AssertionError("the hand did not end")


# --- the schedule and the next PCR -----------------------------------------------------------


def test_the_next_pcr_is_counted_in_hands_until_the_last_level():
    t = running_mtt()  # levels: PCR 5 for 2 hands, 20 for 2, then 100
    assert (t.round, t.level) == (1, 1)
    assert selectors.progress(t).next_text == "PCR 20 in 2 hands"
    t.round = 2
    assert selectors.progress(t).next_text == "PCR 20 from the next hand"
    t.round, t.level, t.pcr = 5, 3, 100
    assert selectors.progress(t).next_text == "last level"


def test_the_next_pcr_in_minutes_leaves_pauses_out():
    t = running_mtt(level_unit=Tournament.LevelUnit.MINUTES)
    now = timezone.now()
    t.started_at = now - timedelta(minutes=10)
    t.paused_seconds = 9 * 60  # one minute of play
    assert selectors.progress(t, now).next_text == "PCR 20 in about a minute"
    t.paused_seconds = 0
    t.started_at = now - timedelta(seconds=30)
    assert selectors.progress(t, now).next_text == "PCR 20 in about 2 minutes"


def test_the_next_pcr_in_minutes_leaves_breaks_out_as_the_level_clock_does():
    """After a 5-minute break the page said 'PCR 20 in about a minute' for 3 minutes more:
    it counted the break, which the level clock (breaks.clock_minutes) leaves out."""
    from tournaments import breaks

    t = running_mtt(level_unit=Tournament.LevelUnit.MINUTES, break_every=1, break_minutes=5)
    now = timezone.now()  # levels: PCR 5 for 2 minutes, 20 for 2, then 100
    t.started_at = now - timedelta(minutes=5, seconds=30)  # 30 s of play, then the break
    t.break_seconds = 5 * 60
    assert breaks.clock_minutes(t, now) == pytest.approx(0.5)
    assert selectors.progress(t, now).next_text == "PCR 20 in about 2 minutes"
    # during a break the clock stands still
    t.break_seconds = 0
    t.break_until = now + timedelta(minutes=4)  # began a minute ago, after 30 s of play
    t.started_at = now - timedelta(minutes=1, seconds=30)
    assert selectors.progress(t, now).next_text == "PCR 20 in about 2 minutes"


def test_the_public_page_shows_the_whole_schedule_and_marks_the_current_level():
    t = running_mtt()
    Tournament.objects.filter(pk=t.pk).update(level=2, pcr=20, round=4)
    page = Client().get(t.get_absolute_url()).content.decode()
    schedule = re.search(r'<table[^>]*id="level-schedule".*?</table>', page, re.S).group(0)
    rows = re.findall(r"<tr(?: [^>]*)?>\s*<td>(\d+)", schedule)
    assert rows == ["1", "2", "3"]
    current = re.findall(r'<tr class="is-current" aria-current="true">\s*<td>(\d+)', schedule)
    assert current == ["2"]
    assert "2 hands" in schedule and "to the end" in schedule and "hand 3" in schedule
    assert "next: PCR 100 from the next hand" in page


def test_an_upcoming_tournament_shows_its_schedule_with_no_current_level():
    t = make_tournament()
    page = Client().get(t.get_absolute_url()).content.decode()
    assert 'id="level-schedule"' in page and "is-current" not in page


# --- results in words ----------------------------------------------------------------------


def test_an_eliminated_mtt_player_reads_their_place_of_the_field():
    t = running_mtt()
    entry = Entry.objects.filter(tournament=t).first()
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.OUT, place=3)
    entry.refresh_from_db()
    assert selectors.my_outcome(t, entry) == "You are out: 3rd of 4."


def test_the_winner_reads_you_won_and_tied_winners_read_the_tie():
    t = running_mtt()
    first, second, *_ = Entry.objects.filter(tournament=t)
    Entry.objects.filter(pk=first.pk).update(status=Entry.Status.WINNER, place=1)
    first.refresh_from_db()
    assert selectors.my_outcome(t, first) == "You won!"
    Entry.objects.filter(pk=second.pk).update(status=Entry.Status.WINNER, place=1)
    assert selectors.my_outcome(t, first) == "You won (tied with 1 other)."


def test_a_quick_game_loser_finishes_and_is_not_eliminated(alice):
    t = make_tournament(format=Tournament.Format.QUICK, hands=2, seats_per_table=3)
    enter(t, [alice, *bot_players(1)])
    services.start(tournament_id=t.pk, rng=random.Random(1))
    Entry.objects.filter(tournament=t, user=alice).update(status=Entry.Status.OUT, place=2)
    t.refresh_from_db()
    entry = Entry.objects.get(tournament=t, user=alice)
    # two people and the filler bot: three finish
    assert selectors.my_outcome(t, entry) == "You finished 2nd of 3."
    assert selectors.status_text(t, entry) == "Finished"
    client = Client()
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Eliminated" not in page and "Chip ledger" not in page
    assert "You finished 2nd of 3." in page


def test_a_filler_bot_counts_among_the_tables_players(alice):
    t = make_tournament(format=Tournament.Format.QUICK, hands=2, seats_per_table=3)
    enter(t, [alice, *bot_players(1)])
    services.start(tournament_id=t.pk, rng=random.Random(1))
    page = Client().get(t.get_absolute_url()).content.decode()
    assert "Table 1 · 3 players" in page


def test_quick_game_standings_show_the_running_score_during_play():
    t = make_tournament(format=Tournament.Format.QUICK, hands=3, seats_per_table=3)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(1))
    game = play_first_hand(t)
    game.refresh_from_db()
    t.refresh_from_db()
    assert any(game.totals), "the first hand scored something"
    seat_of = {p["user"]: i for i, p in enumerate(game.players)}
    shown = {e.user_id: e.score for e in selectors.standings(t)}
    assert shown == {user: game.totals[seat] for user, seat in seat_of.items()}


# --- the table page ------------------------------------------------------------------------


def entrant_client(t: Tournament) -> tuple[Client, Entry]:
    entry = Entry.objects.select_related("user", "table").filter(tournament=t).first()
    client = Client()
    client.force_login(entry.user, backend="django.contrib.auth.backends.ModelBackend")
    return client, entry


def test_an_mtt_table_shows_the_entrants_chips_level_and_next_pcr():
    t = running_mtt()
    client, entry = entrant_client(t)
    page = client.get(reverse("table_detail", args=[entry.table.table_id])).content.decode()
    assert "Level 1 · PCR 5 · next: PCR 20 in 2 hands" in page
    assert f'Your chips: <strong id="my-chips">{entry.chips}</strong>' in page
    header = re.search(r'<p class="table-facts">.*?</p>', page, re.S).group(0)
    assert "one hand" in header and "to 500" not in header


def test_the_banner_fragment_follows_the_level_without_a_reload():
    t = running_mtt()
    client, entry = entrant_client(t)
    url = reverse("tournaments:table-banner", args=[t.pk, entry.table_id])
    page = client.get(reverse("table_detail", args=[entry.table.table_id])).content.decode()
    assert f'data-banner-url="{url}"' in page
    Tournament.objects.filter(pk=t.pk).update(level=3, pcr=100, round=5)
    # independent tables: the banner shows its own table's level (each counts its own hands)
    TournamentTable.objects.filter(pk=entry.table_id).update(level=3, pcr=100, round=5)
    Entry.objects.filter(pk=entry.pk).update(chips=1234)
    fragment = client.get(url).content.decode()
    assert "Level 3 · PCR 100 · next: last level" in fragment and "1234" in fragment
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.OUT, place=4, chips=0)
    assert "You are out: 4th of 4." in client.get(url).content.decode()


def test_a_quick_game_table_says_its_hands_and_no_host_hint(alice):
    t = make_tournament(format=Tournament.Format.QUICK, hands=2, seats_per_table=3)
    enter(t, [alice, *bot_players(1)])
    services.start(tournament_id=t.pk, rng=random.Random(1))
    table_id = TournamentTable.objects.get(tournament=t).table_id
    client = Client()
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(reverse("table_detail", args=[table_id])).content.decode()
    header = re.search(r'<p class="table-facts">.*?</p>', page, re.S).group(0)
    assert "2 hands" in header and "to 500" not in header
    assert "quick game of 2 hands" in page and "Your score:" in page
    from games import selectors as game_selectors
    from games.table import presenters

    context = presenters.table_context(game_selectors.load_snapshot(table_id), 0, alice)
    assert context["replay_hint"] == ""  # the host's "same seats" hint is for hosted tables


def test_a_finished_hand_tells_the_tournaments_pages_at_once(monkeypatch):
    from tournaments import broadcast, receivers, tasks

    t = make_tournament(format=Tournament.Format.QUICK, hands=3, seats_per_table=3)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(1))
    told: list[int] = []
    monkeypatch.setattr(broadcast, "tournament_changed", told.append)
    monkeypatch.setattr(tasks.advance, "apply_async", lambda *a, **k: None)
    table_id = TournamentTable.objects.get(tournament=t).table_id
    receivers.on_hand_finished(None, table_id=table_id, game_over=False)
    assert told == [t.pk]


def test_the_lobby_shows_the_next_pcr_and_the_players_result():
    t = running_mtt()
    client, entry = entrant_client(t)
    lobby = reverse("tournaments:lobby", args=[t.pk])
    page = client.get(lobby).content.decode()
    assert "PCR 20 in 2 hands" in page and f'<dd id="my-chips">{entry.chips}</dd>' in page
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.OUT, place=2, chips=0)
    page = client.get(lobby).content.decode()
    assert "You are out: 2nd of 4." in page and "Eliminated" not in page


@pytest.mark.parametrize(
    ("played", "before", "expected"),
    [
        # a table between hands at a level's end (where breaks come) plays the next level next
        (2, (1, 5), "Level 2 · PCR 20 · next: PCR 100 in 2 hands"),
        (4, (2, 20), "Level 3 · PCR 100 · next: last level"),
        # mid-level, between hands: the next hand is the level's last ('from the next hand'
        # said the next one was already at PCR 20)
        (1, (1, 5), "Level 1 · PCR 5 · next: PCR 20 after the next hand"),
        (3, (2, 20), "Level 2 · PCR 20 · next: PCR 100 after the next hand"),
    ],
)
def test_a_table_between_hands_shows_the_level_of_its_next_hand(played, before, expected):
    """On its break after level 2 a table read 'level 2, PCR 20, next: last level' (level 3
    was still to come, from its next hand); after level 1, 'next: PCR 20 in 2 hands' while
    its next hand was already dealt at PCR 20; mid-level, 'from the next hand' for a next
    hand still at the old PCR."""
    t = running_mtt()  # levels: PCR 5 for 2 hands, 20 for 2, then 100
    client, entry = entrant_client(t)
    level, pcr = before
    TournamentTable.objects.filter(pk=entry.table_id).update(
        round=played, settled_round=played, level=level, pcr=pcr
    )
    url = reverse("tournaments:table-banner", args=[t.pk, entry.table_id])
    assert expected in client.get(url).content.decode()
    public = Client().get(t.get_absolute_url()).content.decode()
    assert expected.replace(" · ", ", ", 2).replace("Level", "level") in public


def test_a_single_table_tourney_left_at_the_presets_target_names_that_target():
    """The target left empty (the preset's own) read 'first to None' on the public page and
    at the table."""
    t = make_tournament(
        format=Tournament.Format.STT, preset="five-thousand", seats_per_table=2, target=None
    )
    enter(t, bot_players(2))
    assert "first to 5000" in Client().get(t.get_absolute_url()).content.decode()
    services.start(tournament_id=t.pk)
    client, entry = entrant_client(t)
    url = reverse("tournaments:table-banner", args=[t.pk, entry.table_id])
    banner = client.get(url).content.decode()
    assert "single table tourney, first to 5000" in banner and "None" not in banner
    Tournament.objects.filter(pk=t.pk).update(target=6000)
    assert "first to 6000" in Client().get(t.get_absolute_url()).content.decode()
