"""The rules pages of oklahoma, oklahoma-jokers and five-thousand: each explains its preset in
its own template, inside the frame that lists every house rule its game can use with its
default here."""

from __future__ import annotations

import pytest
from django.template.loader import get_template

from games import engine, rules_pages

PRESETS_B = ("oklahoma", "oklahoma-jokers", "five-thousand")


def _page(client, preset: str) -> str:
    response = client.get(f"/rules/{preset}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("preset", PRESETS_B)
def test_each_preset_has_its_own_explanation_with_an_example(client, preset):
    assert get_template(f"games/rules/{preset}.html")
    page = _page(client, preset)
    assert "being written" not in page and f'id="rules-{preset}"' in page
    assert "An example</h2>" in page
    for name in engine.OPTIONS:
        shown = f'id="option-{name}"><strong>{rules_pages.option_label(name)}: ' in page
        assert shown == rules_pages.applies(name, engine.PRESETS[preset]), name


def test_the_oklahoma_page_gives_the_value_table_and_the_bonuses(client):
    page = _page(client, "oklahoma")
    info = engine.PRESETS["oklahoma"]
    for number in (info.going_out_bonus, info.concealed_going_out_bonus):
        assert f"<strong>{number}</strong>" in page
    assert "−100" in page and "−20" in page and "200 more" in page
    assert "offered around the table" in page and "whole pile" in page
    assert "<strong>Target score: 1000</strong>" in page


def test_the_oklahoma_jokers_page_states_the_joker_values(client):
    page = _page(client, "oklahoma-jokers")
    values = engine.PRESETS["oklahoma-jokers"].values
    assert f"<strong>{values.joker_melded}</strong>" in page
    assert f"<strong>{values.joker_in_hand}</strong>" in page
    assert "lowest card" in page and "take the joker" in page
    assert "<strong>Number of jokers: 2</strong>" in page


def test_the_five_thousand_page_shows_the_deal_and_value_tables(client):
    page = _page(client, "five-thousand")
    for words in ("2 to 9", "Ace</td><td>11", "Wild ace</td><td>200", "float"):
        assert words in page
    assert "<strong>Target score: 5000</strong>" in page
