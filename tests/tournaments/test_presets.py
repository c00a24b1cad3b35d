"""A tournament's preset comes from the engine's list; seed 004's rules are the default."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from games import engine
from tests.tournaments.conftest import make_tournament
from tournaments.models import Tournament


def test_new_tournaments_use_the_rummy_school_preset_of_seed_004(db):
    assert Tournament().preset == "rummy-school"
    assert make_tournament().preset == "rummy-school"


def test_the_preset_is_chosen_from_the_engines_list(db):
    field = Tournament._meta.get_field("preset")
    assert [name for name, _title in field.choices] == list(engine.PRESETS)
    t = make_tournament(preset="not-a-preset")
    with pytest.raises(ValidationError) as refused:
        t.full_clean()
    assert "preset" in refused.value.message_dict
