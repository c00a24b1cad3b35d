"""The load benchmark's figures over several generator processes (bench/load/stats.py): the
parent merges every process's raw samples, so its percentiles are those of all round trips."""

from __future__ import annotations

import random

from bench.load.stats import Stats, merge


def _part(rtts: list[float], **counts: int) -> dict:
    stats = Stats(measure_from=100.0, measure_to=130.0)
    for n, ms in enumerate(rtts):
        stats.record(100.0 + n * 0.01, 100.0 + n * 0.01 + ms / 1000)
    for key, value in counts.items():
        setattr(stats, key, value)
    return stats.raw()


def test_merged_percentiles_are_those_of_every_round_trip_of_every_process():
    rng = random.Random(3)
    quick = [rng.uniform(5, 15) for _ in range(900)]
    slow = [rng.uniform(50, 400) for _ in range(100)]
    whole = merge([_part(quick), _part(slow)], 100.0, 130.0).summary(30)
    everything = sorted(quick + slow)
    assert whole["moves"] == 1000
    assert whole["p99_ms"] == round(everything[990], 1)
    assert whole["p95_ms"] == round(everything[950], 1)
    assert whole["max_ms"] == round(everything[-1], 1)
    # Not the worst process's p99 (what the benchmark reported before: all its slow moves).
    assert whole["p99_ms"] != merge([_part(slow)], 100.0, 130.0).summary(30)["p99_ms"]


def test_merging_adds_up_counts_and_error_codes_of_every_process():
    first = _part([10.0], timeouts=2, games_finished=1)
    second = _part([20.0, 30.0], hands_finished=3)
    first["errors"] = {"connect-InvalidMessage": 2, "closed-1011": 1}
    second["errors"] = {"connect-InvalidMessage": 1}
    second["connect_retries"] = {"InvalidMessage": 5}
    summary = merge([first, second], 100.0, 130.0).summary(30)
    assert summary["moves"] == 3
    assert summary["timeouts"] == 2
    assert summary["games_finished"] == 1
    assert summary["hands_finished"] == 3
    assert summary["errors"] == 4
    assert summary["error_codes"] == {"connect-InvalidMessage": 3, "closed-1011": 1}
    assert summary["connect_retries"] == {"InvalidMessage": 5}


def test_round_trips_sent_outside_the_window_are_not_counted():
    stats = Stats(measure_from=100.0, measure_to=130.0)
    stats.record(99.9, 100.1)  # warm-up
    stats.record(100.5, 100.6)
    stats.record(130.0, 130.1)  # cool-down
    assert stats.moves == 1
    assert merge([stats.raw()], 100.0, 130.0).summary(30)["p50_ms"] == 100.0


def test_each_timeout_says_what_was_awaited_and_where_each_socket_was():
    stats = Stats(measure_from=100.0, measure_to=130.0)
    stats.timed_out("frames", 112.5, 41, [41, 41, 40, 41])
    other = Stats(measure_from=100.0, measure_to=130.0)
    other.timed_out("ack", 120.0, None, [7, 7, 7, 7])
    summary = merge([stats.raw(), other.raw()], 100.0, 130.0).summary(30)
    assert summary["timeouts"] == 2
    assert summary["timeout_detail"] == [
        {"what": "frames", "at_s": 12.5, "awaited": 41, "reached": [41, 41, 40, 41]},
        {"what": "ack", "at_s": 20.0, "awaited": None, "reached": [7, 7, 7, 7]},
    ]
