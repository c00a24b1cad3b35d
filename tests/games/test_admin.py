"""Staff tools: read-only game records, aborting a broken game, acting on chat reports."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from games.models import ChatMessage, ChatReport, Game, Hand, Move, Table
from tests.conftest import make_player
from tests.games.conftest import play_one, start_table


@pytest.fixture
def staff(db):
    return make_player("sam", "Sam", is_staff=True, is_superuser=True)


@pytest.fixture
def staff_client(staff) -> Client:
    client = Client()
    client.force_login(staff, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.mark.parametrize("model", [Table, Game, Hand, Move, ChatMessage])
def test_game_records_can_be_inspected_but_not_added_or_edited(staff_client, alice, model):
    table = start_table(alice, seats=3)
    play_one(table, random.Random(1))
    ChatMessage.objects.create(table=table, user=alice, text="hi")
    name = model._meta.model_name
    listing = staff_client.get(reverse(f"admin:games_{name}_changelist"))
    assert listing.status_code == 200
    assert staff_client.get(reverse(f"admin:games_{name}_add")).status_code == 403
    row = model.objects.first()
    change = staff_client.get(reverse(f"admin:games_{name}_change", args=[row.pk]))
    assert change.status_code == 200
    assert b'type="submit" value="Save"' not in change.content


def test_the_invite_token_is_not_shown_to_staff(staff_client, alice):
    table = start_table(alice, seats=3)
    Table.objects.filter(pk=table.pk).update(is_private=True)
    page = staff_client.get(reverse("admin:games_table_change", args=[table.pk]))
    assert table.invite_token not in page.content.decode()


def test_staff_abort_a_game_with_a_reason_that_is_kept(staff_client, alice):
    table = start_table(alice, seats=3)
    response = staff_client.post(
        reverse("admin:games_table_changelist"),
        {"action": "abort_game", "_selected_action": [table.pk], "reason": "Stuck after a crash"},
        follow=True,
    )
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED
    assert table.abort_reason == "Stuck after a crash"
    assert Game.objects.get(table=table).status == Game.Status.ABORTED
    assert b"Aborted 1 table" in response.content


def test_aborting_a_table_that_is_not_running_says_why(staff_client, alice):
    table = start_table(alice, seats=3)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    response = staff_client.post(
        reverse("admin:games_table_changelist"),
        {"action": "abort_game", "_selected_action": [table.pk]},
        follow=True,
    )
    assert b"This table is not running." in response.content
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED


@pytest.fixture
def report(alice, bob) -> ChatReport:
    table = start_table(alice, seats=3)
    message = ChatMessage.objects.create(table=table, user=bob, text="you all stink")
    return ChatReport.objects.create(message=message, reporter=alice, reason="rude")


def test_staff_see_reports_with_the_message_and_its_author(staff_client, report):
    page = staff_client.get(reverse("admin:games_chatreport_changelist")).content.decode()
    assert "you all stink" in page and "Bob" in page and "rude" in page


def test_hiding_a_reported_message_takes_it_out_of_the_chat(staff_client, report, alice):
    staff_client.post(
        reverse("admin:games_chatreport_changelist"),
        {"action": "hide_messages", "_selected_action": [report.pk]},
    )
    report.refresh_from_db()
    assert report.resolved and report.message.hidden
    alice_client = Client()
    alice_client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    table_page = alice_client.get(reverse("table_detail", args=[report.message.table_id]))
    assert "you all stink" not in table_page.content.decode()


def test_suspending_an_author_ends_their_sessions(staff_client, report, bob, bob_client):
    assert bob_client.get(reverse("accounts:account")).status_code == 200
    staff_client.post(
        reverse("admin:games_chatreport_changelist"),
        {"action": "suspend_authors", "_selected_action": [report.pk]},
    )
    bob.refresh_from_db()
    report.refresh_from_db()
    assert bob.is_active is False and report.resolved
    assert bob_client.get(reverse("accounts:account")).status_code == 302  # back to login


def test_staff_cannot_suspend_themselves_through_a_report(staff_client, staff, alice):
    table = start_table(alice, seats=3)
    message = ChatMessage.objects.create(table=table, user=staff, text="staff here")
    own = ChatReport.objects.create(message=message, reporter=alice)
    staff_client.post(
        reverse("admin:games_chatreport_changelist"),
        {"action": "suspend_authors", "_selected_action": [own.pk]},
    )
    staff.refresh_from_db()
    assert staff.is_active


def test_people_who_are_not_staff_cannot_open_the_admin(alice_client):
    response = alice_client.get(reverse("admin:games_chatreport_changelist"))
    assert response.status_code == 302
