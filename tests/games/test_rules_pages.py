"""The /rules/ pages: every preset and option from the engine's data, and one page per preset."""

from __future__ import annotations

import re

import pytest
from django.template.loader import get_template
from django.utils.html import escape

from games import engine, rules_pages
from games.rules_pages import all_presets

pytestmark = pytest.mark.django_db

WRITTEN_HERE = (
    "standard",
    "jokers",
    "classic",
    "rummy-school",
    "persian",
    "michigan",
    "throw-down",
)


def test_the_index_lists_every_preset_and_every_house_rule(client):
    page = client.get("/rules/").content.decode()
    for name, info in all_presets().items():
        assert f'href="/rules/{name}/"' in page
        assert escape(info.title) in page
    for name, info in engine.OPTIONS.items():
        assert f'id="option-{name}"' in page
        assert escape(info.description) in page
    assert "coming later" in page or not engine.PLANNED_PRESETS


def test_the_index_names_the_presets_whose_defaults_differ(client):
    page = client.get("/rules/").content.decode()
    row = page.split('id="option-partners_by_draw"')[1].split("</tr>")[0]
    assert f"{escape(engine.PRESETS['persian'].title)}: on" in row
    target = page.split('id="option-target"')[1].split("</tr>")[0]
    assert "50 to 100000" in target


@pytest.mark.parametrize("preset", sorted(all_presets()))
def test_every_preset_has_its_page(client, preset):
    assert client.get(f"/rules/{preset}/").status_code == 200


@pytest.mark.parametrize("preset", WRITTEN_HERE)
def test_a_preset_page_frames_its_explanation_with_the_house_rules_and_defaults(client, preset):
    page = client.get(f"/rules/{preset}/").content.decode()
    info = all_presets()[preset]
    assert escape(info.title) in page and escape(info.description) in page
    assert 'href="/rules/"' in page
    for name in engine.OPTIONS:
        shown = f'id="option-{name}"><strong>{escape(rules_pages.option_label(name))}: ' in page
        assert shown == rules_pages.applies(name, info), name


def test_a_preset_page_lists_only_the_house_rules_its_game_can_use(client):
    persian = client.get("/rules/persian/").content.decode()
    assert 'id="option-jokers"' not in persian  # it has four jokers of its own
    assert 'id="option-partners_by_draw"' in persian
    standard = client.get("/rules/standard/").content.decode()
    assert 'id="option-jokers"' not in standard and 'id="option-partners_by_draw"' not in standard
    with_jokers = client.get("/rules/oklahoma-jokers/").content.decode()
    assert "<strong>Number of jokers: 2</strong>" in with_jokers


@pytest.mark.parametrize("preset", WRITTEN_HERE)
def test_each_preset_is_explained_in_its_own_template(client, preset):
    assert get_template(f"games/rules/{preset}.html")
    page = client.get(f"/rules/{preset}/").content.decode()
    assert "being written" not in page
    assert "<h2>Example</h2>" in page or "Examples</h2>" in page


def test_the_persian_page_gives_the_worked_examples(client):
    page = client.get("/rules/persian/").content.decode()
    assert "four fives are worth 40" in page
    assert "<strong>Partners by draw: on</strong>" in page


def test_an_unknown_preset_is_a_404(client):
    assert client.get("/rules/no-such-game/").status_code == 404


def test_table_creation_and_the_table_page_link_to_the_rules(client, alice):
    from tests.games.conftest import start_table

    client.force_login(alice)
    lobby = client.get("/").content.decode()
    assert 'href="/rules/throw-down/"' in lobby and 'href="/rules/"' in lobby
    table = start_table(alice, seats=4, preset="persian")
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'href="/rules/persian/"' in page
    from django.utils.html import strip_tags

    assert "side 1, with" in strip_tags(page)  # the ", with ..." part may be cut on a phone
    assert "Draw for partners and dealer" in page


def _visible_text(html: str) -> str:
    """What a reader sees: the page without its tags (attributes such as ids are not text)."""
    body = html.split("<main", 1)[1].split("</main>", 1)[0]
    return re.sub(r"<[^>]+>", " ", body)


INTERNAL = [*(name for name in engine.OPTIONS if "_" in name), "boathouse", "[000]", "rules.md"]


@pytest.mark.parametrize("path", ["/rules/", *(f"/rules/{p}/" for p in sorted(all_presets()))])
def test_the_rules_pages_show_no_internal_names(client, path):
    text = _visible_text(client.get(path).content.decode())
    assert [word for word in INTERNAL if word in text] == []
    assert "source [" not in text


def test_the_lobby_and_the_create_form_show_no_internal_names(client, alice):
    from tests.games.conftest import start_table

    start_table(alice, seats=2, rummy_call=True, boathouse=True, target=300)
    client.force_login(alice)
    text = _visible_text(client.get("/").content.decode())
    assert [word for word in INTERNAL if word in text] == []
    assert "Rummy calls: on" in text and "Discard to go out: on" in text
