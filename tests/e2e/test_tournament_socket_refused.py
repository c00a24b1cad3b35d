"""A tournament page whose socket the server refuses (4401 logged out, 4403 no access, 4404
no such event) stops asking: each attempt would be refused again, every 30 s at most for as
long as the page stays open. Other closes still reconnect."""

from __future__ import annotations

import re

import pytest

from tests.e2e.test_table_play import on_server_side
from tests.tournaments.conftest import make_tournament


def _cup() -> int:
    return make_tournament(name="Refused cup").pk


@pytest.mark.parametrize(("code", "again"), [(4404, False), (1011, True)])
def test_a_refused_tournament_socket_is_not_asked_again(page, live_server_url, code, again):
    tournament_id = on_server_side(_cup)
    opened: list[str] = []

    def refuse(ws) -> None:  # type: ignore[no-untyped-def]
        opened.append(ws.url)
        ws.close(code=code, reason="refused")

    page.route_web_socket(re.compile(r"/ws/tournaments/\d+/$"), refuse)
    page.goto(f"{live_server_url}/tournaments/{tournament_id}/")
    page.wait_for_timeout(2_500)  # the first retry comes after 1 s, the next after 2 more
    assert len(opened) >= 2 if again else len(opened) == 1
