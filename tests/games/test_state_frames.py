"""The state frame as a socket sends it: the same content as ``state_payload``, with the parts
every socket shares encoded once per snapshot."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from unittest import mock

import pytest

from games import selectors
from games.table import presenters
from tests.games.conftest import play_one, start_table

pytestmark = pytest.mark.django_db


def _without_time_left(frame: dict) -> dict:
    clock = frame.get("clock")
    if clock:
        frame = {**frame, "clock": {**clock, "seconds_left": None}}
    return frame


def test_the_sent_frame_is_the_payload_for_every_seat_and_a_spectator(alice):
    table = start_table(alice, seats=4)
    rng = random.Random(3)
    for _ in range(12):  # across a few turns: draws, discards, maybe melds
        snap = selectors.load_snapshot(table.pk)
        for seat in [0, 1, 2, 3, None]:
            sent = json.loads(presenters.state_json(snap, seat))
            expected = json.loads(json.dumps(presenters.state_payload(snap, seat)))
            assert _without_time_left(sent) == _without_time_left(expected)
        play_one(table, rng)


def test_the_shared_parts_are_built_once_per_snapshot(alice):
    table = start_table(alice, seats=4)
    snap = selectors.load_snapshot(table.pk)
    with (
        mock.patch.object(presenters, "table_summary", wraps=presenters.table_summary) as tables,
        mock.patch.object(presenters, "game_summary", wraps=presenters.game_summary) as games,
    ):
        frames = [presenters.state_json(snap, seat) for seat in [0, 1, 2, 3, None]]
    assert tables.call_count == 1 and games.call_count == 1
    hands = [json.loads(frame)["view"].get("hand") for frame in frames]
    assert all(hands[:4]) and hands[4] is None  # the views stay each seat's own
    assert len({json.dumps(hand) for hand in hands[:4]}) == 4


def test_a_new_snapshot_is_encoded_afresh(alice):
    table = start_table(alice, seats=2)
    before = json.loads(presenters.state_json(selectors.load_snapshot(table.pk), 0))
    play_one(table, random.Random(1))
    after = json.loads(presenters.state_json(selectors.load_snapshot(table.pk), 0))
    assert after["version"] == before["version"] + 1
    assert after["view"] != before["view"]


def test_the_cache_of_shared_parts_stays_bounded(alice):
    table = start_table(alice, seats=2)
    snap = selectors.load_snapshot(table.pk)
    for _ in range(presenters._SHARED_LIMIT * 2):
        presenters.state_json(replace(snap), 0)
    assert len(presenters._shared) <= presenters._SHARED_LIMIT
