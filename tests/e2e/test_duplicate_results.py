"""A duplicate round's results in the browser: held back while the deal is live, then shown.

Alice and three bots are in a duplicate cup at tables of two, so round 1's deal is played at
two tables. Her table finishes first: her game's replay page says the deal is still being
played elsewhere. Once the other table has finished and the round is settled, the replay
opens and the tournament page's standings show each player's chips and duplicate score.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model

from games import selectors
from games.models import Game, Hand, Seat, Table
from games.services import bot_turns
from tests.e2e.axe_check import serious_violations
from tests.e2e.test_table_play import on_server_side, sign_up
from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tournaments import services
from tournaments.models import Entry


def start_cup() -> tuple[int, int, int]:
    """Start the cup; return its id, Alice's table and the other table (games table ids)."""
    alice = get_user_model().objects.get(username="alice")
    t = make_tournament(name="Mirror cup", seats_per_table=2, duplicate=True)
    services.register(tournament_id=t.pk, user=alice)
    enter(t, bot_players(3))
    services.start(tournament_id=t.pk, rng=random.Random(3))
    Seat.objects.filter(user=alice).update(autoplay=True)  # a bot plays her cards
    selectors.clear_cache()  # the seat's row changed without a new table version
    mine = Entry.objects.select_related("table").get(tournament=t, user=alice).table
    other = t.tables.exclude(pk=mine.pk).get()
    return t.pk, mine.table_id, other.table_id


def play_out(table_id: int) -> int:
    """Bots play the table's hand to its end; returns its game's id."""
    rng = random.Random(5)
    for _ in range(3000):
        hand = Hand.objects.filter(game__table_id=table_id).order_by("-game__number").first()
        if hand.status == Hand.Status.OVER:
            selectors.clear_cache()
            return hand.game_id
        version = Table.objects.values_list("version", flat=True).get(pk=table_id)
        bot_turns.play_one(table_id, version, rng=rng)
    raise AssertionError("the hand did not end")


def settle(tournament_id: int) -> float:
    services.advance(tournament_id=tournament_id)
    return Entry.objects.get(tournament_id=tournament_id, user__username="alice").duplicate_score


def test_a_duplicate_rounds_results_wait_for_every_table_then_show_both_scores(
    page, live_server_url, settings
):
    settings.HAND_PAUSE_SECONDS = 0
    settings.BOT_MOVE_DELAY_SECONDS = 0
    base = live_server_url
    sign_up(page, base, "alice", "Alice")
    tournament_id, mine, other = on_server_side(start_cup)
    game_id = on_server_side(lambda: play_out(mine))

    page.goto(f"{base}/games/{game_id}/")
    assert page.get_by_role("heading", name="This deal is still being played").is_visible()
    assert serious_violations(page) == []

    on_server_side(lambda: play_out(other))
    score = on_server_side(lambda: settle(tournament_id))
    assert on_server_side(lambda: Game.objects.get(pk=game_id).status) == "finished"

    page.goto(f"{base}/tournaments/{tournament_id}/")
    standings = page.locator("#standings")
    assert standings.get_by_role("columnheader", name="Chips").is_visible()
    assert standings.get_by_role("columnheader", name="Duplicate").is_visible()
    row = standings.get_by_role("row").filter(has_text="Alice")
    assert f"{score:.2f}" in row.inner_text()
    assert serious_violations(page) == []

    page.goto(f"{base}/games/{game_id}/")
    assert page.get_by_role("heading", name="This deal is still being played").count() == 0

    # Over (the bots disqualified), on a phone: six columns, and the page keeps its width.
    on_server_side(lambda: end_by_disqualifying_the_bots(tournament_id))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/tournaments/{tournament_id}/")
    assert page.locator("#standings").get_by_role("columnheader", name="Trophies").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious_violations(page) == []  # the standings scroll, by keyboard too


def end_by_disqualifying_the_bots(tournament_id: int) -> None:
    for entry in Entry.objects.filter(tournament_id=tournament_id, user__is_bot=True):
        if entry.is_in:
            services.disqualify(tournament_id=tournament_id, user=entry.user)
    t = drive(services.Tournament.objects.get(pk=tournament_id))  # the hands in play end
    assert t.status == "finished"
