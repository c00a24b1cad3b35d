"""The headless simulation runs a bot MTT to the end through the real services."""

from __future__ import annotations

import io

from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import services
from tournaments.models import ChipLedger, Entry, Tournament, TournamentTable


def test_simulate_tournament_runs_a_bot_mtt_to_one_winner(db):
    out = io.StringIO()
    call_command(
        "simulate_tournament", "--entrants", "12", "--seed", "3", stdout=out, stderr=io.StringIO()
    )
    t = Tournament.objects.get()
    assert t.status == Tournament.Status.FINISHED
    assert Entry.objects.filter(tournament=t, place=1).count() == 1
    assert sum(Entry.objects.filter(tournament=t).values_list("chips", flat=True)) == 12_000
    assert "settlement per hand" in out.getvalue() and "database growth" in out.getvalue()
    assert not TournamentTable.objects.filter(table__isnull=False).exists()


def _settle_first_table(t: Tournament) -> int:
    table = TournamentTable.objects.filter(tournament=t).first()
    seated = list(Entry.objects.filter(table=table).order_by("seat"))
    played = [services.Played(e.pk, i, 10 * i, 10 * i, 0) for i, e in enumerate(seated)]
    with CaptureQueriesContext(connection) as queries:
        services.hand_settle(tournament=t, table=table, played=played, dealer=0)
    return len(queries)


def test_settling_a_hand_costs_the_same_queries_whatever_the_field_size(db):
    counts = []
    for size in (8, 64):
        t = make_tournament(name=f"field {size}", max_entrants=size)
        enter(t, bot_players(size, prefix=f"f{size}x"))
        services.start(tournament_id=t.pk, live=False)
        t.refresh_from_db()
        counts.append(_settle_first_table(t))
    assert counts[0] == counts[1]
    assert ChipLedger.objects.filter(kind=ChipLedger.Kind.HAND).exists()


def test_simulate_tournament_duplicate_compares_every_rounds_deals(db):
    from tournaments.models import DuplicateDeal

    out = io.StringIO()
    call_command(
        "simulate_tournament", "--entrants", "16", "--seed", "5", "--duplicate",
        stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    t = Tournament.objects.get()
    assert t.duplicate and t.status == Tournament.Status.FINISHED
    deals = DuplicateDeal.objects.filter(tournament=t)
    assert deals.filter(round=1).count() == 4 and not deals.filter(played=False).exists()
    assert set(deals.values_list("round", flat=True)) == set(range(1, t.round + 1))
    assert any(e.duplicate_score for e in Entry.objects.filter(tournament=t))
    assert "duplicate: " in out.getvalue()
    assert sum(Entry.objects.filter(tournament=t).values_list("chips", flat=True)) == 16_000


def test_simulate_independent_compares_both_flows_on_a_virtual_clock(db):
    out = io.StringIO()
    call_command(
        "simulate_tournament",
        "--entrants",
        "16",
        "--seed",
        "2",
        "--independent",
        stdout=out,
        stderr=io.StringIO(),
    )
    text = out.getvalue()
    assert "hand durations (moves x 1.2 s" in text
    assert "hand-for-hand: wall" in text and "independent tables: wall" in text
    assert text.count("idle per table per hand (beyond the pause)") == 2
    events = Tournament.objects.all()
    assert [t.status for t in events] == [Tournament.Status.FINISHED] * 2
    assert sorted(t.hand_for_hand for t in events) == [False, True]
    for t in events:
        assert sum(Entry.objects.filter(tournament=t).values_list("chips", flat=True)) == 16_000
