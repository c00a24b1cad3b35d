"""The tournaments lobby: upcoming events first with what a player decides on; filters."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import lobby
from tournaments.models import Tournament

URL = reverse("tournaments:list")


def page(query: str = "") -> tuple[int, str]:
    response = Client().get(URL + query)
    return response.status_code, response.content.decode()


def test_upcoming_events_come_first_soonest_first_with_their_facts(db):
    now = timezone.now()
    later_one = make_tournament(name="Later cup", scheduled_start=now + timedelta(days=2))
    soon = make_tournament(
        name="Soon cup", scheduled_start=now + timedelta(hours=1), max_entrants=12, prizes=[60, 30]
    )
    enter(soon, bot_players(3))
    make_tournament(name="Done cup", status=Tournament.Status.FINISHED)
    rows = lobby.lobby()["upcoming"]
    assert [r.t.name for r in rows] == ["Soon cup", "Later cup"]
    first = rows[0]
    assert (first.entrants, first.seats_left) == (3, 9)
    assert first.stack == "1,000 chips"
    assert first.schedule == "3 levels, PCR 5 to 100, first lasts 2 hands"
    assert first.prize_summary == "1st 60, 2nd 30"
    status, body = page()
    assert status == 200
    assert body.index("Soon cup") < body.index("Later cup") < body.index("Done cup")
    assert "3 taken, 9 left (of 12)" in body
    assert f'data-countdown-to="{soon.scheduled_start.isoformat()}"' in body
    assert "js/tournament_countdown.js" in body
    assert later_one.name in body


def test_a_single_table_event_offers_its_table_seats_and_its_target(db):
    t = make_tournament(
        name="Table for three", format=Tournament.Format.STT, seats_per_table=3, target=300
    )
    (row,) = lobby.lobby()["upcoming"]
    assert row.t == t and row.seats == 3 and row.schedule == "first to 300"
    assert row.stack == "score from 0"


def test_a_full_sit_and_go_shows_the_end_of_its_countdown_as_its_start(db):
    t = make_tournament(
        name="Sng", format=Tournament.Format.STT, seats_per_table=2, sit_and_go=True
    )
    enter(t, bot_players(2))
    t.refresh_from_db()
    (row,) = lobby.lobby()["upcoming"]
    assert row.starts_at == t.sit_and_go_at and row.seats_left == 0
    assert "(all seats taken)" in page()[1]


def test_filters_by_format_and_preset_on_the_server(db):
    make_tournament(name="Multi standard", preset="standard")
    make_tournament(name="Quick school", format=Tournament.Format.QUICK, seats_per_table=2)
    make_tournament(name="Multi school")
    status, body = page("?format=mtt&preset=rummy-school")
    assert status == 200
    assert "Multi school" in body
    assert "Multi standard" not in body and "Quick school" not in body
    assert [r.t.name for r in lobby.lobby(format="quick")["upcoming"]] == ["Quick school"]


@pytest.mark.parametrize(
    "query", ["?format=poker", "?preset=no-such-rules", "?format=mtt&preset=x"]
)
def test_an_unknown_filter_is_refused_in_words_and_everything_is_shown(db, query):
    make_tournament(name="Multi standard", preset="standard")
    make_tournament(name="Quick school", format=Tournament.Format.QUICK, seats_per_table=2)
    status, body = page(query)
    assert status == 400
    assert 'id="filter-errors"' in body and "could not be used" in body
    assert "Multi standard" in body and "Quick school" in body
