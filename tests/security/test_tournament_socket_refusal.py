"""The tournament socket of a tournament that does not exist, or is still a draft, closes
with 4404 as the table socket does. It closed before accepting, which Daphne turns into a
bare HTTP 403 for the handshake: the browser never saw the code (and a draft's socket and a
missing one could not be told from an Origin refusal)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from tests.tournaments.conftest import make_tournament
from tournaments.models import Tournament
from tournaments.routing import websocket_urlpatterns

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
app = URLRouter(websocket_urlpatterns)


async def refusal(path: str, user) -> int:
    ws = WebsocketCommunicator(app, path)
    ws.scope["user"] = user
    connected, _ = await ws.connect()
    assert connected, "the handshake is accepted, so the close code reaches the client"
    closed = await ws.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    return closed["code"]


@pytest.mark.parametrize("user", ["visitor", "player"])
async def test_a_missing_or_draft_tournament_socket_closes_with_4404(user, alice):
    who = AnonymousUser() if user == "visitor" else alice
    draft = await database_sync_to_async(make_tournament)(status=Tournament.Status.DRAFT)
    assert await refusal("/ws/tournaments/999999/", who) == 4404
    assert await refusal(f"/ws/tournaments/{draft.pk}/", who) == 4404
    assert await refusal(f"/ws/tournaments/{10**30}/", who) == 4404
