"""How fast this machine is right now, in the units the load benchmark's figures are made of.

    .venv/bin/python -m bench.load.run --tables 60 --calibrate ...

(run.py starts it in its stack's environment, on the run's own database, before any table is
played, and prints its line.) A few 4-seat tables are played through the move service in this
one process (the seat to act plays its first legal action, as bench/load/move_write.py does;
no Celery work is queued), and after every move each seat's JSON frame and browser frame are
built as the sockets build them. Prints one JSON object: medians of µs of wall and processor
time per move written, per JSON frame and per browser frame (a seat's own part; the
version's shared part apart), and the ms of a fixed pure-Python loop (the interpreter's
speed alone). Two runs' figures compare in proportion to these: a loaded or slower machine
shows up here before it shows up in the round trips.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import sys
import time
from typing import Any
from unittest import mock


def _loop_ms() -> float:
    """A fixed amount of pure-Python work (dict and string churn, as a frame build has)."""
    began = time.process_time()
    total = 0
    for i in range(200_000):
        item = {"n": str(i), "s": str(i)}
        total += len(item["s"])
    return (time.process_time() - began) * 1000


def started_tables(count: int, prefix: str, name: str) -> list[int]:
    """``count`` started 4-seat `standard` tables of new accounts (``prefix`` names them),
    played to a target no benchmark reaches; returns their ids. Needs Django set up."""
    from accounts.models import User
    from games.services import tables as tables_service

    ids = []
    for t in range(count):
        users = [
            User.objects.create_user(
                username=f"{prefix}{t}x{s}", email=f"{prefix}{t}x{s}@example.com"
            )
            for s in range(4)
        ]
        table = tables_service.table_create(
            host=users[0], name=f"{name} {t}", preset="standard",
            options={"target": 100000}, num_seats=4, turn_seconds=300,
        )  # fmt: skip
        for user in users[1:]:
            tables_service.seat_join(table_id=table.pk, user=user)
        tables_service.table_start(table_id=table.pk, by=users[0])
        ids.append(table.pk)
    return ids


def run(tables: int = 4, moves: int = 160) -> dict[str, Any]:
    import django

    django.setup()
    from games import engine, selectors
    from games.models import Hand
    from games.services import moves as moves_service
    from games.services import shared
    from games.services import tables as tables_service
    from games.table import presenters, table_frames

    times: dict[str, list[float]] = {
        "move_wall": [],
        "move_cpu": [],
        "json_frame": [],
        "browser_frame": [],
        "browser_shared": [],
    }
    with mock.patch("games.tasks.schedule_table_work"):
        ids = started_tables(tables, "cal", "Calibration")
        sent: dict[tuple[int, int], dict[str, Any]] = {}
        for turn in range(moves):
            table_id = ids[turn % len(ids)]
            snap = selectors.load_snapshot(table_id)
            if snap.hand is None or snap.hand.status != Hand.Status.PLAYING:
                tables_service.hand_next(table_id=table_id, expected_version=snap.version)
                continue
            began = time.perf_counter()
            table_frames.shared_regions(snap)
            times["browser_shared"].append(time.perf_counter() - began)
            for seat in range(4):
                began = time.perf_counter()
                presenters.state_json(snap, seat)
                times["json_frame"].append(time.perf_counter() - began)
                began = time.perf_counter()
                _text, sent[table_id, seat] = table_frames.frame(
                    snap, seat, None, sent.get((table_id, seat), {})
                )
                times["browser_frame"].append(time.perf_counter() - began)
            seat = snap.state.to_act[0]
            action = engine.legal_actions(snap.state, seat)[0]
            wall, cpu = time.perf_counter(), time.process_time()
            moves_service.move_submit(
                table_id=table_id, seat=seat, action=engine.action_to_json(action),
                expected_version=snap.version,
            )  # fmt: skip
            times["move_wall"].append(time.perf_counter() - wall)
            times["move_cpu"].append(time.process_time() - cpu)
        for table_id in ids:
            with contextlib.suppress(shared.TableError):
                tables_service.table_abort(table_id=table_id, reason="Calibration over.")
    out: dict[str, Any] = {
        f"{name}_us_p50": round(statistics.median(values) * 1e6, 1)
        for name, values in times.items()
        if values
    }
    out["moves"] = len(times["move_wall"])
    out["python_loop_ms"] = round(statistics.median(_loop_ms() for _ in range(5)), 1)
    return out


if __name__ == "__main__":
    json.dump(run(*map(int, sys.argv[1:3])), sys.stdout)
