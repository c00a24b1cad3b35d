"""``manage.py simulate``: a progress bar, then wins per level with 95% intervals."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command

from games.bots.simulate import parse_options, wilson


def _run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_prints_a_progress_bar_and_a_table():
    out, err = _run(
        "--levels", "medium,easy", "--games", "2", "--seed", "4", "--option", "target=150"
    )
    assert "2/2 games" in err and "#" in err
    assert re.search(r"medium\s+2\s+[\d.]+\s+[\d.]+%\s+[\d.]+%-[\d.]+%", out)
    assert "easy" in out and "hands/s" in out and "95% CI" in out


def test_it_is_deterministic_for_a_seed():
    args = ("--preset", "jokers", "--players", "3", "--levels", "easy,medium", "--games", "2")
    first, _ = _run(*args, "--seed", "8", "--option", "target=150")
    second, _ = _run(*args, "--seed", "8", "--option", "target=150")

    def results(text):
        return [line.rsplit(maxsplit=1)[0] for line in text.splitlines()[1:-1]]

    assert results(first) == results(second)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--levels", "easy,expert"), "Unknown bot level"),
        (("--preset", "gin"), "Unknown preset"),
        (("--preset", "classic", "--players", "2"), "3 to 8 players"),
        (("--option", "rummy_call=maybe"), "true or false"),
        (("--option", "nonsense=1"), "Unknown option"),
        (("--option", "target"), "name=value"),
        (("--games", "0"), "at least one game"),
        (("--playouts", "0"), "at least one playout"),
    ],
)
def test_bad_input_gets_a_clear_error(args, message):
    with pytest.raises(CommandError, match=message):
        _run(*args)


def test_options_are_typed():
    assert parse_options(["rummy_call=on", "target=300"]) == (("rummy_call", True), ("target", 300))


def test_the_wilson_interval_contains_the_rate_and_narrows_with_more_games():
    low, high = wilson(120, 200)
    assert low < 0.6 < high
    wide = wilson(12, 20)
    assert wide[1] - wide[0] > high - low
    assert wilson(0, 10)[0] == 0.0


@pytest.mark.parametrize(
    ("preset", "levels", "options"),
    [
        ("throw-down", "easy,medium,hard", ("--option", "target=150")),
        ("persian", "hard,medium,easy,medium", ("--option", "target=150")),
        ("michigan", "easy,medium,hard", ()),
    ],
)
def test_bot_only_runs_of_the_new_presets_complete(preset, levels, options):
    out, err = _run(
        "--preset",
        preset,
        "--levels",
        levels,
        "--games",
        "2",
        "--seed",
        "3",
        "--playouts",
        "8",
        *options,
    )
    assert "2/2 games" in err
    assert f"2 games of {preset}" in out and "hands/s" in out
    assert "stopped after" not in out
