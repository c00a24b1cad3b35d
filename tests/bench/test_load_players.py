"""The load benchmark's scripted clients (bench/load/players.py) read the server's frames as
the page and the JSON protocol's clients would: what they act on must match the frames."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from bench.load.players import _STATE_PREFIX, Page
from games import selectors
from games.table import presenters, table_frames
from tests.games.conftest import play_one, start_table

pytestmark = pytest.mark.django_db


def _facts(state: dict[str, Any]) -> tuple:
    return (
        state["version"],
        state["table"]["status"],
        (state["view"] or {}).get("phase"),
        sorted(orjson.dumps(a) for a in state["legal"]),
    )


def test_the_html_client_reads_from_each_seats_frames_what_its_json_frame_says(alice):
    """Frame after frame, with only the changed regions sent (as the socket sends them), the
    html client's page gives each seat the version, status, phase and legal moves of the
    JSON frame of the same snapshot, and the hand's cards."""
    table = start_table(alice, seats=4)
    rng = random.Random(11)
    pages = {seat: Page() for seat in range(4)}
    sent: dict[int, dict[str, Any]] = {seat: {} for seat in range(4)}
    movers = 0
    for _ in range(30):
        snap = selectors.load_snapshot(table.pk)
        for seat, page in pages.items():
            text, sent[seat] = table_frames.frame(snap, seat, None, sent[seat])
            assert page.swap(text)
            expected = orjson.loads(presenters.state_json(snap, seat))
            assert _facts(page.state()) == _facts(expected)
            assert sorted(page.state()["hand"]) == sorted(expected["view"]["hand"])
            assert page.my_turn() == bool(expected["legal"])
            movers += bool(expected["legal"])
        play_one(table, rng)
    assert movers == 30  # one seat to move at every snapshot, and its page knew


def test_the_json_client_reads_the_version_from_the_frames_first_bytes(alice):
    table = start_table(alice, seats=4)
    play_one(table, random.Random(2))
    snap = selectors.load_snapshot(table.pk)
    raw = presenters.state_json(snap, 1)
    assert raw.startswith(_STATE_PREFIX)
    at = len(_STATE_PREFIX)
    assert int(raw[at : raw.find(",", at)]) == orjson.loads(raw)["version"] == snap.version


def test_play_again_waits_for_the_version_after_the_one_before_its_post(monkeypatch):
    """The new game's frame may reach the sockets before the start post's response does:
    play again must then see the game started, not wait for a move nobody will make."""
    import asyncio

    from bench.load import players
    from bench.load.stats import Stats

    stats = Stats()
    sockets = [players.Socket(None, stats) for _ in range(4)]
    for s in sockets:
        s.version = 41

    def post_answered_after_the_frame(url: str, cookie: str) -> int:
        for s in sockets:
            s.version = 42  # the new game's first frame, read while the post was answered
        return 200

    monkeypatch.setattr(players, "_post", post_answered_after_the_frame)

    async def play_again() -> None:
        async with asyncio.timeout(5):
            await players._play_again(
                "ws://127.0.0.1:1", {"id": 7, "cookies": ["c"]}, sockets, stats
            )

    asyncio.run(play_again())
    assert stats.games_started == 1
    assert stats.timeouts == 0 and stats.errors == {}
