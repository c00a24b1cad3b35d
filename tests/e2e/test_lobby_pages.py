"""The lobby for a person: the create form hides what cannot apply, and "Join" sits down."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from games.services import tables
from tests.e2e.test_table_play import sign_up


@pytest.mark.e2e
def test_the_rummy_call_seconds_show_only_while_rummy_calls_are_on(page: Any, live_server_url):
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, live_server_url, "alice", "Alice")
    seconds = page.get_by_label("Seconds to call Rummy")
    jokers = page.get_by_label("Number of jokers")
    assert not seconds.is_visible() and not jokers.is_visible()
    page.get_by_label("Rummy calls", exact=True).check()
    assert seconds.is_visible()
    page.get_by_label("Rummy calls", exact=True).uncheck()
    assert not seconds.is_visible()
    page.get_by_label("Rules").select_option("oklahoma-jokers")
    assert jokers.is_visible()
    page.get_by_label("Rules").select_option("standard")
    assert not jokers.is_visible()
    assert not errors


@pytest.mark.e2e
def test_join_in_the_lobby_sits_down_at_once(page: Any, live_server_url):
    bob = User.objects.create_user("bob", "bob@example.com", "x", display_name="Bob")
    table = tables.table_create(
        host=bob, name="Bob's game", preset="standard", options={}, num_seats=3, turn_seconds=60
    )
    sign_up(page, live_server_url, "alice", "Alice")
    page.get_by_role("button", name="Join Bob's game").click()
    page.wait_for_url(f"{live_server_url}/tables/{table.pk}/")
    alice = User.objects.get(username="alice")
    assert table.seats.filter(user=alice).exists()
    assert page.get_by_role("button", name="Leave", exact=False).first.is_visible()


@pytest.mark.e2e
def test_the_header_with_my_page_and_account_links_fits_a_phone(page: Any, live_server_url):
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up(page, live_server_url, "alice", "Alice")
    nav = page.get_by_role("navigation", name="Main")
    assert nav.get_by_role("link", name="Alice").is_visible()
    assert nav.get_by_role("link", name="Account").is_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0


@pytest.mark.e2e
def test_a_join_refused_far_down_the_list_brings_the_reason_into_sight(page: Any, live_server_url):
    """Alice plays at a running table and presses "Join" on the last of many open tables: the
    one-game rule's message above the list comes into view (it once stayed 2,700 px above)."""
    from tests.e2e.test_table_play import on_server_side
    from tests.games.conftest import start_table

    for n in range(3):
        host = User.objects.create_user(f"host{n}", f"h{n}@example.com", "x", display_name=f"H{n}")
        for m in range(2):
            tables.table_create(
                host=host, name=f"Game {n}{m}", preset="standard", options={}, num_seats=3,
                turn_seconds=60,
            )  # fmt: skip
    page.set_viewport_size({"width": 390, "height": 844})
    sign_up(page, live_server_url, "alice", "Alice")
    on_server_side(lambda: start_table(User.objects.get(username="alice")))
    page.reload()
    page.wait_for_selector("#connection-lobby:text('live')")
    page.get_by_role("button", name="Join Game 21").click()  # scrolled to, far down
    error = page.locator("#lobby-error")
    error.filter(has_text="one running game at a time").wait_for()
    box = error.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box


@pytest.mark.e2e
def test_a_refused_new_table_shows_its_reason_in_sight_on_a_phone(page: Any, live_server_url):
    """The lobby comes back from a refused "Create table" shown from its top; below a list of
    tables the reason (here beside the target score) was out of sight and nothing seemed to
    happen. It is brought into view, with focus on the field to correct."""
    for n in range(3):
        host = User.objects.create_user(f"host{n}", f"h{n}@example.com", "x", display_name=f"H{n}")
        tables.table_create(
            host=host, name=f"Game {n}", preset="standard", options={}, num_seats=3,
            turn_seconds=60,
        )  # fmt: skip
    page.set_viewport_size({"width": 360, "height": 740})
    sign_up(page, live_server_url, "alice", "Alice")
    page.locator("#create-form [name=opt_target]").fill("10")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_load_state()
    error = page.locator("#create-form .field-invalid .field-errors")
    assert "greater than or equal to 50" in error.inner_text()
    page.wait_for_function("() => document.activeElement?.name === 'opt_target'")
    box = error.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, box


@pytest.mark.e2e
def test_the_leaderboards_player_search_is_a_full_size_field_on_a_phone(page: Any, live_server_url):
    """The search box kept the browser's own look: 21 px tall in a smaller font, under the
    24 px a finger needs, and in the light colours on a dark page."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme="dark")
    page.goto(f"{live_server_url}/leaderboards/")
    search = page.get_by_role("searchbox")
    family = page.get_by_label("Preset family")
    box = search.bounding_box()
    assert box is not None and box["height"] >= 36, box
    style = "e => [getComputedStyle(e).fontSize, getComputedStyle(e).backgroundColor]"
    assert search.evaluate(style) == family.evaluate(style)


@pytest.mark.e2e
def test_a_tables_facts_in_the_lobby_sit_beside_their_names_on_a_phone(page: Any, live_server_url):
    """Stacked (name over value), a table's six facts made each row of the list about as tall
    as a phone's half screen; each value now sits on its name's line."""
    bob = User.objects.create_user("bob", "bob@example.com", "x", display_name="Bob")
    tables.table_create(
        host=bob, name="Bob's game", preset="standard", options={}, num_seats=3, turn_seconds=60
    )
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server_url}/")
    facts = page.locator(".lobby-row .lobby-facts > div")
    assert facts.count() == 6
    for i in range(facts.count()):
        name, value = facts.nth(i).locator("dt"), facts.nth(i).locator("dd")
        name_box, value_box = name.bounding_box(), value.bounding_box()
        assert name_box and value_box
        assert abs(name_box["y"] - value_box["y"]) < 6, (name.inner_text(), name_box, value_box)
        assert value_box["x"] > name_box["x"] + name_box["width"]
