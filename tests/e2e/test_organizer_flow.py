"""An organizer runs a multi-table tourney from the admin, start to CSV, in the browser.

Olga is staff in the "Tournament organizers" group (not a superuser). She creates an MTT with
a house rule and a steep schedule (100 chips, PCR 50: a lost hand usually ends a player), opens
registration, and Alice registers on the public page. Olga adds three bots and starts it. Alice
watches the public standings on a phone-sized screen (390 px) while the tables play: the bot
turns and the tournament's ``advance`` run in this process, the same calls the Celery worker
makes (Alice's seat is covered by a bot, as for any player who is not at their table), and
their broadcasts reach the Daphne server through its channel layer, so her page follows
without a reload. When the event is over Olga downloads the results CSV.
"""

from __future__ import annotations

import csv
import importlib
import io
import random
from pathlib import Path

from django.contrib.auth.models import Group

from games.models import Seat, Table
from games.services import bot_turns
from tests.conftest import PASSWORD, make_player
from tests.e2e.test_table_play import (
    on_server_side,
    server_channel_layer,  # noqa: F401 (a fixture)
    sign_up,
)
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentTable

PHONE = {"width": 390, "height": 844}


def watch_refusals(page, refused: list[str]) -> None:
    """Collect what the Content Security Policy refuses on this page (nothing, we expect)."""
    page.on(
        "console",
        lambda message: (
            refused.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )


def organizer_group() -> Group:
    """The migration's group; made again as it makes it when an earlier browser test's flush
    (``transactional_db``) took it away."""
    from django.contrib.auth.models import Permission

    migration = importlib.import_module("tournaments.migrations.0002_organizer_group")
    group, made = Group.objects.get_or_create(name=migration.GROUP)
    if made:
        group.permissions.add(
            *Permission.objects.filter(
                content_type__app_label="tournaments", codename__in=migration.CODENAMES
            )
        )
    return group


def make_organizer() -> None:
    olga = make_player("olga", "Olga", is_staff=True)
    olga.groups.add(organizer_group())


def play_to_the_end(tournament_id: int, max_steps: int = 20_000) -> str:
    """Bot moves and ``advance`` until the tournament is over; returns its status."""
    rng = random.Random(5)
    idle = 0
    for _ in range(max_steps):
        t = Tournament.objects.get(pk=tournament_id)
        if t.status != Tournament.Status.RUNNING:
            return t.status
        live = list(
            TournamentTable.objects.filter(
                tournament=t, status=TournamentTable.Status.OPEN, table__isnull=False
            ).values_list("table_id", flat=True)
        )
        # Alice watches the standings, not her table: a bot covers her seat.
        Seat.objects.filter(table_id__in=live, user__username="alice").update(autoplay=True)
        moved = False
        for table_id, version in Table.objects.filter(pk__in=live).values_list("pk", "version"):
            moved |= bot_turns.play_one(table_id, version, rng=rng)
        if not moved:
            moved = services.advance(tournament_id=tournament_id)
        idle = 0 if moved else idle + 1
        assert idle <= 3, "the tournament is stuck"
    raise AssertionError("the tournament did not finish")


def test_an_organizer_runs_an_mtt_from_the_admin_to_the_csv(
    browser,
    page,
    live_server_url,
    server_channel_layer,  # noqa: F811
    tmp_path: Path,
):
    base = live_server_url
    on_server_side(make_organizer)
    refused: list[str] = []
    watch_refusals(page, refused)

    # Olga logs in to the admin and creates the tournament with a house rule and two levels.
    page.goto(f"{base}/admin/login/?next=/admin/tournaments/tournament/add/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/admin/tournaments/tournament/add/")
    page.fill("#id_name", "Browser cup")
    page.select_option("#id_format", "mtt")
    page.select_option("#id_preset", "jokers")
    assert page.is_checked("#id_opt_top_discard_free")  # jokers' default, set by the script
    page.select_option("#id_preset", "standard")
    assert not page.is_checked("#id_opt_top_discard_free")
    assert page.locator(".field-opt_jokers").is_hidden()  # an Oklahoma rule: not for standard
    # The Rummy-call seconds mean nothing while Rummy calls are off, as in the lobby's form.
    assert page.locator(".field-opt_claim_window_s").is_hidden()
    page.check("#id_opt_rummy_call")
    assert page.locator(".field-opt_claim_window_s").is_visible()
    page.uncheck("#id_opt_rummy_call")
    assert page.locator(".field-opt_claim_window_s").is_hidden()
    page.check("#id_opt_top_discard_free")
    page.fill("#id_seats_per_table", "2")
    page.fill("#id_starting_chips", "100")
    page.select_option("#id_level_unit", "hands")
    page.fill("#id_min_entrants", "2")
    for i, pcr in enumerate(("50", "200")):
        page.get_by_text("Add another Level").click()
        page.fill(f"#id_levels-{i}-number", str(i + 1))
        page.fill(f"#id_levels-{i}-pcr", pcr)
        page.fill(f"#id_levels-{i}-duration", "1")
    page.get_by_role("button", name="Save and continue editing").click()
    page.wait_for_url("**/change/")
    tournament_id = int(page.url.rstrip("/").split("/")[-2])
    saved = on_server_side(lambda: Tournament.objects.get(pk=tournament_id))
    assert saved.options["top_discard_free"] is True and saved.preset == "standard"

    # Open registration: a button, then a confirmation.
    page.get_by_role("link", name="Open registration…").click()
    assert "Open registration?" in page.locator("#confirm-question").inner_text()
    page.get_by_role("button", name="Yes: Open registration").click()
    page.wait_for_selector("text=registration opened")

    # Alice signs up and registers on the public page, on a phone.
    phone = browser.new_context(viewport=PHONE)
    phone.set_default_timeout(15_000)
    alice = phone.new_page()
    watch_refusals(alice, refused)
    sign_up(alice, base, "alice", "Alice")
    alice.goto(f"{base}/tournaments/{tournament_id}/")
    alice.get_by_role("button", name="Register").click()
    alice.wait_for_selector("text=You are registered")

    # Olga adds three bots (shown as bots, with their level) and starts.
    page.get_by_role("link", name="Add bots…").click()
    page.fill("#id_count", "3")
    page.get_by_role("button", name="Yes: Add bots").click()
    page.wait_for_selector("text=added 3 bots")
    assert page.locator("td.field-player_kind:has-text('bot, easy')").count() == 3
    page.get_by_role("link", name="Start…").click()
    page.get_by_role("button", name="Yes: Start").click()
    page.wait_for_selector("text=browser cup: started", state="attached")
    assert page.get_by_role("link", name="Pause…").is_visible()

    # Alice's page: running, the schedule with level 1 marked, standings that fit the phone.
    alice.reload()
    alice.wait_for_selector("#tourney-live[data-connected='1']", state="attached")
    assert "Running" in alice.locator(".tourney-status").inner_text()
    current = alice.locator("#level-schedule tr[aria-current='true']")
    assert current.locator("td").first.inner_text().startswith("1")
    standings_width = alice.locator("#standings").bounding_box()["width"]
    page_width = alice.evaluate("document.documentElement.scrollWidth")
    assert standings_width <= PHONE["width"] and page_width <= PHONE["width"]

    # The tables play to the end; Alice's standings follow without a reload.
    assert on_server_side(lambda: play_to_the_end(tournament_id)) == Tournament.Status.FINISHED
    alice.wait_for_selector(".tourney-status strong:text('Finished')")
    alice.wait_for_selector("#standings td:text('Winner')")
    places = on_server_side(
        lambda: sorted(
            Entry.objects.filter(tournament_id=tournament_id).values_list("place", flat=True)
        )
    )
    assert places[0] == 1 and None not in places
    assert alice.locator("#my-outcome").inner_text().startswith("You ")
    # finished, with the rounds and times players went out: still within the phone's width
    assert alice.locator("#standings").bounding_box()["width"] <= PHONE["width"]
    assert alice.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.close()

    # Olga downloads the results: named after the tournament and its date.
    page.reload()
    with page.expect_download() as download:
        page.get_by_role("link", name="Results CSV").click()
    assert download.value.suggested_filename.startswith("browser-cup-")
    target = tmp_path / "results.csv"
    download.value.save_as(target)
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    assert len(rows) == 4 and {r["tournament"] for r in rows} == {"Browser cup"}
    assert sorted(r["bot"] for r in rows) == ["", "bot, easy", "bot, easy", "bot, easy"]
    assert refused == []


def test_a_players_table_banner_follows_the_level_and_their_chips_without_a_reload(
    page,
    live_server_url,
    server_channel_layer,  # noqa: F811
):
    """The table page's banner is refetched when the tournament socket says it changed."""
    from django.contrib.auth import get_user_model

    from tests.tournaments.conftest import bot_players, enter, make_tournament
    from tournaments import broadcast

    base = live_server_url
    sign_up(page, base, "alice", "Alice")

    def start() -> tuple[int, int]:
        alice = get_user_model().objects.get(username="alice")
        t = make_tournament(name="Level cup", seats_per_table=2)
        services.register(tournament_id=t.pk, user=alice)
        enter(t, bot_players(1))
        services.start(tournament_id=t.pk, rng=random.Random(1))
        return t.pk, Entry.objects.get(tournament=t, user=alice).table.table_id

    tournament_id, table_id = on_server_side(start)
    refused: list[str] = []
    watch_refusals(page, refused)
    page.goto(f"{base}/tables/{table_id}/")
    banner = page.locator("#managed-by")
    assert "Level 1 · PCR 5 · next: PCR 20 in 2 hands" in banner.inner_text()
    assert "Your chips: 1000" in banner.inner_text()
    page.wait_for_selector("#tourney-live[data-connected='1']", state="attached")

    def level_three() -> None:
        Tournament.objects.filter(pk=tournament_id).update(level=3, pcr=100, round=5)
        # independent tables: alice's banner shows her own table's level
        TournamentTable.objects.filter(tournament_id=tournament_id).update(level=3, pcr=100)
        Entry.objects.filter(tournament_id=tournament_id, user__username="alice").update(chips=1500)
        broadcast.tournament_changed(tournament_id)

    on_server_side(level_three)
    page.wait_for_selector("#managed-by:has-text('Level 3 · PCR 100 · next: last level')")
    assert "Your chips: 1500" in banner.inner_text()
    assert refused == []
