"""Fresh snapshot caches (as in tests/games), and the browser fixtures of tests/e2e (a real
Daphne process and Chromium) for the Content-Security-Policy as Chromium enforces it."""

from tests.e2e.conftest import (  # noqa: F401 (fixtures)
    asgi_server,
    browser,
    chromium_path,
    live_server_url,
    page,
)
from tests.games.conftest import _fresh_snapshots  # noqa: F401 (autouse fixture)
