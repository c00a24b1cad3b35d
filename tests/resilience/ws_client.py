"""A small blocking WebSocket client for tests against real Daphne processes.

RFC 6455 as far as the tests need it: the handshake with a session cookie and an Origin,
masked text frames up, text and close frames down (with the close code). It lets a test hold a
socket open while the process behind it is killed, which the in-process test communicator
cannot do. No dependency: the project's own ``websockets`` is only in the bench extra.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
from typing import Any
from urllib.parse import urlsplit

TEXT, CLOSE, PING, PONG = 0x1, 0x8, 0x9, 0xA


class Closed(Exception):
    """The server closed the socket (``code``), or the connection dropped (code None)."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"socket closed ({code})")
        self.code = code


class WebSocket:
    def __init__(self, url: str, *, cookie: str = "", timeout: float = 15.0) -> None:
        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        origin = f"http://{parts.hostname}:{parts.port}"
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {parts.hostname}:{parts.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n"
            + (f"Cookie: {cookie}\r\n" if cookie else "")
            + "\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise Closed(None)
            head += chunk
        status, _, self.buffer = head.partition(b"\r\n\r\n")
        self.status = int(status.split(b" ", 2)[1])
        if self.status != 101:
            raise Closed(None)

    def send_json(self, payload: dict[str, Any]) -> None:
        self._send(TEXT, json.dumps(payload).encode())

    def _send(self, opcode: int, data: bytes) -> None:
        mask = os.urandom(4)
        length = len(data)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def _read(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise Closed(None)
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive(self) -> str:
        """The next text frame; raises Closed on a close frame or a dropped connection."""
        while True:
            try:
                first, second = self._read(2)
            except OSError:
                raise Closed(None) from None
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._read(8))
            data = self._read(length)
            if opcode == CLOSE:
                raise Closed(struct.unpack("!H", data[:2])[0] if len(data) >= 2 else None)
            if opcode == PING:
                self._send(PONG, data)
            elif opcode == TEXT:
                return data.decode()

    def receive_json(self) -> dict[str, Any]:
        return json.loads(self.receive())

    def receive_until_closed(self) -> tuple[list[dict[str, Any]], Closed]:
        """Every frame up to the server's close, and the close itself (its code)."""
        frames: list[dict[str, Any]] = []
        while True:
            try:
                frames.append(self.receive_json())
            except Closed as closed:
                return frames, closed

    def until(self, kind: str, check: Any = lambda frame: True) -> dict[str, Any]:
        """The next frame of this type that passes ``check``."""
        while True:
            frame = self.receive_json()
            if frame.get("type") == kind and check(frame):
                return frame

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._send(CLOSE, struct.pack("!H", 1000))
        self.sock.close()
