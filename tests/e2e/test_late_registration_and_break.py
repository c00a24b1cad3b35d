"""A running multi-table tourney on a break, with late registration open: the page counts the
break down, and a player enters late and is shown waiting for a seat (every table is full)."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from tests.e2e.test_table_play import on_server_side, sign_up
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import services
from tournaments.models import Tournament


def running_cup_on_a_break() -> int:
    t = make_tournament(name="Night cup", seats_per_table=4, late_registration_level=3)
    enter(t, bot_players(8))
    services.start(tournament_id=t.pk, rng=random.Random(1), live=False)
    until = timezone.now() + timedelta(minutes=4)
    Tournament.objects.filter(pk=t.pk).update(break_until=until, breaks_taken=1)
    return t.pk


def test_a_break_counts_down_and_a_late_entrant_waits_for_a_seat(page, live_server_url):
    base = live_server_url
    sign_up(page, base, "lena", "Lena")
    tournament_id = on_server_side(running_cup_on_a_break)
    page.goto(f"{base}/tournaments/{tournament_id}/")
    status = page.locator("#tourney-break")
    assert "play resumes at" in status.inner_text()
    page.wait_for_selector("#tourney-break .tourney-countdown:text('in 3:')")
    assert "Late registration is open" in page.locator("#late-registration").inner_text()
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector("text=You are registered")
    page.wait_for_selector("#standings .is-me:has-text('Waiting for a seat')")
