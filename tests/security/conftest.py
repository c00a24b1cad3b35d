"""Fresh snapshot caches between tests, as in tests/games (ids restart, caches must too)."""

from tests.games.conftest import _fresh_snapshots  # noqa: F401 (autouse fixture)
