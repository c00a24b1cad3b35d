"""Browser-test fixtures, reused by every later e2e test.

- `asgi_server`: a real Daphne subprocess (HTTP + WebSocket, the production server)
  against the test database, started once per session.
- `live_server_url`: that server's address for one test, with committed test data
  (`transactional_db`), so what the test creates is what the server sees.
- `page`: a Playwright page in Debian's Chromium (CHROMIUM_PATH, default
  /usr/bin/chromium). A failing test leaves a screenshot in test-artifacts/.

Without Chromium the tests skip with the reason; with CI=true they fail instead.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-gpu"]
STARTUP_TIMEOUT_S = 60


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.e2e)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
    if not (Path(path).is_file() and os.access(path, os.X_OK)):
        skip_or_fail(
            f"Chromium not found at {path} (set CHROMIUM_PATH or apt-get install chromium)"
        )
    return path


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop on the main thread while it lives, which
    # makes Django refuse the test's own (synchronous) database calls. They are safe here:
    # nothing else runs on that loop. Allowed only while the browser is open.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS
            )
            yield browser
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _server_env(tmp_dir: Path) -> dict[str, str]:
    """The environment of a server process that uses this session's test database."""
    env = {**os.environ, "FAST_PASSWORD_HASHING": "1", "RUMMY_VAR_DIR": str(tmp_dir)}
    env.pop("RUMMY_TESTING", None)
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        env["SQLITE_PATH"] = str(settings["NAME"])
    else:
        parts = urlsplit(os.environ["DATABASE_URL"])
        env["DATABASE_URL"] = urlunsplit(parts._replace(path="/" + settings["NAME"]))
    return env


def _wait_until_healthy(
    url: str, server: subprocess.Popen[bytes], log_path: Path | None = None
) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            if log_path is not None:
                output = log_path.read_text(errors="replace")
            else:
                output = server.stdout.read().decode(errors="replace") if server.stdout else ""
            raise RuntimeError(f"Daphne exited with {server.returncode}:\n{output[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"Daphne did not become healthy at {url} in {STARTUP_TIMEOUT_S}s")


@pytest.fixture(scope="session")
def asgi_server(
    django_db_setup: None, django_db_blocker, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """Run Daphne, as production does, on the test database; yield its base URL."""
    with django_db_blocker.unblock():
        env = _server_env(tmp_path_factory.mktemp("asgi-server"))
    port = _free_port()
    # Its log goes to a file, never to a pipe nobody reads: once the pipe's buffer (64 KiB)
    # is full, Daphne blocks on its next log line and every later page times out.
    log_path = tmp_path_factory.mktemp("asgi-log") / "daphne.log"
    log = log_path.open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port),
         "config.asgi:application"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_healthy(url, server, log_path)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture
def live_server_url(asgi_server: str, transactional_db: None) -> str:
    return asgi_server


@pytest.fixture
def page(browser, request: pytest.FixtureRequest) -> Iterator[object]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    yield page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    context.close()
