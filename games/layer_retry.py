"""Joining a socket's group, once more if the first try meets a dead Redis connection.

After a Redis restart the first command on each of a web process's pooled connections
fails ("Connection closed by server"; on the Pub/Sub layer the subscriber may also be
caught half reconnected), and the next one connects afresh. Without a retry the first
socket to connect after the restart got HTTP 500 instead of its table. Joining a group
twice is harmless, so one retry after a short pause is safe; a second failure is real
and is raised as before.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger(__name__)

RETRY_PAUSE_S = 0.05


async def group_add(layer: Any, group: str, channel: str) -> None:
    try:
        await layer.group_add(group, channel)
    except Exception:
        log.warning("channel layer group_add failed; retrying once", extra={"group": group})
        await asyncio.sleep(RETRY_PAUSE_S)
        await layer.group_add(group, channel)
