"""The floor for the load benchmark: the site's ASGI app plus a bare echo consumer.

``/ws/echo/<table>/`` does what a move costs at least on this stack: one frame in, one group
send through the channel layer, one frame out to every socket at the table, with no database,
engine or rendering. Comparing the real table socket with it shows what our code adds.
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from channels.auth import AuthMiddlewareStack
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

from config.asgi import application as site


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"echo-{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        frame = json.loads(text_data or "{}")
        await self.channel_layer.group_send(
            self.group, {"type": "echo.frame", "version": frame.get("version", 0)}
        )

    async def echo_frame(self, event: dict[str, object]) -> None:
        await self.send(text_data=json.dumps({"type": "state", "version": event["version"]}))


_echo = AuthMiddlewareStack(URLRouter([path("ws/echo/<int:table>/", EchoConsumer.as_asgi())]))


async def application(scope: dict, receive: object, send: object) -> None:
    """The site as deployed (config.asgi), plus the echo socket beside it."""
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/echo/"):
        return await _echo(scope, receive, send)
    return await site(scope, receive, send)


if os.environ.get("BENCH_TRACEMALLOC"):
    # Where a socket server's memory goes: SIGUSR1 writes the largest allocation sites.
    import signal
    import tracemalloc

    tracemalloc.start(8)

    def _dump(signum: int, frame: object) -> None:
        snapshot = tracemalloc.take_snapshot()
        with open(os.environ["BENCH_TRACEMALLOC"], "w") as out:
            for stat in snapshot.statistics("traceback")[:40]:
                out.write(f"{stat.size / 1024:.0f} KiB in {stat.count} blocks\n")
                for line in stat.traceback.format()[-16:]:
                    out.write(f"    {line}\n")
            out.write("\n--- by line\n")
            for stat in snapshot.statistics("lineno")[:60]:
                out.write(f"{stat}\n")

    signal.signal(signal.SIGUSR1, _dump)
