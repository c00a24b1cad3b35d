"""Prizes: trophies by place, the default table, ties sharing, and where players see them."""

from __future__ import annotations

import pytest

from tests.tournaments.conftest import bot_players, drive, enter, make_tournament
from tournaments import prizes, services
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Tournament
from tournaments.services import TournamentError


def test_worked_example_tied_places_share_their_prizes_remainder_to_the_first():
    # Table 50, 30, 15, 10. Ann wins; Bo and Cy tie for 2nd, so they cover places 2 and 3:
    # 30 + 15 = 45, 22 each rounded down, the 1 left over to Bo (first in the standings).
    # Di is 4th and gets the 4th prize; Ed, 5th, is beyond the table.
    places = [("Ann", 1), ("Bo", 2), ("Cy", 2), ("Di", 4), ("Ed", 5)]
    assert prizes.shares(places, [50, 30, 15, 10]) == {
        "Ann": 50, "Bo": 23, "Cy": 22, "Di": 10, "Ed": 0,
    }  # fmt: skip


def test_a_tie_on_the_last_paid_place_shares_it_with_the_unpaid_one():
    assert prizes.shares([("a", 1), ("b", 2), ("c", 2)], [7, 5]) == {"a": 7, "b": 3, "c": 2}


@pytest.mark.parametrize(
    ("field", "table"),
    [(2, [20]), (6, [60]), (10, [67, 33]), (20, [101, 66, 33])],
)
def test_the_default_table_pays_about_the_top_15_percent_the_winner_most(field, table):
    found = prizes.default_table(field)
    assert len(found) == prizes.paid_places(field)
    assert sum(found) == prizes.POOL_PER_PLAYER * field
    assert found == sorted(found, reverse=True)
    assert found[0] > (found[1] if len(found) > 1 else 0)
    assert found == table


def test_the_default_table_for_a_hundred_pays_fifteen_places():
    table = prizes.default_table(100)
    assert len(table) == 15
    assert sum(table) == 1000
    assert table[0] == max(table)


@pytest.mark.parametrize(
    ("text", "message"),
    [("100, x", "whole numbers"), ("10, 20", "more than the place above"), ("-1", "negative")],
)
def test_a_bad_prize_table_is_refused_with_a_reason(text, message):
    with pytest.raises(prizes.PrizeError, match=message):
        prizes.parse(text)


def test_prize_text_reads_commas_or_spaces():
    assert prizes.parse(" 100, 60 30 ") == [100, 60, 30]
    assert prizes.parse("") == []


def test_a_stored_bad_table_is_refused_at_the_start(db):
    t = make_tournament(prizes=[5, 9])
    enter(t, bot_players(4))
    with pytest.raises(TournamentError, match="more than the place above"):
        services.start(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.status == Tournament.Status.REGISTRATION


def test_a_finished_event_pays_its_table_to_the_places(db):
    t = make_tournament(seats_per_table=2, prizes=[40, 25, 10])
    enter(t, bot_players(6))
    services.start(tournament_id=t.pk)
    t = drive(t)
    by_place = prizes.shares(
        list(
            Entry.objects.filter(tournament=t, place__isnull=False)
            .order_by("place", "-chips", "-score", "registered_at", "pk")
            .values_list("pk", "place")
        ),
        [40, 25, 10],
    )
    assert {e.pk: e.trophies for e in Entry.objects.filter(tournament=t)} == {
        e.pk: by_place.get(e.pk, 0) for e in Entry.objects.filter(tournament=t)
    }
    # six entrants, nobody disqualified: the whole table is paid out
    assert sum(Entry.objects.filter(tournament=t).values_list("trophies", flat=True)) == 75


def test_a_filler_bots_place_pays_nobody(db):
    t = make_tournament(
        format=Tournament.Format.QUICK,
        seats_per_table=3,
        hands=1,
        min_entrants=1,
        prizes=[30, 20, 10],
    )
    enter(t, bot_players(1))
    services.start(tournament_id=t.pk)
    t = drive(t)
    entry = Entry.objects.get(tournament=t)
    assert len(t.bot_results) == 2
    finishers = [("me", entry.place)] + [
        (f"bot{i}", r["place"]) for i, r in enumerate(t.bot_results)
    ]
    finishers.sort(key=lambda f: f[1])  # stable: the entrant first among equals
    expected = prizes.shares(finishers, [30, 20, 10])
    assert entry.trophies == expected["me"]
    assert entry.trophies < 60  # the bots' places kept theirs


def test_the_form_reads_and_shows_the_prize_table(db):
    t = make_tournament(prizes=[100, 60, 30])
    form = TournamentForm(instance=t)
    assert form.initial["prizes"] == "100, 60, 30"


# --- where players see prizes ---


def test_the_public_page_shows_the_prize_table_before_the_start(db):
    from django.test import Client
    from django.urls import reverse

    t = make_tournament(name="Autumn cup", prizes=[80, 40])
    page = Client().get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert 'id="prize-table"' in page
    assert "<td>1st</td><td>80</td>" in page and "<td>2nd</td><td>40</td>" in page
    assert "not money" in page


def test_the_results_and_the_player_page_list_the_trophies_won(db):
    from django.test import Client
    from django.urls import reverse

    t = make_tournament(name="Winter cup", seats_per_table=2, prizes=[50, 20])
    enter(t, bot_players(4))
    services.start(tournament_id=t.pk)
    t = drive(t)
    page = Client().get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert '<th scope="col">Trophies</th>' in page
    winner = Entry.objects.filter(tournament=t, place=1).select_related("user").first()
    url = reverse("tournaments:player-results", kwargs={"name": winner.user.display_name})
    body = Client().get(url).content.decode()
    assert 'id="player-prizes"' in body and "Winter cup" in body
    assert f"<td>{winner.trophies}</td>" in body and winner.trophies > 0


def test_partners_placed_together_share_the_positions_they_cover():
    # persian: sides ranked 1 and 2, two partners each
    won = prizes.shares([("a", 1), ("b", 1), ("c", 2), ("d", 2)], [40, 20, 11, 0])
    assert won == {"a": 30, "b": 30, "c": 6, "d": 5}
