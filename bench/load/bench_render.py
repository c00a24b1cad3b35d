"""What one browser socket's frame costs to build, beside the JSON frame of the same snapshot.

    .venv/bin/python -m bench.load.bench_render --games 6 --target 200

Bot games are played in-process through the real move service (in-memory SQLite, as the
leak scan does). After every move each seat's and a spectator's frame is built as the
socket builds it: the JSON frame (``presenters.state_json``), the whole HTML fragment as
the page used to receive it (``presenters.state_html``) and the browser frame of
``games.table.table_frames`` (shared regions rendered once per version and process, per seat only
what differs, only the regions that changed since that socket's last frame). Prints median
and p95 microseconds per seat, the median and p90 bytes of each kind, and the browser frame
with its share of the version's shared part (a fifth: four seats and a spectator); sides
interleaved per snapshot, on one pinned core.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from bench.leaks.scan import _setup_django


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def run(games: int, target: int, seed: int) -> dict[str, Any]:
    _setup_django()
    from unittest import mock

    from accounts.models import User
    from games import bots, engine, selectors
    from games.models import Hand, Seat, Table
    from games.services import moves as moves_service
    from games.services import tables
    from games.table import presenters, table_frames

    times: dict[str, list[float]] = {"json": [], "html_whole": [], "html_frame": []}
    sizes: dict[str, list[int]] = {"json": [], "html_whole": [], "html_frame": []}
    shared_us: list[float] = []
    moves = 0
    with mock.patch("games.tasks.schedule_table_work"):
        for number in range(games):
            rng = random.Random(seed * 1009 + number)
            host = User.objects.create_user(
                username=f"rhost{number}", password="x", display_name=f"Host {number}"
            )
            table = tables.table_create(
                host=host, name=f"Render {number}", preset="standard",
                options={"target": target}, num_seats=4, turn_seconds=60,
                fill_with_bots=True, bot_level="easy",
            )  # fmt: skip
            tables.table_start(table_id=table.pk, by=host)
            Seat.objects.filter(table=table, index=0).update(autoplay=True)
            sent: dict[int | None, dict[str, str]] = {}
            for _ in range(100_000):
                snap = selectors.load_snapshot(table.pk)
                if snap.state is not None:
                    table_frames.forget(table.pk)  # a fresh version: its shared part is new
                    began = time.perf_counter()
                    table_frames.shared_regions(snap)
                    shared_us.append((time.perf_counter() - began) * 1e6)
                    for seat in [*range(4), None]:
                        began = time.perf_counter()
                        text = presenters.state_json(snap, seat)
                        times["json"].append((time.perf_counter() - began) * 1e6)
                        sizes["json"].append(len(text.encode()))
                        began = time.perf_counter()
                        text = presenters.state_html(snap, seat, None)
                        times["html_whole"].append((time.perf_counter() - began) * 1e6)
                        sizes["html_whole"].append(len(text.encode()))
                        began = time.perf_counter()
                        text, sent[seat] = table_frames.frame(snap, seat, None, sent.get(seat, {}))
                        times["html_frame"].append((time.perf_counter() - began) * 1e6)
                        sizes["html_frame"].append(len(text.encode()))
                if snap.table.status != Table.Status.PLAYING:
                    break
                if snap.hand.status == Hand.Status.OVER:
                    tables.hand_next(table_id=table.pk)
                    continue
                seat = snap.state.to_act[0]
                legal = engine.legal_actions(snap.state, seat)
                action = bots.choose_action("easy", engine.view(snap.state, seat), legal, rng)
                moves_service.move_submit(
                    table_id=table.pk, seat=seat, action=engine.action_to_json(action),
                    expected_version=snap.version,
                )  # fmt: skip
                moves += 1
            selectors.clear_cache()
    json_p50 = statistics.median(times["json"])
    out: dict[str, Any] = {"moves": moves, "frames_per_kind": len(times["json"])}
    for kind in times:
        out[kind] = {
            "p50_us": round(statistics.median(times[kind]), 1),
            "p95_us": round(_pct(times[kind], 0.95), 1),
            "x_json_p50": round(statistics.median(times[kind]) / json_p50, 1),
            "bytes_p50": int(statistics.median(sizes[kind])),
            "bytes_p90": int(_pct(sizes[kind], 0.90)),
        }
    shared_p50 = statistics.median(shared_us)
    out["shared_once_per_version_us_p50"] = round(shared_p50, 1)
    # What a socket really costs its process: its own part plus its share of the version's
    # shared part (a table's five sockets here: four seats and a spectator).
    whole = statistics.median(times["html_frame"]) + shared_p50 / 5
    out["html_frame_with_shared_share"] = {
        "p50_us": round(whole, 1),
        "x_json_p50": round(whole / json_p50, 1),
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--target", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    import json

    print(json.dumps(run(args.games, args.target, args.seed), indent=1))


if __name__ == "__main__":
    main()
