"""A Celery worker must outlive a Redis restart.

When the broker connection drops while a message is delivered but not yet acked (always the
case with acks_late), kombu's Redis transport closes the channel and tries to put that
message back, through a connection it has already released: the attempt raises
AttributeError ('NoneType' object has no attribute 'hostname'), which Celery treats as an
"Unrecoverable error" and the worker exits. Found by tests/resilience/test_redis_restart.py.

With the connection gone there is nothing to restore through: the message is either still in
the broker's unacked set (restored after the visibility timeout) or lost with a restarted
Redis, and every task here is re-armed from the database by the sweeper. So this skips the
restore in exactly that case, and the worker reconnects as it does for other broker errors.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis
from kombu.transport import virtual

log = logging.getLogger(__name__)
_restore_unacked = kombu_redis.QoS.restore_unacked
_ack = kombu_redis.QoS.ack
_reject = kombu_redis.QoS.reject


def _connection_gone(qos: Any) -> bool:
    connection = getattr(qos.channel, "connection", None)
    return getattr(connection, "client", None) is None


def restore_unacked(self: Any, client: Any = None) -> Any:
    try:
        return _restore_unacked(self, client)
    except AttributeError:
        if not _connection_gone(self):
            raise
        log.warning("broker connection gone: %d unacked message(s) left", len(self._delivered))
        self._delivered.clear()
        return None


def ack(self: Any, delivery_tag: Any) -> None:
    """The same bug, later: a task that a prefork pool child finishes after the connection
    dropped is acked through the released connection (AttributeError: 'NoneType' object has
    no attribute 'client'), and the worker exits. Found by
    tests/resilience/test_bin_run_faults.py. The ack is dropped: the message went with the
    old connection (restored by the visibility timeout, or lost with a restarted Redis)."""
    if _connection_gone(self):
        log.warning("broker connection gone: ack of a finished task dropped")
        virtual.QoS.ack(self, delivery_tag)  # forget the tag locally; no broker I/O
        return
    _ack(self, delivery_tag)


def reject(self: Any, delivery_tag: Any, requeue: bool = False) -> None:
    if _connection_gone(self):
        log.warning("broker connection gone: reject of a task dropped")
        virtual.QoS.ack(self, delivery_tag)
        return
    _reject(self, delivery_tag, requeue=requeue)


kombu_redis.QoS.restore_unacked = restore_unacked
kombu_redis.QoS.ack = ack
kombu_redis.QoS.reject = reject
