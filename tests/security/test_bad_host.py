"""A request with a Host the site does not serve gets the styled 400 page, with the same
security headers every other page has (issue 18, item 12: it had neither the CSP nor
X-Frame-Options, because the middleware that adds them had refused the request)."""

from __future__ import annotations

import logging

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
EVIL = "evil.example"


def _assert_security_headers(response, *, hsts: bool = False) -> None:
    policy = response["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["connect-src"] == "'self'"  # the bad host is never named in it
    assert EVIL not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    if hsts:
        assert response["Strict-Transport-Security"].startswith("max-age=31536000")


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/no/such/page/"])
def test_a_bad_host_gets_the_400_page_with_every_security_header(path):
    response = Client().get(path, HTTP_HOST=EVIL)
    assert response.status_code == 400
    assert "We could not read that request" in response.content.decode()
    _assert_security_headers(response)


def test_a_bad_host_is_refused_with_the_headers_before_the_https_redirect_too(settings):
    """Production: SecurityMiddleware's redirect asks for the host first and refuses it."""
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    plain = Client().get("/", HTTP_HOST=EVIL)
    assert plain.status_code == 400
    _assert_security_headers(plain)
    secure = Client().get("/", HTTP_HOST=EVIL, secure=True)
    assert secure.status_code == 400
    _assert_security_headers(secure, hsts=True)


def test_a_bad_host_is_logged_once(caplog):
    with caplog.at_level(logging.ERROR, logger="django.security.DisallowedHost"):
        Client().get("/", HTTP_HOST=EVIL)
    assert len([r for r in caplog.records if r.name == "django.security.DisallowedHost"]) == 1
