"""A sit-and-go fills, counts down, is cancelled by a withdrawal, and starts; its "seated"
notice reaches the player on a page that has nothing to do with tournaments.

Alice and two bot entrants fill a three-seat sit-and-go. The tournaments lobby and the
event's page count down to the start (static/js/tournament_countdown.js); Alice withdraws
and the countdown is gone; she registers again and goes to the leaderboard. The start is
the sweeper's (Celery beat in production; called here with a clock past the countdown, as
no worker runs in the browser tests): her leaderboard page shows "you are seated at table
1" with a "Take me there" link, which leads to her table. A second notice is dismissed
from the keyboard.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.e2e.test_table_play import (
    on_server_side,
    server_channel_layer,  # noqa: F401 (a fixture)
    sign_up,
)
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import notices, services
from tournaments.models import Entry, Tournament

COUNTDOWN = re.compile(r"\(in 0:\d\d\)")


def full_but_one() -> int:
    t = make_tournament(
        name="Quick sit",
        format=Tournament.Format.STT,
        seats_per_table=3,
        sit_and_go=True,
        sit_and_go_seconds=60,
        bots_allowed=True,
    )
    enter(t, bot_players(2))
    return t.pk


def sweep_after_the_countdown() -> None:
    services.sweep(now=timezone.now() + timedelta(seconds=61))


def alices_table(tournament_id: int) -> int:
    alice = get_user_model().objects.get(username="alice")
    return (
        Entry.objects.select_related("table")
        .get(tournament_id=tournament_id, user=alice)
        .table.table_id
    )


def test_a_sit_and_go_counts_down_is_cancelled_starts_and_the_player_is_told_anywhere(
    page,
    live_server_url,
    server_channel_layer,  # noqa: F811
):
    base = live_server_url
    sign_up(page, base, "alice", "Alice")
    tournament_id = on_server_side(full_but_one)

    page.goto(f"{base}/tournaments/{tournament_id}/")
    page.get_by_role("button", name="Register").click()
    countdown = page.locator("#sit-and-go .tourney-countdown")
    page.wait_for_function(
        "el => /\\(in 0:\\d\\d\\)/.test(el.textContent)", arg=countdown.element_handle()
    )
    assert "All seats are taken" in page.locator("#sit-and-go").inner_text()

    page.goto(f"{base}/tournaments/")  # the lobby counts down to the same start
    row = page.locator(f"article[aria-labelledby='event-{tournament_id}']")
    assert "(all seats taken)" in row.inner_text()
    first = row.locator(".tourney-countdown")
    page.wait_for_function(
        "el => /\\(in 0:\\d\\d\\)/.test(el.textContent)", arg=first.element_handle()
    )
    shown = first.inner_text()
    page.wait_for_function("([el, t]) => el.textContent !== t", arg=[first.element_handle(), shown])
    assert COUNTDOWN.fullmatch(first.inner_text())

    page.goto(f"{base}/tournaments/{tournament_id}/")
    page.get_by_role("button", name="Withdraw").click()
    assert "starts by itself 60 s after its last seat is taken" in (
        page.locator("#sit-and-go").inner_text()
    )
    assert page.locator("#sit-and-go .tourney-countdown").count() == 0
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector("#sit-and-go .tourney-countdown")

    page.goto(f"{base}/tournaments/leaderboard/")
    page.wait_for_selector("#notices[data-connected='1']", state="attached")
    on_server_side(sweep_after_the_countdown)
    notice = page.locator("#notices .notice-seated")
    notice.wait_for()
    assert "Quick sit: you are seated at table 1." in notice.inner_text()
    assert page.locator("#notices .notice-list").get_attribute("aria-live") == "polite"

    # Another notice, dismissed from the keyboard: Escape on its focused link.
    on_server_side(
        lambda: notices.notify(
            get_user_model().objects.get(username="alice").pk,
            "break",
            "Break for 5 minutes.",
            f"/tournaments/{tournament_id}/lobby/",
        )
    )
    brk = page.locator("#notices .notice-break")
    brk.get_by_role("link", name="Take me there").focus()
    page.keyboard.press("Escape")
    brk.wait_for(state="detached")

    notice.get_by_role("link", name="Take me there").click()
    table_id = on_server_side(lambda: alices_table(tournament_id))
    page.wait_for_url(f"{base}/tables/{table_id}/")
