"""The Oklahoma rules page template renders and states the rules with the engine's numbers."""

from __future__ import annotations

from django.template.loader import render_to_string

from games import engine


def test_the_oklahoma_rules_template_renders_the_value_table_and_bonuses():
    html = render_to_string("games/rules/oklahoma.html", {})
    info = engine.PRESETS["oklahoma"]
    assert "Oklahoma" in html
    for number in (info.going_out_bonus, info.concealed_going_out_bonus, info.game_bonus):
        assert f"<strong>{number}</strong>" in html or f"{number} more" in html
    assert "1000" in html and "−100" in html and "−20" in html
    assert "offered around the table" in html and "whole pile" in html
