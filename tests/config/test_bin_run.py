"""`python3 bin/run` as a new user runs it: site up, sign-up works, Ctrl-C (or SIGTERM)
stops everything, leaving no process behind; with its private Redis, and without one (the
SQLite channel layer and the filesystem broker)."""

import http.cookiejar
import os
import re
import signal
import sys
import urllib.parse
import urllib.request

import pytest
from supervisor.datatypes import RestartUnconditionally

from config.private_redis import free_port, ping
from tests.resilience.stack import ROOT, BinRun, poll

sys.path.insert(0, str(ROOT / "bin"))
import supervision  # bin/ is no package: bin/run imports it the same way


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
    assert account.url == f"{url}/"  # a new player lands in the lobby, signed in
    assert "New Comer" in account.read().decode()


def test_bin_run_serves_the_site_and_ctrl_c_stops_everything(start_site):
    site = start_site()
    redis_port = int(site.wait_for(r"private Redis on redis://127\.0\.0\.1:(\d+)")[1])
    assert re.search(r"Starting redis, web, worker, beat, review", site.output())
    sign_up(site.url)

    assert site.interrupt() == 0  # what Ctrl-C in a terminal does
    assert "Stopped the private Redis." in site.output()
    assert not ping(redis_port)
    assert not site.healthy()
    assert site.session_processes() == [], "processes outlived bin/run"


def test_without_its_redis_bin_run_falls_back_and_sigterm_stops_everything(start_site):
    site = start_site(RUMMY_PRIVATE_REDIS="off")
    assert "Falling back to the SQLite channel layer" in site.output()
    assert re.search(r"Starting web, worker, beat, review", site.output())
    assert site.healthy()
    sign_up(site.url)

    site.popen.send_signal(signal.SIGTERM)  # bin/run alone, as a service manager would
    assert site.popen.wait(timeout=60) == 0
    assert not site.healthy()
    assert site.session_processes() == [], "processes outlived bin/run"


def test_when_bin_run_itself_is_killed_everything_stops(start_site):
    """A closed terminal (SIGHUP) or kill -9 of bin/run: supervisord is told by the kernel
    (Linux) and stops everything, rather than running on unseen."""
    site = start_site()
    redis_port = int(site.wait_for(r"private Redis on redis://127\.0\.0\.1:(\d+)")[1])
    site.popen.kill()
    site.popen.wait(timeout=10)
    poll("every process of bin/run stops", lambda: site.session_processes() == [], [site])
    assert not ping(redis_port)
    assert not site.healthy()


def supervised(programs: list, tmp_path) -> dict:
    """The program settings supervisord itself reads from the configuration bin/run writes."""
    from supervisor.options import ServerOptions

    config = tmp_path / "supervisord.conf"
    config.write_text(supervision.supervisord_config(programs, tmp_path))
    options = ServerOptions()
    options.realize(args=["-c", str(config)])
    return {group.name: group for group in options.process_group_configs}


def test_every_process_of_procfile_dev_is_restarted_with_backoff_and_stopped_as_a_group(
    tmp_path,
):
    programs = supervision.read_procfile({"RUMMY_PORT": "8123"})
    programs.insert(0, supervision.redis_program(["/opt/redis server", "--port", "6400"]))
    groups = supervised(programs, tmp_path)
    assert set(groups) == {"redis", "web", "worker", "beat", "review"}
    for name, group in groups.items():
        process = group.process_configs[0]
        assert process.autorestart is RestartUnconditionally
        assert process.startsecs == supervision.START_SECONDS > 0  # quick exits back off
        assert process.startretries == supervision.START_RETRIES
        assert process.killasgroup
        # a Celery worker's TERM goes to its main process alone, which lets the pool finish
        # its tasks (tests/resilience/test_supervised_stop.py); every other TERM to the group
        assert process.stopasgroup == (name not in {"worker", "review"})
    assert groups["redis"].priority < groups["web"].priority  # first up, last down
    assert groups["redis"].process_configs[0].command == "'/opt/redis server' --port 6400"
    assert " -p 8123 " in groups["web"].process_configs[0].command


def test_another_supervised_worker_is_one_procfile_line(tmp_path):
    procfile = tmp_path / "Procfile"
    procfile.write_text(
        supervision.PROCFILE.read_text()
        + "review: python -m celery -A config worker -Q review -n review@%h\n"
    )
    groups = supervised(supervision.read_procfile({}, procfile), tmp_path)
    assert groups["review"].process_configs[0].command.endswith("-Q review -n review@%h")
    assert groups["review"].process_configs[0].autorestart is RestartUnconditionally


def test_procfile_variables_expand_as_a_shell_would():
    env = {"PORT": "9000", "EMPTY": ""}
    assert supervision.expand("-p $PORT ${PORT} ${MISSING:-8000} ${EMPTY:-7}", env) == (
        "-p 9000 9000 8000 7"
    )


def test_a_malformed_procfile_line_is_refused_with_its_line_number(tmp_path):
    procfile = tmp_path / "Procfile"
    procfile.write_text("# comment\n\nweb python -m daphne\n")
    with pytest.raises(ValueError, match=r"Procfile:3: expected `name: command`"):
        supervision.read_procfile({}, procfile)
