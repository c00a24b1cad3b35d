"""Over a real Daphne: logging out and deleting the account close the open table socket
with 4401, and a move sent just before the deletion is applied once or refused.

One Daphne on the test database and a Redis of the test's own; the browser's part (the
session cookie, the forms with their CSRF token) is played over plain HTTP, and the socket
by tests/resilience/ws_client.py.
"""

from __future__ import annotations

import re
import urllib.parse
import urllib.request
from collections.abc import Iterator
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client

from games.models import Move, Table
from games.services import tables
from tests.conftest import PASSWORD
from tests.games.conftest import redeal
from tests.resilience.stack import Process, stack_env, start_daphne
from tests.resilience.ws_client import WebSocket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne(private_redis) -> Iterator[str]:
    process: Process
    process, base = start_daphne(stack_env(private_redis.url))
    try:
        yield base
    finally:
        process.stop()


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _table_for(user) -> Table:
    with mock.patch("games.tasks.schedule_table_work"):
        table = tables.table_create(
            host=user, name="Sockets", preset="standard", options={}, num_seats=2,
            turn_seconds=300, fill_with_bots=True,
        )  # fmt: skip
        tables.table_start(table_id=table.pk, by=user)
        table.refresh_from_db()
        redeal(table, dealer=1)
    table.refresh_from_db()
    return table


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def _post_form(
    base: str, path: str, session: str, fields: dict[str, str], *, form_page: str | None = None
) -> int:
    """GET the page for its CSRF token, then POST the form as a browser would."""
    opener = urllib.request.build_opener(_NoRedirect)
    page = opener.open(
        urllib.request.Request(
            f"{base}{form_page or path}", headers={"Cookie": f"sessionid={session}"}
        )
    )
    html = page.read().decode()
    csrf_cookie = re.search(r"csrftoken=([^;]+)", page.headers.get("Set-Cookie", "")).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
    request = urllib.request.Request(
        f"{base}{path}",
        data=body,
        headers={"Cookie": f"sessionid={session}; csrftoken={csrf_cookie}"},
    )
    try:
        return opener.open(request).status
    except urllib.error.HTTPError as exc:  # the 302 that _NoRedirect does not follow
        return exc.code


def _table_socket(base: str, table: Table, session: str) -> WebSocket:
    url = base.replace("http://", "ws://") + f"/ws/tables/{table.pk}/?format=json"
    ws = WebSocket(url, cookie=f"sessionid={session}", timeout=30)
    state = ws.until("state")
    assert state["you"] == 0
    return ws


def test_logging_out_closes_the_open_table_socket(daphne, alice):
    session = _session_cookie(alice)
    table = _table_for(alice)
    ws = _table_socket(daphne, table, session)
    try:
        # The log-out button is a form in every page's header.
        assert _post_form(daphne, "/accounts/logout/", session, {}, form_page="/accounts/") == 302
        _, closed = ws.receive_until_closed()
        assert closed.code == 4401  # Daphne does not pass a close reason on
    finally:
        ws.close()


def test_deleting_the_account_closes_the_socket_and_the_move_before_counts_once(daphne, alice):
    session = _session_cookie(alice)
    table = _table_for(alice)
    ws = _table_socket(daphne, table, session)
    try:
        ws.send_json({"id": "m1", "version": table.version, "action": {"type": "draw_stock"}})
        status = _post_form(daphne, "/accounts/delete/", session, {"password": PASSWORD})
        assert status == 302
        frames, closed = ws.receive_until_closed()
        assert closed.code == 4401
        acked = [f for f in frames if f.get("type") == "ack" and f.get("id") == "m1"]
        refused = [f for f in frames if f.get("type") == "error" and f.get("id") == "m1"]
        assert len(acked) + len(refused) == 1
        if refused:
            assert refused[0]["code"] == "login_ended"
        moves = Move.objects.filter(hand__game__table=table, seat=0).count()
        assert moves == len(acked)
    finally:
        ws.close()
