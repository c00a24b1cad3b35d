"""Production mode reads its secrets from the environment and passes `check --deploy`.

Settings are read once per process, so each case runs manage.py in a subprocess.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DJANGO_ENV": "production",
    "SECRET_KEY": "k3y-for-tests-only-" + "x7Qp2Lm9Zr4Vt8Wn1Bc6Hd3Jf5Gs0Ky" * 2,
    "ALLOWED_HOSTS": "rummy.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://rummy.example.org",
}


def manage(*args: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION_ENV and k != "DEBUG"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "RUMMY_VAR_DIR": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_passes_check_deploy_without_warnings(tmp_path):
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV, tmp_path=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_it_turns_on_https_protections_in_production(tmp_path):
    code = (
        "from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT,"
        " s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS,"
        " s.SECURE_PROXY_SSL_HEADER, s.DEBUG,"
        " s.CSRF_TRUSTED_ORIGINS, s.STORAGES['staticfiles']['BACKEND'])"
    )
    result = manage("shell", "--no-imports", "-c", code, env=PRODUCTION_ENV, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == (
        "True True True 31536000 ('HTTP_X_FORWARDED_PROTO', 'https') False "
        "['https://rummy.example.org'] whitenoise.storage.CompressedManifestStaticFilesStorage"
    )


@pytest.mark.parametrize(
    ("missing", "message"),
    [("SECRET_KEY", "SECRET_KEY of 50+ characters"), ("ALLOWED_HOSTS", "needs ALLOWED_HOSTS")],
)
def test_it_refuses_to_start_in_production_without_required_settings(tmp_path, missing, message):
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != missing}
    result = manage("check", env=env, tmp_path=tmp_path)
    assert result.returncode != 0
    assert message in result.stderr


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({**PRODUCTION_ENV, "DEBUG": "1"}, "DEBUG must be off"),
        ({"DJANGO_ENV": "staging"}, "DJANGO_ENV must be development or production"),
        ({"DEBUG": "maybe"}, "DEBUG must be true or false"),
    ],
)
def test_it_rejects_contradictory_or_unreadable_settings(tmp_path, env, message):
    result = manage("check", env=env, tmp_path=tmp_path)
    assert result.returncode != 0
    assert message in result.stderr


def test_it_uses_sqlite_and_the_fallback_layer_with_no_variables_set(tmp_path):
    code = (
        "from django.conf import settings as s; print(s.DATABASES['default']['ENGINE'],"
        " s.MESSAGING_KIND, s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER)"
    )
    env = {"REDIS_URL": "", "DATABASE_URL": ""}
    result = manage("shell", "--no-imports", "-c", code, env=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == (
        "django.db.backends.sqlite3 sqlite-fallback filesystem://localhost/ False"
    )
    assert (tmp_path / "broker" / "queue").is_dir()


def test_it_collects_hashed_compressed_static_files_for_whitenoise(tmp_path):
    static_root = tmp_path / "static"
    env = {**PRODUCTION_ENV, "STATIC_ROOT": str(static_root)}
    result = manage("collectstatic", "--noinput", "-v", "0", env=env, tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    manifest = (static_root / "staticfiles.json").read_text()
    assert '"css/site.css"' in manifest and '"django_htmx/htmx-2.min.js"' in manifest
    assert list(static_root.glob("css/site.*.css.gz")), "no compressed, hashed stylesheet"


def test_it_sends_mail_through_smtp_when_a_host_is_given(tmp_path):
    code = (
        "from django.conf import settings as s; print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT)"
    )
    env = {"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "2525"}
    result = manage("shell", "--no-imports", "-c", code, env=env, tmp_path=tmp_path)
    assert result.stdout.split("\n")[0] == (
        "django.core.mail.backends.smtp.EmailBackend smtp.example.org 2525"
    )


def test_it_prints_mail_to_the_console_by_default(tmp_path):
    code = "from django.conf import settings as s; print(s.EMAIL_BACKEND)"
    result = manage("shell", "--no-imports", "-c", code, env={"EMAIL_HOST": ""}, tmp_path=tmp_path)
    assert result.stdout.strip() == "django.core.mail.backends.console.EmailBackend"


def test_the_site_time_zone_comes_from_the_environment(tmp_path):
    """Leaderboard weeks and months begin at midnight in this zone."""
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.TIME_ZONE)",
        env={"TIME_ZONE": "Europe/Paris"},
        tmp_path=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "Europe/Paris"
