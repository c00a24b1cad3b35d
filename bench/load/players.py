"""Scripted WebSocket players: one move per table per second, timing every round trip.

A move's round trip runs from the moment the mover sends it until every seat at the table
has received a state frame at the new version (or, for the echo floor, the echoed frame). A
frame's arrival is timed when the socket's reader takes it, not when the move's coroutine
next runs, so the generator's own scheduling is left out where it can be.

The clients do what a player's client must to act, and no more: the generator shares the
machine's cores with the servers it measures, and what it spends is taken from them
(docs/performance.md, "Side by side under load"). A JSON client reads a state frame's
version from its first bytes and parses the frame only when a move is chosen from it; an
html client keeps the three regions table.js reads (``#table-state``'s and ``#controls``'
opening tags, the hand) and reads their data attributes only when it acts. Neither sends
WebSocket keepalive pings (browsers do not; Daphne pings its clients and they answer).

Sockets arrive at the times the parent gives them (``arrive_s``), as players opening pages
would, and a failed handshake is tried again after a random pause, as htmx's WebSocket
extension does (full jitter, up to 1, 2, 4 ... s): it counts as an error only if every
attempt failed, and as a retry otherwise. Tables play as soon as they are in; the measured
window is set only once every table has arrived (``run_load``), so a slow arrival on a busy
machine delays the window instead of falling into it.
"""

from __future__ import annotations

import asyncio
import gc
import html as html_text
import itertools
import os
import random
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from bench.load.stats import Stats, bytes_summary, http_summary

__all__ = ["Socket", "Stats", "bytes_summary", "http_summary", "run_load"]

_ids = itertools.count(1)
# Frame ids the server has not seen from these seats: it remembers recent ids per seat (a
# resent move is not applied twice), and the same seats play every run of a level, from
# other processes whose counters also start at 1.
_ID_PREFIX = f"m{os.getpid():x}{random.getrandbits(24):x}-"
COOL_DOWN_S = 1.0
CONNECT_ATTEMPTS = 6
ARRIVAL_LIMIT_S = 120.0
# A state frame as the server writes it (games.table.presenters.state_json): the version is
# read from these first bytes; any other frame is parsed whole.
_STATE_PREFIX = '{"type":"state","version":'
_VERSION_AT = len(_STATE_PREFIX)
# The page's regions in a browser frame (games/table/table_frames.py) are top-level
# elements whose first attribute is their id, followed by htmx's out-of-band swap. Regions go
# whole; a player's entry, a meld, the stock, the pile's heading and new cards of a list go
# alone (their own id): they never touch the three regions the client reads.
_OOB = ' hx-swap-oob="'
_TOP = ' id="table-state"' + _OOB
_CONTROLS = ' id="controls"' + _OOB
_HAND = ' id="my-hand"' + _OOB
_REFUSAL = 'class="inline-error" role="alert" data-code="'


def _attr(tag: str, name: str) -> str | None:
    """The value of ``data-<name>`` in an opening tag (``None`` if absent)."""
    key = f' data-{name}="'
    at = tag.find(key)
    if at < 0:
        return None
    at += len(key)
    return tag[at : tag.find('"', at)]


class Page:
    """What a browser keeps of the table that table.js acts on: the latest ``#table-state``
    and ``#controls`` opening tags and the hand's region, each replaced when a frame brings
    it, as htmx swaps them. Their attributes are read only when asked (``state``), except
    the version, which every frame's waiters need."""

    def __init__(self) -> None:
        self.top = ""
        self.controls = ""
        self.hand = ""
        self.version = -1
        self._state: dict[str, Any] | None = None

    def swap(self, raw: str) -> bool:
        """Take a frame's regions; False if it carries no ``#table-state`` (chat, presence)."""
        at = raw.find(_TOP)
        if at < 0:
            return False
        self.top = raw[at : raw.find(">", at)]
        self.version = int(_attr(self.top, "version") or -1)
        at = raw.find(_CONTROLS)
        if at >= 0:
            self.controls = raw[at : raw.find(">", at)]
        at = raw.find(_HAND)
        if at >= 0:
            end = raw.find(_OOB, at + len(_HAND))
            self.hand = raw[at : raw.rfind("<", at, end) if end >= 0 else len(raw)]
        self._state = None
        return True

    def my_turn(self) -> bool:
        return _attr(self.top, "my-turn") == "true"

    def state(self) -> dict[str, Any]:
        """The frame's facts in the JSON client's shape (only the keys the players use)."""
        if self._state is None:
            phase = _attr(self.top, "phase")
            legal: list[dict[str, Any]] = []
            if self.my_turn():
                legal = orjson.loads(html_text.unescape(_attr(self.controls, "legal") or "[]"))
            self._state = {
                "version": self.version,
                "table": {"status": _attr(self.top, "status")},
                "view": {"phase": phase} if phase else None,
                "legal": legal,
                "hand": [part[: part.find('"')] for part in self.hand.split(' data-card="')[1:]],
            }
        return self._state


class Socket:
    """One seat's connection: keeps the latest state frame and tells waiters when a version
    arrives (``reached``).

    ``html``: the browser's socket (the page's URL, no ``format``): frames are HTML regions,
    read as a page would, acks and pongs JSON; else the JSON protocol's frames."""

    def __init__(self, ws: Any, stats: Stats, *, html: bool = False) -> None:
        self.ws = ws
        self.stats = stats
        self.html = html
        self.page = Page() if html else None
        self.version = -1
        self._raw: str | None = None
        self._state: dict[str, Any] | None = None
        self._waiters: list[tuple[int, asyncio.Future[float]]] = []
        self.acks: dict[str, asyncio.Future[dict[str, Any]]] = {}

    @property
    def state(self) -> dict[str, Any] | None:
        """The latest state, parsed the first time it is asked for."""
        if self.page is not None:
            return self.page.state() if self.version >= 0 else None
        if self._state is None and self._raw is not None:
            self._state = orjson.loads(self._raw)
        return self._state

    def may_move(self) -> bool:
        """Whether this seat's latest frame seems to offer moves: a hint that spares parsing
        the other seats' frames (the mover is confirmed from its parsed state)."""
        if self.page is not None:
            return self.page.my_turn()
        return self._raw is not None and '"legal":[]' not in self._raw

    def reached(self, version: int) -> asyncio.Future[float]:
        """The monotonic time at which this socket got ``version`` (now if it has)."""
        arrived: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.version >= version:
            arrived.set_result(time.monotonic())
        else:
            self._waiters.append((version, arrived))
        return arrived

    async def wait_version(self, version: int, limit_s: float) -> float:
        async with asyncio.timeout(limit_s):
            return await self.reached(version)

    def _state_frame(self, raw: str, version: int, parsed: dict[str, Any] | None = None) -> None:
        now = time.monotonic()
        stats = self.stats
        if stats.measure_from <= now < stats.measure_to:
            stats.frame_bytes.append(len(raw) if raw.isascii() else len(raw.encode()))
        if version >= self.version:
            self.version = version
            self._raw = raw
            self._state = parsed
        if self._waiters:
            waiting = []
            for wanted, arrived in self._waiters:
                if arrived.done():
                    continue  # given up on (a timeout)
                if wanted <= self.version:
                    arrived.set_result(now)
                else:
                    waiting.append((wanted, arrived))
            self._waiters = waiting

    def _html_frame(self, raw: str) -> None:
        assert self.page is not None
        refused = raw.find(_REFUSAL)
        if refused >= 0:
            # A refusal in HTML names no frame id: it answers the one move in flight.
            at = refused + len(_REFUSAL)
            code = raw[at : raw.find('"', at)]
            self.stats.error(code or "?")
            for waiter in self.acks.values():
                if not waiter.done():
                    waiter.set_result({"type": "error", "code": code})
            self.acks.clear()
        if self.page.swap(raw):  # else chat lines, presence: nothing to act on
            self._state_frame(raw, self.page.version)

    def _json_frame(self, raw: str) -> None:
        frame = orjson.loads(raw)
        kind = frame.get("type")
        if kind == "state":
            self._state_frame(raw, frame["version"], frame)
        elif kind in ("ack", "error"):
            if kind == "error":
                self.stats.error(frame.get("code", "?"))
            waiter = self.acks.pop(frame.get("id", ""), None)
            if waiter is not None and not waiter.done():
                waiter.set_result(frame)

    async def read(self) -> None:
        import websockets

        try:
            async for raw in self.ws:
                if raw.startswith(_STATE_PREFIX):
                    self._state_frame(raw, int(raw[_VERSION_AT : raw.find(",", _VERSION_AT)]))
                elif raw.startswith("{"):
                    self._json_frame(raw)
                elif self.html:
                    self._html_frame(raw)
        except websockets.ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else "none"
            self.stats.error(f"closed-{code}")


class ConnectFailed(Exception):
    """Every handshake attempt of a socket failed; ``code`` names the last failure."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _failure(exc: BaseException) -> str:
    status = getattr(getattr(exc, "response", None), "status_code", None)
    return type(exc).__name__ + (f"-{status}" if status else "")


async def connect_socket(
    url: str,
    cookie: str,
    stats: Stats,
    *,
    origin: str,
    rng: random.Random,
    attempts: int = CONNECT_ATTEMPTS,
) -> Any:
    """A socket logged in with ``cookie`` (the headers a browser's socket carries: its
    cookie and the page's origin), its handshake tried again as htmx would if it fails."""
    import websockets  # the bench extra: the clients' parsing is tested without it

    for attempt in range(attempts):
        began = time.monotonic()
        try:
            ws = await websockets.connect(
                url,
                additional_headers={"Cookie": f"sessionid={cookie}", "Origin": origin},
                open_timeout=30,
                max_size=2**22,
                ping_interval=None,
            )
        except (websockets.InvalidHandshake, OSError, TimeoutError) as exc:
            if attempt + 1 == attempts:
                raise ConnectFailed(_failure(exc)) from exc
            stats.retried(_failure(exc))
            await asyncio.sleep(rng.random() * min(2**attempt, 64))
            continue
        stats.connect_ms.append((time.monotonic() - began) * 1000)
        return ws
    raise AssertionError("unreachable")


async def _connect_seats(
    url: str, table: dict[str, Any], stats: Stats, *, origin: str, html: bool = False
) -> list[Socket]:
    """One socket per seat of ``table``, one after another, with no pacing."""
    rng = random.Random(table["id"])
    return [
        Socket(await connect_socket(url, cookie, stats, origin=origin, rng=rng), stats, html=html)
        for cookie in table["cookies"]
    ]


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


async def _sleep_until(at: float) -> None:
    wait = at - time.monotonic()
    if wait > 0:
        await asyncio.sleep(wait)


class FirstFrameLate(Exception):
    """A connected socket got no state frame within its limit."""


class Run:
    """What the tables of one process share: when they started, when they stop (known only
    once every table has arrived: ``run_load``), and the count of those still arriving."""

    def __init__(self, start: float, tables: int) -> None:
        self.start = start
        self.until = float("inf")
        self.waiting = tables
        self.all_in: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if not tables:
            self.all_in.set_result(time.monotonic())

    def arrived(self) -> None:
        """One table is in (or has given up arriving)."""
        self.waiting -= 1
        if self.waiting == 0 and not self.all_in.done():
            self.all_in.set_result(time.monotonic())


class ArrivalLate(Exception):
    """A table's seats were not all in ARRIVAL_LIMIT_S after the last was due."""


async def _arrive(
    url: str,
    table: dict[str, Any],
    run: Run,
    stats: Stats,
    rng: random.Random,
    *,
    html: bool = False,
    echo: bool = False,
) -> tuple[list[Socket], list[asyncio.Task[None]]]:
    """Each seat's socket at its arrival time (``arrive_s`` after the start), reading at once
    (a table's, until its first state frame; the echo floor's sockets have none)."""
    origin = f"http://127.0.0.1:{table['port']}"
    arrive_s = table.get("arrive_s") or [0.0] * len(table["cookies"])
    sockets: list[Socket] = []
    readers: list[asyncio.Task[None]] = []
    try:
        async with asyncio.timeout_at(run.start + max(arrive_s) + ARRIVAL_LIMIT_S):
            for cookie, at in zip(table["cookies"], arrive_s, strict=True):
                await _sleep_until(run.start + at)
                ws = await connect_socket(url, cookie, stats, origin=origin, rng=rng)
                sockets.append(Socket(ws, stats, html=html))
                if echo:
                    sockets[-1].version = 0
                readers.append(asyncio.create_task(sockets[-1].read()))
            try:
                for s in sockets:
                    await s.wait_version(0, 30)
            except TimeoutError:
                raise FirstFrameLate from None
    except TimeoutError:
        await _leave(sockets, readers)
        raise ArrivalLate from None
    except BaseException:
        await _leave(sockets, readers)
        raise
    finally:
        run.arrived()
    return sockets, readers


async def play_table(table: dict[str, Any], run: Run, stats: Stats, rng: random.Random) -> None:
    """Four seats of one real table: arrive, then one move per second until ``run.until``.
    ``table["html"]``: as browsers, on the page's socket URL (games/views.py ``_socket_url``)."""
    html = bool(table.get("html"))
    base = f"ws://127.0.0.1:{table['port']}"
    url = f"{base}/ws/tables/{table['id']}/" + ("" if html else "?format=json")
    sockets, readers = await _arrive(url, table, run, stats, rng, html=html)
    try:
        await asyncio.sleep(rng.random())  # spread the tables over the second
        while time.monotonic() < run.until:
            tick = time.monotonic()
            latest = max(sockets, key=lambda s: s.version).state or {}
            if (latest.get("table") or {}).get("status") == "finished":
                await _play_again(base, table, sockets, stats)
            else:
                await _one_move(sockets, stats, rng)
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
    finally:
        await _leave(sockets, readers)


async def _leave(sockets: list[Socket], readers: list[asyncio.Task[None]]) -> None:
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
        # As htmx posts it (HX-Request): a refusal is then a 400, not a redirect that reads
        # as success.
        headers={
            "Cookie": f"sessionid={cookie}; csrftoken={token}",
            "X-CSRFToken": token,
            "HX-Request": "true",
        },
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
    # The version before the post: the new game's frame often arrives while the post's
    # response is still on its way, and waiting for one past *that* waited for a move nobody
    # makes (every "play-again" timeout of the earlier runs: all four sockets already there).
    version = max(s.version for s in sockets)
    status = await asyncio.to_thread(
        _post, f"{http}/tables/{table['id']}/start/", table["cookies"][0]
    )
    if status >= 400:
        stats.error(f"play-again-{status}")
        return
    stats.games_started += 1
    try:
        async with asyncio.timeout(30):
            await asyncio.gather(*(s.reached(version + 1) for s in sockets))
    except TimeoutError:
        stats.timed_out("play-again", time.monotonic(), version + 1, [s.version for s in sockets])


async def _one_move(sockets: list[Socket], stats: Stats, rng: random.Random) -> None:
    latest = max(sockets, key=lambda s: s.version)
    state = latest.state
    if state is None or state["table"]["status"] != "playing":
        return
    view = state["view"]
    if view is None or view["phase"] == "hand_over":
        return  # the next hand is dealt by a Celery countdown
    # The seat with legal moves at the latest version (both kinds of frame say so); only the
    # frames that seem to offer moves are parsed, all of them if none does.
    current = [s for s in sockets if s.version >= state["version"]]
    movers = [s for s in current if s.may_move() and s.state and s.state["legal"]] or [
        s for s in current if s.state and s.state["legal"]
    ]
    if not movers:
        return
    mover = movers[0]
    assert mover.state is not None
    action = choose(mover.state, rng)
    if action is None:
        return
    frame_id = f"{_ID_PREFIX}{next(_ids)}"
    ack: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    mover.acks[frame_id] = ack
    sent = time.monotonic()
    frame = {"id": frame_id, "version": state["version"], "action": action}
    await mover.ws.send(orjson.dumps(frame).decode())
    awaited = None
    try:
        async with asyncio.timeout(10):
            reply = await ack
        if reply["type"] != "ack":
            return
        awaited = reply["version"]
        async with asyncio.timeout(10):
            arrivals = await asyncio.gather(*(s.reached(awaited) for s in sockets))
    except TimeoutError:
        mover.acks.pop(frame_id, None)
        what = "ack" if awaited is None else "frames"
        stats.timed_out(what, sent, awaited, [s.version for s in sockets])
        return
    stats.record(sent, max(arrivals))
    after = mover.state or {}
    if (after.get("view") or {}).get("phase") == "hand_over":
        stats.hands_finished += 1
    if (after.get("table") or {}).get("status") == "finished":
        stats.games_finished += 1


async def echo_table(table: dict[str, Any], run: Run, stats: Stats, rng: random.Random) -> None:
    """The floor: the same arrivals and pacing against the bare echo consumer."""
    url = f"ws://127.0.0.1:{table['port']}/ws/echo/{table['id']}/"
    sockets, readers = await _arrive(url, table, run, stats, rng, echo=True)
    try:
        await asyncio.sleep(rng.random())
        version = 0
        while time.monotonic() < run.until:
            tick = time.monotonic()
            version += 1
            mover = sockets[version % len(sockets)]
            sent = time.monotonic()
            await mover.ws.send(orjson.dumps({"version": version}).decode())
            try:
                async with asyncio.timeout(10):
                    arrivals = await asyncio.gather(*(s.reached(version) for s in sockets))
            except TimeoutError:
                stats.timed_out("echo", sent, version, [s.version for s in sockets])
                continue
            stats.record(sent, max(arrivals))
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
    finally:
        await _leave(sockets, readers)


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


def _error_code(exc: BaseException) -> str:
    if isinstance(exc, ConnectFailed):
        return f"connect-{exc.code}"
    return type(exc).__name__


async def run_load(
    tables: list[dict[str, Any]],
    *,
    start: float,
    echo: bool,
    seed: int,
    window: Callable[[float], Awaitable[tuple[float, float]]],
) -> dict[str, Any]:
    """Play ``tables`` (each with its ``port``, ``html`` and ``arrive_s``) from ``start``
    (monotonic). Once every table has arrived (or given up), ``window(arrived_at)`` gives
    the measured window [``measure_from``, ``measure_to``): only round trips sent in it count,
    and the tables stop a second after it. Before it, sockets arrive and the tables warm up
    (cold caches, fresh connections); in the last second, tables that have stopped close
    their sockets.

    Returns each client kind's raw samples (``Stats.raw``: ``echo``, or ``json``/``html``),
    this process's garbage collections, its processor time, whole and in the window, and
    how long its tables took to arrive."""
    never = float("inf")

    def kind_of(table: dict[str, Any]) -> str:
        return "echo" if echo else ("html" if table.get("html") else "json")

    kinds = {kind_of(t): Stats(measure_from=never, measure_to=never) for t in tables}
    process = Stats(measure_from=never, measure_to=never)
    run = Run(start, len(tables))
    play = echo_table if echo else play_table
    cpu: dict[str, float] = {"began": time.process_time()}
    with GcWatch(process):
        jobs = [
            asyncio.create_task(
                play(t, run, kinds[kind_of(t)], random.Random(seed * 100_003 + t["id"]))
            )
            for t in tables
        ]
        arrived_at = await run.all_in
        measure_from, measure_to = await window(arrived_at)
        for stats in [process, *kinds.values()]:
            stats.measure_from, stats.measure_to = measure_from, measure_to
        run.until = measure_to + COOL_DOWN_S
        loop = asyncio.get_running_loop()
        loop.call_at(measure_from, lambda: cpu.__setitem__("from", time.process_time()))
        loop.call_at(measure_to, lambda: cpu.__setitem__("to", time.process_time()))
        results = await asyncio.gather(*jobs, return_exceptions=True)
    for table, result in zip(tables, results, strict=True):
        if isinstance(result, BaseException):
            kinds[kind_of(table)].error(_error_code(result))
    now = time.process_time()
    return {
        "kinds": {kind: s.raw() for kind, s in kinds.items()},
        "gc_pauses": process.gc_pauses,
        "cpu_s": now - cpu["began"],
        "cpu_window_s": cpu.get("to", now) - cpu.get("from", cpu["began"]),
        "arrived_s": arrived_at - start,
    }
