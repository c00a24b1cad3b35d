"""The move service in one process on PostgreSQL: one-statement write against the ORM one.

    .venv/bin/python -m bench.load.move_write --tables 20 --rounds 6

Creates a fresh database ``rummy_bench_moves`` on the ``--pg`` server, starts 4-seat tables
with a turn clock, and plays them with ``moves.move_submit`` (first legal action of the
seat to act, no sockets), alternating blocks of moves between the two write paths
(services.move_statement, and the ORM transaction it replaces) so that both see the same machine
noise and the same growth of the tables. Prints each path's median wall and CPU time per move
and their ratio. Moves that end a hand always take the transaction; they are left out.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=6, help="blocks per path")
    parser.add_argument("--moves", type=int, default=300, help="moves per block")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432")
    args = parser.parse_args()

    from bench.load.run import fresh_database

    os.environ["DATABASE_URL"] = fresh_database(args.pg, "rummy_bench_moves")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import User
    from games import engine, selectors
    from games.models import Hand
    from games.services import move_statement, moves
    from games.services import tables as tables_service

    tables = []
    for t in range(args.tables):
        users = [
            User.objects.create_user(username=f"m{t}x{s}", email=f"m{t}x{s}@example.com")
            for s in range(4)
        ]
        table = tables_service.table_create(
            host=users[0], name=f"Moves {t}", preset="standard",
            options={"target": 100000}, num_seats=4, turn_seconds=300,
        )  # fmt: skip
        for user in users[1:]:
            tables_service.seat_join(table_id=table.pk, user=user)
        tables_service.table_start(table_id=table.pk, by=users[0])
        tables.append(table.pk)

    def one_move(table_id: int) -> tuple[float, float] | None:
        """Play the next move; its wall and CPU seconds in the service, None if not timed."""
        snap = selectors.load_snapshot(table_id)
        state = snap.state
        if snap.hand is None or snap.hand.status != Hand.Status.PLAYING or not state.to_act:
            tables_service.hand_next(table_id=table_id, expected_version=snap.version)
            return None
        seat = state.to_act[0]
        legal = engine.legal_actions(state, seat)
        ends = [a for a in legal if engine.action_to_json(a)["type"] == "discard"] or legal
        action = ends[-1]
        after, _ = engine.apply(state, action)
        wall, cpu = time.perf_counter(), time.process_time()
        moves.move_submit(
            table_id=table_id, seat=seat, action=engine.action_to_json(action),
            expected_version=snap.version,
        )  # fmt: skip
        if after.phase == engine.Phase.HAND_OVER:  # always the transaction: not compared
            return None
        return time.perf_counter() - wall, time.process_time() - cpu

    timings: dict[str, list[tuple[float, float]]] = {"statement": [], "transaction": []}
    turn = 0
    for _ in range(args.rounds):
        for path in ("statement", "transaction"):
            patch = mock.patch.object(move_statement, "available", return_value=path == "statement")
            with patch:
                done = 0
                while done < args.moves:
                    table_id = tables[turn % len(tables)]
                    turn += 1
                    timed = one_move(table_id)
                    if timed is not None:
                        timings[path].append(timed)
                        done += 1
    medians = {}
    for path, rows in timings.items():
        wall = statistics.median(r[0] for r in rows) * 1e6
        cpu = statistics.median(r[1] for r in rows) * 1e6
        medians[path] = (wall, cpu)
        print(f"{path:12s} moves {len(rows):6d}  median wall {wall:7.0f} µs  cpu {cpu:7.0f} µs")
    (sw, sc), (tw, tc) = medians["statement"], medians["transaction"]
    print(f"transaction / statement: wall {tw / sw:.2f}x, cpu {tc / sc:.2f}x")


if __name__ == "__main__":
    main()
