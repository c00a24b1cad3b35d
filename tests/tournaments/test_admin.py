"""Organizers run tournaments from the admin; other staff cannot."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group
from django.test import Client
from django.utils import timezone

from tests.conftest import make_player
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments.models import Entry, Level, Tournament

CHANGELIST = "/admin/tournaments/tournament/"


def staff_client(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def organizer(db):
    user = make_player("olga", "Olga", is_staff=True)
    user.groups.add(Group.objects.get(name="Tournament organizers"))
    return user


@pytest.fixture
def organizer_client(organizer) -> Client:
    return staff_client(organizer)


def new_tournament_post(**overrides):
    data = {
        "name": "Friday night",
        "format": "mtt",
        "preset": "standard",
        "options": "{}",
        "seats_per_table": "4",
        "starting_chips": "1000",
        "level_unit": "hands",
        "target": "500",
        "hands": "3",
        "min_entrants": "2",
        "max_entrants": "100",
        "turn_seconds": "60",
        "bots_allowed": "on",
        "spectators_allowed": "on",
        "notice": "",
        "levels-TOTAL_FORMS": "2",
        "levels-INITIAL_FORMS": "0",
        "levels-MIN_NUM_FORMS": "0",
        "levels-MAX_NUM_FORMS": "1000",
        "levels-0-number": "1",
        "levels-0-pcr": "2",
        "levels-0-duration": "5",
        "levels-1-number": "2",
        "levels-1-pcr": "4",
        "levels-1-duration": "5",
    }
    data.update(overrides)
    return data


def act(client: Client, action: str, *tournaments: Tournament):
    return client.post(
        CHANGELIST,
        {"action": action, "_selected_action": [t.pk for t in tournaments]},
        follow=True,
    )


def test_an_organizer_creates_a_tournament_with_its_levels(organizer_client, organizer):
    response = organizer_client.post(CHANGELIST + "add/", new_tournament_post())
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get()
    assert t.created_by == organizer and t.status == Tournament.Status.DRAFT
    assert [(lv.number, lv.pcr) for lv in Level.objects.filter(tournament=t)] == [(1, 2), (2, 4)]


def test_a_level_with_a_non_positive_pcr_is_refused(organizer_client):
    response = organizer_client.post(
        CHANGELIST + "add/", new_tournament_post(**{"levels-1-pcr": "0"})
    )
    assert response.status_code == 200
    assert "PCR must be a positive" in response.content.decode()
    assert not Tournament.objects.exists()


def test_overlapping_levels_are_refused(organizer_client):
    response = organizer_client.post(
        CHANGELIST + "add/", new_tournament_post(**{"levels-1-number": "1"})
    )
    assert response.status_code == 200
    assert "Levels overlap" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_minimum_above_the_maximum_is_refused(organizer_client):
    response = organizer_client.post(
        CHANGELIST + "add/", new_tournament_post(min_entrants="10", max_entrants="5")
    )
    assert "above the maximum" in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_organizer_opens_registration_and_starts_with_history(organizer_client):
    t = make_tournament(status=Tournament.Status.DRAFT)
    act(organizer_client, "registration_open", t)
    enter(t, bot_players(4))
    response = act(organizer_client, "start", t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert "started" in response.content.decode()
    history = list(
        LogEntry.objects.filter(object_id=str(t.pk)).values_list("change_message", flat=True)
    )
    assert "Registration opened" in history and "Started" in history


def test_an_action_that_makes_no_sense_now_is_refused_with_a_message(organizer_client):
    t = make_tournament(status=Tournament.Status.DRAFT)
    response = act(organizer_client, "pause", t)
    assert "Only a running tournament can be paused" in response.content.decode()
    t.refresh_from_db()
    assert t.status == Tournament.Status.DRAFT
    assert not LogEntry.objects.exists()


def test_starting_with_too_few_entrants_is_refused_in_the_admin(organizer_client):
    t = make_tournament(min_entrants=3)
    enter(t, bot_players(2))
    response = act(organizer_client, "start", t)
    assert "Too few entrants" in response.content.decode()
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION


def test_an_organizer_adds_an_entrant_and_disqualifies_them(organizer_client, alice, bob):
    t = make_tournament()
    response = organizer_client.post(
        "/admin/tournaments/entry/add/", {"tournament": t.pk, "user": alice.pk}
    )
    assert response.status_code == 302
    enter(t, [bob])
    act(organizer_client, "start", t)
    entry = Entry.objects.get(user=alice)
    chosen = {"action": "disqualify", "_selected_action": [entry.pk]}
    asked = organizer_client.post("/admin/tournaments/entry/", chosen).content.decode()
    assert "Disqualify these players for good?" in asked and "Yes: Disqualify" in asked
    entry.refresh_from_db()
    assert entry.status == Entry.Status.PLAYING  # not before the organizer says yes
    organizer_client.post("/admin/tournaments/entry/", {**chosen, "confirmed": "yes"})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.DISQUALIFIED
    assert LogEntry.objects.filter(change_message=f"Disqualified {alice}").exists()


def test_results_and_ledger_export_as_csv(organizer_client):
    t = make_tournament()
    enter(t, bot_players(4))
    act(organizer_client, "start", t)
    results = act(organizer_client, "export_results", t)
    rows = list(csv.reader(io.StringIO(results.content.decode())))
    assert rows[0][:4] == ["tournament", "date", "place", "player"] and len(rows) == 5
    assert rows[0][-1] == "trophies" and all(r[-1] == "0" for r in rows[1:])  # not over yet
    ledger = act(organizer_client, "export_ledger", t)
    rows = list(csv.reader(io.StringIO(ledger.content.decode())))
    assert rows[0][-4:] == ["from", "to", "amount", "at"]
    assert len(rows) == 5 and all(r[9] == "bank" and r[11] == "1000" for r in rows[1:])


def test_staff_outside_the_organizer_group_cannot_manage_tournaments(db):
    t = make_tournament()
    staff = staff_client(make_player("sam", "Sam", is_staff=True))
    assert staff.get(CHANGELIST).status_code == 403
    assert staff.post(CHANGELIST + "add/", new_tournament_post()).status_code == 403
    act(staff, "start", t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION


def test_viewers_without_the_manage_permission_get_no_state_actions(db):
    from django.contrib.auth.models import Permission

    viewer = make_player("vic", "Vic", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_tournament"))
    t = make_tournament()
    enter(t, bot_players(2))
    client = staff_client(viewer)
    page = client.get(CHANGELIST).content.decode()
    assert "export_results" in page and '"start"' not in page
    act(client, "start", t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION


def test_a_started_tournament_keeps_its_settings_but_takes_a_notice(organizer_client):
    t = make_tournament(name="Locked")
    enter(t, bot_players(2))
    act(organizer_client, "start", t)
    page = organizer_client.get(f"{CHANGELIST}{t.pk}/change/").content.decode()
    assert 'name="seats_per_table"' not in page
    # post back what the page holds (hidden inputs: inline management forms and row ids)
    post = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    post["notice"] = "Table 2 restarts after a network problem."
    response = organizer_client.post(f"{CHANGELIST}{t.pk}/change/", post)
    assert response.status_code == 302, response.content.decode()[:2000]
    t.refresh_from_db()
    assert t.notice.startswith("Table 2") and t.name == "Locked"


# --- sit-and-go and the prize table ---


def test_an_organizer_sets_sit_and_go_and_a_prize_table(organizer_client):
    response = organizer_client.post(
        CHANGELIST + "add/",
        new_tournament_post(
            max_entrants="8", sit_and_go="on", sit_and_go_seconds="20", prizes="100, 60, 30"
        ),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    t = Tournament.objects.get()
    assert (t.sit_and_go, t.sit_and_go_seconds, t.prizes) == (True, 20, [100, 60, 30])


def test_a_prize_table_that_rises_is_refused_and_nothing_saved(organizer_client):
    response = organizer_client.post(CHANGELIST + "add/", new_tournament_post(prizes="10, 50"))
    assert response.status_code == 200
    assert "cannot pay more than the place above" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_sit_and_go_countdown_out_of_range_is_refused(organizer_client):
    response = organizer_client.post(
        CHANGELIST + "add/", new_tournament_post(sit_and_go="on", sit_and_go_seconds="900")
    )
    assert response.status_code == 200
    assert "countdown is 0 to 300 seconds" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_results_csv_has_each_players_prize(organizer_client):
    from tests.tournaments.conftest import drive
    from tournaments import services

    t = make_tournament(seats_per_table=2, prizes=[50, 20])
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk)
    drive(t)
    rows = list(
        csv.reader(io.StringIO(act(organizer_client, "export_results", t).content.decode()))
    )
    trophies = {r[3]: int(r[-1]) for r in rows[1:]}
    expected = dict(
        Entry.objects.filter(tournament=t).values_list("user__display_name", "trophies")
    )
    assert trophies == expected and sum(trophies.values()) == 70


# --- settings that cannot work: refused, and said beside the field ------------------------


def beside(page: str, field: str) -> str:
    """The text of the form row of ``field`` (where Django shows that field's errors)."""
    start = page.index(f'field-{field}"')
    return page[start : page.find('class="form-row', start + 1)]


@pytest.mark.parametrize(
    ("field", "overrides", "message"),
    [
        ("turn_seconds", {"turn_seconds": "0"}, "Turn time must be between 15 seconds"),
        ("turn_seconds", {"turn_seconds": "99999"}, "Turn time must be between 15 seconds"),
        ("max_entrants", {"min_entrants": "0", "max_entrants": "1"}, "could never start"),
        ("seats_per_table", {"seats_per_table": "5"}, "Tables seat 2 to 4 players."),
        ("starting_chips", {"starting_chips": "0"}, "Players need starting chips."),
        ("min_entrants", {"min_entrants": "10", "max_entrants": "5"}, "above the maximum"),
        # an STT's target out of the tables' range read "Option target must be between 50
        # and 100000." at the top of the form
        ("target", {"format": "stt", "target": "10"}, "The target must be between 50 and"),
        ("target", {"format": "stt", "target": "999999"}, "The target must be between 50 and"),
    ],
)
def test_settings_that_cannot_work_are_refused_beside_their_field(
    organizer_client, field, overrides, message
):
    response = organizer_client.post(CHANGELIST + "add/", new_tournament_post(**overrides))
    assert response.status_code == 200
    assert message in beside(response.content.decode(), field)
    assert not Tournament.objects.exists()


def test_a_single_table_without_bots_needs_room_for_its_minimum(organizer_client):
    post = new_tournament_post(format="stt", seats_per_table="3", min_entrants="4")
    post.pop("bots_allowed")
    response = organizer_client.post(CHANGELIST + "add/", post)
    assert "takes at most 3 entrants and needs 4" in beside(
        response.content.decode(), "max_entrants"
    )


@pytest.mark.parametrize("field", ["scheduled_start", "registration_closes_at"])
def test_a_time_already_past_is_refused(organizer_client, field):
    yesterday = timezone.localtime() - timedelta(days=1)
    post = new_tournament_post(
        **{f"{field}_0": yesterday.date().isoformat(), f"{field}_1": "20:00:00"}
    )
    response = organizer_client.post(CHANGELIST + "add/", post)
    assert "That time has passed" in beside(response.content.decode(), field)
    assert not Tournament.objects.exists()


def test_a_past_time_already_saved_does_not_block_other_changes(organizer_client):
    t = make_tournament(status=Tournament.Status.DRAFT)
    past = timezone.localtime().replace(microsecond=0) - timedelta(hours=1)
    Tournament.objects.filter(pk=t.pk).update(scheduled_start=past)
    levels = list(t.levels.all())
    post = new_tournament_post(
        name="Renamed",
        scheduled_start_0=past.date().isoformat(),
        scheduled_start_1=past.time().isoformat(),
        **{"levels-TOTAL_FORMS": str(len(levels)), "levels-INITIAL_FORMS": str(len(levels))},
    )
    for prefix in ("tables", "entries"):
        post.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    for i, lv in enumerate(levels):
        post.update({f"levels-{i}-id": str(lv.pk), f"levels-{i}-tournament": str(t.pk)})
        post.update({f"levels-{i}-{k}": str(getattr(lv, k)) for k in ("number", "pcr", "duration")})
    response = organizer_client.post(f"{CHANGELIST}{t.pk}/change/", post)
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.name == "Renamed"


def test_a_start_before_registration_opens_is_refused(organizer_client):
    """Registration opening an hour after the start was saved; at the opening the sweeper
    opened it and cancelled it in the same sweep ('Cancelled: 0 entered')."""
    soon = timezone.localtime().replace(microsecond=0) + timedelta(hours=1)
    later = soon + timedelta(hours=1)
    post = new_tournament_post(
        scheduled_start_0=soon.date().isoformat(),
        scheduled_start_1=soon.time().isoformat(),
        registration_opens_at_0=later.date().isoformat(),
        registration_opens_at_1=later.time().isoformat(),
    )
    response = organizer_client.post(CHANGELIST + "add/", post)
    assert "The scheduled start must come after registration opens." in beside(
        response.content.decode(), "scheduled_start"
    )
    assert not Tournament.objects.exists()
    post["registration_opens_at_1"] = (soon - timedelta(minutes=30)).time().isoformat()
    post["registration_opens_at_0"] = (soon - timedelta(minutes=30)).date().isoformat()
    assert organizer_client.post(CHANGELIST + "add/", post).status_code == 302


def change_post(t: Tournament, **overrides):
    """The change page's post for an upcoming tournament, its levels as they are."""
    levels = list(t.levels.all())
    post = new_tournament_post(
        **{"levels-TOTAL_FORMS": str(len(levels)), "levels-INITIAL_FORMS": str(len(levels))},
        **overrides,
    )
    for prefix in ("tables", "entries"):
        post.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    for i, lv in enumerate(levels):
        post.update({f"levels-{i}-id": str(lv.pk), f"levels-{i}-tournament": str(t.pk)})
        post.update({f"levels-{i}-{k}": str(getattr(lv, k)) for k in ("number", "pcr", "duration")})
    return post


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        # an MTT made a single table tourney: start seated all 7 at one table of 7 seats
        ({"format": "stt"}, "7 players have entered already, and a single table seats 4"),
        ({"format": "quick", "seats_per_table": "3"}, "and a single table seats 3"),
        ({"max_entrants": "5"}, "7 players have entered already, more than the maximum of 5"),
    ],
)
def test_settings_that_cannot_hold_those_already_entered_are_refused(
    organizer_client, overrides, message
):
    t = make_tournament(max_entrants=100, seats_per_table=4)
    enter(t, bot_players(7))
    response = organizer_client.post(f"{CHANGELIST}{t.pk}/change/", change_post(t, **overrides))
    assert response.status_code == 200
    assert message in beside(response.content.decode(), "max_entrants")
    t.refresh_from_db()
    assert (t.format, t.max_entrants, t.seats_per_table) == ("mtt", 100, 4)
    # room for all seven saves
    post = change_post(t, max_entrants="7", name="Room for seven")
    assert organizer_client.post(f"{CHANGELIST}{t.pk}/change/", post).status_code == 302
    assert Tournament.objects.get(pk=t.pk).name == "Room for seven"


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"break_every": "2"}, "A break after every 2 levels never comes"),
        ({"late_registration_level": "2"}, "Late registration until level 2 ends would stay open"),
    ],
)
def test_a_schedule_too_short_for_its_breaks_or_late_entries_is_refused(
    organizer_client, overrides, message
):
    response = organizer_client.post(CHANGELIST + "add/", new_tournament_post(**overrides))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Tournament.objects.exists()
    # one level more and both work
    post = new_tournament_post(
        **overrides,
        **{"levels-TOTAL_FORMS": "3", "levels-2-number": "3"},
        **{"levels-2-pcr": "8", "levels-2-duration": "5"},
    )
    assert organizer_client.post(CHANGELIST + "add/", post).status_code == 302


def test_cancelling_from_the_list_asks_first(organizer_client):
    """The list's bulk Cancel ran at once; the change page's button always asked."""
    first, second = make_tournament(name="One"), make_tournament(name="Two")
    asked = act(organizer_client, "cancel", first, second).content.decode()
    assert "Cancel these tournaments for good?" in asked and "<li>One</li>" in asked
    assert not Tournament.objects.filter(status=Tournament.Status.CANCELLED).exists()
    organizer_client.post(
        CHANGELIST,
        {"action": "cancel", "_selected_action": [first.pk, second.pk], "confirmed": "yes"},
    )
    assert Tournament.objects.filter(status=Tournament.Status.CANCELLED).count() == 2
