"""axe-core on the pages people use: no serious or critical violation anywhere.

One browser page visits every kind of page in turn (lobby, a table being played and one
whose game is over, the replay, leaderboards, a player page, the rules, the tournament
pages, account settings), so the whole check costs one sign-up and a page load per URL
(about 30 s with the server's start). The Django admin is out of scope. Minor and moderate
findings are printed, not failed on.
"""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth import get_user_model

from games.models import Game, Table
from games.services import tables
from tests.conftest import make_player
from tests.e2e.test_table_play import on_server_side, sign_up
from tests.games.test_views import finish_game
from tests.tournaments.conftest import make_tournament
from tournaments import notices
from tournaments import services as tournaments

FAILING_IMPACTS = ("serious", "critical")


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
    return {
        "lobby": "/",
        "table (playing)": f"/tables/{playing.pk}/",
        "table (finished)": f"/tables/{finished.pk}/",
        "replay": f"/games/{game.pk}/",
        "leaderboards": "/leaderboards/rating/",
        "player page": "/players/Bob/",
        "rules": "/rules/",
        "rules of a preset": "/rules/standard/",
        "tournaments": "/tournaments/",
        "tournament": f"/tournaments/{cup.pk}/",
        "tournament lobby (with notices)": f"/tournaments/{cup.pk}/lobby/",
        "account settings": "/accounts/settings/",
    }


def describe(violation: dict[str, Any]) -> str:
    targets = ", ".join(str(node["target"]) for node in violation["nodes"][:5])
    return f"{violation['impact']}: {violation['id']} ({violation['help']}) at {targets}"


@pytest.mark.e2e
def test_no_serious_or_critical_accessibility_violations(page: Any, live_server_url):
    sign_up(page, live_server_url, "alice", "Alice")
    paths = on_server_side(build_pages)
    axe = Axe()
    found: dict[str, list[str]] = {}
    for name, path in paths.items():
        page.goto(f"{live_server_url}{path}")
        page.wait_for_load_state("networkidle")
        results = axe.run(page)
        violations = results.response["violations"]
        minor = [describe(v) for v in violations if v["impact"] not in FAILING_IMPACTS]
        if minor:
            print(f"{name} ({path}), not failing:", *minor, sep="\n  ")
        failing = [describe(v) for v in violations if v["impact"] in FAILING_IMPACTS]
        if failing:
            found[f"{name} ({path})"] = failing
    assert found == {}
