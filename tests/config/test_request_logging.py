"""Every response carries a request id, and log lines written meanwhile carry the same id."""

import json
import logging

import pytest

from config.json_logging import JsonFormatter
from config.request_id import RequestIdFilter, choose_request_id, current_request_id

pytestmark = pytest.mark.django_db


def test_it_makes_a_request_id_when_none_is_given(client):
    response = client.get("/")
    assert len(response["X-Request-ID"]) == 32


def test_it_keeps_a_well_formed_request_id_from_the_proxy(client):
    response = client.get("/", HTTP_X_REQUEST_ID="edge-42.a_b")
    assert response["X-Request-ID"] == "edge-42.a_b"


@pytest.mark.parametrize("incoming", ["", "has spaces", "<script>", "x" * 65, "line\nbreak"])
def test_it_replaces_a_malformed_request_id(incoming):
    chosen = choose_request_id(incoming)
    assert chosen != incoming and len(chosen) == 32


def make_record(message, **extra):
    record = logging.LogRecord("rummy.test", logging.INFO, __file__, 1, message, (), None)
    for key, value in extra.items():
        setattr(record, key, value)
    return record


def test_it_formats_a_record_as_one_json_object_with_extras():
    record = make_record("seat %s joined", table=7)
    record.args = (3,)
    RequestIdFilter().filter(record)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "seat 3 joined"
    assert entry["level"] == "INFO"
    assert entry["logger"] == "rummy.test"
    assert entry["table"] == 7
    assert entry["request_id"] == "-"
    assert entry["time"].endswith("+00:00")


def test_it_stamps_records_with_the_current_request_id():
    token = current_request_id.set("req-abc")
    try:
        record = make_record("inside a request")
        RequestIdFilter().filter(record)
    finally:
        current_request_id.reset(token)
    assert json.loads(JsonFormatter().format(record))["request_id"] == "req-abc"


def test_it_writes_exceptions_into_the_json_line():
    try:
        raise ValueError("bad meld")
    except ValueError:
        record = logging.LogRecord(
            "rummy.test",
            logging.ERROR,
            __file__,
            1,
            "failed",
            (),
            exc_info=__import__("sys").exc_info(),
        )
    entry = json.loads(JsonFormatter().format(record))
    assert "ValueError: bad meld" in entry["exception"]


def test_it_writes_one_access_log_line_per_request_with_the_request_id(client, caplog):
    with caplog.at_level(logging.INFO, logger="rummy.access"):
        client.get("/rules/", HTTP_X_REQUEST_ID="req-access-1")
    (record,) = [r for r in caplog.records if r.name == "rummy.access"]
    assert (record.method, record.path, record.status) == ("GET", "/rules/", 200)
    assert record.request_id == "req-access-1"
    assert record.duration_ms >= 0


def test_it_keeps_health_checks_out_of_the_info_access_log(client, caplog):
    with caplog.at_level(logging.INFO, logger="rummy.access"):
        client.get("/healthz")
    assert not [r for r in caplog.records if r.name == "rummy.access"]


def test_a_supervised_process_names_itself_in_every_line(monkeypatch):
    """bin/run's processes all write to one terminal: each line says which one wrote it
    (supervisord sets SUPERVISOR_PROCESS_NAME); without a supervisor there is no such key."""
    monkeypatch.setenv("SUPERVISOR_PROCESS_NAME", "worker")
    assert json.loads(JsonFormatter().format(make_record("hello")))["process"] == "worker"
    monkeypatch.delenv("SUPERVISOR_PROCESS_NAME")
    assert "process" not in json.loads(JsonFormatter().format(make_record("hello")))


def test_the_site_logging_of_a_process_started_by_supervisord_names_it():
    """The process as bin/run starts it: Django's LOGGING setting, a line on stdout."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('games').warning('from a supervised process')"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SUPERVISOR_PROCESS_NAME": "beat",
    }
    env.pop("PYTEST_CURRENT_TEST", None)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    line = next(entry for entry in lines if entry["message"] == "from a supervised process")
    assert line["process"] == "beat"
