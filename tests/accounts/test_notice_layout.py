"""The base layout opens the notice socket for signed-in players only, without inline script."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse


def test_a_signed_in_page_has_the_live_notice_region_and_its_script(alice_client):
    page = alice_client.get(reverse("tournaments:leaderboard")).content.decode()
    region = re.search(r'<section id="notices"[^>]*>(.*?)</section>', page, re.S)
    assert region is not None
    assert 'data-socket="/ws/notices/"' in page
    assert 'aria-live="polite"' in region.group(1)
    assert '<h2 id="notices-title"' in region.group(1)
    # the browser's notifications are offered by a button, hidden until the script shows it
    assert re.search(r"<button[^>]*data-notice-permission[^>]*hidden", region.group(1))
    assert '<script src="/static/js/notices.js" defer></script>' in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)  # no inline script (CSP)


def test_an_anonymous_page_opens_no_notice_socket(db):
    page = Client().get(reverse("tournaments:leaderboard")).content.decode()
    assert 'id="notices"' not in page and "notices.js" not in page
