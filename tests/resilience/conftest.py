"""Fixtures of the fault tests: fresh snapshot caches (as in tests/games) and the real
processes and private Redis of tests/resilience/stack.py."""

from tests.e2e.conftest import browser, chromium_path, page  # noqa: F401 (fixtures)
from tests.games.conftest import _fresh_snapshots  # noqa: F401 (autouse fixture)
from tests.resilience.stack import private_redis  # noqa: F401 (fixture)
