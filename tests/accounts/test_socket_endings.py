"""Open sockets end with the login they were opened with (accounts/sockets.py).

Logging out closes that session's sockets, a password change the other sessions' sockets,
deleting or suspending an account all of its sockets: each with close code 4401 and a reason.
And when the close event is lost (the channel layer delivers at most once), the socket's own
check refuses the next move or chat line and closes it then.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts import sockets
from accounts.models import User
from games.models import ChatMessage, Move, Table
from games.routing import websocket_urlpatterns
from tests.conftest import PASSWORD
from tests.games.conftest import redeal, start_table

pytestmark = pytest.mark.django_db(transaction=True)

# As config/asgi.py builds it (without the Origin check): the session cookie picks the user.
app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


def _browser(user: User) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


@database_sync_to_async
def _table_for(user: User) -> Table:
    """A started two-seat table (the user and a bot) where the user (seat 0) acts first."""
    table = start_table(user, seats=2)
    redeal(table, dealer=1)
    table.refresh_from_db()
    return table


async def _socket(browser: Client, path: str) -> WebsocketCommunicator:
    cookie = f"sessionid={browser.cookies['sessionid'].value}"
    ws = WebsocketCommunicator(app, path, headers=[(b"cookie", cookie.encode())])
    connected, _ = await ws.connect()
    assert connected
    return ws


async def _table_socket(browser: Client, table: Table) -> WebsocketCommunicator:
    ws = await _socket(browser, f"/ws/tables/{table.pk}/?format=json")
    state = await _frame(ws, "state")
    assert state["you"] == 0  # logged in through the session, seated
    return ws


async def _frame(ws: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    while True:
        frame = await ws.receive_json_from(timeout=15)
        if frame["type"] == kind:
            return frame


async def _closed(ws: WebsocketCommunicator) -> dict[str, Any]:
    """The close message the server sent, skipping the frames before it."""
    while True:
        output = await ws.receive_output(timeout=15)
        if output["type"] == "websocket.close":
            return output


async def _version(table: Table) -> int:
    await database_sync_to_async(table.refresh_from_db)()
    return table.version


@database_sync_to_async
def _moves(table: Table) -> int:
    return Move.objects.filter(hand__game__table=table).count()


async def _draw(ws: WebsocketCommunicator, table: Table, frame_id: str = "m1") -> None:
    version = await _version(table)
    await ws.send_json_to({"id": frame_id, "version": version, "action": {"type": "draw_stock"}})


@pytest.fixture
def lost_close_events(monkeypatch):
    """The close events never reach the sockets (as when Redis restarts at that moment)."""
    monkeypatch.setattr(sockets, "_send", lambda group, event: None)


# --- the close events ----------------------------------------------------------------------


async def test_deleting_the_account_closes_its_sockets(alice):
    browser = await database_sync_to_async(_browser)(alice)
    table = await _table_for(alice)
    ws = await _table_socket(browser, table)
    lobby = await _socket(browser, "/ws/lobby/")
    await database_sync_to_async(browser.post)("/accounts/delete/", {"password": PASSWORD})
    closed = await _closed(ws)
    assert (closed["code"], closed["reason"]) == (4401, "account_deleted")
    closed = await _closed(lobby)
    assert (closed["code"], closed["reason"]) == (4401, "account_deleted")


async def test_suspending_the_account_closes_all_its_sockets(alice):
    first, second = await database_sync_to_async(lambda: (_browser(alice), _browser(alice)))()
    table = await _table_for(alice)
    one = await _table_socket(first, table)
    other = await _table_socket(second, table)

    def suspend() -> None:  # as the admin's change form saves it
        user = User.objects.get(pk=alice.pk)
        user.is_active = False
        user.save()

    await database_sync_to_async(suspend)()
    for ws in (one, other):
        closed = await _closed(ws)
        assert (closed["code"], closed["reason"]) == (4401, "account_suspended")


async def test_logging_out_closes_that_sessions_sockets_only(alice):
    leaving, staying = await database_sync_to_async(lambda: (_browser(alice), _browser(alice)))()
    table = await _table_for(alice)
    gone = await _table_socket(leaving, table)
    kept = await _table_socket(staying, table)
    await database_sync_to_async(leaving.post)("/accounts/logout/")
    closed = await _closed(gone)
    assert (closed["code"], closed["reason"]) == (4401, "logged_out")
    # The other session's socket is still logged in and plays on.
    await _draw(kept, table)
    ack = await _frame(kept, "ack")
    assert ack["id"] == "m1"
    assert await _moves(table) == 1


async def test_a_password_change_closes_the_other_sessions_sockets(alice):
    changing, other = await database_sync_to_async(lambda: (_browser(alice), _browser(alice)))()
    table = await _table_for(alice)
    own = await _table_socket(changing, table)
    elsewhere = await _table_socket(other, table)
    response = await database_sync_to_async(changing.post)(
        "/accounts/password/change/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-long-passphrase-7",
            "new_password2": "a-new-long-passphrase-7",
        },
    )
    assert response.status_code == 302
    closed = await _closed(elsewhere)
    assert (closed["code"], closed["reason"]) == (4401, "password_changed")
    # The session that made the change stays logged in, and so does its socket.
    await _draw(own, table)
    ack = await _frame(own, "ack")
    assert ack["id"] == "m1"
    assert await _moves(table) == 1


async def test_a_password_reset_closes_every_socket_of_the_account(alice):
    browser = await database_sync_to_async(_browser)(alice)
    table = await _table_for(alice)
    ws = await _table_socket(browser, table)

    def reset() -> None:  # a reset link, the admin or changepassword: no session is kept
        user = User.objects.get(pk=alice.pk)
        user.set_password("a-new-long-passphrase-7")
        user.save()

    await database_sync_to_async(reset)()
    closed = await _closed(ws)
    assert (closed["code"], closed["reason"]) == (4401, "password_changed")


async def test_the_chat_report_suspension_closes_the_authors_sockets(alice, bob):
    from django.contrib.admin.sites import site

    from games.admin import ChatReportAdmin
    from games.models import ChatReport

    browser = await database_sync_to_async(_browser)(alice)
    table = await _table_for(alice)
    ws = await _table_socket(browser, table)

    def suspend_by_report() -> None:
        from django.contrib.messages.storage.fallback import FallbackStorage
        from django.test import RequestFactory

        message = ChatMessage.objects.create(table=table, user=alice, text="rude")
        report = ChatReport.objects.create(message=message, reporter=bob)
        bob.is_staff = bob.is_superuser = True
        bob.save()
        request = RequestFactory().post("/admin/")
        request.user = bob
        request.session = {}
        request._messages = FallbackStorage(request)
        admin = ChatReportAdmin(ChatReport, site)
        admin.suspend_authors(request, ChatReport.objects.filter(pk=report.pk))

    await database_sync_to_async(suspend_by_report)()
    closed = await _closed(ws)
    assert (closed["code"], closed["reason"]) == (4401, "account_suspended")


async def test_removing_the_account_row_closes_its_sockets(alice):
    browser = await database_sync_to_async(_browser)(alice)
    lobby = await _socket(browser, "/ws/lobby/")
    await database_sync_to_async(User.objects.filter(pk=alice.pk).delete)()
    closed = await _closed(lobby)
    assert (closed["code"], closed["reason"]) == (4401, "account_deleted")


# --- a move sent just before: applied once or refused ---------------------------------------


async def test_a_move_sent_just_before_deletion_is_applied_once_or_refused(alice):
    browser = await database_sync_to_async(_browser)(alice)
    table = await _table_for(alice)
    ws = await _table_socket(browser, table)
    await _draw(ws, table)
    await database_sync_to_async(browser.post)("/accounts/delete/", {"password": PASSWORD})
    replies = []
    while True:
        output = await ws.receive_output(timeout=15)
        if output["type"] == "websocket.close":
            break
        replies.append(output["text"])
    assert output["code"] == 4401
    # A socket handles its messages one at a time: the move (queued first) is answered
    # before the close event is read, either applied (deletion not yet committed) or refused.
    acked = any('"ack"' in text for text in replies)
    refused = any('"login_ended"' in text for text in replies)
    assert acked != refused
    assert await _moves(table) == (1 if acked else 0)


# --- the socket's own check, when the close event is lost ----------------------------------


async def _refused_and_closed(ws: WebsocketCommunicator, reason: str) -> None:
    error = await _frame(ws, "error")
    assert (error["code"], error["id"]) == ("login_ended", "m1")
    closed = await _closed(ws)
    assert (closed["code"], closed["reason"]) == (4401, reason)


@pytest.mark.usefixtures("lost_close_events")
async def test_a_deleted_accounts_move_is_refused_even_without_the_event(alice):
    browser = await database_sync_to_async(_browser)(alice)
    table = await _table_for(alice)
    ws = await _table_socket(browser, table)
    await database_sync_to_async(browser.post)("/accounts/delete/", {"password": PASSWORD})
    await _draw(ws, table)
    await _refused_and_closed(ws, "account_deleted")
    assert await _moves(table) == 0


@pytest.mark.usefixtures("lost_close_events")
async def test_a_suspended_accounts_chat_is_refused_even_without_the_event(alice):
    browser = await database_sync_to_async(_browser)(alice)
    table = await _table_for(alice)
    ws = await _table_socket(browser, table)
    await database_sync_to_async(User.objects.filter(pk=alice.pk).update)(is_active=False)
    await ws.send_json_to({"type": "chat", "id": "m1", "text": "still here"})
    await _refused_and_closed(ws, "account_suspended")
    assert not await database_sync_to_async(ChatMessage.objects.filter(table=table).exists)()


@pytest.mark.usefixtures("lost_close_events")
async def test_a_logged_out_sessions_move_is_refused_even_without_the_event(alice):
    browser = await database_sync_to_async(_browser)(alice)
    table = await _table_for(alice)
    ws = await _table_socket(browser, table)
    await database_sync_to_async(browser.post)("/accounts/logout/")
    await _draw(ws, table)
    await _refused_and_closed(ws, "logged_out")
    assert await _moves(table) == 0


@pytest.mark.usefixtures("lost_close_events")
async def test_another_sessions_move_after_a_password_change_is_refused(alice):
    changing, other = await database_sync_to_async(lambda: (_browser(alice), _browser(alice)))()
    table = await _table_for(alice)
    ws = await _table_socket(other, table)
    await database_sync_to_async(changing.post)(
        "/accounts/password/change/",
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-long-passphrase-7",
            "new_password2": "a-new-long-passphrase-7",
        },
    )
    await _draw(ws, table)
    await _refused_and_closed(ws, "password_changed")
    assert await _moves(table) == 0


async def test_anonymous_spectators_join_no_account_group(alice):
    table = await _table_for(alice)
    ws = WebsocketCommunicator(app, f"/ws/tables/{table.pk}/?format=json")
    connected, _ = await ws.connect()
    assert connected
    state = await _frame(ws, "state")
    assert state["you"] is None
    await ws.disconnect()


def test_the_session_key_never_appears_in_a_group_name():
    key = "abcdefghijklmnopqrstuvwxyz012345"
    assert key not in sockets.session_group(key)
    assert sockets.session_group(key) == sockets.session_group(key)
    assert sockets.user_group(7) == "user-7"
