"""A bare WebSocket client for tests against a real Daphne: enough of RFC 6455 to open a
socket with a session cookie, send text frames and read frames up to the server's close.

The project's test dependencies have no WebSocket client (the load benchmark's
``websockets`` is an extra of ``bench/``), and these tests need nothing more than this.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import struct
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

OP_TEXT, OP_CLOSE, OP_PING = 0x1, 0x8, 0x9


@dataclass
class Closed:
    code: int | None
    reason: str


class WebSocket:
    def __init__(self, base_url: str, path: str, *, cookie: str = "", timeout: float = 30):
        parts = urlsplit(base_url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: {parts.scheme}://{host}:{port}",
        ]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError(f"handshake refused: {head!r}")
            head += chunk
        status, _, self._buffer = head.partition(b"\r\n\r\n")
        if b" 101 " not in status.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"handshake refused: {status.decode(errors='replace')}")

    def send_json(self, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        mask = os.urandom(4)
        if len(data) < 126:
            header = struct.pack("!BB", 0x80 | OP_TEXT, 0x80 | len(data))
        else:
            header = struct.pack("!BBH", 0x80 | OP_TEXT, 0x80 | 126, len(data))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def _read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("socket closed without a close frame")
            self._buffer += chunk
        data, self._buffer = self._buffer[:n], self._buffer[n:]
        return data

    def receive(self) -> dict[str, Any] | Closed:
        """The next text frame as JSON, or the server's close (code and reason)."""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self._read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self._read(8))
            payload = self._read(length)
            if opcode == OP_TEXT:
                return json.loads(payload)
            if opcode == OP_CLOSE:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                return Closed(code, payload[2:].decode(errors="replace"))

    def receive_until_closed(self) -> tuple[list[dict[str, Any]], Closed]:
        frames: list[dict[str, Any]] = []
        while True:
            frame = self.receive()
            if isinstance(frame, Closed):
                return frames, frame
            frames.append(frame)

    def next_of(self, kind: str) -> dict[str, Any]:
        while True:
            frame = self.receive()
            if isinstance(frame, Closed):
                raise AssertionError(f"closed ({frame}) before a {kind} frame")
            if frame.get("type") == kind:
                return frame

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
