"""Public tournament pages, the player's lobby, the player-results fragment and the socket."""

from __future__ import annotations

import random
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from tests.conftest import make_player
from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tournaments import broadcast, services
from tournaments.models import Entry, Tournament
from tournaments.routing import websocket_urlpatterns


@pytest.fixture
def finished(db):
    t = make_tournament(name="Spring open", seats_per_table=2, starting_chips=300)
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk, rng=random.Random(2))
    return drive(t)


def test_the_list_shows_upcoming_running_and_finished_without_login(db, finished):
    make_tournament(name="Next week")
    make_tournament(name="Secret draft", status=Tournament.Status.DRAFT)
    page = Client().get(reverse("tournaments:list")).content.decode()
    assert "Spring open" in page and "Next week" in page
    assert "Secret draft" not in page


def test_the_tournament_page_shows_standings_places_and_the_ledger(finished):
    page = Client().get(reverse("tournaments:detail", args=[finished.pk])).content.decode()
    assert "Standings" in page and "Bot 0" in page and "Finished" in page
    ledger = Client().get(reverse("tournaments:ledger", args=[finished.pk])).content.decode()
    assert "Starting stacks" in ledger and "Round 1 · table" in ledger


def test_a_draft_is_not_public(db):
    t = make_tournament(status=Tournament.Status.DRAFT)
    assert Client().get(reverse("tournaments:detail", args=[t.pk])).status_code == 404


def test_a_player_registers_and_sees_the_withdraw_button(alice_client, alice):
    t = make_tournament()
    response = alice_client.post(reverse("tournaments:register", args=[t.pk]), follow=True)
    page = response.content.decode()
    assert "You are registered" in page and "Withdraw" in page
    again = alice_client.post(reverse("tournaments:register", args=[t.pk]), follow=True)
    assert "already registered" in again.content.decode()


def test_the_lobby_shows_chips_level_and_a_link_to_the_table(alice_client, alice):
    t = make_tournament(bots_allowed=True)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk)
    page = alice_client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Your chips" in page and "1000" in page and 'id="my-table"' in page


def _alices_table(alice) -> tuple[Tournament, int]:
    t = make_tournament(name="Winter cup", bots_allowed=True)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk)
    entry = Entry.objects.select_related("table").get(tournament=t, user=alice)
    return t, entry.table.table_id


def test_a_players_table_page_names_the_tournament_and_follows_their_seat(alice_client, alice):
    t, table_id = _alices_table(alice)
    page = alice_client.get(reverse("table_detail", args=[table_id])).content.decode()
    assert 'id="managed-by"' in page and "Winter cup" in page
    assert reverse("tournaments:lobby", args=[t.pk]) in page
    # the tournament socket (js/tournament.js) takes the player along when they are moved
    assert f'id="tourney-live" data-tournament="{t.pk}" data-follow-seat="1"' in page
    assert "js/tournament.js" in page


def test_a_spectators_view_of_a_tournament_table_links_the_public_page_only(alice):
    t, table_id = _alices_table(alice)
    page = Client().get(reverse("table_detail", args=[table_id])).content.decode()
    assert "Winter cup" in page and reverse("tournaments:detail", args=[t.pk]) in page
    assert reverse("tournaments:lobby", args=[t.pk]) not in page
    # the banner is kept current for spectators too, but nothing follows a seat
    assert "data-banner-url" in page and "data-follow-seat" not in page


def test_an_ordinary_table_page_has_no_tournament_line(alice_client, alice):
    from games.services import tables

    table = tables.table_create(
        host=alice, name="Kitchen", preset="classic", options={}, num_seats=3, turn_seconds=60
    )
    page = alice_client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Kitchen" in page and "managed-by" not in page


def test_the_lobby_needs_a_login(db):
    t = make_tournament()
    response = Client().get(reverse("tournaments:lobby", args=[t.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_leaderboard_counts_wins_per_period(db, finished):
    # bots are left out of the leaderboard; give the win to a person to see it counted
    winner = Entry.objects.get(tournament=finished, place=1)
    person = make_player("wendy", "Wendy")
    Entry.objects.filter(pk=winner.pk).update(user=person)
    for period in ("week", "month", "all"):
        page = Client().get(reverse("tournaments:leaderboard"), {"period": period})
        body = page.content.decode()
        assert "Wendy" in body


def test_the_player_results_fragment_has_no_page_around_it(db, finished):
    name = Entry.objects.get(tournament=finished, place=1).user.display_name
    response = Client().get(reverse("tournaments:player-results", kwargs={"name": name}))
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body and "Spring open" in body


def test_the_player_results_of_an_unknown_name_is_404(db):
    url = reverse("tournaments:player-results", kwargs={"name": "nobody"})
    assert Client().get(url).status_code == 404


@pytest.mark.django_db(transaction=True)
async def test_the_socket_says_changed_to_every_page_of_the_tournament(alice):
    # A player's own news (seated, moved) is a notice on the notice socket now
    # (tests/accounts/test_notice_socket.py); this socket carries only "changed".
    @database_sync_to_async
    def running():
        t = make_tournament()
        services.register(tournament_id=t.pk, user=alice)
        enter(t, bot_players(3))
        services.start(tournament_id=t.pk)
        return t

    t = await running()
    app = URLRouter(websocket_urlpatterns)
    watcher = WebsocketCommunicator(app, f"/ws/tournaments/{t.pk}/")
    watcher.scope["user"] = AnonymousUser()
    player = WebsocketCommunicator(app, f"/ws/tournaments/{t.pk}/")
    player.scope["user"] = alice
    assert (await watcher.connect())[0] and (await player.connect())[0]
    await database_sync_to_async(broadcast.tournament_changed)(t.pk)
    assert await watcher.receive_json_from(timeout=5) == {"type": "changed"}
    assert await player.receive_json_from(timeout=5) == {"type": "changed"}
    await watcher.disconnect()
    await player.disconnect()


def test_equal_records_share_a_rank_on_the_leaderboard(db):
    """Two players with the same wins, top-three places and chips read #1 and #2 (by name);
    they share #1 and the next is #3, as tied places do. The periods are rolling windows
    and say so."""
    from django.utils import timezone

    events = [
        make_tournament(name=n, format=Tournament.Format.QUICK, status=Tournament.Status.FINISHED)
        for n in ("One", "Two")
    ]
    Tournament.objects.update(finished_at=timezone.now())
    ann, bo, cy = (make_player(u, n) for u, n in (("ann", "Ann"), ("bo", "Bo"), ("cy", "Cy")))
    Entry.objects.create(tournament=events[0], user=ann, place=1, status=Entry.Status.WINNER)
    Entry.objects.create(tournament=events[1], user=bo, place=1, status=Entry.Status.WINNER)
    Entry.objects.create(tournament=events[0], user=cy, place=2, status=Entry.Status.OUT)
    page = Client().get(reverse("tournaments:leaderboard")).content.decode()
    ranks = re.findall(r"<tr><td>(\d+)</td><td>(\w+)</td>", page)
    assert ranks == [("1", "Ann"), ("1", "Bo"), ("3", "Cy")]
    assert "Last 7 days" in page and "Last 30 days" in page and "This week" not in page
