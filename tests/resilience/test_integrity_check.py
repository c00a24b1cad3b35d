"""The records check the fault tests rely on passes on a table played normally and catches
a lost move, a repeated move and a state that is not the log's."""

from __future__ import annotations

import random

import pytest

from games.models import Hand, Move
from games.services import tables
from tests.games.conftest import play_one, start_table
from tests.resilience.integrity import check_table

pytestmark = pytest.mark.django_db


def _played(alice, moves: int = 200):
    table = start_table(alice, seats=3, target=5000)
    rng = random.Random(3)
    for _ in range(moves):
        hand = Hand.objects.filter(game__table=table).order_by("-number").first()
        if hand.status == Hand.Status.OVER:
            tables.hand_next(table_id=table.pk)
        else:
            play_one(table, rng)
    return table


def test_a_normally_played_table_passes(alice):
    table = _played(alice)
    assert check_table(table.pk) >= 150
    assert Hand.objects.filter(game__table=table).count() >= 2  # across a new deal


def test_a_lost_move_is_caught(alice):
    table = _played(alice, 10)
    Move.objects.filter(hand__game__table=table, seq=5).delete()
    with pytest.raises(AssertionError, match="gaps"):
        check_table(table.pk)


def test_a_state_that_is_not_the_logs_is_caught(alice):
    table = _played(alice, 10)
    move = Move.objects.filter(hand__game__table=table).order_by("-seq").first()
    move.delete()
    Hand.objects.filter(pk=move.hand_id).update(moves_count=move.seq - 1)
    with pytest.raises(AssertionError, match="differs on replay"):
        check_table(table.pk)
