"""Chromium enforces our Content-Security-Policy and the site still works: the lobby and a
live table load, the table's socket connects and shows the hand, and the browser reports no
refused script, style or connection."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.e2e.test_table_play import on_server_side
from tests.games.conftest import start_table

pytestmark = pytest.mark.e2e


def test_the_policy_refuses_nothing_the_site_needs(live_server_url, page, alice):
    table = on_server_side(lambda: start_table(alice, seats=2))
    client = Client()
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server_url}]
    )
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    response = page.goto(live_server_url + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.goto(f"{live_server_url}/tables/{table.pk}/")
    page.locator("#connection", has_text="live").wait_for()
    assert page.locator("#table-root [data-card]").count() >= 7
    page.reload()
    page.locator("#connection", has_text="live").wait_for()
    assert refused == []
    # the listener does hear refusals: an inline script planted now is refused and reported
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.planted = 1'; document.body.append(s); }"
    )
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.planted") is None
    assert refused and "inline script" in refused[0]
