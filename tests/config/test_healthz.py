"""/healthz answers 200 when database, channel layer and broker answer, else 503."""

import pytest
from django.test import override_settings

from config import healthz
from config.celery import app as celery_app

pytestmark = pytest.mark.django_db


def test_it_reports_every_dependency_healthy(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["checks"]) == {"database", "channel_layer", "broker"}
    assert all(check["ok"] for check in body["checks"].values())


def test_it_is_never_cached(client):
    assert "no-cache" in client.get("/healthz")["Cache-Control"]


@pytest.mark.parametrize(
    "backend",
    ["channels_redis.core.RedisChannelLayer", "channels_redis.pubsub.RedisPubSubChannelLayer"],
)
def test_it_answers_503_when_the_channel_layer_is_unreachable(client, backend):
    unreachable = {
        "default": {
            "BACKEND": backend,
            "CONFIG": {"hosts": ["redis://127.0.0.1:9/0"]},
        }
    }
    with override_settings(CHANNEL_LAYERS=unreachable):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["channel_layer"]["ok"] is False
    assert body["checks"]["database"]["ok"] is True


def test_it_answers_503_when_the_broker_is_unreachable(client, monkeypatch):
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:9/0")
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"]["ok"] is False


def test_it_answers_503_when_the_database_fails(client, monkeypatch):
    def broken():
        raise ConnectionError("database is down")

    monkeypatch.setattr(healthz, "check_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "database is down" in response.json()["checks"]["database"]["error"]


def test_it_accepts_only_get(client):
    assert client.post("/healthz").status_code == 405
