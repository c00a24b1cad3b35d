"""The embedded paths end to end: a Celery worker *process* reaches sockets held by
another process, as a bot move must reach Daphne: through the private Redis, and through
the SQLite layer and filesystem broker where that Redis cannot run."""

import asyncio
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from celery import Celery

from config.backends import FILESYSTEM_BROKER_FOLDERS, select_backends
from config.private_redis import start_private_redis
from config.sqlite_layer import SQLiteChannelLayer
from tests.config.layer_helpers import layer_from

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def private_redis():
    server, reason = start_private_redis()
    assert server is not None, reason
    yield server
    server.stop()


def start_worker(tmp_path, redis_url=""):
    env = {**os.environ, "REDIS_URL": redis_url, "RUMMY_VAR_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    log = (tmp_path / "worker.log").open("wb")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--include=tests.config.celery_probe", "--without-gossip", "--without-mingle",
         "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    log.close()
    wait_until_ready(worker, tmp_path / "worker.log")
    return worker


def wait_until_ready(worker, log_path, seconds=120):
    """A loaded CI machine can take a while to import Django and Celery."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if "ready." in log_path.read_text(errors="replace"):
            return
        assert worker.poll() is None, log_path.read_text(errors="replace")[-2000:]
        time.sleep(0.2)
    pytest.fail(f"the worker was not ready in {seconds}s")


def stop(worker):
    worker.terminate()
    worker.wait(timeout=20)


def receive_broadcast(layer, producer, tmp_path, worker):
    """Join a group as a socket would, have the worker broadcast to it, return the frame."""
    group, token = f"table-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        producer.send_task("tests.config.broadcast", args=(group, token))
        return await asyncio.wait_for(layer.receive(channel), 60)

    message = asyncio.run(scenario())
    log = (tmp_path / "worker.log").read_text(errors="replace")
    assert message == {"type": "probe", "token": token}, log[-2000:]
    assert worker.poll() is None, log[-2000:]


def test_a_task_in_the_worker_process_reaches_a_socket_group_through_the_private_redis(
    private_redis, tmp_path
):
    backends = select_backends({"REDIS_URL": private_redis.url}, base_dir=ROOT, testing=False)
    layer = layer_from(backends["CHANNEL_LAYERS"]["default"])
    worker = start_worker(tmp_path, redis_url=private_redis.url)
    try:
        receive_broadcast(layer, Celery(broker=private_redis.url), tmp_path, worker)
    finally:
        stop(worker)


def test_a_task_in_the_worker_process_reaches_a_socket_group_through_the_fallback(tmp_path):
    backends = select_backends({"RUMMY_VAR_DIR": str(tmp_path)}, base_dir=ROOT, testing=False)
    assert backends["MESSAGING_KIND"] == "sqlite-fallback"
    layer = SQLiteChannelLayer(**backends["CHANNEL_LAYERS"]["default"]["CONFIG"])
    options = backends["CELERY_BROKER_TRANSPORT_OPTIONS"]
    for folder in FILESYSTEM_BROKER_FOLDERS:
        Path(options[folder]).mkdir(parents=True, exist_ok=True)
    producer = Celery(broker=backends["CELERY_BROKER_URL"])
    producer.conf.broker_transport_options = options
    worker = start_worker(tmp_path)
    try:
        receive_broadcast(layer, producer, tmp_path, worker)
    finally:
        stop(worker)
