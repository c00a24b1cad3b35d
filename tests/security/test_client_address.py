"""Which client address login throttling counts (config/client_address.py): the entry a
trusted proxy appended to X-Forwarded-For, counted from the right with django-ipware; never
an entry the client wrote, and no header at all from a peer that is not a trusted proxy."""

from __future__ import annotations

import ipaddress
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from hypothesis import given
from hypothesis import strategies as st

from config.client_address import ForwardedForFromTrustedProxiesOnly, client_address
from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[2]


def behind(settings, proxies: int) -> None:
    """What config/settings.py derives from PROXY_COUNT (it is read once per process)."""
    settings.PROXY_COUNT = proxies
    settings.AXES_IPWARE_PROXY_COUNT = proxies - 1 if proxies else None
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = (
        ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if proxies else ["REMOTE_ADDR"]
    )
    settings.TRUSTED_PROXY_NETWORKS = [
        ipaddress.ip_network("127.0.0.1"),
        ipaddress.ip_network("::1"),
    ]


def resolved(peer: str, forwarded_for: str | None = None) -> str:
    extra = {"REMOTE_ADDR": peer}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    request = RequestFactory().get("/", **extra)
    ForwardedForFromTrustedProxiesOnly(lambda r: HttpResponse())(request)
    return client_address(request)


@pytest.mark.parametrize(
    ("peer", "forwarded_for", "client"),
    [
        ("127.0.0.1", "198.51.100.7", "198.51.100.7"),
        ("127.0.0.1", "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # client wrote 6.6.6.6
        ("127.0.0.1", "6.6.6.6,7.7.7.7 , 198.51.100.7", "198.51.100.7"),
        ("127.0.0.1", "not-an-address, 198.51.100.7", "198.51.100.7"),
        ("127.0.0.1", None, "127.0.0.1"),
        ("::1", "6.6.6.6, 2001:db8::7", "2001:db8::7"),
        ("::ffff:127.0.0.1", "6.6.6.6, 198.51.100.7", "198.51.100.7"),
        ("203.0.113.9", "6.6.6.6, 198.51.100.7", "203.0.113.9"),  # not a trusted proxy
        ("127.0.0.2", "198.51.100.7", "127.0.0.2"),
    ],
)
def test_behind_one_proxy_the_client_is_the_entry_it_appended(
    settings, peer, forwarded_for, client
):
    behind(settings, 1)
    assert resolved(peer, forwarded_for) == client


def test_behind_two_proxies_the_client_is_the_second_entry_from_the_right(settings):
    behind(settings, 2)
    assert resolved("127.0.0.1", "6.6.6.6, 198.51.100.7, 192.0.2.1") == "198.51.100.7"


def test_without_a_proxy_the_header_is_ignored_even_from_loopback(settings):
    behind(settings, 0)
    assert resolved("127.0.0.1", "198.51.100.7") == "127.0.0.1"


@pytest.mark.django_db
def test_rotating_leftmost_entries_behind_a_proxy_still_lock_at_the_fifth_failure(settings, alice):
    behind(settings, 1)
    client = Client()
    statuses = []
    for n in range(6):
        statuses.append(
            client.post(
                "/accounts/login/",
                {"username": "alice", "password": "wrong-password"},
                REMOTE_ADDR="127.0.0.1",
                HTTP_X_FORWARDED_FOR=f"10.9.{n}.1, 198.51.100.7",
            ).status_code
        )
    assert statuses == [200, 200, 200, 200, 429, 429]
    right = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="10.200.0.1, 198.51.100.7",
    )
    assert right.status_code == 429


@given(forged=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=80))
def test_nothing_a_client_writes_on_the_left_changes_its_address(forged):
    with override_settings(
        PROXY_COUNT=1,
        AXES_IPWARE_PROXY_COUNT=0,
        AXES_IPWARE_META_PRECEDENCE_ORDER=["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"],
    ):
        assert resolved("127.0.0.1", f"{forged}, 198.51.100.7") == "198.51.100.7"


@pytest.mark.parametrize(
    ("proxies", "peer", "secure"),
    [(1, "127.0.0.1", True), (1, "203.0.113.9", False), (0, "127.0.0.1", False)],
)
def test_only_a_trusted_proxy_can_say_the_request_came_over_https(settings, proxies, peer, secure):
    """Production believes X-Forwarded-Proto (SECURE_PROXY_SSL_HEADER); a client that reaches
    the server directly must not be able to skip the HTTPS redirect or pass the secure-only
    CSRF checks by writing the header itself."""
    behind(settings, proxies)
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    request = RequestFactory().get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_PROTO="https")
    ForwardedForFromTrustedProxiesOnly(lambda r: HttpResponse())(request)
    assert request.is_secure() is secure


@pytest.mark.django_db
def test_a_direct_client_claiming_https_is_still_redirected_to_it(settings):
    behind(settings, 1)
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    direct = Client(REMOTE_ADDR="203.0.113.9").get("/rules/", HTTP_X_FORWARDED_PROTO="https")
    proxied = Client(REMOTE_ADDR="127.0.0.1").get("/rules/", HTTP_X_FORWARDED_PROTO="https")
    assert direct.status_code == 301 and direct["Location"].startswith("https://")
    assert proxied.status_code == 200


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [("TRUSTED_PROXIES", "10.0.0.0/33", "TRUSTED_PROXIES"), ("PROXY_COUNT", "-1", "PROXY_COUNT")],
)
def test_a_wrong_proxy_setting_stops_the_start(tmp_path, variable, value, message):
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={**os.environ, "RUMMY_VAR_DIR": str(tmp_path), variable: value},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr
