"""The rules page templates of oklahoma, oklahoma-jokers and five-thousand render (the view
that serves them comes with the /rules/ pages)."""

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


def test_the_oklahoma_jokers_rules_template_states_the_joker_values():
    html = render_to_string("games/rules/oklahoma-jokers.html", {})
    values = engine.PRESETS["oklahoma-jokers"].values
    assert f"<strong>{values.joker_melded}</strong>" in html
    assert f"<strong>{values.joker_in_hand}</strong>" in html
    assert "lowest card" in html and "take the joker" in html


def test_the_five_thousand_rules_template_shows_the_deal_and_value_tables():
    html = render_to_string("games/rules/five-thousand.html", {})
    assert "5000 Rummy" in html
    for words in ("2 to 9", "Ace</td><td>11", "Wild ace</td><td>200", "float"):
        assert words in html
