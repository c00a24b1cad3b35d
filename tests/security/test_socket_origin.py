"""The socket handshake accepts exactly the Origins Django's CSRF check accepts for a form:
the request's own scheme, host and port, or one of CSRF_TRUSTED_ORIGINS (issue 18, item 9:
Channels' AllowedHostsOriginValidator let `http://127.0.0.1:9999` in, ignoring scheme and
port)."""

from __future__ import annotations

import ipaddress

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from config.socket_origin import origin_accepted

SITE = "rummy.example.org"
TRUSTED = "https://play.example.org"
# (Host header, TLS at the socket, X-Forwarded-Proto, Origin, accepted?)
CASES = [
    ("127.0.0.1:8000", False, None, "http://127.0.0.1:8000", True),
    ("127.0.0.1:8000", False, None, "http://127.0.0.1:9999", False),
    ("127.0.0.1:8000", False, None, "http://127.0.0.1", False),
    ("127.0.0.1:8000", False, None, "https://127.0.0.1:8000", False),
    ("127.0.0.1:8000", False, None, "http://localhost:8000", False),
    (SITE, True, None, f"https://{SITE}", True),
    (SITE, True, None, f"http://{SITE}", False),
    (SITE, True, None, f"https://{SITE}:8443", False),
    (SITE, False, "https", f"https://{SITE}", True),  # TLS ended at the proxy
    (SITE, False, "https", f"http://{SITE}", False),
    (SITE, False, None, f"https://{SITE}", False),  # no proxy says it was https
    (SITE, True, None, TRUSTED, True),
    (SITE, True, None, "https://evil.play.example.org", False),
    (SITE, True, None, "http://play.example.org", False),
    (SITE, True, None, "null", False),
    ("evil.example", False, None, "http://evil.example", False),  # Host not allowed
    ("evil.example", True, None, TRUSTED, False),
]
IDS = [
    f"{origin} to {'wss' if tls else 'ws'}://{host}{' via proxy' if p else ''}"
    for host, tls, p, origin, _ in CASES
]


@pytest.fixture
def site_settings(settings):
    settings.ALLOWED_HOSTS = [SITE, "127.0.0.1"]
    settings.CSRF_TRUSTED_ORIGINS = [TRUSTED]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Behind one proxy on this machine: X-Forwarded-Proto counts from 127.0.0.1 only.
    settings.PROXY_COUNT = 1
    settings.TRUSTED_PROXY_NETWORKS = [ipaddress.ip_network("127.0.0.1")]
    return settings


def handshake(
    host: str, tls: bool, proto: str | None, origin: str | None, peer: str = "127.0.0.1"
) -> dict:
    headers = [(b"host", host.encode())]
    if proto:
        headers.append((b"x-forwarded-proto", proto.encode()))
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    scheme = "wss" if tls else "ws"
    return {
        "type": "websocket",
        "path": "/ws/lobby/",
        "scheme": scheme,
        "headers": headers,
        "client": (peer, 50123),
    }


@pytest.mark.parametrize(("host", "tls", "proto", "origin", "accepted"), CASES, ids=IDS)
def test_the_socket_accepts_an_origin_only_when_it_is_the_sites_own(
    site_settings, host, tls, proto, origin, accepted
):
    assert origin_accepted(handshake(host, tls, proto, origin)) is accepted


@pytest.mark.django_db
@pytest.mark.parametrize(("host", "tls", "proto", "origin", "accepted"), CASES, ids=IDS)
def test_a_form_posted_with_that_origin_gets_the_same_answer_from_django(
    site_settings, host, tls, proto, origin, accepted
):
    """The reference: Django's whole CSRF check on a real form, with a valid token."""
    extra = {"HTTP_HOST": host, "secure": tls}
    if proto:
        extra["HTTP_X_FORWARDED_PROTO"] = proto
    client = Client(enforce_csrf_checks=True)
    page = client.get("/accounts/login/", **extra)
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else "x" * 32
    response = client.post(
        "/accounts/login/",
        {"username": "nobody", "password": "x", "csrfmiddlewaretoken": token},
        HTTP_ORIGIN=origin,
        **extra,
    )
    form_accepted = page.status_code == 200 and response.status_code == 200
    assert form_accepted is accepted, response.status_code


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("origin", "accepted"), [(f"https://{SITE}", False), (f"http://{SITE}", True)]
)
def test_x_forwarded_proto_from_a_peer_that_is_not_a_proxy_is_not_believed(
    site_settings, origin, accepted
):
    """A client reaching the server directly cannot call its plain request HTTPS: for the
    socket as for a form, the header counts only from a trusted proxy."""
    peer = "203.0.113.9"
    assert origin_accepted(handshake(SITE, False, "https", origin, peer)) is accepted
    client = Client(enforce_csrf_checks=True, REMOTE_ADDR=peer)
    extra = {"HTTP_HOST": SITE, "HTTP_X_FORWARDED_PROTO": "https"}
    page = client.get("/accounts/login/", **extra)
    token = client.cookies["csrftoken"].value
    response = client.post(
        "/accounts/login/",
        {"username": "nobody", "password": "x", "csrfmiddlewaretoken": token},
        HTTP_ORIGIN=origin,
        **extra,
    )
    assert (page.status_code, response.status_code == 200) == (200, accepted)


def test_a_handshake_without_an_origin_is_refused(site_settings):
    assert not origin_accepted(handshake("127.0.0.1:8000", False, None, None))


@pytest.mark.django_db(transaction=True)
async def test_the_application_refuses_another_port_and_accepts_its_own(site_settings):
    def lobby(origin: str) -> WebsocketCommunicator:
        headers = [(b"host", b"127.0.0.1:8000"), (b"origin", origin.encode())]
        return WebsocketCommunicator(application, "/ws/lobby/", headers=headers)

    other_port = lobby("http://127.0.0.1:9999")
    connected, _ = await other_port.connect()
    assert not connected
    own = lobby("http://127.0.0.1:8000")
    connected, _ = await own.connect()
    assert connected
    await own.disconnect()
