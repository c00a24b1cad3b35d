"""`python3 bin/run` as a new user runs it: site up, sign-up works, Ctrl-C (or SIGTERM)
stops everything, leaving no process behind; with its private Redis, and without one (the
SQLite channel layer and the filesystem broker)."""

import http.cookiejar
import os
import re
import signal
import urllib.parse
import urllib.request

import pytest

from config.private_redis import free_port, ping
from tests.resilience.stack import BinRun


@pytest.fixture
def start_site(tmp_path):
    sites = []

    def start(**extra: str) -> BinRun:
        env = {**os.environ, "RUMMY_PORT": str(free_port()), "RUMMY_VAR_DIR": str(tmp_path)}
        for name in ("DATABASE_URL", "REDIS_URL", "RUMMY_TESTING"):
            env.pop(name, None)
        site = BinRun({**env, **extra})
        sites.append(site)
        site.wait_for(r"Admin login: admin / \S+")
        site.wait_for(rf"is ready: {site.url}")
        return site

    yield start
    for site in sites:
        site.kill_everything()


def sign_up(url: str) -> None:
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


def test_bin_run_serves_the_site_and_ctrl_c_stops_everything(start_site):
    site = start_site()
    redis_port = int(site.wait_for(r"private Redis on redis://127\.0\.0\.1:(\d+)")[1])
    assert re.search(r"Starting redis, web, worker, beat", site.output())
    sign_up(site.url)

    assert site.interrupt() == 0  # what Ctrl-C in a terminal does
    assert "Stopped the private Redis." in site.output()
    assert not ping(redis_port)
    assert not site.healthy()
    assert site.session_processes() == [], "processes outlived bin/run"


def test_without_its_redis_bin_run_falls_back_and_sigterm_stops_everything(start_site):
    site = start_site(RUMMY_PRIVATE_REDIS="off")
    assert "Falling back to the SQLite channel layer" in site.output()
    assert re.search(r"Starting web, worker, beat", site.output())
    assert site.healthy()
    sign_up(site.url)

    site.popen.send_signal(signal.SIGTERM)  # bin/run alone, as a service manager would
    assert site.popen.wait(timeout=60) == 0
    assert not site.healthy()
    assert site.session_processes() == [], "processes outlived bin/run"
