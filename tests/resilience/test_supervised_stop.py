"""Ctrl-C of bin/run lets a Celery worker finish the task it is running.

supervisord sent each program's TERM to its whole process group, so a prefork worker's pool
children got it too and died mid-task: every ordinary stop of bin/run with bots playing
logged "Process 'ForkPoolWorker-1' exited with 'signal 15 (SIGTERM)'" and a WorkerLostError
at ERROR, and the killed task was redone later. Now a worker's TERM goes to its main process
alone (a warm shutdown: the running task finishes, then the pool stops); the KILL after the
stop wait still goes to the whole group, and no process is left behind.

Runs a real supervisord with the configuration bin/run writes (bin/supervision.py), a real
prefork worker on a Redis of the test's own, and a task that takes four seconds.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from celery import Celery

from tests.resilience.stack import POLL_LIMIT_S

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bin"))
import supervision  # noqa: E402


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/stat")
    return not (status.exists() and status.read_text().split(")")[-1].split()[0] == "Z")


def wait_for(what: str, done, log: Path) -> None:
    deadline = time.monotonic() + POLL_LIMIT_S
    while not done():
        assert time.monotonic() < deadline, f"{what}: {log.read_text(errors='replace')[-3000:]}"
        time.sleep(0.2)


def test_stopping_the_supervisor_lets_a_running_task_finish(private_redis):
    run_dir = Path(tempfile.mkdtemp(prefix="rummy-stop-"))
    marker = run_dir / "task"
    log = run_dir / "out.log"
    worker = supervision.Program(
        "worker",
        f"{sys.executable} -m celery -A config worker --concurrency=1 --loglevel=INFO "
        "--include=tests.config.celery_probe --without-gossip --without-mingle",
    )
    assert worker.stops_its_own_children
    config = run_dir / "supervisord.conf"
    config.write_text(supervision.supervisord_config([worker], run_dir))
    env = {**os.environ, "REDIS_URL": private_redis.url, "RUMMY_VAR_DIR": str(run_dir)}
    env.pop("DATABASE_URL", None)
    with log.open("wb") as out:
        supervisord = subprocess.Popen(
            [sys.executable, "-m", "supervisor.supervisord", "-c", str(config)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, process_group=0,
        )  # fmt: skip
    try:
        wait_for("the worker is ready", lambda: "ready." in log.read_text(errors="replace"), log)
        producer = Celery(broker=private_redis.url)
        producer.send_task("tests.config.slow_run", args=(str(marker), 4.0))
        started = Path(f"{marker}.started")
        wait_for("the task started", started.exists, log)
        pids = [
            int(pid)
            for pid in subprocess.run(
                ["pgrep", "-g", str(worker_pgid(run_dir))], capture_output=True, text=True
            ).stdout.split()
        ]
        assert len(pids) >= 2, "the worker's main process and its pool child"

        supervisord.send_signal(signal.SIGTERM)  # what bin/run does on Ctrl-C
        assert supervisord.wait(timeout=60) == 0
        output = log.read_text(errors="replace")
        assert Path(f"{marker}.finished").exists(), output[-3000:]
        assert "WorkerLostError" not in output and "signal 15" not in output, output[-3000:]
        assert "stopped: worker (exit status 0)" in output
        assert [pid for pid in pids if alive(pid)] == [], "worker processes outlived the stop"
    finally:
        if supervisord.poll() is None:
            supervisord.kill()
            supervisord.wait()
        shutil.rmtree(run_dir, ignore_errors=True)


def worker_pgid(run_dir: Path) -> int:
    """The worker's process group: its main process's pid, as supervisorctl reports it."""
    out = subprocess.run(
        [sys.executable, "-m", "supervisor.supervisorctl", "-c", str(run_dir / "supervisord.conf"),
         "pid", "worker"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    return int(out)
