"""The ASGI application: HTTP through Django, WebSockets behind an origin check."""

import pytest
from channels.testing import HttpCommunicator, WebsocketCommunicator

from config.asgi import application


@pytest.mark.django_db(transaction=True)
async def test_it_serves_http_through_django():
    communicator = HttpCommunicator(
        application, "GET", "/healthz", headers=[(b"host", b"localhost")]
    )
    response = await communicator.get_response()
    assert response["status"] == 200


async def test_it_refuses_a_websocket_from_a_foreign_origin():
    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected


def test_daphne_comes_first_so_runserver_serves_asgi(settings):
    assert settings.INSTALLED_APPS[0] == "daphne"
    assert settings.ASGI_APPLICATION == "config.asgi.application"
