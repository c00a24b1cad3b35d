"""What the load generator records, and its summaries: exact over all generator processes.

Each generator process (bench/load/generator.py) keeps the raw samples of its tables (every
round trip with its send time, every state frame's size, its garbage collections, errors by
code) and hands them back whole (``Stats.raw``); the parent merges them (``merge``) and only
then takes percentiles. Percentiles of parts cannot be combined into the whole's: the worst
part's p99 is neither the whole's p99 nor a bound on it that says how far off it is.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

COUNTERS = ("moves", "hands_finished", "games_finished", "games_started", "timeouts")


def pct(ordered: Sequence[float], p: float) -> float:
    """The value at rank ``p`` of sorted ``ordered`` (the rule every figure here uses)."""
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


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
    """Monotonic time before which round trips are not recorded (arrivals and warm-up)."""
    measure_to: float = float("inf")
    frame_bytes: list[int] = field(default_factory=list)
    """Bytes of every state frame received in the window (as sent: no compression)."""
    gc_pauses: list[tuple[float, int, float]] = field(default_factory=list)
    """(seconds into the window, generation, ms) of the generator's own garbage collections:
    a pause here delays every table of that process at once, like a stall of the server."""
    connect_ms: list[float] = field(default_factory=list)
    """How long each socket's successful WebSocket handshake took (its last attempt)."""
    connect_retries: dict[str, int] = field(default_factory=dict)
    """Handshakes that failed and were tried again, by error (not errors unless all failed)."""
    timeout_detail: list[dict[str, Any]] = field(default_factory=list)
    """Each timeout: what was awaited ("ack", "frames", "play-again"), when (seconds into the
    window), the version awaited and the version each socket of the table had reached."""

    def in_window(self, at: float) -> bool:
        return self.measure_from <= at < self.measure_to

    def record(self, sent: float, arrived: float) -> None:
        if self.measure_from <= sent < self.measure_to:
            self.rtts_ms.append((arrived - sent) * 1000)
            self.sent_at.append(sent - self.measure_from)
            self.moves += 1

    def timed_out(self, what: str, at: float, awaited: int | None, reached: list[int]) -> None:
        self.timeouts += 1
        self.timeout_detail.append(
            {
                "what": what,
                "at_s": round(at - self.measure_from, 2),
                "awaited": awaited,
                "reached": reached,
            }
        )

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def retried(self, code: str) -> None:
        self.connect_retries[code] = self.connect_retries.get(code, 0) + 1

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
            rows.append(
                (
                    key * step_s,
                    len(values),
                    round(statistics.median(values), 1),
                    round(pct(values, 0.99), 1),
                )
            )
        return rows

    def summary(self, seconds: float) -> dict[str, Any]:
        rtts = sorted(self.rtts_ms)

        def at(p: float) -> float | None:
            return round(pct(rtts, p), 1) if rtts else None

        connects = sorted(self.connect_ms)
        return {
            "moves": self.moves,
            "moves_per_s": round(self.moves / seconds, 1),
            "p50_ms": round(statistics.median(rtts), 1) if rtts else None,
            "p95_ms": at(0.95),
            "p99_ms": at(0.99),
            "max_ms": round(rtts[-1], 1) if rtts else None,
            "errors": sum(self.errors.values()),
            "error_codes": dict(self.errors),
            "timeouts": self.timeouts,
            "timeout_detail": self.timeout_detail[:20],
            "hands_finished": self.hands_finished,
            "games_finished": self.games_finished,
            "games_started": self.games_started,
            "slowest": self.slowest(),
            "timeline": self.timeline(),
            "generator_gc": self.gc_summary(),
            "connects": len(connects),
            "connect_p50_ms": round(statistics.median(connects), 1) if connects else None,
            "connect_max_ms": round(connects[-1], 1) if connects else None,
            "connect_retries": dict(self.connect_retries),
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

    def raw(self) -> dict[str, Any]:
        """Everything ``merge`` needs, as JSON-ready values (sent between processes)."""
        return {
            "rtts_ms": [round(x, 3) for x in self.rtts_ms],
            "sent_at": [round(x, 4) for x in self.sent_at],
            "frame_bytes": self.frame_bytes,
            "gc_pauses": self.gc_pauses,
            "connect_ms": [round(x, 2) for x in self.connect_ms],
            "errors": self.errors,
            "connect_retries": self.connect_retries,
            "timeout_detail": self.timeout_detail,
            "http_ms": self.http_ms,
            "http_errors": self.http_errors,
            **{key: getattr(self, key) for key in COUNTERS},
        }


def merge(raws: list[dict[str, Any]], measure_from: float = 0.0, measure_to: float = 0.0) -> Stats:
    """One ``Stats`` holding every sample of ``raws`` (parts of ``Stats.raw``): its summary's
    percentiles are those of all the round trips together, not of any part."""
    whole = Stats(measure_from=measure_from, measure_to=measure_to)
    for raw in raws:
        whole.rtts_ms += raw.get("rtts_ms", [])
        whole.sent_at += raw.get("sent_at", [])
        whole.frame_bytes += raw.get("frame_bytes", [])
        whole.gc_pauses += [tuple(p) for p in raw.get("gc_pauses", [])]
        whole.connect_ms += raw.get("connect_ms", [])
        whole.http_ms += raw.get("http_ms", [])
        whole.http_errors += raw.get("http_errors", 0)
        whole.timeout_detail += raw.get("timeout_detail", [])
        for key in COUNTERS:
            setattr(whole, key, getattr(whole, key) + raw.get(key, 0))
        for code, n in raw.get("errors", {}).items():
            whole.errors[code] = whole.errors.get(code, 0) + n
        for code, n in raw.get("connect_retries", {}).items():
            whole.connect_retries[code] = whole.connect_retries.get(code, 0) + n
    return whole


def bytes_summary(sizes: list[int]) -> dict[str, Any]:
    """State frames received: how many, median, 90th and 95th percentile bytes."""
    if not sizes:
        return {"frames": 0}
    ordered = sorted(sizes)
    return {
        "frames": len(ordered),
        "frame_bytes_p50": int(statistics.median(ordered)),
        "frame_bytes_p90": pct(ordered, 0.90),
        "frame_bytes_p95": pct(ordered, 0.95),
    }


def http_summary(times: list[float], errors: int) -> dict[str, Any]:
    """Page reads (bench/load/visitors.py): count, median, 95th percentile, failures."""
    if not times:
        return {"http_requests": 0, "http_errors": errors}
    ordered = sorted(times)
    return {
        "http_requests": len(ordered),
        "http_p50_ms": round(statistics.median(ordered), 1),
        "http_p95_ms": round(pct(ordered, 0.95), 1),
        "http_errors": errors,
    }
