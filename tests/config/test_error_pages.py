"""Unknown pages, server errors and rejected forms get styled pages, and errors are logged."""

import io
import json
import logging

import pytest
from django.test import Client, override_settings

from config.json_logging import JsonFormatter

pytestmark = pytest.mark.django_db


def test_it_shows_a_styled_404_for_an_unknown_url(client):
    response = client.get("/no/such/table/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "This page is not in the deck" in page
    assert "css/site.css" in page
    assert "Back to the lobby" in page


@override_settings(ROOT_URLCONF="tests.config.error_urls")
def test_it_shows_a_styled_500_and_logs_the_error_with_the_request_id(caplog):
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/explode/", HTTP_X_REQUEST_ID="req-500-test")
    assert response.status_code == 500
    page = response.content.decode()
    assert "We dropped the cards" in page
    assert "css/site.css" in page
    records = [r for r in caplog.records if r.name == "django.request"]
    assert records and records[0].exc_info is not None
    assert "dropped the deck" in str(records[0].exc_info[1])


def test_it_shows_a_styled_page_when_the_csrf_token_is_missing(alice):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/accounts/login/", {"username": "alice", "password": "x"})
    assert response.status_code == 403
    assert "This form could not be checked" in response.content.decode()
    assert "nothing was saved" in response.content.decode()


def test_the_500_log_line_is_json_with_the_request_id():
    """The stdout handler of settings.LOGGING writes one JSON object per line."""
    (handler,) = [
        h for h in logging.getLogger("django").handlers if isinstance(h.formatter, JsonFormatter)
    ]
    buffer = io.StringIO()
    original = handler.setStream(buffer)
    try:
        with override_settings(ROOT_URLCONF="tests.config.error_urls"):
            Client(raise_request_exception=False).get("/explode/", HTTP_X_REQUEST_ID="req-json-1")
    finally:
        handler.setStream(original)
    entries = [json.loads(line) for line in buffer.getvalue().splitlines()]
    errors = [e for e in entries if e["logger"] == "django.request" and e["level"] == "ERROR"]
    assert errors, entries
    assert errors[0]["request_id"] == "req-json-1"
    assert "dropped the deck" in errors[0]["exception"]
