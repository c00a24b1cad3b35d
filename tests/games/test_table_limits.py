"""One account cannot take over the lobby (issue 18, item 5): a few waiting tables per host, a
few new tables a minute, and a few lobby rows per host with the rest behind a link."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games import selectors
from games.models import Table
from games.services import shared
from games.services import tables as tables_service
from tests.games.test_views import create_form_data

pytestmark = pytest.mark.django_db


def _create(host, name: str = "") -> Table:
    return tables_service.table_create(
        host=host, name=name, preset="standard", options={}, num_seats=2, turn_seconds=60
    )


def test_a_flood_of_creations_leaves_only_the_waiting_limit(alice, settings):
    settings.TABLES_WAITING_PER_HOST = 3
    refused = []
    for i in range(100):
        try:
            _create(alice, f"Flood {i}")
        except shared.TableError as exc:
            refused.append(exc.code)
    assert Table.objects.filter(host=alice).count() == 3
    assert set(refused) == {"too_many_waiting"} and len(refused) == 97


def test_the_form_says_why_a_table_beyond_the_waiting_limit_is_refused(alice, alice_client):
    for i in range(3):
        _create(alice, f"Mine {i}")
    response = alice_client.post(reverse("table_create"), create_form_data())
    assert response.status_code == 429
    html = response.content.decode()
    assert "You already host 3 tables waiting for players" in html
    assert 'id="create-form"' in html  # the form is shown again, with the message
    assert Table.objects.filter(host=alice).count() == 3


def test_a_scripted_client_gets_the_refusal_as_json(alice, alice_client):
    for i in range(3):
        _create(alice, f"Mine {i}")
    response = alice_client.post(
        reverse("table_create"), create_form_data(), headers={"Accept": "application/json"}
    )
    assert response.status_code == 429
    body = response.json()
    assert body["error"] == "too_many_waiting"
    assert "Leave one you no longer need" in body["message"]


def test_leaving_a_waiting_table_makes_room_for_another(alice):
    tables = [_create(alice, f"Mine {i}") for i in range(3)]
    tables_service.seat_leave(table_id=tables[0].pk, user=alice)
    assert _create(alice, "Again").host == alice


def test_creations_per_minute_are_limited_even_when_none_is_left_waiting(alice, settings):
    settings.TABLES_CREATED_PER_MINUTE = 5
    for i in range(5):
        table = _create(alice, f"Quick {i}")
        tables_service.seat_leave(table_id=table.pk, user=alice)  # expires: nothing waiting
    with pytest.raises(shared.TableError) as refused:
        _create(alice, "One too many")
    assert refused.value.code == "too_many_created"
    assert "at most 5 tables a minute" in refused.value.message
    assert Table.objects.filter(host=alice).count() == 5
    a_minute_ago = timezone.now() - dt.timedelta(seconds=61)
    Table.objects.filter(host=alice).update(created_at=a_minute_ago)
    assert _create(alice, "Later").name == "Later"


def test_the_limits_are_per_host(alice, bob):
    for i in range(3):
        _create(alice, f"Alice {i}")
    assert _create(bob, "Bob's own").host == bob


# --- the lobby stays fair ------------------------------------------------------------------


@pytest.fixture
def flood(alice, bob, settings):
    """Bob's one table, then ten newer ones of Alice's (limits raised, as an operator may)."""
    settings.TABLES_WAITING_PER_HOST = 50
    settings.TABLES_CREATED_PER_MINUTE = 50
    settings.LOBBY_ROWS_PER_HOST = 3
    bobs = _create(bob, "Bob's only table")
    Table.objects.filter(pk=bobs.pk).update(created_at=timezone.now() - dt.timedelta(hours=1))
    for i in range(10):
        _create(alice, f"Alice {i}")


@pytest.mark.usefixtures("flood")
def test_the_lobby_lists_a_few_tables_per_host_and_says_how_many_more():
    rows = selectors.public_tables(limit=4)
    assert [r.name for r in rows] == ["Alice 9", "Alice 8", "Alice 7", "Bob's only table"]
    assert [r.more_from_host for r in rows] == [0, 0, 7, 0]


def test_the_lobby_page_links_to_the_rest_of_a_hosts_tables(flood, alice, client):
    html = client.get("/").content.decode()
    assert "Bob&#x27;s only table" in html
    assert "Alice 6" not in html
    link = f'href="/?host={alice.pk}#tables-heading">7 more from this host</a>'
    assert link in html
    everything = client.get(f"/?host={alice.pk}").content.decode()
    assert all(f"Alice {i}" in everything for i in range(10))
    assert "Bob&#x27;s only table" not in everything
    assert "Open tables of Alice" in everything


def test_a_bad_host_filter_shows_the_whole_lobby(flood, client):
    for raw in ("x", "-1", "99999999", "9" * 40):
        html = client.get("/", {"host": raw}).content.decode()
        assert "Bob&#x27;s only table" in html


def test_tables_without_a_host_are_each_their_own(alice, settings):
    settings.LOBBY_ROWS_PER_HOST = 1
    for i in range(3):
        Table.objects.create(name=f"Managed {i}", preset="standard", rules={}, num_seats=2)
    assert len(selectors.public_tables()) == 3
