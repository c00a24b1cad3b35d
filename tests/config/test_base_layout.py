"""The base layout: navigation, htmx from local static, the CSRF header on <body>."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db


def test_it_offers_log_in_and_sign_up_to_visitors(client):
    page = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in page and 'href="/accounts/signup/"' in page
    assert "Log out" not in page


def test_it_shows_the_player_name_and_a_log_out_button_when_logged_in(alice_client):
    page = alice_client.get("/").content.decode()
    assert ">Alice</a>" in page
    assert 'action="/accounts/logout/"' in page


def test_it_links_only_to_pages_that_exist(client):
    page = client.get("/").content.decode()
    assert 'href="/rules/"' in page and ">Lobby</a>" in page
    nav = page.split("<nav", 1)[1].split("</nav>", 1)[0]
    for href in re.findall(r'href="(/[^"]*)"', nav):
        assert client.get(href).status_code < 400, href
    assert '<a href="/leaderboards/">Leaderboards</a>' in page  # routed by games (issue 7)


def test_it_marks_the_current_page_in_the_navigation(client):
    page = client.get("/rules/").content.decode()
    assert '<a href="/rules/" aria-current="page">Rules</a>' in page


def test_it_loads_htmx_from_our_own_static_files(client):
    page = client.get("/").content.decode()
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', page)
    assert any("htmx" in src for src in scripts)
    assert all(src.startswith("/static/") for src in scripts)
    assert "<script>" not in page  # no inline scripts: CSP-friendly


def test_it_sends_the_csrf_token_with_every_htmx_request(client):
    response = client.get("/")
    match = re.search(
        r"<body[^>]* hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'>", response.content.decode()
    )
    assert match and len(match.group(1)) == 64


def test_it_serves_the_stylesheet_with_light_and_dark_schemes(client):
    from django.contrib.staticfiles import finders

    css = Path(finders.find("css/site.css")).read_text()
    assert "prefers-color-scheme: dark" in css
    assert "@media (max-width" in css
