"""Which database, channel layer and broker each environment gets (config/backends.py)."""

from pathlib import Path

import pytest

from config.backends import (
    BROKER_VISIBILITY_TIMEOUT_S,
    DEFAULT_REDIS_MAX_CONNECTIONS,
    MEMORY,
    REDIS,
    SQLITE_FALLBACK,
    ConfigurationError,
    select_backends,
)

BASE = Path("/srv/rummy")


def choose(env: dict[str, str], *, testing: bool = False) -> dict:
    return select_backends(env, base_dir=BASE, testing=testing)


def test_it_uses_a_sqlite_file_with_immediate_transactions_and_wal_by_default():
    database = choose({})["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == BASE / "var" / "db.sqlite3"
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert database["OPTIONS"]["timeout"] == 20
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]


def test_it_gives_the_sqlite_test_database_a_file_so_a_server_subprocess_can_share_it():
    database = choose({})["DATABASES"]["default"]
    assert database["TEST"]["NAME"].endswith("test_db.sqlite3")


def test_it_falls_back_to_the_sqlite_layer_and_filesystem_broker_without_redis():
    backends = choose({})
    assert backends["MESSAGING_KIND"] == SQLITE_FALLBACK
    layer = backends["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "config.sqlite_layer.SQLiteChannelLayer"
    assert layer["CONFIG"]["path"] == str(BASE / "var" / "channels.sqlite3")
    assert backends["CELERY_BROKER_URL"].startswith("filesystem://")
    options = backends["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert options["data_folder_in"] == options["data_folder_out"]
    for folder in ("data_folder_in", "processed_folder", "control_folder"):
        assert options[folder].startswith(str(BASE / "var" / "broker"))


def test_it_uses_in_process_backends_for_tests_without_redis():
    backends = choose({}, testing=True)
    assert backends["MESSAGING_KIND"] == MEMORY
    assert (
        backends["CHANNEL_LAYERS"]["default"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
    )
    assert backends["CELERY_BROKER_URL"] == "memory://"


@pytest.mark.parametrize("testing", [False, True])
def test_it_uses_redis_for_layer_and_broker_when_redis_url_is_set(testing):
    backends = choose({"REDIS_URL": "redis://cache:6379/2"}, testing=testing)
    assert backends["MESSAGING_KIND"] == REDIS
    layer = backends["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    (host,) = layer["CONFIG"]["hosts"]
    assert host["address"] == "redis://cache:6379/2" and host["max_connections"] == 2000
    assert backends["CELERY_BROKER_URL"] == "redis://cache:6379/2"
    transport = backends["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert transport["visibility_timeout"] == BROKER_VISIBILITY_TIMEOUT_S


def test_the_list_layer_can_be_chosen_instead_of_pubsub():
    env = {"REDIS_URL": "redis://r:6379/0", "CHANNEL_LAYER": "lists"}
    layer = choose(env)["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert layer["CONFIG"]["expiry"] == 60 and layer["CONFIG"]["prefix"] == "rummy"


def test_an_unknown_channel_layer_kind_is_refused():
    with pytest.raises(ConfigurationError, match="CHANNEL_LAYER"):
        choose({"REDIS_URL": "redis://r:6379/0", "CHANNEL_LAYER": "kafka"})


def test_the_pubsub_layer_is_given_only_options_it_reads():
    """RedisPubSubChannelLayer swallows unknown options silently: capacity or expiry given to
    it would look configured and do nothing."""
    config = choose({"REDIS_URL": "redis://r:6379/0"})["CHANNEL_LAYERS"]["default"]["CONFIG"]
    assert set(config) == {"hosts", "prefix"}


def test_it_sizes_the_redis_pool_for_thousands_of_sockets():
    env = {"REDIS_URL": "redis://r:6379/0", "CHANNEL_LAYER": "lists"}
    config = choose(env)["CHANNEL_LAYERS"]["default"]["CONFIG"]
    # redis-py's own default is 100 connections and channels-redis' capacity is 100.
    assert DEFAULT_REDIS_MAX_CONNECTIONS >= 1000
    assert config["capacity"] >= 1000


def test_redis_reads_outwait_the_layers_blocking_receive():
    """channels-redis blocks BZPOPMIN for ``brpop_timeout`` seconds; a read timeout no longer
    than that drops busy sockets (redis-py 8's default is 5 s, the same as the block)."""
    from channels_redis.core import RedisChannelLayer

    (host,) = choose({"REDIS_URL": "redis://r:6379/0"})["CHANNEL_LAYERS"]["default"]["CONFIG"][
        "hosts"
    ]
    assert host["socket_timeout"] >= 3 * RedisChannelLayer.brpop_timeout


def test_it_lets_the_environment_resize_the_pool():
    env = {"REDIS_URL": "redis://r:6379/0", "REDIS_MAX_CONNECTIONS": "5000"}
    (host,) = choose(env)["CHANNEL_LAYERS"]["default"]["CONFIG"]["hosts"]
    assert host["max_connections"] == 5000


def test_it_keeps_the_broker_visibility_timeout_above_an_hour_of_countdown():
    assert BROKER_VISIBILITY_TIMEOUT_S >= 3600


def test_it_switches_to_postgresql_through_psycopg_when_database_url_is_set():
    env = {"DATABASE_URL": "postgres://player:secret@db.internal:5433/rummy"}
    database = choose(env)["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["HOST"], database["PORT"], database["NAME"]) == ("db.internal", 5433, "rummy")
    assert database["USER"] == "player"
    assert database["CONN_HEALTH_CHECKS"] is True


def test_it_names_the_postgresql_test_database_from_the_environment():
    env = {"DATABASE_URL": "postgres://postgres@127.0.0.1/rummy", "TEST_DATABASE_NAME": "rummy_t"}
    assert choose(env)["DATABASES"]["default"]["TEST"]["NAME"] == "rummy_t"


def test_it_combines_postgresql_with_redis():
    env = {"DATABASE_URL": "postgres://postgres@127.0.0.1/rummy", "REDIS_URL": "redis://r/0"}
    backends = choose(env)
    assert backends["DATABASES"]["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert backends["MESSAGING_KIND"] == REDIS


def test_it_moves_every_file_under_rummy_var_dir():
    backends = choose({"RUMMY_VAR_DIR": "/data/rummy"})
    assert backends["DATABASES"]["default"]["NAME"] == Path("/data/rummy/db.sqlite3")
    assert backends["CHANNEL_LAYERS"]["default"]["CONFIG"]["path"] == "/data/rummy/channels.sqlite3"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DATABASE_URL": "mysql://root@localhost/rummy"}, "postgres://"),
        ({"REDIS_URL": "http://localhost:6379"}, "redis://"),
        ({"REDIS_URL": "redis://r/0", "REDIS_MAX_CONNECTIONS": "many"}, "whole number"),
        ({"REDIS_URL": "redis://r/0", "CHANNEL_CAPACITY": "0"}, "positive"),
    ],
)
def test_it_rejects_unusable_values_with_a_clear_message(env, message):
    with pytest.raises(ConfigurationError, match=message):
        choose(env)
