"""What a tournament notice costs the service that sends it, on PostgreSQL.

    .venv/bin/python -m bench.tournaments.notices_cost --players 1000 --rounds 5

Every "seated", "moved" or "finished" notice is a row written in the service's own
transaction (a savepoint and an INSERT) plus, after the commit, one group send per player.
A start seats every human entrant at once, so its cost grows with the field. This creates a
fresh database ``rummy_bench_notices`` on the ``--pg`` server, ``--players`` people entered
in one tournament, and times ``announce.seated`` for all of them, commit and sends included
(the channel layer is the in-memory one: the Redis round trip is the layer's cost, not the
notice's), ``--rounds`` times. Prints the median milliseconds per start and microseconds per
notice.
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
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    args = parser.parse_args()

    import psycopg

    name = "rummy_bench_notices"
    with psycopg.connect(f"{args.pg}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = f"{args.pg}/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import transaction

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    call_command("migrate", verbosity=0)

    from accounts.models import Notice, User
    from tournaments import announce
    from tournaments.models import Entry, Tournament, TournamentTable

    t = Tournament.objects.create(name="Bench cup", status=Tournament.Status.RUNNING)
    tables = TournamentTable.objects.bulk_create(
        TournamentTable(tournament=t, number=n + 1) for n in range((args.players + 3) // 4)
    )
    users = User.objects.bulk_create(
        User(username=f"p{i}", display_name=f"P {i}", password="!") for i in range(args.players)
    )
    Entry.objects.bulk_create(
        Entry(tournament=t, user=u, table=tables[i // 4], seat=i % 4) for i, u in enumerate(users)
    )
    entries = list(Entry.objects.filter(tournament=t).select_related("user", "table"))

    took = []
    for _ in range(args.rounds):
        Notice.objects.all().delete()
        started = time.perf_counter()
        with transaction.atomic():
            announce.seated(t, entries)
        took.append(time.perf_counter() - started)
        assert Notice.objects.count() == args.players
    median = statistics.median(took)
    print(
        f"{args.players} seated notices: median {median * 1000:.0f} ms per start "
        f"({median / args.players * 1e6:.0f} us per notice), rounds {args.rounds}"
    )


if __name__ == "__main__":
    main()
