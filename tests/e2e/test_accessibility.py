"""axe-core on the pages people use: no serious or critical violation anywhere.

One browser page visits every kind of page in turn (lobby, a table being played, one with
the last hand's summary and one whose game is over, the replay, leaderboards, a player
page, the rules, the tournament pages of an event announced and of one running, its table,
account settings), so the whole check costs one sign-up and a page load per URL (about 40 s
with the server's start); then each page again at 360 px, where none may be wider than the
screen or hide its heading. The Django admin is out of scope. Minor and moderate findings
are printed, not failed on.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, Hand, Table
from games.services import tables
from tests.conftest import make_player
from tests.e2e.axe_check import FAILING_IMPACTS, describe, violations
from tests.e2e.test_table_play import on_server_side, sign_up
from tests.games.conftest import play_one
from tests.games.test_views import finish_game
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import notices
from tournaments import services as tournaments


def build_pages() -> dict[str, str]:
    """Tables, a finished game and a tournament to look at; their paths by name."""
    alice = get_user_model().objects.get(username="alice")
    bob = make_player("bob", "Bob")
    playing = tables.table_create(
        host=alice, name="Alice's game", preset="standard", options={}, num_seats=3,
        turn_seconds=60, fill_with_bots=True,
    )  # fmt: skip
    tables.table_start(table_id=playing.pk, by=alice)
    finished = tables.table_create(
        host=bob, name="Bob's game", preset="standard", options={"target": 50}, num_seats=3,
        turn_seconds=60, fill_with_bots=True,
    )  # fmt: skip
    tables.table_start(table_id=finished.pk, by=bob)
    game: Game = finish_game(Table.objects.get(pk=finished.pk))
    cup = make_tournament(name="Winter cup")
    tournaments.register(tournament_id=cup.pk, user=alice)
    # shown in the notice region of the first page opened, and listed in the player's lobby
    notices.notify(alice.pk, "break", "Break for 5 minutes.", f"/tournaments/{cup.pk}/lobby/")
    running = make_tournament(name="Spring cup", seats_per_table=2, bots_allowed=True)
    enter(running, bot_players(4))
    tournaments.start(tournament_id=running.pk, rng=random.Random(3))
    cup_table = running.tables.exclude(table=None).first().table_id
    return {
        "lobby": "/",
        "table (playing)": f"/tables/{playing.pk}/",
        "table (finished)": f"/tables/{finished.pk}/",
        "table (next hand, with the summary)": f"/tables/{between_hands(carol_table())}/",
        "replay": f"/games/{game.pk}/",
        "leaderboards": "/leaderboards/rating/",
        "player page": "/players/Bob/",
        "rules": "/rules/",
        "rules of a preset": "/rules/standard/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{cup.pk}/",
        "tournament lobby (with notices)": f"/tournaments/{cup.pk}/lobby/",
        "tournament (running)": f"/tournaments/{running.pk}/",
        "tournament lobby": f"/tournaments/{running.pk}/lobby/",
        "tournament ledger": f"/tournaments/{running.pk}/ledger/",
        "tournament table": f"/tables/{cup_table}/",
        "tournament leaderboard": "/tournaments/leaderboard/",
        "account settings": "/accounts/settings/",
    }


def carol_table() -> Table:
    carol = make_player("carol", "Carol")
    table = tables.table_create(
        host=carol, name="Carol's game", preset="standard", options={}, num_seats=2,
        turn_seconds=60, fill_with_bots=True,
    )  # fmt: skip
    tables.table_start(table_id=table.pk, by=carol)
    return Table.objects.get(pk=table.pk)


def between_hands(table: Table) -> int:
    """Play the first hand out at random and deal the second: the first one's summary shows."""
    rng = random.Random(5)
    for _ in range(3000):
        hand = Hand.objects.filter(game__table=table).order_by("-number").first()
        if hand.status == Hand.Status.OVER:
            tables.hand_next(table_id=table.pk)
            return table.pk
        play_one(table, rng)
    raise AssertionError("the hand did not end")


@pytest.mark.e2e
def test_no_serious_or_critical_accessibility_violations(page: Any, live_server_url):
    sign_up(page, live_server_url, "alice", "Alice")
    paths = on_server_side(build_pages)
    found: dict[str, list[str]] = {}
    for name, path in paths.items():
        page.goto(f"{live_server_url}{path}")
        page.wait_for_load_state("networkidle")
        found_here = violations(page)
        minor = [describe(v) for v in found_here if v["impact"] not in FAILING_IMPACTS]
        if minor:
            print(f"{name} ({path}), not failing:", *minor, sep="\n  ")
        failing = [describe(v) for v in found_here if v["impact"] in FAILING_IMPACTS]
        if failing:
            found[f"{name} ({path})"] = failing
    assert found == {}
    # On a phone no page is wider than the screen (a wide table once made the tournament
    # list scroll sideways at 390 px): only a region of its own may scroll.
    # Nor is its heading squeezed out of sight (a tournament's banner once took the table
    # name's whole line, and the game page's house rules its header's).
    page.set_viewport_size({"width": 360, "height": 740})
    wide, unnamed = {}, {}
    for name, path in paths.items():
        page.goto(f"{live_server_url}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 360:
            wide[name] = width
        heading = page.locator("h1").first.bounding_box()
        if heading is None or heading["width"] < 40 or heading["x"] + heading["width"] > 360:
            unnamed[name] = heading
    assert wide == {}
    assert unnamed == {}


@pytest.mark.e2e
def test_dark_pages_on_a_phone_keep_their_contrast_and_keyboard_access(page: Any, live_server_url):
    """In the dark scheme the Leave button read white on light red (2.5:1), the score
    sheet's melded points clubs-green on the dark page (3:1) and the review's verdicts 2-3:1;
    on a phone the replay's score sheet scrolled in a box no key could reach."""
    sign_up(page, live_server_url, "alice", "Alice")

    def work() -> tuple[int, int]:
        alice = get_user_model().objects.get(username="alice")
        table = tables.table_create(
            host=alice, name="Dark game", preset="standard", options={"target": 50},
            num_seats=3, turn_seconds=60, fill_with_bots=True,
        )  # fmt: skip
        tables.table_start(table_id=table.pk, by=alice)
        game = finish_game(Table.objects.get(pk=table.pk))
        playing = tables.table_create(
            host=alice, name="Now", preset="standard", options={}, num_seats=2,
            turn_seconds=60, fill_with_bots=True,
        )  # fmt: skip
        tables.table_start(table_id=playing.pk, by=alice)
        return game.pk, playing.pk

    game_id, table_id = on_server_side(work)
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme="dark")
    page.goto(f"{live_server_url}/games/{game_id}/")
    page.wait_for_load_state("networkidle")
    # The verdicts as a review shows them, in the page's own stylesheet.
    page.evaluate(
        """() => document.querySelector("h1").insertAdjacentHTML("afterend",
        '<link rel="stylesheet" href="/static/css/review.css"><p>' +
        ['inaccuracy', 'mistake', 'blunder'].map(
          (v) => `<span class="verdict verdict-${v}">${v}</span>`).join(' ') + '</p>')"""
    )
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('.verdict-blunder')).borderRadius !== '0px'"
    )
    found = [describe(v) for v in violations(page) if v["impact"] in FAILING_IMPACTS]
    page.goto(f"{live_server_url}/tables/{table_id}/")
    page.wait_for_selector("#connection:text('live')")
    found += [describe(v) for v in violations(page) if v["impact"] in FAILING_IMPACTS]
    assert found == []
