"""kill -9 of the Celery worker while bot turns are pending: after a restart every table
plays on, and the move logs show no move lost and none applied twice.

Four tables of bots (the host's seat is played for them, as after a lapsed disconnect, but
at one table the host's turns run out on a short clock instead) run
on a real worker with the sweeper's beat embedded, against PostgreSQL and a Redis of the
test's own. The worker is killed mid-play, with tasks armed in Redis and one perhaps half
run; a new worker (and beat) must pick every table up from the database and the broker.
"""

from __future__ import annotations

import time
from unittest import mock

import pytest

from games.models import Move, Seat, Table
from games.services import tables
from tests.conftest import make_player
from tests.resilience.integrity import check_table
from tests.resilience.stack import poll, stack_env, start_worker

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
TABLES = 4


def bot_tables(count: int) -> list[int]:
    """Started tables where bots play every seat but the first table's host, whose turns
    run out on a one-second clock. Nothing is armed yet (the worker's beat finds the tables
    due), so no task goes to the test process's own broker."""
    ids = []
    with mock.patch("games.tasks.schedule_table_work"):
        for i in range(count):
            host = make_player(f"host{i}", f"Host {i}")
            table = tables.table_create(
                host=host,
                name=f"Faults {i}",
                preset="standard",
                options={"target": 5000},
                num_seats=4,
                turn_seconds=60,
                fill_with_bots=True,
                bot_level="easy",
            )
            if i == 0:
                Table.objects.filter(pk=table.pk).update(turn_seconds=1)
            else:
                Seat.objects.filter(table=table, index=0).update(autoplay=True)
            tables.table_start(table_id=table.pk, by=host)
            ids.append(table.pk)
    return ids


def move_counts(ids: list[int]) -> dict[int, int]:
    return {i: Move.objects.filter(hand__game__table_id=i).count() for i in ids}


def test_killing_the_worker_mid_play_loses_and_repeats_no_move(postgres_url, private_redis):
    ids = bot_tables(TABLES)
    env = stack_env(private_redis.url)
    worker = start_worker(env)
    try:
        poll(
            "every table plays on the first worker",
            lambda: min(move_counts(ids).values()) >= 6,
            [worker],
        )
        worker.kill()
        at_kill = move_counts(ids)
        time.sleep(0.5)
        assert move_counts(ids) == at_kill, "a table moved with no worker alive"
        worker = start_worker(env)
        poll(
            "every table resumes after the restart",
            lambda: all(n >= at_kill[i] + 6 for i, n in move_counts(ids).items()),
            [worker],
        )
    finally:
        worker.stop()
    for table_id in ids:
        assert check_table(table_id) >= at_kill[table_id] + 6
        assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING
    assert Move.objects.filter(hand__game__table_id=ids[0], actor=Move.Actor.CLOCK).exists()
