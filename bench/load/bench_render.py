"""What the browser sockets of a table cost per move, beside the JSON frames of the same snapshot.

    .venv/bin/python -m bench.load.bench_render --games 3 --target 150

Bot games are played in-process through the real move service (in-memory SQLite, as the
leak scan does), with deals seeded from ``--seed`` (the same games on every run and at every
commit). After every move, as a process serving a table's sockets does, it builds:

- the browser path (``games.table.table_frames``): the version's shared part, once
  (``version_parts``), then each seat's frame, each socket sent only what changed since its
  last frame;
- the JSON frame of each seat (``presenters.state_json``);
- with ``--whole``, the whole HTML fragment each socket got before issue 19
  (``presenters.state_html``), for reference.

The headline is per version (per move) and table of four seats: the shared part plus the
four seats' frames, against the four seats' JSON frames. The spectator's frame of each kind
follows apart, with per-socket medians and the frames' bytes. Sides interleaved per
snapshot (each goes first every other version), one pinned core. The per-version blocks are
timed in the thread's processor time (``thread_time``: on a shared machine the waits for
the core stay out; its own cost, about 5 µs a call on this machine, counts on both sides
alike); the per-socket figures in wall time (``perf_counter``).

Each version's shared part is built as a process first meets that version
(``table_frames.forget``); what the process keeps from the versions before
(``games.table.kept``) stays, as it does in a process that renders every version of its
tables. The benchmark runs at older commits too (it leaves out what they lack), so a
before/after comparison is this file run in both trees, interleaved (docs/performance.md).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

from bench.leaks.scan import _setup_django

SEATS = 4


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def _summary(values: list[float]) -> dict[str, float]:
    return {
        "p50_us": round(statistics.median(values), 1),
        "mean_us": round(statistics.fmean(values), 1),
        "p95_us": round(_pct(values, 0.95), 1),
    }


def run(games: int, target: int, seed: int, whole: bool) -> dict[str, Any]:
    _setup_django()
    from unittest import mock

    from accounts.models import User
    from games import bots, engine, selectors
    from games.models import Hand, Seat, Table
    from games.services import moves as moves_service
    from games.services import tables
    from games.table import table_frames

    per_version: dict[str, list[float]] = {"shared": [], "seats": [], "html": [], "json": []}
    socket_us: dict[str, list[float]] = {
        "json": [],
        "html_frame": [],
        "html_whole": [],
        "json_to_move": [],
        "html_frame_to_move": [],
        "json_idle": [],
        "html_frame_idle": [],
    }
    spectator_us: dict[str, list[float]] = {"json": [], "html_frame": []}
    sizes: dict[str, list[int]] = {"json": [], "html_frame": [], "html_whole": []}
    moves = 0
    deals = random.Random(seed)
    reset = getattr(table_frames, "reset", None)  # not at commits before the third pass
    with (
        mock.patch("games.tasks.schedule_table_work"),
        mock.patch("secrets.randbits", deals.getrandbits),
    ):
        # Game -1 warms the process up (imports, templates, the URL resolver) and is not
        # counted; what it kept is forgotten before the counted games.
        for number in range(-1, games):
            if number == 0:
                for values in (*per_version.values(), *socket_us.values(), *sizes.values()):
                    values.clear()
                for values in spectator_us.values():
                    values.clear()
                moves = 0
                deals.seed(seed)  # the counted games' deals do not depend on the warm-up
                if reset is not None:
                    reset()
            rng = random.Random(seed * 1009 + number)
            host = User.objects.create_user(
                username=f"rhost{number + 1}", password="x", display_name=f"Host {number}"
            )
            table = tables.table_create(
                host=host, name=f"Render {number}", preset="standard",
                options={"target": target if number >= 0 else 50}, num_seats=SEATS,
                turn_seconds=60,
                fill_with_bots=True, bot_level="easy",
            )  # fmt: skip
            tables.table_start(table_id=table.pk, by=host)
            # Seat 0 is played by a bot for its person: that seat's page shows "I'm back".
            Seat.objects.filter(table=table, index=0).update(autoplay=True)
            sent: dict[int | None, dict[str, Any]] = {}
            for _ in range(100_000):
                snap = selectors.load_snapshot(table.pk)
                if snap.state is not None:
                    _measure(snap, sent, whole, per_version, socket_us, spectator_us, sizes)
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
    html, json_ = per_version["html"], per_version["json"]
    out: dict[str, Any] = {
        "moves": moves,
        "versions": len(html),
        "per_version_4_seats": {
            "html_shared_plus_seats": _summary(html),
            "of_which_shared": _summary(per_version["shared"]),
            "of_which_4_seat_frames": _summary(per_version["seats"]),
            "json_4_frames": _summary(json_),
            "x_json_p50": round(statistics.median(html) / statistics.median(json_), 2),
            "x_json_mean": round(statistics.fmean(html) / statistics.fmean(json_), 2),
            "x_json_p50_of_ratios": round(
                statistics.median(h / j for h, j in zip(html, json_, strict=True)), 2
            ),
        },
    }
    json_p50 = statistics.median(socket_us["json"])
    for kind, values in socket_us.items():
        if not values:
            continue
        out[f"per_seat_{kind}"] = {
            **_summary(values),
            "x_json_p50": round(statistics.median(values) / json_p50, 2),
        }
        if kind in sizes:
            out[f"per_seat_{kind}"]["bytes_p50"] = int(statistics.median(sizes[kind]))
            out[f"per_seat_{kind}"]["bytes_p90"] = int(_pct(sizes[kind], 0.90))
    out["spectator"] = {kind: _summary(values) for kind, values in spectator_us.items()}
    return out


def _measure(
    snap: Any,
    sent: dict[int | None, dict[str, Any]],
    whole: bool,
    per_version: dict[str, list[float]],
    socket_us: dict[str, list[float]],
    spectator_us: dict[str, list[float]],
    sizes: dict[str, list[int]],
) -> None:
    """One version, as a process with the table's four seats and a spectator connected.
    The two kinds take turns going first, version by version."""
    from games.table import presenters, table_frames

    movers = set(snap.state.to_act)
    clock = time.perf_counter
    cpu = time.thread_time  # the blocks: processor time, so a busy machine's waits stay out

    def browser() -> None:
        table_frames.forget(snap.table.pk)  # a version this process has not built yet
        began = cpu()
        table_frames.version_parts(snap)
        shared = cpu()
        for seat in range(SEATS):
            start = clock()
            text, sent[seat] = table_frames.frame(snap, seat, None, sent.get(seat, {}))
            took = (clock() - start) * 1e6
            socket_us["html_frame"].append(took)
            socket_us["html_frame_to_move" if seat in movers else "html_frame_idle"].append(took)
            sizes["html_frame"].append(len(text.encode()))
        done = cpu()
        start = clock()
        text, sent[None] = table_frames.frame(snap, None, None, sent.get(None, {}))
        spectator_us["html_frame"].append((clock() - start) * 1e6)
        per_version["shared"].append((shared - began) * 1e6)
        per_version["seats"].append((done - shared) * 1e6)
        per_version["html"].append((done - began) * 1e6)

    def json_frames() -> None:
        began = cpu()
        for seat in range(SEATS):
            start = clock()
            text = presenters.state_json(snap, seat)
            took = (clock() - start) * 1e6
            socket_us["json"].append(took)
            socket_us["json_to_move" if seat in movers else "json_idle"].append(took)
            sizes["json"].append(len(text.encode()))
        done = cpu()
        start = clock()
        presenters.state_json(snap, None)
        spectator_us["json"].append((clock() - start) * 1e6)
        per_version["json"].append((done - began) * 1e6)

    for side in (browser, json_frames) if snap.version % 2 else (json_frames, browser):
        side()
    if whole:
        for seat in range(SEATS):
            start = clock()
            text = presenters.state_html(snap, seat, None)
            socket_us["html_whole"].append((clock() - start) * 1e6)
            sizes["html_whole"].append(len(text.encode()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--target", type=int, default=150)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--whole", action="store_true", help="also the whole fragment (before issue 19)"
    )
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})
    import json

    print(json.dumps(run(args.games, args.target, args.seed, args.whole), indent=1))


if __name__ == "__main__":
    main()
