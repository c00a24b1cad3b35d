"""The browser fixtures of tests/e2e (a real Daphne process and Chromium), for the one
security test that needs a browser: the Content-Security-Policy as Chromium enforces it."""

from tests.e2e.conftest import (  # noqa: F401 (fixtures)
    asgi_server,
    browser,
    chromium_path,
    live_server_url,
    page,
)
