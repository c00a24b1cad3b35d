"""The load generator's own processor time per move, against a server that only answers.

    .venv/bin/python -m bench.load.generator_cost --tables 60 --seconds 20 --reps 2

In the real benchmark (bench/load/run.py) the generator shares the machine's cores with the
servers it measures, so what it spends is taken from them. This measures that cost alone:
a generator process (bench/load/generator.py, as run.py starts it) plays JSON and html tables
against a canned server in a process of its own, which acks every move and sends each seat
a frame recorded from a real game (``presenters.state_json`` and ``table_frames.frame``:
the seat to move's and an idle seat's, a whole frame on connecting and the changed regions
after a move), with only the version rewritten and the turn passed round. The generator's
processor time over the window, divided by the moves played in it, is its cost per move:
processor time, not wall time, so neighbours on the machine slow it without changing it much.
Kinds alternate, repeated ``--reps`` times; prints one JSON line per run and the medians.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
_VERSION = re.compile(r'data-version="\d+"')


def record() -> dict[str, Any]:
    """Frames of a real game at a turn's change (the seat to move has just changed): the new
    mover's and an idle seat's, JSON and browser, whole and as changes since the turn before."""
    from bench.leaks.scan import _setup_django

    _setup_django()
    import random
    from unittest import mock

    from accounts.models import User
    from games import engine, selectors
    from games.services import moves, tables
    from games.table import presenters, table_frames

    rng = random.Random(4)
    with mock.patch("games.tasks.schedule_table_work"):
        host = User.objects.create_user(username="cost", password="x", display_name="Cost")
        table = tables.table_create(
            host=host, name="Cost", preset="standard", options={"target": 500},
            num_seats=4, turn_seconds=300, fill_with_bots=True, bot_level="easy",
        )  # fmt: skip
        tables.table_start(table_id=table.pk, by=host)
        sent: dict[int, dict[str, Any]] = {seat: {} for seat in range(4)}
        before = selectors.load_snapshot(table.pk)
        for turn in range(200):
            snap = selectors.load_snapshot(table.pk)
            changes = {}
            for seat in range(4):
                changes[seat], sent[seat] = table_frames.frame(snap, seat, None, sent[seat])
            mover = snap.state.to_act[0]
            if turn > 8 and mover != before.state.to_act[0]:
                idle = next(s for s in range(4) if s not in (mover, before.state.to_act[0]))
                return {
                    "json": {
                        "move": presenters.state_json(snap, mover),
                        "idle": presenters.state_json(snap, idle),
                    },
                    "html": {
                        "first_move": table_frames.frame(snap, mover, None, {})[0],
                        "first_idle": table_frames.frame(snap, idle, None, {})[0],
                        "move": changes[mover],
                        "idle": changes[idle],
                    },
                }
            legal = engine.legal_actions(snap.state, mover)
            moves.move_submit(
                table_id=table.pk, seat=mover, action=engine.action_to_json(rng.choice(legal)),
                expected_version=snap.version,
            )  # fmt: skip
            before = snap
    raise RuntimeError("no change of turn recorded")


def _frame(frames: dict[str, Any], html: bool, kind: str, version: int) -> str:
    if html:
        return _VERSION.sub(f'data-version="{version}"', str(frames["html"][kind]), count=1)
    head = '{"type":"state","version":'
    text = str(frames["json"][kind])
    return head + str(version) + text[text.find(",", len(head)) :]


async def serve(port: int, frames: dict[str, Any]) -> None:
    """Ack every move and send each seat of its table the next version's frame."""
    import orjson
    import websockets
    from websockets.protocol import State

    tables: dict[str, dict[str, Any]] = {}

    async def handler(ws: Any) -> None:
        path = ws.request.path
        html = "format=json" not in path
        table = tables.setdefault(path.split("?")[0], {"version": 1, "mover": 0, "sockets": []})
        seat = len(table["sockets"])
        table["sockets"].append(ws)
        first = "move" if seat == table["mover"] else "idle"
        try:
            await ws.send(
                _frame(frames, html, f"first_{first}" if html else first, table["version"])
            )
            async for raw in ws:
                frame = orjson.loads(raw)
                if "action" not in frame:
                    continue
                table["version"] += 1
                table["mover"] = (table["mover"] + 1) % 4
                version = table["version"]
                ack = {"type": "ack", "id": frame["id"], "version": version}
                await ws.send(orjson.dumps(ack).decode())
                for number, other in enumerate(table["sockets"]):
                    kind = "move" if number == table["mover"] else "idle"
                    with contextlib.suppress(websockets.ConnectionClosed):
                        await other.send(_frame(frames, html, kind, version))
        except websockets.ConnectionClosed:
            pass
        finally:
            if all(other.state is State.CLOSED or other is ws for other in table["sockets"]):
                tables.pop(path.split("?")[0], None)  # a later run's table starts afresh

    async with websockets.serve(handler, "127.0.0.1", port, ping_interval=None, max_size=2**22):
        await asyncio.Event().wait()


def _cpu(pid: int) -> float:
    from bench.load.run import cpu_seconds

    return cpu_seconds(pid)


def measure(port: int, count: int, html: bool, seconds: float, warmup: float) -> dict[str, Any]:
    """One generator process playing ``count`` tables of one kind; its CPU per move."""
    tables = [
        {
            "id": number + (1000 if html else 0),
            "cookies": [f"c{number}x{seat}" for seat in range(4)],
            "port": port,
            "html": html,
            "arrive_s": [(4 * number + seat) / 200 for seat in range(4)],
        }
        for number in range(count)
    ]
    child = subprocess.Popen(
        [sys.executable, "-m", "bench.load.generator"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, text=True,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps({"tables": tables, "echo": False, "seed": 1}) + "\n")
    child.stdin.flush()
    assert child.stdout.readline().strip() == "ready"
    child.stdin.write(json.dumps({"start": time.monotonic()}) + "\n")
    child.stdin.flush()
    assert child.stdout.readline().startswith("arrived")
    measure_from = time.monotonic() + warmup
    measure_to = measure_from + seconds
    child.stdin.write(json.dumps({"measure_from": measure_from, "measure_to": measure_to}) + "\n")
    child.stdin.flush()
    time.sleep(max(0.0, measure_from - time.monotonic()))
    first = _cpu(child.pid)
    time.sleep(max(0.0, measure_to - time.monotonic()))
    last = _cpu(child.pid)
    result = json.loads(child.stdout.readline())
    child.wait()
    raw = result["kinds"]["html" if html else "json"]
    moves = raw["moves"]
    return {
        "kind": "html" if html else "json",
        "tables": count,
        "moves": moves,
        "errors": sum(raw["errors"].values()),
        "cpu_ms_per_move": round(1000 * (last - first) / max(moves, 1), 3),
        "cpu_pct": round(100 * (last - first) / seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--reps", type=int, default=2)
    args = parser.parse_args()
    frames_path = Path("/tmp") / f"rummy-generator-cost-{time.time_ns()}.json"
    subprocess.run(
        [sys.executable, "-m", "bench.load.generator_cost", "record", str(frames_path)],
        cwd=ROOT,
        check=True,
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "bench.load.generator_cost", "serve", str(port), str(frames_path)],
        cwd=ROOT,
    )
    try:
        time.sleep(2)
        runs = []
        for _ in range(args.reps):
            for html in (False, True):
                row = measure(port, args.tables, html, args.seconds, args.warmup)
                print(json.dumps(row), flush=True)
                runs.append(row)
        for kind in ("json", "html"):
            mine = [r["cpu_ms_per_move"] for r in runs if r["kind"] == kind]
            print(f"{kind}: median {statistics.median(mine)} ms of CPU per move ({mine})")
    finally:
        server.terminate()
        frames_path.unlink(missing_ok=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "record":
        Path(sys.argv[2]).write_text(json.dumps(record()))
    elif len(sys.argv) > 1 and sys.argv[1] == "serve":
        asyncio.run(serve(int(sys.argv[2]), json.loads(Path(sys.argv[3]).read_text())))
    else:
        main()
