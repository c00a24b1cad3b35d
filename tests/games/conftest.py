"""Tables for the games tests: a started table with Alice and bots, and a way to play it."""

from __future__ import annotations

import random

import pytest

from games import engine, selectors
from games.models import Table
from games.services import clock, moves, tables


@pytest.fixture(autouse=True)
def _fresh_snapshots(settings):
    """Snapshots are cached per (table, version); ids restart between tests, so clear them."""
    settings.BOT_MOVE_DELAY_SECONDS = 0
    settings.HAND_PAUSE_SECONDS = 0
    selectors.clear_cache()
    yield
    selectors.clear_cache()


def start_table(host, *, seats: int = 4, preset: str = "standard", **options) -> Table:
    table = tables.table_create(
        host=host,
        name="Test table",
        preset=preset,
        options=options,
        num_seats=seats,
        turn_seconds=60,
        fill_with_bots=True,
    )
    tables.table_start(table_id=table.pk, by=host)
    table.refresh_from_db()
    return table


@pytest.fixture
def bot_table(alice) -> Table:
    return start_table(alice)


def acting_seat(table: Table) -> int:
    snap = selectors.load_snapshot(table.pk)
    return snap.state.to_act[0]


def play_one(table: Table, rng: random.Random, *, seat: int | None = None):
    """Apply one random legal move for the seat to act, through the service."""
    snap = selectors.load_snapshot(table.pk)
    seat = snap.state.to_act[0] if seat is None else seat
    action = rng.choice(engine.legal_actions(snap.state, seat))
    return moves.move_submit(
        table_id=table.pk,
        seat=seat,
        action=engine.action_to_json(action),
        expected_version=snap.version,
    )


def redeal(table: Table, *, dealer: int, deck=None, seed: int | None = None, state=None) -> None:
    """Replace the current hand with a known deal (a test-only shortcut past the shuffle),
    or with ``state``, a position arranged further on (tests.engine.helpers.arrange)."""
    from games.models import Hand

    hand = Hand.objects.filter(game__table=table).order_by("-game__number", "-number").first()
    rules = engine.Rules.from_json(hand.game.rules)
    if state is None:
        state = engine.new_hand(rules, table.num_seats, dealer, deck=deck, seed=seed)
    hand.dealer = dealer
    hand.state = engine.state_to_json(state)
    hand.save(update_fields=["dealer", "state"])
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)
    table.refresh_from_db()
    kind, at = clock.due_after(selectors.read_snapshot(table))
    Table.objects.filter(pk=table.pk).update(due_kind=kind, due_at=at)
    table.refresh_from_db()
