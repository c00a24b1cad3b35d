"""Fixtures of the fault tests: fresh snapshot caches (as in tests/games) and the private
Redis of tests/resilience/stack.py. The fault tests that need a browser live in tests/e2e
(test_fault_*.py): one Playwright per test session, which they share with the other
browser tests."""

from tests.games.conftest import _fresh_snapshots  # noqa: F401 (autouse fixture)
from tests.resilience.stack import private_redis  # noqa: F401 (fixture)
