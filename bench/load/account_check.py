"""What a table socket's account check costs, in one process on PostgreSQL.

    .venv/bin/python -m bench.load.account_check --rounds 7 --checks 2000

Before it applies a move or a chat line, a logged-in socket checks that its account is still
active and its session still valid (accounts.sockets.AccountSockets.account_check: one
primary-key query). This creates a fresh database ``rummy_bench_account_check`` on the
``--pg`` server, logs in ``--users`` accounts (real sessions), and times blocks of checks
interleaved with blocks of the cheapest query the same thread could make instead
(``SELECT 1``), so that both see the same machine noise. Prints the median wall and CPU
microseconds per call of each, and the check's extra cost over ``SELECT 1``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=7, help="blocks per kind")
    parser.add_argument("--checks", type=int, default=2000, help="calls per block")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    parser.add_argument(
        "--no-session", action="store_true", help="check the account only (no session row)"
    )
    args = parser.parse_args()

    from bench.load.run import fresh_database

    os.environ["DATABASE_URL"] = fresh_database(args.pg, "rummy_bench_account_check")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    from accounts.models import User
    from accounts.sockets import AccountSockets

    sockets = []
    for i in range(args.users):
        user = User.objects.create_user(username=f"c{i}", email=f"c{i}@example.com")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        socket = AccountSockets()
        socket._account_reason = None
        socket._account_user_id = user.pk
        socket._account_session_key = None if args.no_session else session.session_key
        socket._account_session_hash = session[HASH_SESSION_KEY]
        socket._account_password_seen = None
        sockets.append(socket)

    def checks(n: int) -> None:
        for i in range(n):
            sockets[i % len(sockets)].account_check()

    def select_one(n: int) -> None:
        for _ in range(n):
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()

    timings: dict[str, list[tuple[float, float]]] = {"account_check": [], "select_1": []}
    checks(200)  # warm: connection, statement caches, the first hash of each password
    for _ in range(args.rounds):
        for name, fn in (("account_check", checks), ("select_1", select_one)):
            wall, cpu = time.perf_counter(), time.process_time()
            fn(args.checks)
            timings[name].append(
                (
                    (time.perf_counter() - wall) / args.checks * 1e6,
                    (time.process_time() - cpu) / args.checks * 1e6,
                )
            )
    medians = {
        name: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
        for name, rows in timings.items()
    }
    for name, (wall, cpu) in medians.items():
        print(f"{name:14s} wall {wall:7.1f} us  cpu {cpu:6.1f} us  (median of {args.rounds})")
    extra_wall = medians["account_check"][0] - medians["select_1"][0]
    extra_cpu = medians["account_check"][1] - medians["select_1"][1]
    print(f"check over SELECT 1: wall {extra_wall:+.1f} us, cpu {extra_cpu:+.1f} us")


if __name__ == "__main__":
    main()
