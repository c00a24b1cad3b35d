"""Build and close a channel layer from a CHANNEL_LAYERS entry, whichever Redis layer it names:
tests that stand in for two processes need two instances of the configured kind."""

from __future__ import annotations

from typing import Any

from django.utils.module_loading import import_string


def layer_from(entry: dict[str, Any]) -> Any:
    return import_string(entry["BACKEND"])(**entry.get("CONFIG", {}))


async def close_layer(layer: Any) -> None:
    # The list layer keeps connection pools; the Pub/Sub layer a subscriber per event loop.
    if hasattr(type(layer), "close_pools"):
        await layer.close_pools()
    else:
        await layer.flush()
