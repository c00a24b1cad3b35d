"""`python3 bin/run` as a new user runs it: site up, sign-up works, Ctrl-C stops everything."""

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from config.private_redis import ping

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_line(process, pattern, lines, seconds=180):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            if process.poll() is not None:
                break
            continue
        lines.append(line)
        if match := re.search(pattern, line):
            return match
    pytest.fail(f"no line matching {pattern!r}:\n{''.join(lines)[-3000:]}")


@pytest.fixture
def running_site(tmp_path):
    port = free_port()
    env = {**os.environ, "RUMMY_PORT": str(port), "RUMMY_VAR_DIR": str(tmp_path)}
    for name in ("DATABASE_URL", "REDIS_URL", "RUMMY_TESTING"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "bin/run"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        redis_port = int(
            wait_for_line(process, r"private Redis on redis://127\.0\.0\.1:(\d+)", lines)[1]
        )
        wait_for_line(process, r"Admin login: admin / \S+", lines)
        wait_for_line(process, rf"is ready: http://127\.0\.0\.1:{port}", lines)
        yield process, f"http://127.0.0.1:{port}", redis_port, lines
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_bin_run_serves_the_site_and_ctrl_c_stops_everything(running_site):
    process, url, redis_port, lines = running_site
    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    form = browser.open(f"{url}/accounts/signup/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
    data = urllib.parse.urlencode(
        {
            "csrfmiddlewaretoken": token,
            "username": "newcomer",
            "display_name": "New Comer",
            "email": "newcomer@example.com",
            "password1": "quiet-river-stone-81",
            "password2": "quiet-river-stone-81",
        }
    ).encode()
    account = browser.open(f"{url}/accounts/signup/", data=data)
    assert account.url == f"{url}/accounts/"
    assert "New Comer" in account.read().decode()

    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    process.wait(timeout=60)
    lines.extend(process.stdout.readlines())
    assert "Stopped the private Redis." in "".join(lines)
    assert not ping(redis_port)
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{url}/healthz", timeout=2)
