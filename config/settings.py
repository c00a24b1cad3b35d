"""Django settings, read from the environment with defaults that run on a fresh machine.

Every variable is listed with its default and meaning in README.md ("Configuration").
The choice of database, channel layer and broker lives in config/backends.py.
"""

from __future__ import annotations

import ipaddress
import os
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from config.backends import FILESYSTEM_BROKER_FOLDERS, SQLITE_FALLBACK, select_backends

BASE_DIR = Path(__file__).resolve().parent.parent


def envstr(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip() or default


def envbool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {raw!r}")


def envint(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from None


def envlist(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name, "")
    items = [item.strip() for item in raw.split(",") if item.strip()]
    return items or default


DJANGO_ENV = envstr("DJANGO_ENV", "development")
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(f"DJANGO_ENV must be development or production, got {DJANGO_ENV!r}")
PRODUCTION = DJANGO_ENV == "production"
# pytest-django imports settings from inside pytest; the test settings below hang on this.
TESTING = "pytest" in sys.modules or envbool("RUMMY_TESTING")

DEBUG = envbool("DEBUG", False)
if PRODUCTION:
    if DEBUG:
        raise ImproperlyConfigured("DEBUG must be off when DJANGO_ENV=production")
    SECRET_KEY = os.environ.get("SECRET_KEY", "")
    if len(SECRET_KEY) < 50:
        raise ImproperlyConfigured("DJANGO_ENV=production needs SECRET_KEY of 50+ characters")
    ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", [])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ENV=production needs ALLOWED_HOSTS")
else:
    SECRET_KEY = envstr("SECRET_KEY", "dev-only-key-not-secret-0123456789-abcdefghijklmnopqrstuv")
    ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # Daphne first: its runserver replaces Django's and serves ASGI (HTTP + WebSocket).
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "accounts",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    # First: X-Forwarded-For only from a trusted proxy, before anything reads the address.
    "config.client_address.ForwardedForFromTrustedProxiesOnly",
    "config.request_id.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    # NUL in the path, query or form: the 400 page (PostgreSQL cannot compare such text).
    "config.nul_guard.RefuseNulCharacters",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes requires: it turns a lockout into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "libraries": {"site_nav": "config.templatetags.site_nav"},
        },
    }
]

# --- Database, channel layer, broker (see config/backends.py) ---------------------------
_backends = select_backends(os.environ, base_dir=BASE_DIR, testing=TESTING)
DATABASES = _backends["DATABASES"]
CHANNEL_LAYERS = _backends["CHANNEL_LAYERS"]
MESSAGING_KIND: str = _backends["MESSAGING_KIND"]
VAR_DIR = Path(_backends["VAR_DIR"])
if TESTING:
    # Threads of the test process (sync_to_async, the Celery test worker) close their
    # connections after each use, so the test database can be dropped at the end.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
if TESTING and DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # One file per test process: parallel runs in one checkout must not share it.
    DATABASES["default"]["TEST"]["NAME"] = str(
        Path(tempfile.gettempdir()) / f"rummy-test-{os.getpid()}.sqlite3"
    )
VAR_DIR.mkdir(parents=True, exist_ok=True)
if MESSAGING_KIND == SQLITE_FALLBACK:
    for folder in FILESYSTEM_BROKER_FOLDERS:
        Path(_backends["CELERY_BROKER_TRANSPORT_OPTIONS"][folder]).mkdir(
            parents=True, exist_ok=True
        )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Celery (config/celery.py reads every CELERY_* name) --------------------------------
CELERY_BROKER_URL = _backends["CELERY_BROKER_URL"]
CELERY_BROKER_TRANSPORT_OPTIONS = _backends["CELERY_BROKER_TRANSPORT_OPTIONS"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
# A task is acknowledged after it ran, and requeued if its worker dies mid-way: a turn
# clock or bot move must not be lost. Tasks are written to be safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Keep LOGGING below in force in the worker too: JSON lines, not Celery's own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# The sweeper (games/services/sweeper.py) is the backstop for every armed task: overdue turn clocks,
# bot moves and next hands, lapsed disconnects, stale tables. Exactly one beat process runs it.
SWEEP_INTERVAL_SECONDS = float(envint("SWEEP_INTERVAL_SECONDS", 5))
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {
    "sweep-tables": {"task": "games.tasks.sweep", "schedule": SWEEP_INTERVAL_SECONDS},
    "sweep-tournaments": {"task": "tournaments.tasks.sweep", "schedule": SWEEP_INTERVAL_SECONDS},
}
# Never eager: turn clocks rely on countdowns that really wait. Unit tests run tasks in
# Celery's in-process test worker instead (see tests/conftest.py).
CELERY_TASK_ALWAYS_EAGER = False

# --- Live tables (games/services/clock.py reads these) --------------------------------------------
# Seconds a bot "thinks" before its move is applied, so people can follow the play.
BOT_MOVE_DELAY_SECONDS = float(envint("BOT_MOVE_DELAY_MS", 0 if TESTING else 1200)) / 1000
# Pause between a hand's end and the next deal, so everyone can read the breakdown.
HAND_PAUSE_SECONDS = float(envint("HAND_PAUSE_SECONDS", 0 if TESTING else 8))
# A seated player known to be gone (last socket closed, or its heartbeat lapsed) gets this
# long before a bot covers the seat.
DISCONNECT_GRACE_SECONDS = float(envint("DISCONNECT_GRACE_SECONDS", 60))
# A socket's heartbeat (the page pings every 20-25 s) keeps its player online this long:
# at most two ping intervals, so a seat whose web process died is known gone soon after.
PRESENCE_EXPIRY_SECONDS = float(envint("PRESENCE_EXPIRY_SECONDS", 50))
# How late a due moment may be before the sweeper steps in for its task.
SWEEP_SLACK_SECONDS = float(envint("SWEEP_SLACK_SECONDS", 3))
# Tables that never start are closed after this long.
TABLE_EXPIRY_MINUTES = envint("TABLE_EXPIRY_MINUTES", 120)
# One account must not fill the lobby (issue 18): tables a person may host waiting for
# players at once, tables they may create in any minute, and lobby rows per host (the rest
# behind "more from this host").
TABLES_WAITING_PER_HOST = envint("TABLES_WAITING_PER_HOST", 3)
TABLES_CREATED_PER_MINUTE = envint("TABLES_CREATED_PER_MINUTE", 5)
LOBBY_ROWS_PER_HOST = envint("LOBBY_ROWS_PER_HOST", 3)
# Threads per web process for socket database work (each holds a database connection).
# Few: on the 2-core load benchmark (250 tables, two web processes) 4 threads fought the
# event loop for the GIL, p99 208-264 ms against 57 ms with 2 (docs/performance.md). Raise it
# only for a database far away on the network.
SOCKET_DB_THREADS = envint("SOCKET_DB_THREADS", 2)

# --- Accounts and authentication ---------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING or envbool("FAST_PASSWORD_HASHING"):
    if PRODUCTION:
        raise ImproperlyConfigured("FAST_PASSWORD_HASHING is for tests only")
    # A real hash costs ~0.3 s by design; tests and their live server need thousands.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:account"
LOGOUT_REDIRECT_URL = "home"

# Login throttling (django-axes; the choices are explained in docs/reliability.md, "Login
# throttling behind a proxy"). Two limits: AXES_FAILURE_LIMIT wrong passwords for one account
# from one address lock that pair; AXES_ACCOUNT_FAILURE_LIMIT from any addresses lock the
# account everywhere, high enough that nobody can lock someone else out cheaply. Both last
# AXES_COOLOFF_TIME; a password reset by e-mail lifts them (accounts/lockout.py).
AXES_HANDLER = "accounts.lockout.AccountLockoutHandler"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_ACCOUNT_FAILURE_LIMIT = envint("AXES_ACCOUNT_FAILURE_LIMIT", 20)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A try refused during a lockout tests no password: it neither counts nor stretches the lock.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# The client's address (config/client_address.py): django-ipware reads X-Forwarded-For from
# the right. PROXY_COUNT proxies stand in front; the last one is the TCP peer (REMOTE_ADDR),
# the others wrote their peers into the header, so ipware skips PROXY_COUNT - 1 entries from
# the right. Not strict: a client's own entries on the left are ignored, not a reason to fall
# back to the proxy's address (which would put every client in one bucket).
PROXY_COUNT = envint("PROXY_COUNT", 1 if PRODUCTION else 0)
if PROXY_COUNT < 0:
    raise ImproperlyConfigured(f"PROXY_COUNT must be 0 or more, got {PROXY_COUNT}")
# Peers whose X-Forwarded-For is believed (addresses or CIDR networks); Daphne binds to
# loopback by default, so the proxy is on this machine.
try:
    TRUSTED_PROXY_NETWORKS = [
        ipaddress.ip_network(entry, strict=False)
        for entry in envlist("TRUSTED_PROXIES", ["127.0.0.1", "::1"])
    ]
except ValueError as error:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES: {error}") from None
AXES_IPWARE_PROXY_ORDER = "left-most"  # ipware's name for "clients left, proxies appended"
AXES_IPWARE_PROXY_COUNT = PROXY_COUNT - 1 if PROXY_COUNT else None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if PROXY_COUNT else ["REMOTE_ADDR"]
)
IPWARE_STRICT = False
# Password-reset e-mails (accounts/throttle.py): per requesting address and per e-mail
# address asked for, in a sliding window.
PASSWORD_RESET_LIMIT_PER_ADDRESS = envint("PASSWORD_RESET_LIMIT_PER_ADDRESS", 10)
PASSWORD_RESET_LIMIT_PER_EMAIL = envint("PASSWORD_RESET_LIMIT_PER_EMAIL", 3)
PASSWORD_RESET_WINDOW = timedelta(minutes=envint("PASSWORD_RESET_WINDOW_MINUTES", 60))
# Accounts the sign-up form makes per client address in a sliding window (accounts/throttle.py).
SIGNUP_LIMIT_PER_ADDRESS = envint("SIGNUP_LIMIT_PER_ADDRESS", 10)
SIGNUP_WINDOW = timedelta(minutes=envint("SIGNUP_WINDOW_MINUTES", 60))

# --- E-mail: console unless an SMTP host is given ----------------------------------------
EMAIL_HOST = envstr("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = envint("EMAIL_PORT", 587)
    EMAIL_HOST_USER = envstr("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = envstr("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "Rummy 500 <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Internationalisation, static files ----------------------------------------------------
LANGUAGE_CODE = "en-us"
# Also where leaderboard weeks and months begin and end.
TIME_ZONE = envstr("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(envstr("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# Outside production WhiteNoise serves straight from the app and project static folders,
# so Daphne (which has no static handler of its own) needs no collectstatic.
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION

# --- Security ------------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# No inline scripts, handlers or style attributes anywhere (config/csp.py); empty turns it off.
CONTENT_SECURITY_POLICY = envstr(
    "CONTENT_SECURITY_POLICY",
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'",
)
if PRODUCTION:
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", True)
    if envbool("TRUST_X_FORWARDED_PROTO", True):
        # The proxy terminates TLS and says so in this header; only safe behind a proxy
        # that overwrites it (see README, "Production deployment").
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

# --- Logging: JSON lines on stdout, each with the request id ------------------------------
LOG_LEVEL = envstr("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.request_id.RequestIdFilter"}},
    "formatters": {"json": {"()": "config.json_logging.JsonFormatter"}},
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json",
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "celery": {"handlers": ["stdout"], "level": LOG_LEVEL, "propagate": False},
        "axes": {"handlers": ["stdout"], "level": "WARNING", "propagate": False},
    },
}
