"""The notice socket (accounts/consumers.py): one per page of a signed-in player.

It forwards the account's notices, lets other sockets of the account ignore them, gives back
what a page missed, marks the player's own notices read, holds client frames to the table
socket's limits, and closes with the login (4401) like every socket of the account.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.models import Session
from django.test import Client

from accounts import notices
from accounts.models import Notice, User
from config.routing import websocket_urlpatterns
from games.consumers import MAX_FRAME_BYTES, RATE_BURST
from tests.tournaments.conftest import make_tournament
from tournaments import broadcast
from tournaments import notices as tournament_notices

pytestmark = pytest.mark.django_db(transaction=True)

app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


def _login(user: User) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


_browser = database_sync_to_async(_login)


async def _socket(browser: Client | None, path: str = "/ws/notices/") -> WebsocketCommunicator:
    headers = []
    if browser is not None:
        headers = [(b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode())]
    ws = WebsocketCommunicator(app, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def _frame(ws: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    while True:
        frame = await ws.receive_json_from(timeout=10)
        if frame["type"] == kind:
            return frame


async def _closed(ws: WebsocketCommunicator) -> dict[str, Any]:
    while True:
        output = await ws.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return output


notify = database_sync_to_async(tournament_notices.notify)


async def test_a_notice_reaches_every_notice_socket_of_the_player_and_nobody_else(alice, bob):
    t = await database_sync_to_async(make_tournament)(name="Winter cup")
    mine, again = await _socket(await _browser(alice)), await _socket(await _browser(alice))
    theirs = await _socket(await _browser(bob))
    # another socket of Alice's on the same per-user group, which must let the notice pass
    tourney = await _socket(await _browser(alice), f"/ws/tournaments/{t.pk}/")
    await notify(alice.pk, "seated", "You are seated at table 3.", "/tables/9/")
    for ws in (mine, again):
        frame = await _frame(ws, "notice")
        assert frame["text"] == "You are seated at table 3." and frame["url"] == "/tables/9/"
        assert frame["kind"] == "seated" and frame["follow"] is True
    assert await theirs.receive_nothing(timeout=0.3)
    assert await tourney.receive_nothing(timeout=0.3)  # and it is still open:
    await database_sync_to_async(broadcast.tournament_changed)(t.pk)
    assert await tourney.receive_json_from(timeout=5) == {"type": "changed"}
    for ws in (mine, again, theirs, tourney):
        await ws.disconnect()


async def test_an_anonymous_visitor_gets_no_notice_socket():
    ws = await _socket(None)
    assert (await _closed(ws))["code"] == 4403


async def test_a_page_that_opens_gets_back_what_it_missed(alice):
    first = await database_sync_to_async(notices.post)(alice.pk, "moved", "Moved to table 5.")
    second = await database_sync_to_async(notices.post)(alice.pk, "break", "Break for 5 minutes.")
    ws = await _socket(await _browser(alice))
    await ws.send_json_to({"type": "since", "after": first.pk})
    frame = await _frame(ws, "notice")
    assert frame["id"] == second.pk and frame["text"] == "Break for 5 minutes."
    assert await ws.receive_nothing(timeout=0.3)  # the one seen before is not sent again
    await ws.disconnect()


async def test_dismissing_marks_the_players_own_notice_read_only(alice, bob):
    post = database_sync_to_async(notices.post)
    hers, his = await post(alice.pk, "break", "Break."), await post(bob.pk, "break", "Break.")
    ws = await _socket(await _browser(alice))
    for _twice in range(2):  # dismissing again is fine
        await ws.send_json_to({"type": "dismiss", "id": hers.pk})
        assert (await _frame(ws, "dismissed"))["id"] == hers.pk
    # Bob's notice and one that does not exist get the same clear refusal
    for notice_id in (his.pk, his.pk + 1000):
        await ws.send_json_to({"type": "dismiss", "id": notice_id})
        error = await _frame(ws, "error")
        assert error["code"] == "not_found" and error["message"]
    read = await database_sync_to_async(
        lambda: set(Notice.objects.filter(read_at__isnull=False).values_list("pk", flat=True))
    )()
    assert read == {hers.pk}  # Bob's stays unread: nobody touches another player's notices
    await ws.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "dismiss", "id": "7"}, "malformed"),
        ({"type": "dismiss", "id": -1}, "malformed"),
        ({"type": "dismiss", "id": True}, "malformed"),
        ({"type": "since", "after": 2**70}, "malformed"),
        ({"type": "shout"}, "unknown"),
        ([1, 2], "malformed"),
    ],
)
async def test_bad_frames_get_a_clear_error_and_change_nothing(alice, frame, code):
    notice = await database_sync_to_async(notices.post)(alice.pk, "break", "Break.")
    ws = await _socket(await _browser(alice))
    await ws.send_to(text_data=json.dumps(frame))
    assert (await _frame(ws, "error"))["code"] == code
    await ws.send_json_to({"type": "ping"})
    assert await _frame(ws, "pong")  # still open
    unread = await database_sync_to_async(
        lambda: Notice.objects.filter(pk=notice.pk, read_at=None).exists()
    )()
    assert unread
    await ws.disconnect()


async def test_frames_meet_the_table_sockets_size_and_rate_limits(alice):
    ws = await _socket(await _browser(alice))
    await ws.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * MAX_FRAME_BYTES}))
    assert (await _frame(ws, "error"))["code"] == "too_large"
    await ws.send_to(bytes_data=b"\x00")
    assert (await _frame(ws, "error"))["code"] == "malformed"
    codes = []
    for _ in range(int(RATE_BURST) + 5):
        await ws.send_json_to({"type": "ping"})
    for _ in range(int(RATE_BURST) + 5):
        frame = await ws.receive_json_from(timeout=5)
        codes.append(frame.get("code", frame["type"]))
    assert "rate_limited" in codes
    await ws.disconnect()


async def test_logging_out_closes_the_notice_socket_with_4401(alice):
    browser = await _browser(alice)
    ws = await _socket(browser)
    await database_sync_to_async(browser.post)("/accounts/logout/")
    closed = await _closed(ws)
    assert closed["code"] == 4401 and closed.get("reason") == "logged_out"


async def test_a_frame_after_a_lost_logout_is_refused_and_closes_the_socket(alice):
    browser = await _browser(alice)
    ws = await _socket(browser)
    # the logout's close event is lost (the layer delivers at most once): the session row
    # is gone, so the socket's own check refuses the next frame
    await database_sync_to_async(lambda: Session.objects.all().delete())()
    await ws.send_json_to({"type": "dismiss", "id": 1})
    assert (await _frame(ws, "error"))["code"] == "login_ended"
    assert (await _closed(ws))["code"] == 4401
