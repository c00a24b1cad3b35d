"""Fixtures shared by every test package: named players, service URLs, a Celery worker.

Rules the whole suite follows:
- Tests that need a real PostgreSQL or Redis are marked `services` and take the
  `postgres_url` / `redis_url` fixtures: they skip when the URL is not given, except in CI
  (CI=true), where a missing service is a failure, never a silent skip.
- Hypothesis runs the "ci" profile (deterministic, fixed example counts, no deadline) when
  HYPOTHESIS_PROFILE=ci, which bin/test sets under CI; "dev" otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.test import Client
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    derandomize=True,
    max_examples=200,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=50)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Every async test runs on an event loop of its own, and a channel layer object keeps
    state bound to the loop that used it (channels-redis: its receive lock and pools). A
    server process has one loop for its whole life; tests get a new layer per test, so one
    test's unfinished receive cannot lock the next test out."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests last: Playwright's sync API holds an event loop on the main thread
    for as long as the browser lives, which async tests after it could not share."""
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def skip_or_fail(reason: str) -> None:
    """Skip locally; in CI a missing prerequisite is an error, so nothing passes untested."""
    if in_ci():
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    if not url:
        skip_or_fail("REDIS_URL is not set: this test needs a real Redis")
    return url


@pytest.fixture
def postgres_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        skip_or_fail("DATABASE_URL is not a postgres:// URL: this test needs PostgreSQL")
    return url


def make_player(username: str, display_name: str, **fields: object):
    from accounts.models import User

    return User.objects.create_user(
        username=username,
        email=f"{username}@example.com",
        password=PASSWORD,
        display_name=display_name,
        **fields,
    )


@pytest.fixture
def alice(db):
    return make_player("alice", "Alice")


@pytest.fixture
def bob(db):
    return make_player("bob", "Bob")


@pytest.fixture
def alice_client(alice) -> Client:
    """A browser session logged in as Alice (force_login: no password round trip)."""
    client = Client()
    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def bob_client(bob) -> Client:
    client = Client()
    client.force_login(bob, backend="django.contrib.auth.backends.ModelBackend")
    return client


@pytest.fixture
def celery_worker(transactional_db) -> Iterator[object]:
    """Celery's in-process test worker on the configured broker (memory:// unless REDIS_URL).

    Tasks run in the worker's thread with real countdowns, never eagerly. They use their
    own database connection, hence `transactional_db`: data must be committed to be seen.
    """
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as worker:
        yield worker
