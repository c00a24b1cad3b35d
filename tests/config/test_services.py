"""The same code on real PostgreSQL and Redis (run by .ci/run with DATABASE_URL and REDIS_URL)."""

import asyncio
import uuid

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import connection

pytestmark = pytest.mark.services


def test_it_runs_on_postgresql_through_psycopg_3(postgres_url, db):
    assert connection.vendor == "postgresql"
    assert connection.Database.__name__ == "psycopg"
    assert connection.Database.__version__.startswith("3.")
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        assert cursor.fetchone()[0].startswith("test_")


def test_it_uses_channels_redis_and_the_redis_broker(redis_url):
    assert isinstance(get_channel_layer(), RedisChannelLayer)
    assert redis_url == settings.CELERY_BROKER_URL
    assert settings.MESSAGING_KIND == "redis"


def test_a_group_message_crosses_between_two_layer_instances_on_redis(redis_url):
    """Two instances stand for the Celery worker and the Daphne process."""
    config = settings.CHANNEL_LAYERS["default"]["CONFIG"]
    group = f"table-{uuid.uuid4().hex[:8]}"

    async def scenario():
        web, worker = RedisChannelLayer(**config), RedisChannelLayer(**config)
        channel = await web.new_channel()
        await web.group_add(group, channel)
        await worker.group_send(group, {"type": "table.changed", "version": 5})
        message = await asyncio.wait_for(web.receive(channel), 5)
        await web.group_discard(group, channel)
        await web.close_pools()
        await worker.close_pools()
        return message

    assert asyncio.run(scenario()) == {"type": "table.changed", "version": 5}


def test_healthz_reports_redis_messaging(redis_url, client, db):
    body = client.get("/healthz").json()
    assert body["messaging"] == "redis"
    assert body["status"] == "ok", body
