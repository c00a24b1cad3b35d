"""Create the benchmark's tables: N started 4-seat tables of scripted players (new users
named <prefix><table>x<seat>), with their sessions, and optionally a low target score so that
games end within a run.

Run inside the benchmark's environment (DATABASE_URL, REDIS_URL, DJANGO_SETTINGS_MODULE set by
run.py); prints one JSON object: {"tables": [{"id": .., "cookies": [session keys by seat]}]}.
``prepare close <id>...`` stops those tables when a level is done.
"""

from __future__ import annotations

import contextlib
import json
import sys

import django


def main(count: int, seats: int, prefix: str, target: int = 500) -> None:
    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games.services import tables as tables_service

    tables = []
    for t in range(count):
        users = []
        for s in range(seats):
            name = f"{prefix}{t}x{s}"
            user, _ = User.objects.get_or_create(
                username=name, defaults={"display_name": name, "email": f"{name}@example.com"}
            )
            users.append(user)
        table = tables_service.table_create(
            host=users[0],
            name=f"Load {t}",
            preset="standard",
            options={"target": target},
            num_seats=seats,
            turn_seconds=300,
        )
        for user in users[1:]:
            tables_service.seat_join(table_id=table.pk, user=user)
        tables_service.table_start(table_id=table.pk, by=users[0])
        cookies = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            cookies.append(session.session_key)
        tables.append({"id": table.pk, "cookies": cookies})
    json.dump({"tables": tables}, sys.stdout)


def close(table_ids: list[int]) -> None:
    """Stop a level's tables, so nothing plays on them while the next level is measured."""
    django.setup()
    from games.services import shared
    from games.services import tables as tables_service

    for table_id in table_ids:
        with contextlib.suppress(shared.TableError):  # already over
            tables_service.table_abort(table_id=table_id, reason="Benchmark level over.")


if __name__ == "__main__":
    if sys.argv[1] == "close":
        close([int(t) for t in sys.argv[2:]])
    else:
        main(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], *map(int, sys.argv[4:5]))
