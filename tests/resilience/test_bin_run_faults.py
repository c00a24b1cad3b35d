"""`python3 bin/run` survives a crash: kill -9 the worker, the web process and the private
Redis in turn while bots play; each comes back by itself, every table plays on, and the
move logs show no move lost and none applied twice. Ctrl-C then stops everything.

bin/run runs on its own port and var directory, on the test's PostgreSQL database (so the
test can set tables up with the services and check their records) and with the private
Redis it starts itself, under its process supervisor (bin/supervision.py).
"""

from __future__ import annotations

import os
import re
import signal

import pytest

from config.private_redis import free_port, ping
from games.models import Table
from tests.resilience.integrity import check_table
from tests.resilience.stack import BinRun, poll, stack_env
from tests.resilience.test_worker_kill import bot_tables, move_counts

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
TABLES = 3
KILLED = ("worker", "web", "redis")
MOVES = 4  # moves every table must make after each fault


def bin_run_env() -> dict[str, str]:
    env = stack_env("", RUMMY_PORT=str(free_port()))
    del env["REDIS_URL"]  # bin/run starts and supervises its own Redis
    return env


def versions(ids: list[int]) -> dict[int, int]:
    return dict(Table.objects.filter(pk__in=ids).values_list("pk", "version"))


def crash_and_recover(site: BinRun, program: str, ids: list[int]) -> None:
    """kill -9 one supervised process; it must be started again (a new pid), the site must
    answer /healthz with 200, and every table must move on by MOVES moves."""
    poll(f"{program} is running", lambda: site.status(program)[0] == "RUNNING", [site])
    pid = site.status(program)[1]
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    at_kill, versions_at_kill = move_counts(ids), versions(ids)

    def restarted() -> bool:
        state, new_pid = site.status(program)
        return state == "RUNNING" and new_pid not in (None, pid)

    poll(f"{program} is started again after kill -9", restarted, [site])
    poll(f"/healthz answers 200 after {program} died", site.healthy, [site])
    poll(
        f"every table plays on after {program} died",
        lambda: all(n >= at_kill[i] + MOVES for i, n in move_counts(ids).items()),
        [site],
    )
    assert all(v > versions_at_kill[i] for i, v in versions(ids).items())


def test_bin_run_restarts_each_killed_process_and_every_table_plays_on(postgres_url):
    ids = bot_tables(TABLES)
    site = BinRun(bin_run_env())
    try:
        redis_port = int(site.wait_for(r"private Redis on redis://127\.0\.0\.1:(\d+)")[1])
        site.wait_for(rf"is ready: {site.url}")
        poll("every table plays", lambda: min(move_counts(ids).values()) >= MOVES, [site])
        for program in KILLED:
            crash_and_recover(site, program, ids)
        exits = re.findall(r"exited: (\w+) \(([^)]*)\)", site.output())
        assert exits == [(name, "terminated by SIGKILL; not expected") for name in KILLED], exits

        assert site.interrupt() == 0
        assert "Stopped the private Redis." in site.output()
        assert not ping(redis_port)
        assert not site.healthy()
        assert site.session_processes() == [], "processes outlived bin/run"
    finally:
        site.kill_everything()
    for table_id in ids:
        check_table(table_id)
        assert Table.objects.get(pk=table_id).status == Table.Status.PLAYING
