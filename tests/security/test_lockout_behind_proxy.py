"""Login lockouts hold behind an appending proxy, in production mode, against a real Daphne
started with config/Procfile's own web command (issue 18, item 1).

The hole: with `daphne --proxy-headers` Daphne made the leftmost X-Forwarded-For entry the
client address, and django-axes (without django-ipware) counted that, so an attacker who
wrote a new leftmost entry each time was never locked out. Here the attacker does exactly
that through tests/security/appending_proxy.py: a real proxy that keeps the client's entries
and appends the real peer. Real peers differ by the loopback address each client binds to.
"""

from __future__ import annotations

import http.client
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password

from accounts.models import PasswordResetRequest
from tests.conftest import PASSWORD, make_player
from tests.e2e.conftest import ROOT, _free_port, _server_env
from tests.security.appending_proxy import appending_proxy

HOST = "rummy.test"
NEW_PASSWORD = "a-brand-new-secret-42"
PRODUCTION = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "k3y-for-the-proxy-test-only-" + "q8Wm2Nx5Rt7Yb1Vc4Jh6Lp9Dk3Fs0Gz" * 2,
    "ALLOWED_HOSTS": HOST,
    "CSRF_TRUSTED_ORIGINS": f"https://{HOST}",
    "LOG_LEVEL": "WARNING",
}


def procfile_web_command() -> str:
    for line in (ROOT / "config" / "Procfile").read_text().splitlines():
        if line.startswith("web:"):
            return line.removeprefix("web:").strip()
    raise AssertionError("config/Procfile has no web line")


class Visitor:
    """One browser-like client with its own real (loopback) address and cookie jar."""

    def __init__(self, proxy_port: int, address: str) -> None:
        self.proxy_port, self.address = proxy_port, address
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, forged: str = ""
    ) -> tuple[int, dict[str, str], str]:
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.proxy_port, timeout=60, source_address=(self.address, 0)
        )
        headers = {"Host": HOST}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if forged:
            headers["X-Forwarded-For"] = forged
        body = None
        if form is not None:
            form = {**form, "csrfmiddlewaretoken": self.cookies.get("csrftoken", "")}
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"https://{HOST}"
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
            for value in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
            return response.status, dict(response.getheaders()), text
        finally:
            connection.close()

    def get(self, path: str) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path)

    def post(self, path: str, form: dict[str, str], forged: str = "") -> int:
        if "csrftoken" not in self.cookies:
            self.get(path)
        return self.request("POST", path, form, forged)[0]

    def log_in(self, password: str, forged: str = "") -> int:
        return self.post("/accounts/login/", {"username": "alice", "password": password}, forged)


def _wait_for(port: int, daphne: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if daphne.poll() is not None:
            raise AssertionError(f"Daphne exited:\n{log.read_text()[-3000:]}")
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            probe.request("GET", "/healthz", headers={"Host": HOST})
            if probe.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"Daphne did not answer:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="module")
def production_daphne(
    django_db_setup, django_db_blocker, tmp_path_factory
) -> Iterator[tuple[int, int, Path]]:
    """Daphne in production mode, as the Procfile starts it, on the test database, behind
    the appending proxy; yields the proxy's port, Daphne's own port and Daphne's log."""
    tmp_path = tmp_path_factory.mktemp("production-daphne")
    with django_db_blocker.unblock():
        env = _server_env(tmp_path)
    env.pop("FAST_PASSWORD_HASHING", None)  # refused in production
    env.update(PRODUCTION, STATIC_ROOT=str(tmp_path / "static"), PYTHONPATH=str(ROOT))
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert collected.returncode == 0, collected.stderr
    port = _free_port()
    env.update(PORT=str(port), BIND_ADDRESS="127.0.0.1")
    log = Path(tempfile.mkstemp(prefix="rummy-proxy-daphne-", suffix=".log")[1])
    with log.open("wb") as out:
        daphne = subprocess.Popen(
            ["/bin/sh", "-c", f"exec {procfile_web_command()}"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        _wait_for(port, daphne, log)
        with appending_proxy(port) as proxy_port:
            yield proxy_port, port, log
    finally:
        daphne.terminate()
        try:
            daphne.wait(timeout=20)
        except subprocess.TimeoutExpired:
            daphne.kill()


@pytest.fixture
def production_site(production_daphne, transactional_db) -> tuple[int, Path]:
    proxy_port, _, log = production_daphne
    return proxy_port, log


@pytest.fixture
def alice_in_production():
    """Alice with a production password hash (the test settings' MD5 is refused there)."""
    alice = make_player("alice", "Alice")
    alice.password = make_password(PASSWORD, hasher=PBKDF2PasswordHasher())
    alice.save(update_fields=["password"])
    return alice


def _reset_link(log: Path) -> str:
    links = re.findall(
        rf"https://{re.escape(HOST)}(/accounts/password/reset/\S+?/\S+?/)", log.read_text()
    )
    assert links, log.read_text()[-3000:]
    return links[-1]


def test_the_procfile_starts_daphne_without_trusting_forwarded_headers():
    command = shlex.split(procfile_web_command())
    assert command[:3] == ["python", "-m", "daphne"]
    assert not [arg for arg in command if arg.startswith("--proxy-headers")]


def test_lockouts_hold_behind_an_appending_proxy(production_site, alice_in_production):
    proxy_port, log = production_site
    attacker = Visitor(proxy_port, "127.0.0.5")

    # A new leftmost X-Forwarded-For entry on each try changes nothing: locked at the 5th.
    answers = [attacker.log_in("wrong-password", forged=f"10.66.{n}.1") for n in range(5)]
    assert answers == [200, 200, 200, 200, 429]
    assert attacker.log_in(PASSWORD, forged="10.66.99.1") == 429
    assert attacker.log_in(PASSWORD) == 429

    # That lock is for the pair (alice, 127.0.0.5): Alice elsewhere still logs in.
    assert Visitor(proxy_port, "127.0.0.6").log_in(PASSWORD) == 302

    # Twenty failures in all, from rotating real addresses (each with its own forged
    # entry too), lock the account everywhere; the right password is then refused.
    answers = [
        Visitor(proxy_port, f"127.0.0.{10 + n}").log_in("wrong-password", forged=f"10.77.{n}.1")
        for n in range(15)
    ]
    assert answers == [200] * 14 + [429]
    player = Visitor(proxy_port, "127.0.0.99")
    assert player.log_in(PASSWORD) == 429
    locked_page = player.request(
        "POST", "/accounts/login/", {"username": "alice", "password": PASSWORD}
    )
    assert locked_page[0] == 429 and "paused everywhere" in locked_page[2]
    assert "/accounts/password/reset/" in locked_page[2]

    # The way out the page offers: a password reset by e-mail lifts both locks. (Its
    # throttle counts the real address too.)
    assert player.post("/accounts/password/reset/", {"email": "alice@example.com"}) == 302
    assert list(PasswordResetRequest.objects.values_list("address", flat=True)) == ["127.0.0.99"]
    status, headers, _ = player.get(_reset_link(log))
    assert status == 302, status
    form_url = headers["Location"]
    assert player.get(form_url)[0] == 200
    chosen = player.request(
        "POST", form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert chosen[0] == 302 and chosen[1]["Location"].endswith("/accounts/password/reset/complete/")
    assert Visitor(proxy_port, "127.0.0.99").log_in(NEW_PASSWORD) == 302
    assert Visitor(proxy_port, "127.0.0.5").log_in(NEW_PASSWORD) == 302


@pytest.mark.parametrize(
    "through_proxy", [True, False], ids=["via the proxy", "straight to Daphne"]
)
def test_a_bad_host_gets_the_400_page_with_the_security_headers_in_production(
    production_daphne, through_proxy
):
    """Through the proxy (HTTPS as far as Django knows) CommonMiddleware refuses the host;
    straight to Daphne (plain HTTP) the HTTPS redirect asks for it first."""
    proxy_port, daphne_port, _ = production_daphne
    connection = http.client.HTTPConnection(
        "127.0.0.1", proxy_port if through_proxy else daphne_port, timeout=60
    )
    try:
        connection.request("GET", "/accounts/login/", headers={"Host": "evil.example"})
        response = connection.getresponse()
        page = response.read().decode()
    finally:
        connection.close()
    assert response.status == 400 and "We could not read that request" in page
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    if through_proxy:
        assert response.headers["Strict-Transport-Security"].startswith("max-age=")
