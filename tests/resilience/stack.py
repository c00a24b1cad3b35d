"""The real processes the fault tests start, kill and restart: Celery workers and Daphne,
on the test database and a private Redis of the test's own (never the shared one).

Each process runs in a session of its own, so a kill -9 takes its children with it (the
worker's embedded beat) and nothing else.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from config.private_redis import PrivateRedis, free_port, start_private_redis
from tests.conftest import skip_or_fail
from tests.e2e.conftest import ROOT, _server_env, _wait_until_healthy

# Fault tests poll with generous limits (a shared 2-core machine) but finish as soon as
# what they wait for has happened.
POLL_LIMIT_S = 90.0


def run_private_redis() -> Iterator[PrivateRedis]:
    """The body of a fixture: a Redis of the test's own, stopped afterwards."""
    server, reason = start_private_redis()
    if server is None:
        skip_or_fail(f"no private Redis: {reason}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    yield from run_private_redis()


def restart_redis(server: PrivateRedis) -> PrivateRedis:
    """Stop the private Redis (its data is gone: it keeps none) and start a fresh one on the
    same port, as a crashed and restarted Redis would come back."""
    from config.private_redis import bundled_server_path, ping

    server.stop()
    data_dir = Path(tempfile.mkdtemp(prefix="rummy-redis-"))
    command = [
        str(bundled_server_path()), "--bind", "127.0.0.1", "--port", str(server.port),
        "--dir", str(data_dir), "--save", "", "--appendonly", "no", "--loglevel", "warning",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    again = PrivateRedis(process=process, port=server.port, data_dir=data_dir)
    deadline = time.monotonic() + 10
    while not ping(server.port):
        if time.monotonic() > deadline:
            again.stop()
            pytest.fail(f"Redis did not come back on port {server.port}")
        time.sleep(0.05)
    return again


def stack_env(redis_url: str, **extra: str) -> dict[str, str]:
    """A server or worker environment: the test database, the private Redis, fast tables."""
    env = _server_env(Path(tempfile.mkdtemp(prefix="rummy-fault-")))
    env.update(
        REDIS_URL=redis_url,
        LOG_LEVEL="WARNING",
        BOT_MOVE_DELAY_MS="50",
        HAND_PAUSE_SECONDS="0",
        SWEEP_INTERVAL_SECONDS="1",
        SWEEP_SLACK_SECONDS="1",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra)
    return env


class Process:
    """One started process; ``kill`` is kill -9 of its whole session."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.log = Path(tempfile.mkstemp(prefix=f"rummy-{name}-", suffix=".log")[1])
        with self.log.open("wb") as out:
            self.popen = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    def alive(self) -> bool:
        return self.popen.poll() is None

    def kill(self) -> None:
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGKILL)
        self.popen.wait(timeout=10)

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


def start_worker(env: dict[str, str], *, beat: bool = True) -> Process:
    """``celery -A config worker`` (solo pool), with the sweeper's beat embedded if asked."""
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", "solo"]
    command += ["-l", "WARNING", "--without-gossip", "--without-mingle"]
    if beat:
        command += ["-B", "-s", str(Path(env["RUMMY_VAR_DIR"]) / "beat-schedule")]
    return Process("worker", command, env)


def start_daphne(env: dict[str, str], port: int | None = None) -> tuple[Process, str]:
    port = port or free_port()
    command = [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port)]
    process = Process("daphne", [*command, "config.asgi:application"], env)
    url = f"http://127.0.0.1:{port}"
    _wait_until_healthy(url, process.popen)
    return process, url


def poll(what: str, done: Callable[[], bool], processes: list[Process] = ()) -> None:
    """Wait until ``done()``; fail with the processes' output after POLL_LIMIT_S."""
    deadline = time.monotonic() + POLL_LIMIT_S
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.2)
    logs = "\n".join(f"--- {p.name}:\n{p.output()[-4000:]}" for p in processes)
    pytest.fail(f"{what}: not within {POLL_LIMIT_S:.0f}s\n{logs}")


class BinRun:
    """`python3 bin/run` started as a user starts it, in a session of its own (so Ctrl-C
    can be sent to it as a terminal does, and every process it leaves can be found), its
    output in a file (a pipe nobody reads would fill and block the site)."""

    name = "bin/run"

    def __init__(self, env: dict[str, str]) -> None:
        self.port = int(env["RUMMY_PORT"])
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = Path(tempfile.mkstemp(prefix="rummy-bin-run-", suffix=".log")[1])
        with self.log.open("wb") as out:
            self.popen = subprocess.Popen(
                [sys.executable, "bin/run"], cwd=ROOT, env=env, stdout=out,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.supervisor_config = self.wait_for(r"supervisorctl -c (\S+) status")[1]

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, pattern: str, seconds: float = 180) -> re.Match[str]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if match := re.search(pattern, self.output()):
                return match
            if self.popen.poll() is not None:
                break
            time.sleep(0.2)
        pytest.fail(f"bin/run printed nothing matching {pattern!r}:\n{self.output()[-4000:]}")

    def status(self, program: str) -> tuple[str, int | None]:
        """(state, pid) of one supervised program, as supervisorctl reports it."""
        result = subprocess.run(
            [sys.executable, "-m", "supervisor.supervisorctl", "-c", self.supervisor_config,
             "status", program],
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        fields = result.stdout.split()
        state = fields[1] if len(fields) > 1 else "UNKNOWN"
        pid = int(fields[3].rstrip(",")) if state == "RUNNING" else None
        return state, pid

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    def session_processes(self) -> list[str]:
        """Every live process of bin/run's session (bin/run, supervisord, the programs and
        their children): none may be left once bin/run has exited."""
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue
            fields = text.rsplit(")", 1)[1].split()
            if int(fields[3]) == self.popen.pid and fields[0] != "Z":
                found.append(f"{stat.parent.name} {text.split(' (', 1)[1].split(')')[0]}")
        return found

    def interrupt(self) -> int:
        """Ctrl-C as a terminal sends it (SIGINT to the whole foreground group)."""
        os.killpg(self.popen.pid, signal.SIGINT)
        return self.popen.wait(timeout=60)

    def kill_everything(self) -> None:
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait()
        for line in self.session_processes():
            with contextlib.suppress(OSError):
                os.kill(int(line.split()[0]), signal.SIGKILL)
