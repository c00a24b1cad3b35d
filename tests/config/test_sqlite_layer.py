"""The fallback channel layer: delivery, groups, capacity, and crossing processes."""

import asyncio
import subprocess
import sys
import textwrap

import pytest
from channels.exceptions import ChannelFull

from config.sqlite_layer import SQLiteChannelLayer


@pytest.fixture
def layer_path(tmp_path):
    return str(tmp_path / "channels.sqlite3")


@pytest.fixture
def layer(layer_path):
    return SQLiteChannelLayer(path=layer_path, capacity=3)


async def receive_soon(layer, channel, within=3.0):
    return await asyncio.wait_for(layer.receive(channel), within)


async def test_it_delivers_a_message_sent_to_a_named_channel(layer):
    await layer.send("worker.bots", {"type": "bot.move", "table": 7})
    assert await receive_soon(layer, "worker.bots") == {"type": "bot.move", "table": 7}


async def test_it_delivers_messages_in_the_order_they_were_sent(layer):
    for n in range(3):
        await layer.send("worker.bots", {"type": "n", "n": n})
    received = [await receive_soon(layer, "worker.bots") for _ in range(3)]
    assert [message["n"] for message in received] == [0, 1, 2]


async def test_it_delivers_each_message_once(layer):
    await layer.send("worker.bots", {"type": "once"})
    await receive_soon(layer, "worker.bots")
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "worker.bots", within=0.3)


async def test_it_routes_process_local_channels_to_the_right_receiver(layer):
    first, second = await layer.new_channel(), await layer.new_channel()
    assert "!" in first and first != second
    await layer.send(second, {"type": "for.second"})
    await layer.send(first, {"type": "for.first"})
    results = await asyncio.gather(receive_soon(layer, first), receive_soon(layer, second))
    assert results == [{"type": "for.first"}, {"type": "for.second"}]


async def test_it_sends_a_group_message_to_every_member_and_not_to_others(layer):
    alice, bob, carol = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("table-1", alice)
    await layer.group_add("table-1", bob)
    await layer.group_add("table-2", carol)
    await layer.group_send("table-1", {"type": "table.changed", "version": 4})
    assert await receive_soon(layer, alice) == {"type": "table.changed", "version": 4}
    assert await receive_soon(layer, bob) == {"type": "table.changed", "version": 4}
    with pytest.raises(TimeoutError):
        await receive_soon(layer, carol, within=0.3)


async def test_it_stops_sending_to_a_channel_that_left_the_group(layer):
    alice = await layer.new_channel()
    await layer.group_add("table-1", alice)
    await layer.group_discard("table-1", alice)
    await layer.group_send("table-1", {"type": "table.changed"})
    with pytest.raises(TimeoutError):
        await receive_soon(layer, alice, within=0.3)


async def test_it_refuses_a_message_beyond_the_channel_capacity(layer):
    for n in range(3):
        await layer.send("worker.bots", {"type": "n", "n": n})
    with pytest.raises(ChannelFull):
        await layer.send("worker.bots", {"type": "n", "n": 3})


async def test_it_skips_full_members_in_a_group_send_without_failing(layer):
    slow, quick = await layer.new_channel(), await layer.new_channel()
    for channel in (slow, quick):
        await layer.group_add("table-1", channel)
    for n in range(3):
        await layer.send(slow, {"type": "n", "n": n})
    await layer.group_send("table-1", {"type": "table.changed"})
    assert await receive_soon(layer, quick) == {"type": "table.changed"}


async def test_it_drops_expired_messages(layer_path):
    layer = SQLiteChannelLayer(path=layer_path, expiry=0)
    await layer.send("worker.bots", {"type": "stale"})
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "worker.bots", within=0.3)


async def test_it_forgets_everything_on_flush(layer):
    channel = await layer.new_channel()
    await layer.group_add("table-1", channel)
    await layer.send("worker.bots", {"type": "x"})
    await layer.flush()
    await layer.group_send("table-1", {"type": "table.changed"})
    with pytest.raises(TimeoutError):
        await receive_soon(layer, "worker.bots", within=0.3)
    with pytest.raises(TimeoutError):
        await receive_soon(layer, channel, within=0.3)


async def test_it_rejects_invalid_names(layer):
    with pytest.raises(TypeError):
        await layer.send("bad name with spaces", {"type": "x"})
    with pytest.raises(TypeError):
        await layer.group_add("bad group!", "worker.bots")


async def test_it_carries_a_group_message_from_another_process(layer, layer_path):
    """The reason the layer exists: a Celery worker process reaching Daphne's sockets."""
    socket_channel = await layer.new_channel()
    await layer.group_add("table-9", socket_channel)
    sender = textwrap.dedent(
        f"""
        import asyncio
        from config.sqlite_layer import SQLiteChannelLayer
        layer = SQLiteChannelLayer(path={layer_path!r})
        asyncio.run(layer.group_send("table-9", {{"type": "table.changed", "version": 12}}))
        """
    )
    completed = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-c", sender], capture_output=True, timeout=60
    )
    assert completed.returncode == 0, completed.stderr.decode()
    assert await receive_soon(layer, socket_channel) == {"type": "table.changed", "version": 12}
