"""``manage.py simulate`` runs bot-only games of oklahoma, oklahoma-jokers and five-thousand to
their end (the simulator raises on any move outside the engine's legal list)."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command


def _run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("oklahoma", ("--option", "target=400")),
        ("oklahoma-jokers", ("--option", "target=400", "--option", "jokers=4")),
        ("five-thousand", ("--option", "target=800")),
    ],
)
def test_bots_of_every_level_finish_games_of_the_preset(preset, options):
    args = ("--preset", preset, "--levels", "easy,medium,hard", "--games", "2", "--seed", "6")
    out, err = _run(*args, "--playouts", "6", *options)
    assert "2/2 games" in err
    wins = {
        level: float(re.search(rf"^{level}\s+\d+\s+([\d.]+)", out, re.M).group(1))
        for level in ("easy", "medium", "hard")
    }
    assert sum(wins.values()) == 2  # every game ended with one winner


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--preset", "oklahoma", "--players", "5"), "2 to 4 players"),
        (("--preset", "five-thousand", "--players", "9"), "2 to 8 players"),
        (("--preset", "oklahoma", "--option", "floating=true"), "nobody can float"),
        (("--preset", "oklahoma-jokers", "--option", "jokers=5"), "between 1 and 4"),
    ],
)
def test_bad_setups_get_a_clear_error(args, message):
    with pytest.raises(CommandError, match=message):
        _run(*args)
