"""A frame for a client that has just gone is dropped, not raised as a server error."""

from __future__ import annotations

import pytest
from autobahn.exception import Disconnected

from games import consumers


class _Transport:
    def __init__(self, error: Exception) -> None:
        self.error = error

    async def send(self, *args, **kwargs) -> None:
        raise self.error


class _Consumer(consumers._GoneSocketsSkipped, _Transport):
    pass


async def test_a_frame_for_a_socket_that_has_gone_is_dropped():
    await _Consumer(Disconnected("Attempt to send on a closed protocol")).send(text_data="{}")


async def test_other_send_failures_still_raise():
    with pytest.raises(RuntimeError):
        await _Consumer(RuntimeError("boom")).send(text_data="{}")
