"""Choose the database, channel layer and Celery broker from the environment.

This is a pure function of its inputs so that every combination the site can run in
(embedded defaults, the fallback without Redis, PostgreSQL + Redis, the test suite) is
unit-tested without starting anything. settings.py calls it once and copies the result.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url

# channels-redis opens one pooled Redis connection per concurrent layer call. redis-py's
# asyncio pool refuses the 101st ("Too many connections"), which a busy Daphne process
# with a few hundred sockets reaches during a group broadcast. The pool only opens what it
# uses, so a high ceiling costs nothing until needed.
DEFAULT_REDIS_MAX_CONNECTIONS = 2000
# Messages queued per channel before ChannelFull. The library default of 100 is too small
# for a table group that receives a burst of moves while one socket is slow to read.
DEFAULT_CHANNEL_CAPACITY = 1500
# Redis re-delivers an unacknowledged task after this many seconds. It must exceed the
# longest countdown we schedule (turn clocks, tournament rounds) or tasks would run twice.
BROKER_VISIBILITY_TIMEOUT_S = 3600

# Which channels-redis layer carries socket messages (env CHANNEL_LAYER):
# - "pubsub" (default): Redis Pub/Sub. A process subscribes once to each group one of its
#   sockets is in, and one published message reaches every socket of the group there. The
#   load benchmark measured its median round trip at a quarter of the list layer's with 150
#   tables (docs/performance.md): the list layer pops one socket's message per Redis round trip
#   through a single receive loop per process, four pops per move for a 4-seat table.
#   Delivery is at most once (nothing is kept for a process that is not listening); our
#   messages only say "table n is at version v", and a socket that connects or reconnects
#   is sent the current state, so nothing is lost that a resync does not restore.
# - "lists": channels-redis' original layer (per-socket queues with capacity and expiry).
PUBSUB_LAYER = "pubsub"
LIST_LAYER = "lists"

FILESYSTEM_BROKER_FOLDERS = (
    "data_folder_in",
    "data_folder_out",
    "processed_folder",
    "control_folder",
)

MEMORY = "memory"
REDIS = "redis"
SQLITE_FALLBACK = "sqlite-fallback"


class ConfigurationError(ValueError):
    """An environment variable has a value the site cannot run with."""


def select_backends(env: Mapping[str, str], *, base_dir: Path, testing: bool) -> dict[str, Any]:
    """Return DATABASES, CHANNEL_LAYERS and the Celery broker settings for this environment.

    REDIS_URL wins everywhere (also in tests, so the suite can run on a real Redis).
    Without it, tests use in-process backends, and a running site uses the cross-process
    SQLite layer and kombu's filesystem transport: `bin/run` sets REDIS_URL to its private
    Redis, so reaching the fallback means that Redis could not be started.
    """
    var_dir = Path(env.get("RUMMY_VAR_DIR") or base_dir / "var")
    redis_url = env.get("REDIS_URL", "").strip()
    if redis_url:
        kind = REDIS
        messaging = _redis_messaging(env, redis_url)
    elif testing:
        kind = MEMORY
        messaging = _memory_messaging()
    else:
        kind = SQLITE_FALLBACK
        messaging = _fallback_messaging(var_dir)
    return {
        "DATABASES": {"default": select_database(env, var_dir=var_dir)},
        **messaging,
        "MESSAGING_KIND": kind,
        "VAR_DIR": var_dir,
    }


def select_database(env: Mapping[str, str], *, var_dir: Path) -> dict[str, Any]:
    """PostgreSQL (psycopg 3) from DATABASE_URL, else a SQLite file tuned for concurrency."""
    url = env.get("DATABASE_URL", "").strip()
    if url:
        if not url.startswith(("postgres://", "postgresql://")):
            raise ConfigurationError(
                f"DATABASE_URL must be a postgres:// URL, got scheme {url.split(':', 1)[0]!r}"
            )
        database = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
        database["TEST"] = {"NAME": env.get("TEST_DATABASE_NAME") or None}
        return database
    sqlite_path = Path(env.get("SQLITE_PATH") or var_dir / "db.sqlite3")
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": sqlite_path,
        # IMMEDIATE takes the write lock when a transaction starts, so two writers queue on
        # the timeout instead of one failing with "database is locked" halfway through.
        # WAL lets readers run while a write is in progress.
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        },
        # A file, not :memory:, so a Daphne subprocess in browser tests sees the test data.
        "TEST": {"NAME": str(sqlite_path.with_name("test_" + sqlite_path.name))},
    }


REDIS_READ_TIMEOUT_S = 30


def _redis_messaging(env: Mapping[str, str], redis_url: str) -> dict[str, Any]:
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ConfigurationError("REDIS_URL must start with redis://, rediss:// or unix://")
    kind = env.get("CHANNEL_LAYER", PUBSUB_LAYER).strip().lower() or PUBSUB_LAYER
    if kind not in (PUBSUB_LAYER, LIST_LAYER):
        raise ConfigurationError(f"CHANNEL_LAYER must be {PUBSUB_LAYER} or {LIST_LAYER}")
    max_connections = _positive_int(env, "REDIS_MAX_CONNECTIONS", DEFAULT_REDIS_MAX_CONNECTIONS)
    capacity = _positive_int(env, "CHANNEL_CAPACITY", DEFAULT_CHANNEL_CAPACITY)
    host = {
        "address": redis_url,
        "max_connections": max_connections,
        # redis-py 8 reads with a 5 s timeout by default, which is also how long
        # channels-redis' list layer blocks in BZPOPMIN waiting for a socket's next message:
        # on a busy process the reply comes a moment late and the socket is dropped (close
        # 1011). Reads wait longer; connecting stays quick to fail.
        "socket_timeout": REDIS_READ_TIMEOUT_S,
        "socket_connect_timeout": 5,
    }
    prefix = env.get("CHANNEL_PREFIX", "rummy")
    if kind == PUBSUB_LAYER:
        layer = {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [host], "prefix": prefix},
        }
    else:
        layer = {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [host],
                "capacity": capacity,
                "expiry": 60,
                "group_expiry": 86400,
                "prefix": prefix,
            },
        }
    return {
        "CHANNEL_LAYERS": {"default": layer},
        "CELERY_BROKER_URL": redis_url,
        "CELERY_BROKER_TRANSPORT_OPTIONS": {"visibility_timeout": BROKER_VISIBILITY_TIMEOUT_S},
    }


def _memory_messaging() -> dict[str, Any]:
    return {
        "CHANNEL_LAYERS": {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}},
        "CELERY_BROKER_URL": "memory://",
        "CELERY_BROKER_TRANSPORT_OPTIONS": {},
    }


def _fallback_messaging(var_dir: Path) -> dict[str, Any]:
    queue_dir = var_dir / "broker"
    return {
        "CHANNEL_LAYERS": {
            "default": {
                "BACKEND": "config.sqlite_layer.SQLiteChannelLayer",
                "CONFIG": {"path": str(var_dir / "channels.sqlite3"), "capacity": 1500},
            }
        },
        # A host name only to keep kombu from warning on every connection; no network is used.
        "CELERY_BROKER_URL": "filesystem://localhost/",
        "CELERY_BROKER_TRANSPORT_OPTIONS": {
            "data_folder_in": str(queue_dir / "queue"),
            "data_folder_out": str(queue_dir / "queue"),
            "processed_folder": str(queue_dir / "processed"),
            # Exchange bindings (remote control, broadcasts); kombu's default is ./control.
            "control_folder": str(queue_dir / "control"),
            "store_processed": False,
        },
    }


def _positive_int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigurationError(f"{name} must be a whole number, got {raw!r}") from None
    if value <= 0:
        raise ConfigurationError(f"{name} must be positive, got {value}")
    return value
