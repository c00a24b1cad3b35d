"""A web process stopped (SIGTERM) or killed (kill -9) under a seated player's open socket.

Neither runs the socket's disconnect, which is why a count of open sockets used to keep a
phantom connection per seated player, and an untimed table whose player "was connected" but
gone never got the bot cover. Presence is now a heartbeat per socket with an expiry, so:

- the player stays away: a bot covers the seat once the heartbeat has expired and the grace
  period has passed (the sweeper, on the worker's beat), and the others see "away";
- the player's client reconnects at once, as the page does: the seat stays theirs, with no
  bot cover, and no phantom is left behind (a clean close afterwards makes them away).

Real processes: two Daphnes (Alice's, which is stopped or killed and restarted, and Carol's,
a spectator's), a Celery worker with the sweeper's beat, PostgreSQL and a Redis of the test's
own. Short intervals through the settings' environment variables.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client

from config.private_redis import free_port
from games.models import Move, Seat, SeatSocket, Table
from games.services import tables
from tests.conftest import make_player
from tests.games.conftest import redeal
from tests.resilience.stack import Process, poll, stack_env, start_daphne, start_worker
from tests.resilience.ws_client import Closed, WebSocket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

EXPIRY_S = 3  # PRESENCE_EXPIRY_SECONDS for these processes
SWEEP_S = 1


def untimed_table(alice) -> int:
    """Alice (seat 0, to act first) and an easy bot, no turn clock, spectators with the invite.
    Nothing is armed in the test's own broker: the worker's beat finds what is due."""
    with mock.patch("games.tasks.schedule_table_work"):
        table = tables.table_create(
            host=alice,
            name="Presence",
            preset="standard",
            options={"target": 5000},
            num_seats=2,
            turn_seconds=None,  # untimed tables are private ones
            is_private=True,
            fill_with_bots=True,
            bot_level="easy",
        )
        tables.table_start(table_id=table.pk, by=alice)
        table.refresh_from_db()
        redeal(table, dealer=1)
    return table.pk


def cookie_for(user) -> str:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def socket_url(base: str, table_id: int, invite: str = "") -> str:
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}/?format=json"
    return url + (f"&invite={invite}" if invite else "")


def seat0(table_id: int) -> Seat:
    return Seat.objects.get(table_id=table_id, index=0)


def ping(ws: WebSocket, n: int) -> None:
    ws.send_json({"type": "ping", "id": f"p{n}"})
    ws.until("pong", lambda frame: frame.get("id") == f"p{n}")


class Stack:
    """The processes of one test, stopped at its end whatever happened."""

    def __init__(self, redis_url: str, **env: str) -> None:
        self.env = stack_env(
            redis_url, PRESENCE_EXPIRY_SECONDS=str(EXPIRY_S), SWEEP_INTERVAL_SECONDS=str(SWEEP_S),
            **env,
        )  # fmt: skip
        self.processes: list[Process] = [start_worker(self.env)]
        self.port = free_port()
        self.alices, self.alice_url = self.daphne(self.port)
        _, self.carol_url = self.daphne()

    def daphne(self, port: int | None = None) -> tuple[Process, str]:
        process, url = start_daphne(self.env, port)
        self.processes.append(process)
        return process, url

    def stop(self) -> None:
        for process in self.processes:
            process.stop()


@pytest.fixture
def stack_for(private_redis) -> Iterator[object]:
    stacks: list[Stack] = []

    def make(**env: str) -> Stack:
        stacks.append(Stack(private_redis.url, **env))
        return stacks[-1]

    yield make
    for stack in stacks:
        stack.stop()


def open_seated_socket(stack: Stack, table_id: int, alice) -> WebSocket:
    ws = WebSocket(socket_url(stack.alice_url, table_id), cookie=cookie_for(alice), timeout=60)
    assert ws.until("state")["you"] == 0
    return ws


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGKILL"])
def test_a_player_gone_with_their_web_process_is_covered_by_a_bot(
    postgres_url, stack_for, alice, stop
):
    table_id = untimed_table(alice)
    carol = make_player("carol", "Carol")
    stack = stack_for(DISCONNECT_GRACE_SECONDS="2")
    ws = open_seated_socket(stack, table_id, alice)
    invite = Table.objects.get(pk=table_id).invite_token
    watcher = WebSocket(
        socket_url(stack.carol_url, table_id, invite), cookie=cookie_for(carol), timeout=60
    )
    watcher.until("state")
    ping(ws, 1)  # a fresh heartbeat just before the fault: she is online at that moment
    last_seen = seat0(table_id).present_until
    assert last_seen is not None and seat0(table_id).disconnected_at is None
    if stop == "SIGTERM":
        stack.alices.stop()  # SIGTERM: Daphne kills its application instances
    else:
        stack.alices.kill()
    assert stack.alices.popen.returncode is not None
    ws.sock.close()  # her client stays away
    stack.alices, _ = stack.daphne(stack.port)

    away = watcher.until("presence", lambda frame: frame["seat"] == 0)
    assert away["state"] == "away" and away["connected"] is False
    poll("the bot covers Alice's seat", lambda: seat0(table_id).autoplay, stack.processes)
    seat = seat0(table_id)
    if stop == "SIGKILL":
        # known gone when her last heartbeat expired; the grace period ran from there
        assert seat.disconnected_at == seat.present_until == last_seen
    else:
        # the same, unless the stopping Daphne managed to run her socket's close first
        assert seat.disconnected_at == seat.present_until <= last_seen
    covered = watcher.until("state", lambda frame: frame["seats"][0]["autoplay"])
    assert covered["seats"][0]["presence"] == "away"
    poll(
        "the bot plays Alice's turn",
        lambda: Move.objects.filter(hand__game__table_id=table_id, seat=0, actor="bot").exists(),
        stack.processes,
    )
    assert not SeatSocket.objects.filter(table_id=table_id).exists()  # the dead socket's row
    first = Move.objects.filter(hand__game__table_id=table_id, seat=0).earliest("created_at")
    print(f"{stop}: the bot moved for Alice {(first.created_at - last_seen).total_seconds():.1f}s "
          f"after her heartbeat expired (grace 2 s, sweeps every {SWEEP_S} s)")  # fmt: skip
    watcher.close()


def test_a_player_who_reconnects_keeps_their_seat_and_leaves_no_phantom(
    postgres_url, stack_for, alice
):
    table_id = untimed_table(alice)
    # a grace period far longer than a restart: reconnecting, as the page does, is in time
    stack = stack_for(DISCONNECT_GRACE_SECONDS="60")
    ws = open_seated_socket(stack, table_id, alice)
    ping(ws, 1)
    stack.alices.kill()
    ws.sock.close()
    stack.alices, _ = stack.daphne(stack.port)
    again = open_seated_socket(stack, table_id, alice)

    stop = threading.Event()

    def keep_pinging() -> None:  # the page's pings, at the short interval of this stack
        n = 1
        while not stop.is_set():
            n += 1
            try:
                ping(again, n)
            except (Closed, OSError):
                return
            stop.wait(0.5)

    pinger = threading.Thread(target=keep_pinging, daemon=True)
    pinger.start()
    try:
        # the killed socket's heartbeat expires and the sweeper clears its row; hers lives on
        poll(
            "only the live socket counts",
            lambda: SeatSocket.objects.filter(table_id=table_id).count() == 1,
            stack.processes,
        )
        time.sleep(EXPIRY_S + 3 * SWEEP_S)  # several sweeps after the dead heartbeat expired
        seat = seat0(table_id)
        assert not seat.autoplay and seat.disconnected_at is None
        assert not Move.objects.filter(hand__game__table_id=table_id, seat=0).exists()
    finally:
        stop.set()
        pinger.join(timeout=30)
    again.close()  # a clean close of her only live socket: away at once, nothing left behind
    poll(
        "Alice is away after her last socket closed",
        lambda: seat0(table_id).disconnected_at is not None,
        stack.processes,
    )
    assert not SeatSocket.objects.filter(table_id=table_id).exists()
