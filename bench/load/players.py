"""Scripted WebSocket players: one move per table per second, timing every round trip.

A move's round trip runs from the moment the mover sends it until every seat at the table
has received a state frame at the new version (or, for the echo floor, the echoed frame).
"""

from __future__ import annotations

import asyncio
import gc
import html as html_text
import itertools
import json
import random
import re
import statistics
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import websockets

_ids = itertools.count(1)
COOL_DOWN_S = 1.0


@dataclass
class Stats:
    rtts_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0
    hands_finished: int = 0
    games_finished: int = 0
    games_started: int = 0
    timeouts: int = 0
    http_ms: list[float] = field(default_factory=list)
    http_errors: int = 0
    sent_at: list[float] = field(default_factory=list)
    measure_from: float = 0.0
    measure_to: float = float("inf")
    """Monotonic time before which round trips are not recorded (the warm-up)."""
    frame_bytes: list[int] = field(default_factory=list)
    """Bytes of every state frame received in the window (as sent: no compression)."""
    gc_pauses: list[tuple[float, int, float]] = field(default_factory=list)
    """(seconds into the window, generation, ms) of the generator's own garbage collections:
    a pause here delays every table's round trip at once, like a stall of the server would."""

    def record(self, sent: float, arrived: float) -> None:
        if self.measure_from <= sent < self.measure_to:
            self.rtts_ms.append((arrived - sent) * 1000)
            self.sent_at.append(sent - self.measure_from)
            self.moves += 1

    def slowest(self, n: int = 12) -> list[tuple[float, float]]:
        """(seconds into the measured window, ms) of the slowest round trips: clustered
        moments point at a stall of the whole server, spread ones at single moves."""
        ranked = sorted(zip(self.rtts_ms, self.sent_at, strict=True), reverse=True)[:n]
        return sorted((round(at, 2), round(ms)) for ms, at in ranked)

    def timeline(self, step_s: float = 5.0) -> list[tuple[float, int, float, float]]:
        """(seconds into the window, moves, p50 ms, p99 ms) per ``step_s``: tells a backlog
        that drains (or never does) from latency that is high all along."""
        buckets: dict[int, list[float]] = {}
        for ms, at in zip(self.rtts_ms, self.sent_at, strict=True):
            buckets.setdefault(int(at // step_s), []).append(ms)
        rows = []
        for key in sorted(buckets):
            values = sorted(buckets[key])
            p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
            rows.append(
                (key * step_s, len(values), round(statistics.median(values), 1), round(p99, 1))
            )
        return rows

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
            "games_started": self.games_started,
            "slowest": self.slowest(),
            "timeline": self.timeline(),
            "generator_gc": self.gc_summary(),
            **bytes_summary(self.frame_bytes),
            **http_summary(self.http_ms, self.http_errors),
        }

    def gc_summary(self) -> dict[str, Any]:
        window = [p for p in self.gc_pauses if 0 <= p[0] < self.measure_to - self.measure_from]
        return {
            "collections": len(window),
            "max_ms": round(max((ms for _at, _gen, ms in window), default=0.0), 1),
            "over_20_ms": [(round(at, 2), gen, round(ms)) for at, gen, ms in window if ms > 20],
        }


class GcWatch:
    """Times the load generator's garbage collections into ``stats.gc_pauses``."""

    def __init__(self, stats: Stats) -> None:
        self.stats = stats
        self.began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.began = time.monotonic()
            return
        took = (time.monotonic() - self.began) * 1000
        at = self.began - self.stats.measure_from
        self.stats.gc_pauses.append((at, info["generation"], took))

    def __enter__(self) -> GcWatch:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def bytes_summary(sizes: list[int]) -> dict[str, Any]:
    """State frames received: how many, median and 95th percentile bytes."""
    if not sizes:
        return {"frames": 0}
    ordered = sorted(sizes)
    return {
        "frames": len(ordered),
        "frame_bytes_p50": int(statistics.median(ordered)),
        "frame_bytes_p90": ordered[min(len(ordered) - 1, int(0.90 * len(ordered)))],
        "frame_bytes_p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
    }


def http_summary(times: list[float], errors: int) -> dict[str, Any]:
    """Page reads (bench/load/visitors.py): count, median, 95th percentile, failures."""
    if not times:
        return {"http_requests": 0, "http_errors": errors}
    ordered = sorted(times)
    return {
        "http_requests": len(ordered),
        "http_p50_ms": round(statistics.median(ordered), 1),
        "http_p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
        "http_errors": errors,
    }


# The page's regions in a browser frame (games/table/table_frames.py): each a top-level element
# that htmx swaps by id. Only the attributes table.js acts on are read.
# Regions go whole; a player's entry, a meld, the stock, the pile's heading and new cards of
# a list go alone (their own id; "beforeend" for a list's new items): kept apart by id here,
# they never touch the three regions the client reads.
_REGION = re.compile(r'<\w+ id="([\w-]+)" hx-swap-oob="')
_ATTR = re.compile(r'data-(version|status|phase|my-turn|legal)="([^"]*)"')
_CARD = re.compile(r'data-card="([^"]+)"')
_ERROR_CODE = re.compile(r'class="inline-error" role="alert" data-code="([^"]*)"')


class Page:
    """What a browser keeps of the table: the latest text of each region, as htmx does by
    swapping them, and the few facts table.js reads from their data attributes."""

    def __init__(self) -> None:
        self.regions: dict[str, str] = {}

    def swap(self, raw: str) -> None:
        found = list(_REGION.finditer(raw))
        for here, after in zip(found, [*found[1:], None], strict=True):
            end = after.start() if after is not None else len(raw)
            self.regions[here.group(1)] = raw[here.start() : end]

    def state(self) -> dict[str, Any]:
        """The frame's facts in the JSON client's shape (only the keys the players use)."""
        top = dict(_ATTR.findall(self.regions.get("table-state", "")))
        controls = dict(_ATTR.findall(self.regions.get("controls", "")))
        legal_text = html_text.unescape(controls.get("legal", "")) or "[]"
        legal = json.loads(legal_text) if top.get("my-turn") == "true" else []
        return {
            "version": int(top.get("version", -1)),
            "table": {"status": top.get("status")},
            "view": {"phase": top["phase"]} if top.get("phase") else None,
            "legal": legal,
            "hand": _CARD.findall(self.regions.get("my-hand", "")),
        }


class Socket:
    """One seat's connection: keeps the latest state and wakes whoever waits for a version.

    ``html``: the browser's socket (the page's URL, no ``format``): frames are HTML regions,
    read as a page would, acks and pongs JSON; else the JSON protocol's frames."""

    def __init__(self, ws: Any, stats: Stats, *, html: bool = False) -> None:
        self.ws = ws
        self.stats = stats
        self.html = html
        self.page = Page() if html else None
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.changed = asyncio.Event()
        self.acks: dict[str, asyncio.Future[dict[str, Any]]] = {}

    def _html_frame(self, raw: str) -> None:
        assert self.page is not None
        refused = _ERROR_CODE.search(raw)
        if refused is not None:
            # A refusal in HTML names no frame id: it answers the one move in flight.
            self.stats.error(refused.group(1) or "?")
            for waiter in self.acks.values():
                if not waiter.done():
                    waiter.set_result({"type": "error", "code": refused.group(1)})
            self.acks.clear()
        if 'id="table-state"' not in raw:
            return  # chat lines, presence: nothing to act on
        if self.stats.measure_from <= time.monotonic() < self.stats.measure_to:
            self.stats.frame_bytes.append(len(raw.encode()))
        self.page.swap(raw)
        state = self.page.state()
        if state["version"] >= self.version:
            self.version = state["version"]
            self.state = state
        self.changed.set()

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                if self.html and not raw.startswith("{"):
                    self._html_frame(raw)
                    continue
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "state":
                    if self.stats.measure_from <= time.monotonic() < self.stats.measure_to:
                        self.stats.frame_bytes.append(len(raw.encode()))
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
        except websockets.ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else "none"
            self.stats.error(f"closed-{code}")

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
    url: str, table: dict[str, Any], stats: Stats, *, origin: str, html: bool = False
) -> list[Socket]:
    """One socket per seat of ``table``, each logged in with that seat's session (the
    headers a browser's socket carries: its cookie and the page's origin)."""
    sockets = []
    for cookie in table["cookies"]:
        ws = await websockets.connect(
            url,
            additional_headers={"Cookie": f"sessionid={cookie}", "Origin": origin},
            open_timeout=30,
            max_size=2**22,
        )
        sockets.append(Socket(ws, stats, html=html))
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
    until: float,
    stats: Stats,
    rng: random.Random,
    *,
    origin: str,
    html: bool = False,
) -> None:
    """Four seats of one real table: connect, then one move per second until ``until``.
    ``html``: as browsers, on the page's socket URL (games/views.py ``_socket_url``)."""
    url = f"{base}/ws/tables/{table['id']}/" + ("" if html else "?format=json")
    sockets = await _connect_seats(url, table, stats, origin=origin, html=html)
    readers = [asyncio.create_task(s.read()) for s in sockets]
    try:
        for s in sockets:
            await s.wait_version(0, 30)
        await asyncio.sleep(rng.random())  # spread the tables over the second
        while time.monotonic() < until:
            tick = time.monotonic()
            latest = max(sockets, key=lambda s: s.version).state or {}
            if (latest.get("table") or {}).get("status") == "finished":
                await _play_again(base, table, sockets, stats)
            else:
                await _one_move(sockets, stats, rng)
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
    finally:
        for r in readers:  # stop reading first: our own closing is not a dropped connection
            r.cancel()
        for s in sockets:
            await s.ws.close()


def _post(url: str, cookie: str) -> int:
    """A form post as a logged-in browser would make it (session cookie, CSRF cookie+header)."""
    token = "b" * 32
    request = urllib.request.Request(
        url,
        data=b"",
        method="POST",
        headers={"Cookie": f"sessionid={cookie}; csrftoken={token}", "X-CSRFToken": token},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


async def _play_again(
    base: str, table: dict[str, Any], sockets: list[Socket], stats: Stats
) -> None:
    """The host starts the next game with the same seats, as the "play again" button does."""
    http = base.replace("ws://", "http://", 1)
    status = await asyncio.to_thread(
        _post, f"{http}/tables/{table['id']}/start/", table["cookies"][0]
    )
    if status >= 400:
        stats.error(f"play-again-{status}")
        return
    stats.games_started += 1
    version = max(s.version for s in sockets)
    try:
        await asyncio.gather(*(s.wait_version(version + 1, 30) for s in sockets))
    except TimeoutError:
        stats.timeouts += 1


async def _one_move(sockets: list[Socket], stats: Stats, rng: random.Random) -> None:
    latest = max(sockets, key=lambda s: s.version)
    state = latest.state
    if state is None or state["table"]["status"] != "playing":
        return
    view = state["view"]
    if view is None or view["phase"] == "hand_over":
        return  # the next hand is dealt by a Celery countdown
    # The seat with legal moves at the latest version (both kinds of frame say so).
    movers = [s for s in sockets if s.state and s.version >= state["version"] and s.state["legal"]]
    if not movers:
        return
    mover = movers[0]
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
    stats.record(sent, max(arrivals))
    after = mover.state or {}
    if (after.get("view") or {}).get("phase") == "hand_over":
        stats.hands_finished += 1
    if (after.get("table") or {}).get("status") == "finished":
        stats.games_finished += 1


async def echo_table(
    base: str,
    table: dict[str, Any],
    until: float,
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
        version = 0
        while time.monotonic() < until:
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
            stats.record(sent, max(arrivals))
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
    finally:
        for r in readers:  # stop reading first: our own closing is not a dropped connection
            r.cancel()
        for s in sockets:
            await s.ws.close()


async def run_load(
    base: str,
    tables: list[dict[str, Any]],
    seconds: float,
    *,
    echo: bool,
    seed: int,
    origin: str,
    warmup: float = 5.0,
    clients: str = "json",
) -> dict[str, Any]:
    """Play for ``warmup + seconds`` and a second more; only round trips sent in between
    count. The first moves of every table meet cold caches, fresh connections and sockets
    still arriving; in the last second, tables that have stopped close their sockets."""
    started = time.monotonic()
    stats = Stats(measure_from=started + warmup, measure_to=started + warmup + seconds)
    until = started + warmup + seconds + COOL_DOWN_S
    rng = random.Random(seed)
    kinds = {"json": [False], "html": [True], "mixed": [False, True]}[clients]
    by_kind = {
        html: Stats(measure_from=stats.measure_from, measure_to=stats.measure_to) for html in kinds
    }
    cpu_before = time.process_time()
    with GcWatch(stats):
        if echo:
            jobs = [
                echo_table(base, t, until, stats, random.Random(rng.random()), origin=origin)
                for t in tables
            ]
        else:
            jobs = []
            for number, t in enumerate(tables):
                html = kinds[number % len(kinds)]
                jobs.append(
                    play_table(base, t, until, by_kind[html], random.Random(rng.random()),
                               origin=origin, html=html)
                )  # fmt: skip
        results = await asyncio.gather(*jobs, return_exceptions=True)
    cpu = time.process_time() - cpu_before
    for result in results:
        if isinstance(result, BaseException):
            stats.error(type(result).__name__)
    if echo:
        summary = stats.summary(seconds)
    else:
        parts = {("html" if html else "json"): s.summary(seconds) for html, s in by_kind.items()}
        both = Stats(measure_from=stats.measure_from, measure_to=stats.measure_to)
        for s in [stats, *by_kind.values()]:
            both.rtts_ms += s.rtts_ms
            both.sent_at += s.sent_at
            both.moves += s.moves
            both.frame_bytes += s.frame_bytes
            both.gc_pauses += s.gc_pauses
            both.hands_finished += s.hands_finished
            both.games_finished += s.games_finished
            both.games_started += s.games_started
            both.timeouts += s.timeouts
            for code, n in s.errors.items():
                both.errors[code] = both.errors.get(code, 0) + n
        summary = both.summary(seconds)
        summary["by_client"] = parts
    # The generator's own processor time over the whole run (warm-up included): its parsing
    # shares the machine's cores with the servers it measures.
    summary["generator_cpu_s"] = round(cpu, 2)
    summary["generator_cpu_ms_per_move"] = round(1000 * cpu / max(summary["moves"], 1), 2)
    return summary
