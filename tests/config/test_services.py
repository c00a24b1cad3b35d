"""The same code on real PostgreSQL and Redis (run by .ci/run with DATABASE_URL and REDIS_URL)."""

import asyncio
import uuid

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from tests.config.layer_helpers import close_layer, layer_from

pytestmark = pytest.mark.services


def test_it_runs_on_postgresql_through_psycopg_3(postgres_url, db):
    assert connection.vendor == "postgresql"
    assert connection.Database.__name__ == "psycopg"
    assert connection.Database.__version__.startswith("3.")
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        assert cursor.fetchone()[0].startswith("test_")


def test_it_uses_channels_redis_and_the_redis_broker(redis_url):
    layer = get_channel_layer()
    assert type(layer).__module__.startswith("channels_redis.")
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis.")
    assert redis_url == settings.CELERY_BROKER_URL
    assert settings.MESSAGING_KIND == "redis"


def test_a_group_message_crosses_between_two_layer_instances_on_redis(redis_url):
    """Two instances stand for the Celery worker and the Daphne process."""
    entry = settings.CHANNEL_LAYERS["default"]
    group = f"table-{uuid.uuid4().hex[:8]}"

    async def scenario():
        web, worker = layer_from(entry), layer_from(entry)
        channel = await web.new_channel()
        await web.group_add(group, channel)
        await worker.group_send(group, {"type": "table.changed", "version": 5})
        message = await asyncio.wait_for(web.receive(channel), 5)
        await web.group_discard(group, channel)
        await close_layer(web)
        await close_layer(worker)
        return message

    assert asyncio.run(scenario()) == {"type": "table.changed", "version": 5}


def test_healthz_reports_redis_messaging(redis_url, client, db):
    body = client.get("/healthz").json()
    assert body["messaging"] == "redis"
    assert body["status"] == "ok", body


def test_healthz_probes_leave_no_subscription_behind(redis_url):
    """On the Pub/Sub layer a probe's channel is a Redis subscription of the web process; a
    load balancer polling /healthz must not pile them up."""
    import redis

    from config import healthz

    async def scenario():
        layer = get_channel_layer()
        for _ in range(3):
            await healthz.check_channel_layer()
        left = [name for name in getattr(layer._get_layer(), "channels", {}) if "healthz" in name]
        await close_layer(layer)
        return left

    if not settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith("RedisPubSubChannelLayer"):
        pytest.fail("this suite runs the default layer, Pub/Sub")
    assert asyncio.run(scenario()) == []
    assert redis.Redis.from_url(redis_url).pubsub_channels("*healthz*") == []
