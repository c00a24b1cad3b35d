"""Shuffles come from `secrets`, and a hand's seed (which fixes the whole deck) is sent to
nobody, in no frame and on no page, before that hand is over."""

from __future__ import annotations

import json
import random
from unittest import mock

import pytest
from django.test import Client

from games import selectors
from games.models import Hand
from games.services import tables
from games.table import presenters
from tests.games.conftest import play_one, redeal, start_table

pytestmark = pytest.mark.django_db


def _seed(table) -> int:
    hand = Hand.objects.filter(game__table=table).order_by("-number").first()
    return hand.state["seed"]


def test_every_deal_takes_its_seed_from_secrets(alice, bob):
    with mock.patch("games.engine.state.secrets.randbits", return_value=987654321) as drawn:
        table = start_table(alice, seats=2)
    assert drawn.called and _seed(table) == 987654321
    # Python's own random generator has no say: fixing it changes nothing.
    random.seed(5)
    first = start_table(bob, seats=2)
    random.seed(5)
    tables.seat_leave(table_id=table.pk, user=alice)
    second = start_table(alice, seats=2)
    assert _seed(first) != _seed(second)


# A 64-bit seed as `secrets` gives, fixed so that the random play below lasts long enough to
# check many positions (a fresh shuffle's hand sometimes ended after 24 moves, 96 checks).
LONG_HAND_SEED = 0xC0FFEE_5EED_1234


def test_a_hands_seed_is_in_no_frame_or_page_before_the_hand_ends(alice):
    table = start_table(alice, seats=3)
    redeal(table, dealer=2, seed=LONG_HAND_SEED)
    seed = str(_seed(table))
    assert seed == str(LONG_HAND_SEED)
    player = Client()
    player.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    rng = random.Random(2)
    checked = 0
    for _ in range(400):
        snap = selectors.load_snapshot(table.pk)
        if snap.hand.status != Hand.Status.PLAYING:
            break
        for seat in [0, 1, 2, None]:
            assert seed not in json.dumps(presenters.state_payload(snap, seat))
            assert seed not in presenters.state_html(snap, seat, None)
            checked += 1
        assert seed not in player.get(f"/tables/{table.pk}/").content.decode()
        play_one(table, rng)
    assert checked > 100, checked
