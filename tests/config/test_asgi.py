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


def _counting_thread_calls(monkeypatch) -> list[str]:
    """Record each crossing from the event loop to a worker thread."""
    from asgiref.sync import SyncToAsync

    crossings: list[str] = []
    original = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        crossings.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    return crossings


@pytest.mark.django_db(transaction=True)
async def test_a_page_crosses_to_a_worker_thread_once_for_all_middleware_and_the_view(
    monkeypatch,
):
    crossings = _counting_thread_calls(monkeypatch)
    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"localhost")])
    response = await communicator.get_response()
    await communicator.wait()
    assert response["status"] == 200
    # Django's own handler made 15 here: two per middleware, one for the view.
    assert crossings == [
        "Signal.asend.<locals>.sync_send",  # request_started
        "BaseHandler.get_response",  # every middleware and the view
        "HttpResponseBase.close",  # request_finished
    ]


@pytest.mark.django_db(transaction=True)
async def test_pages_served_over_asgi_still_pass_through_every_middleware():
    communicator = HttpCommunicator(application, "GET", "/", headers=[(b"host", b"localhost")])
    response = await communicator.get_response()
    headers = {name.decode().lower(): value.decode() for name, value in response["headers"]}
    assert headers["x-frame-options"] == "DENY"
    assert "default-src 'self'" in headers["content-security-policy"]
    assert len(headers["x-request-id"]) == 32
    assert "csrftoken" in headers.get("set-cookie", "")


@pytest.mark.django_db(transaction=True)
async def test_a_form_posted_over_asgi_without_a_csrf_token_is_refused():
    communicator = HttpCommunicator(
        application,
        "POST",
        "/accounts/login/",
        body=b"username=a&password=b",
        headers=[
            (b"host", b"localhost"),
            (b"content-type", b"application/x-www-form-urlencoded"),
        ],
    )
    response = await communicator.get_response()
    assert response["status"] == 403
