"""Group sends: made at once from a task, or handed back to a socket's own event loop."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from games import broadcast


async def _next(layer, channel: str) -> dict:
    return await layer.receive(channel)


@pytest.mark.django_db
async def test_inside_deferred_sends_are_collected_not_made():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.table_group(7), channel)
    with broadcast.deferred() as messages:
        broadcast.table_changed(7, 3)
    assert messages == [("table-7", {"type": "table.changed", "version": 3})]
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(_next(layer, channel), 0.2)
    await broadcast.flush(messages)
    assert await _next(layer, channel) == {"type": "table.changed", "version": 3}


def test_deferral_ends_with_its_block():
    with broadcast.deferred() as messages:
        pass
    assert messages == []
    assert broadcast._deferred.get() is None


@pytest.mark.django_db
async def test_a_send_that_fails_once_is_retried(monkeypatch):
    """After a Redis restart the first command on a pooled connection fails; the retry
    connects afresh."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.table_group(8), channel)
    real, calls = layer.group_send, []

    async def flaky(group, message):
        calls.append(group)
        if len(calls) == 1:
            raise ConnectionError("Connection closed by server.")
        await real(group, message)

    monkeypatch.setattr(layer, "group_send", flaky)
    await broadcast.flush([(broadcast.table_group(8), {"type": "table.changed", "version": 4})])
    assert calls == ["table-8", "table-8"]
    assert await _next(layer, channel) == {"type": "table.changed", "version": 4}


@pytest.mark.django_db
async def test_a_send_that_keeps_failing_is_logged_not_raised(monkeypatch, caplog):
    layer = get_channel_layer()

    async def down(group, message):
        raise ConnectionError("Connection refused.")

    monkeypatch.setattr(layer, "group_send", down)
    await broadcast.flush([(broadcast.table_group(9), {"type": "table.changed", "version": 1})])
    assert "channel layer send failed" in caplog.text
