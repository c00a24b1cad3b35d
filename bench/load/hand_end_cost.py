"""What a hand's end costs next to an ordinary move, in one process, on one core.

    SQLITE_PATH=/tmp/hand_end.sqlite3 .venv/bin/python manage.py migrate
    SQLITE_PATH=/tmp/hand_end.sqlite3 .venv/bin/python -m bench.load.hand_end_cost --moves 1500

Four 4-seat `standard` tables are played through the move service by a random player like the
load benchmark's (`bench.load.players.choose`: mostly draws from the stock, melds or lays off
half the time, discards at random), so hands end now and then. Per move it times, in processor
time: the move written (`move_submit`), and the frames of the new version for four JSON
sockets and for four browser sockets (the version's shared part included); a move that ends a
hand is counted apart, and so is dealing the next hand (`hand_next`, which the Celery worker
does in production) with its frames. No Celery work is queued. ``--profile FILE`` writes a
cProfile of the moves and deals.
"""

from __future__ import annotations

import argparse
import cProfile
import random
import statistics
import time
from typing import Any
from unittest import mock


def run(moves: int, profile: str | None) -> dict[str, dict[str, float]]:
    import django

    django.setup()
    from bench.load.calibrate import started_tables
    from bench.load.players import choose
    from games import engine, selectors
    from games.models import Hand
    from games.services import moves as moves_service
    from games.services import tables as tables_service
    from games.table import presenters, table_frames

    rng = random.Random(3)
    kinds: dict[str, list[float]] = {}
    prof = cProfile.Profile()
    sent: dict[tuple[int, int], dict[str, Any]] = {}

    def timed(kind: str, began: float) -> None:
        kinds.setdefault(kind, []).append(time.process_time() - began)

    def frames(snap: Any, tag: str) -> None:
        began = time.process_time()
        for seat in range(4):
            presenters.state_json(snap, seat)
        timed(f"4 JSON frames {tag}", began)
        began = time.process_time()
        table_frames.shared_regions(snap)
        for seat in range(4):
            _text, sent[snap.table.pk, seat] = table_frames.frame(
                snap, seat, None, sent.get((snap.table.pk, seat), {})
            )
        timed(f"4 browser frames {tag}", began)

    with mock.patch("games.tasks.schedule_table_work"):
        ids = started_tables(4, f"he{time.time_ns()}x", "Hand ends")
        for turn in range(moves):
            table_id = ids[turn % len(ids)]
            snap = selectors.load_snapshot(table_id)
            if snap.hand is None or snap.hand.status != Hand.Status.PLAYING:
                began = time.process_time()
                prof.enable()
                tables_service.hand_next(table_id=table_id, expected_version=snap.version)
                prof.disable()
                timed("next hand dealt", began)
                frames(selectors.load_snapshot(table_id), "(new deal)")
                continue
            seat = snap.state.to_act[0]
            state = {
                "legal": [engine.action_to_json(a) for a in engine.legal_actions(snap.state, seat)]
            }
            action = choose(state, rng)
            began = time.process_time()
            prof.enable()
            moves_service.move_submit(
                table_id=table_id, seat=seat, action=action, expected_version=snap.version
            )
            prof.disable()
            after = selectors.load_snapshot(table_id)
            ended = after.hand is None or after.hand.status != Hand.Status.PLAYING
            timed("move that ends a hand" if ended else "move", began)
            frames(after, "(hand end)" if ended else "(move)")
    if profile:
        prof.dump_stats(profile)
    return {
        kind: {
            "n": len(values),
            "median_ms": round(statistics.median(values) * 1000, 2),
            "max_ms": round(max(values) * 1000, 2),
        }
        for kind, values in kinds.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--profile", default=None, help="write a cProfile of the writes here")
    args = parser.parse_args()
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    for kind, figures in sorted(run(args.moves, args.profile).items()):
        print(f"{kind:32s} n={figures['n']:5d}  median {figures['median_ms']:7.2f} ms"
              f"  max {figures['max_ms']:7.2f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
