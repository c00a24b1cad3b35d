"""The pages show the multi-table flow: breaks with a countdown, late registration, players
waiting for a seat, each table's own hands to its next PCR; the admin takes the settings."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.conftest import make_player
from tests.tournaments.test_admin import CHANGELIST, new_tournament_post
from tests.tournaments.test_independent_tables import NO_PAUSE, headless, settle
from tournaments import independent, services
from tournaments.models import Tournament, TournamentTable


def live_page(t: Tournament, client: Client | None = None) -> str:
    client = client or Client()
    return client.get(reverse("tournaments:live", args=[t.pk])).content.decode()


def test_the_event_break_is_shown_with_a_countdown(db):
    t = headless(8)
    until = timezone.now() + timedelta(minutes=4)
    Tournament.objects.filter(pk=t.pk).update(break_until=until)
    page = live_page(t)
    assert 'id="tourney-break"' in page and "play resumes at" in page
    assert f'data-countdown-to="{until.isoformat()[:19]}' in page


def test_a_table_on_its_own_break_is_shown_in_the_tables_list(db):
    t = headless(8, levels=((1, 5, 1), (2, 20, 1)), break_every=1)
    first = TournamentTable.objects.filter(tournament=t).first()
    now = timezone.now()
    settle(t, first, now)
    independent.boundaries(t, now, live=False, **NO_PAUSE)
    page = live_page(t)
    assert "on a break" in page and page.count("data-countdown-to") == 1


def test_each_table_shows_its_own_hands_to_the_next_pcr(db):
    t = headless(8, levels=((1, 5, 2), (2, 20, 4), (3, 100, 1)))
    first, _second = TournamentTable.objects.filter(tournament=t)
    now = timezone.now()
    for _ in range(2):  # the first table plays two hands while the second plays its first
        settle(t, first, now)
        independent.boundaries(t, now, live=False, **NO_PAUSE)
        first.refresh_from_db()
    page = live_page(t)
    assert "level 2, PCR 20, next: PCR 100 in 4 hands" in page  # the first table
    assert "level 1, PCR 5, next: PCR 20 in 2 hands" in page  # the second


def test_late_registration_is_offered_and_a_waiting_entrant_is_shown_waiting(db):
    t = headless(8, late_registration_level=2)
    late = make_player("latecomer", "Late Comer")
    client = Client()
    client.force_login(late)
    page = live_page(t, client)
    assert 'id="late-registration"' in page and "Register" in page
    services.register(tournament_id=t.pk, user=late)
    page = live_page(t, client)
    assert "Waiting for a seat" in page


def five_levels() -> dict[str, str]:
    post = {"levels-TOTAL_FORMS": "5"}
    for i in range(5):
        post |= {f"levels-{i}-number": str(i + 1), f"levels-{i}-pcr": str(2 * (i + 1))}
        post[f"levels-{i}-duration"] = "5"
    return post


def test_the_admin_saves_the_flow_settings(db):
    from tests.tournaments.test_admin import staff_client

    organizer = make_player("org", "Organizer", is_staff=True, is_superuser=True)
    response = staff_client(organizer).post(
        CHANGELIST + "add/",
        new_tournament_post(
            hand_for_hand_tables="2",
            hand_for_hand_bubble="on",
            break_every="3",
            break_minutes="7",
            late_registration_level="4",
            **five_levels(),  # a break after every 3 levels, entries until level 4: 5 levels
        ),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    t = Tournament.objects.get()
    assert (t.hand_for_hand, t.hand_for_hand_tables, t.hand_for_hand_bubble) == (False, 2, True)
    assert (t.break_every, t.break_minutes, t.late_registration_level) == (3, 7, 4)


def test_a_break_of_no_minutes_is_refused(db):
    from tests.tournaments.test_admin import staff_client

    organizer = make_player("org2", "Organizer", is_staff=True, is_superuser=True)
    response = staff_client(organizer).post(
        CHANGELIST + "add/", new_tournament_post(break_every="2", break_minutes="0")
    )
    assert response.status_code == 200
    assert "A break lasts at least one minute." in response.content.decode()
    assert not Tournament.objects.exists()
