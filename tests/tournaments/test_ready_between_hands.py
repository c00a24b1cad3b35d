"""Ready at tournament tables: the same pause as every table (games.services.clock), ended
early when every connected person there said so, and the tournament's next deal or round follows."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import engine, selectors
from games.models import Game, Hand, Seat, Table
from games.services import bot_turns, moves, shared, tables
from tests.conftest import make_player
from tests.tournaments.conftest import bot_players, enter, make_tournament
from tournaments import services, tasks
from tournaments.models import Tournament


@pytest.fixture
def person(db):
    return make_player("carol", "Carol")


def _start(person, **fields) -> Table:
    t = make_tournament(seats_per_table=2, starting_chips=100_000, levels=((1, 1, 50),), **fields)
    enter(t, [person, *bot_players(1)])
    services.start(tournament_id=t.pk, rng=random.Random(3))
    table = Table.objects.get()
    Seat.objects.filter(table=table, user=person).update(
        present_until=timezone.now() + timedelta(minutes=5)
    )
    selectors.clear_cache()
    return table


def _play_hand(table: Table, rng: random.Random) -> None:
    for _ in range(3000):
        snap = selectors.load_snapshot(table.pk)
        if snap.hand.status == Hand.Status.OVER:
            return
        if bot_turns.play_one(table.pk, snap.version, rng=rng):
            continue
        seat = snap.state.to_act[0]
        action = rng.choice(engine.legal_actions(snap.state, seat))
        moves.move_submit(
            table_id=table.pk,
            seat=seat,
            action=engine.action_to_json(action),
            expected_version=snap.version,
        )
    pytest.fail("the hand did not end")


@pytest.fixture
def armed(monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(tasks.advance, "delay", lambda tid: calls.append(tid))
    monkeypatch.setattr(tasks.advance, "apply_async", lambda *a, **k: None)
    return calls


def test_ready_ends_the_pause_at_a_single_table_tourney(
    person, settings, armed, django_capture_on_commit_callbacks
):
    settings.HAND_PAUSE_SECONDS = 30
    table = _start(person, format=Tournament.Format.STT)
    t = Tournament.objects.get()
    _play_hand(table, random.Random(3))
    services.advance(tournament_id=t.pk)
    assert Hand.objects.filter(game__table=table).count() == 1  # the pause is running
    armed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert tables.hand_ready(table_id=table.pk, user=person) is True
    assert armed == [t.pk]  # the Ready armed the tournament's advance
    services.advance(tournament_id=t.pk)
    assert Hand.objects.filter(game__table=table).count() == 2


def test_pressing_ready_again_is_refused_and_arms_nothing(
    person, settings, armed, django_capture_on_commit_callbacks
):
    """A flood of Ready presses (a script, not the page: its button is disabled once pressed)
    used to queue one tournament advance per press."""
    settings.HAND_PAUSE_SECONDS = 30
    table = _start(person)
    t = Tournament.objects.get()
    _play_hand(table, random.Random(3))
    services.advance(tournament_id=t.pk)
    armed.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert tables.hand_ready(table_id=table.pk, user=person) is True
        for _ in range(5):
            with pytest.raises(shared.TableError) as refused:
                tables.hand_ready(table_id=table.pk, user=person)
            assert (
                refused.value.code == "already_ready" and "Ready already" in refused.value.message
            )
    assert armed == [t.pk]
    seat = Seat.objects.get(table=table, user=person).index
    assert Hand.objects.get(game__table=table).result["ready"] == [seat]


def test_without_ready_the_tourneys_next_deal_waits_the_whole_pause(person, settings, armed):
    settings.HAND_PAUSE_SECONDS = 30
    table = _start(person, format=Tournament.Format.STT)
    t = Tournament.objects.get()
    _play_hand(table, random.Random(3))
    now = timezone.now()
    services.advance(tournament_id=t.pk, now=now + timedelta(seconds=10))
    assert Hand.objects.filter(game__table=table).count() == 1
    services.advance(tournament_id=t.pk, now=now + timedelta(seconds=31))
    assert Hand.objects.filter(game__table=table).count() == 2


def test_ready_ends_the_pause_before_a_multi_table_round(
    person, settings, armed, django_capture_on_commit_callbacks
):
    settings.HAND_PAUSE_SECONDS = 30
    table = _start(person)
    t = Tournament.objects.get()
    _play_hand(table, random.Random(3))
    services.advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.round == 1 and Game.objects.count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert tables.hand_ready(table_id=table.pk, user=person) is True
    assert armed == [t.pk]
    services.advance(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.round == 2 and Game.objects.count() == 2


def test_ready_after_the_pause_at_a_tournament_table_is_refused(person, settings, armed):
    settings.HAND_PAUSE_SECONDS = 0
    table = _start(person, format=Tournament.Format.STT)
    _play_hand(table, random.Random(3))
    with pytest.raises(shared.TableError) as refused:
        tables.hand_ready(table_id=table.pk, user=person)
    assert refused.value.code == "not_between_hands"
    assert "ready" not in (Hand.objects.get(game__table=table).result or {})


def test_a_tourney_table_offers_ready_between_hands(person, settings, armed):
    from games.table import presenters

    settings.HAND_PAUSE_SECONDS = 30
    table = _start(person, format=Tournament.Format.STT)
    _play_hand(table, random.Random(3))
    seat = Seat.objects.get(table=table, user=person).index
    html = presenters.state_html(selectors.load_snapshot(table.pk), seat, person)
    assert 'id="ready-button"' in html


def _hand_end(table: Table, person) -> str:
    import re

    from games.table import presenters

    snap = selectors.load_snapshot(table.pk)
    seat = snap.seat_of(person.pk)
    html = presenters.state_html(snap, seat, person)
    return re.search(r'<section id="hand-end".*?</section>', html, re.S).group(0)


def test_a_multi_table_round_offers_ready_after_its_one_hand_game(person, settings, armed):
    settings.HAND_PAUSE_SECONDS = 30
    table = _start(person)
    _play_hand(table, random.Random(3))
    assert Game.objects.get().status == Game.Status.FINISHED  # a round is a one-hand game
    panel = _hand_end(table, person)
    assert 'id="ready-button"' in panel
    left = float(re.search(r'data-pause-left="([0-9.]+)"', panel).group(1))
    assert 0 < left <= 30  # the page withdraws it when the pause is over


def test_ready_is_not_offered_at_a_tournament_table_once_the_pause_is_over(person, settings, armed):
    settings.HAND_PAUSE_SECONDS = 30
    table = _start(person)
    _play_hand(table, random.Random(3))
    Hand.objects.update(finished_at=timezone.now() - timedelta(seconds=31))
    selectors.clear_cache()
    panel = _hand_end(table, person)
    assert "The hand is over" in panel  # the summary stays
    assert 'id="ready-button"' not in panel


def test_the_summary_stays_when_the_next_round_deals_a_new_game(
    person, settings, armed, django_capture_on_commit_callbacks
):
    settings.HAND_PAUSE_SECONDS = 30
    table = _start(person)
    _play_hand(table, random.Random(3))
    finished = Hand.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        tables.hand_ready(table_id=table.pk, user=person)
    services.advance(tournament_id=Tournament.objects.get().pk)
    assert Game.objects.count() == 2  # round 2 is a new game at this table
    panel = _hand_end(table, person)
    assert "Hand 1 is over" in panel
    assert "Carol" in panel and 'id="ready-button"' not in panel
    # Closing it is remembered under the finished hand's own game, not the new one.
    assert f'data-hand-key="{table.pk}-{finished.game.number}-1"' in panel
