"""Lobby flood: the CPU one Daphne spends on a stream of junk frames over one lobby socket.

    .venv/bin/python -m bench.lobby_flood --frames 5000

Starts one Daphne on the embedded defaults (a fresh SQLite database, no Redis), opens a
lobby socket, sends ``--frames`` one-byte text frames as fast as the socket takes them, reads
one reply per frame (the lobby answers each with a short error: ``malformed`` or
``rate_limited``), and reports the Daphne's CPU seconds (user + system, from /proc) for the
flood. The trial of issue 18 measured 10.7 CPU-seconds for 5,000 frames when every frame
re-rendered the table list.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from config.private_redis import free_port
from tests.resilience.ws_client import TEXT, WebSocket

ROOT = Path(__file__).resolve().parents[1]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_daphne(tmp: Path) -> tuple[subprocess.Popen[bytes], int]:
    env = {**os.environ, "SQLITE_PATH": str(tmp / "db.sqlite3"), "RUMMY_VAR_DIR": str(tmp)}
    env.update(LOG_LEVEL="WARNING", PYTHONPATH=str(ROOT))
    for name in ("DATABASE_URL", "REDIS_URL", "RUMMY_TESTING"):
        env.pop(name, None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    command = [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port)]
    process = subprocess.Popen([*command, "config.asgi:application"], cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process, port
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("Daphne did not come up")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=5000)
    args = parser.parse_args()
    process, port = start_daphne(Path(tempfile.mkdtemp(prefix="rummy-lobby-flood-")))
    try:
        ws = WebSocket(f"ws://127.0.0.1:{port}/ws/lobby/?format=json", timeout=120)
        ws.receive()  # the list on connect
        before, started = cpu_seconds(process.pid), time.monotonic()
        for _ in range(args.frames):
            ws._send(TEXT, b"x")
        codes: dict[str, int] = {}
        for _ in range(args.frames):
            code = ws.receive_json().get("code", "?")
            codes[code] = codes.get(code, 0) + 1
        spent, wall = cpu_seconds(process.pid) - before, time.monotonic() - started
        ws.close()
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(
        f"{args.frames} one-byte frames on one lobby socket: "
        f"Daphne CPU {spent:.2f} s, wall {wall:.2f} s"
    )
    print("replies:", ", ".join(f"{code} {n}" for code, n in sorted(codes.items())))


if __name__ == "__main__":
    main()
