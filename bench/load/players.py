"""Scripted WebSocket players: one move per table per second, timing every round trip.

A move's round trip runs from the moment the mover sends it until every seat at the table
has received a state frame at the new version (or, for the echo floor, the echoed frame).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import websockets

_ids = itertools.count(1)


@dataclass
class Stats:
    rtts_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0
    hands_finished: int = 0
    games_finished: int = 0
    timeouts: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def summary(self, seconds: float) -> dict[str, Any]:
        rtts = sorted(self.rtts_ms)

        def pct(p: float) -> float | None:
            if not rtts:
                return None
            return round(rtts[min(len(rtts) - 1, int(p * len(rtts)))], 1)

        return {
            "moves": self.moves,
            "moves_per_s": round(self.moves / seconds, 1),
            "p50_ms": round(statistics.median(rtts), 1) if rtts else None,
            "p95_ms": pct(0.95),
            "p99_ms": pct(0.99),
            "max_ms": round(rtts[-1], 1) if rtts else None,
            "errors": sum(self.errors.values()),
            "error_codes": self.errors,
            "timeouts": self.timeouts,
            "hands_finished": self.hands_finished,
            "games_finished": self.games_finished,
        }


class Socket:
    """One seat's connection: keeps the latest state and wakes whoever waits for a version."""

    def __init__(self, ws: Any, stats: Stats) -> None:
        self.ws = ws
        self.stats = stats
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.changed = asyncio.Event()
        self.acks: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "state":
                    if frame["version"] >= self.version:
                        self.version = frame["version"]
                        self.state = frame
                    self.changed.set()
                elif kind in ("ack", "error"):
                    if kind == "error":
                        self.stats.error(frame.get("code", "?"))
                    waiter = self.acks.pop(frame.get("id", ""), None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result(frame)
        except websockets.ConnectionClosed:
            self.stats.error("closed")

    async def wait_version(self, version: int, limit_s: float) -> float:
        """Seconds on the monotonic clock when this socket reached ``version``."""
        deadline = time.monotonic() + limit_s
        while self.version < version:
            self.changed.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            await asyncio.wait_for(self.changed.wait(), remaining)
        return time.monotonic()


async def _connect_seats(
    url: str, table: dict[str, Any], stats: Stats, *, origin: str
) -> list[Socket]:
    """One socket per seat of ``table``, each logged in with that seat's session."""
    sockets = []
    for cookie in table["cookies"]:
        ws = await websockets.connect(
            url,
            additional_headers={"Cookie": f"sessionid={cookie}", "Origin": origin},
            open_timeout=30,
            max_size=2**22,
        )
        sockets.append(Socket(ws, stats))
    return sockets


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A plausible player: draws from the stock, melds or lays off half the time, discards."""
    legal = state.get("legal") or []
    if not legal:
        return None
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "draw_stock" in by_type and rng.random() < 0.9:
        return by_type["draw_stock"][0]
    plays = by_type.get("meld", []) + by_type.get("lay_off", [])
    if plays and (rng.random() < 0.5 or "discard" not in by_type):
        return rng.choice(plays)
    if "discard" in by_type:
        return rng.choice(by_type["discard"])
    return rng.choice(legal)


async def play_table(
    base: str,
    table: dict[str, Any],
    seconds: float,
    stats: Stats,
    rng: random.Random,
    *,
    origin: str,
) -> None:
    """Four seats of one real table: connect, then one move per second until time is up."""
    sockets = await _connect_seats(
        f"{base}/ws/tables/{table['id']}/?format=json", table, stats, origin=origin
    )
    readers = [asyncio.create_task(s.read()) for s in sockets]
    try:
        for s in sockets:
            await s.wait_version(0, 30)
        await asyncio.sleep(rng.random())  # spread the tables over the second
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            tick = time.monotonic()
            await _one_move(sockets, stats, rng)
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
    finally:
        for s in sockets:
            await s.ws.close()
        for r in readers:
            r.cancel()


async def _one_move(sockets: list[Socket], stats: Stats, rng: random.Random) -> None:
    latest = max(sockets, key=lambda s: s.version)
    state = latest.state
    if state is None or state["table"]["status"] != "playing":
        return
    view = state["view"]
    if view is None or view["phase"] == "hand_over":
        return  # the next hand is dealt by a Celery countdown
    mover = sockets[view["to_act"][0]] if view["to_act"] else None
    if mover is None or mover.state is None or mover.version < state["version"]:
        return
    action = choose(mover.state, rng)
    if action is None:
        return
    frame_id = f"m{next(_ids)}"
    ack: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    mover.acks[frame_id] = ack
    sent = time.monotonic()
    await mover.ws.send(json.dumps({"id": frame_id, "version": state["version"], "action": action}))
    try:
        reply = await asyncio.wait_for(ack, 10)
        if reply["type"] != "ack":
            return
        arrivals = await asyncio.gather(*(s.wait_version(reply["version"], 10) for s in sockets))
    except TimeoutError:
        stats.timeouts += 1
        return
    stats.rtts_ms.append((max(arrivals) - sent) * 1000)
    stats.moves += 1
    after = mover.state or {}
    if (after.get("view") or {}).get("phase") == "hand_over":
        stats.hands_finished += 1
    if (after.get("table") or {}).get("status") == "finished":
        stats.games_finished += 1


async def echo_table(
    base: str,
    table: dict[str, Any],
    seconds: float,
    stats: Stats,
    rng: random.Random,
    *,
    origin: str,
) -> None:
    """The floor: the same pacing against the bare echo consumer."""
    sockets = await _connect_seats(f"{base}/ws/echo/{table['id']}/", table, stats, origin=origin)
    for s in sockets:
        s.version = 0
    readers = [asyncio.create_task(s.read()) for s in sockets]
    try:
        await asyncio.sleep(rng.random())
        end = time.monotonic() + seconds
        version = 0
        while time.monotonic() < end:
            tick = time.monotonic()
            version += 1
            mover = sockets[version % len(sockets)]
            sent = time.monotonic()
            await mover.ws.send(json.dumps({"version": version}))
            try:
                arrivals = await asyncio.gather(*(s.wait_version(version, 10) for s in sockets))
            except TimeoutError:
                stats.timeouts += 1
                continue
            stats.rtts_ms.append((max(arrivals) - sent) * 1000)
            stats.moves += 1
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
    finally:
        for s in sockets:
            await s.ws.close()
        for r in readers:
            r.cancel()


async def run_load(
    base: str, tables: list[dict[str, Any]], seconds: float, *, echo: bool, seed: int, origin: str
) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(seed)
    play = echo_table if echo else play_table
    started = time.monotonic()
    results = await asyncio.gather(
        *(
            play(base, t, seconds, stats, random.Random(rng.random()), origin=origin)
            for t in tables
        ),
        return_exceptions=True,
    )
    for result in results:
        if isinstance(result, BaseException):
            stats.error(type(result).__name__)
    return stats.summary(time.monotonic() - started)
