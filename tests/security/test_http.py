"""HTTP hardening: CSRF on every form and htmx endpoint, authorisation on every table view,
and the security headers (a CSP without inline scripts, framing refused, referrer kept).

Login throttling is pinned in tests/accounts/test_login.py and `check --deploy` in
tests/config/test_production_settings.py; docs/reliability.md lists them with these.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games.models import ChatMessage, Game, Seat, Table
from games.services import tables
from tests.conftest import make_player
from tests.games.conftest import start_table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
TEMPLATES = Path(settings.BASE_DIR) / "templates"
# Sample values for each kind of URL argument (others: "x").
SAMPLES = {"int": "1", "str": "token", "slug": "slug", "path": "x"}


def _client(user, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _urls(resolver: URLResolver | None = None, prefix: str = "") -> list[str]:
    """Every URL of the site with sample arguments (admin: its login and index only)."""
    resolver = resolver or get_resolver()
    found = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if route.startswith("admin/"):
                found += ["/admin/", "/admin/login/"]
                continue
            found += _urls(entry, route)
        elif isinstance(entry, URLPattern):
            url = re.sub(
                r"<(?:(\w+):)?\w+>", lambda m: SAMPLES.get(m.group(1) or "str") or "x", route
            )
            found.append("/" + url.lstrip("^").rstrip("$"))
    return sorted(set(found))


# --- CSRF ----------------------------------------------------------------------------------


def test_the_url_sweep_covers_every_form_and_htmx_endpoint(alice):
    urls = _urls()
    for name, args in [
        ("table_create", []),
        ("seat_join", [1]),
        ("table_start", [1]),
        ("chat_report", [1]),
        ("accounts:login", []),
        ("accounts:signup", []),
        ("accounts:settings", []),
        ("accounts:delete", []),
        ("accounts:logout", []),
        ("accounts:password_change", []),
    ]:
        assert reverse(name, args=args) in urls


@pytest.mark.parametrize("logged_in", [True, False], ids=["player", "visitor"])
def test_every_post_without_a_csrf_token_is_refused(alice, logged_in):
    client = _client(alice, csrf=True) if logged_in else Client(enforce_csrf_checks=True)
    accepted = []
    for url in _urls():
        for extra in ({}, HTMX):
            response = client.post(url, {"index": 1, "name": "x"}, **extra)
            if response.status_code != 403:
                accepted.append((url, response.status_code))
    assert accepted == [], "POSTs without a CSRF token were not refused"


def test_a_forged_csrf_token_is_refused_and_the_real_one_accepted(alice, bob):
    table = tables.table_create(
        host=alice,
        name="Open",
        preset="standard",
        options={},
        num_seats=2,
        turn_seconds=60,
    )
    client = _client(bob, csrf=True)
    page = client.get(reverse("table_detail", args=[table.pk]))
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page.content.decode()).group(1)
    url = reverse("seat_join", args=[table.pk])
    forged = client.post(url, {"index": 1}, HTTP_X_CSRFTOKEN="x" * 64, **HTMX)
    assert forged.status_code == 403
    # a well-formed token, but not the one that goes with this browser's cookie
    assert client.post(url, {"index": 1}, HTTP_X_CSRFTOKEN="A" * 32, **HTMX).status_code == 403
    assert Seat.objects.get(table=table, index=1).user_id is None
    real = client.post(url, {"index": 1}, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert real.status_code == 200 and Seat.objects.get(table=table, index=1).user_id == bob.pk


# --- authorisation -------------------------------------------------------------------------

TABLE_POSTS = [
    ("seat_join", {"index": 1}),
    ("seat_change", {"index": 1}),
    ("seat_leave", {}),
    ("seat_back", {}),
    ("seat_bot", {"index": 1, "level": "easy"}),
    ("seat_bot", {"index": 1}),
    ("seat_remove", {"index": 0}),
    ("table_start", {}),
]


def _table_state(table: Table) -> tuple[object, ...]:
    table.refresh_from_db()
    seats = list(
        Seat.objects.filter(table=table)
        .order_by("index")
        .values_list("user_id", "bot_level", "left", "autoplay")
    )
    return table.version, table.status, table.host_id, seats


def test_an_outsider_can_change_nothing_at_someone_elses_tables(alice, bob):
    """Bob tries every table action at Alice's private table (waiting, no invite) and at her
    running public table: each is refused or not found, and neither table changes."""
    private = tables.table_create(
        host=alice,
        name="Private",
        preset="standard",
        options={},
        num_seats=3,
        turn_seconds=60,
        is_private=True,
    )
    Table.objects.filter(pk=private.pk).update(status=Table.Status.WAITING)
    running = start_table(make_player("carol", "Carol"), seats=2)
    guest = _client(bob)
    for table, allowed in [(private, {404}), (running, {400})]:
        before = _table_state(table)
        for name, data in TABLE_POSTS:
            for extra in ({}, HTMX):
                response = guest.post(reverse(name, args=[table.pk]), data, **extra)
                status = response.status_code
                if not extra and status == 302:  # without htmx a refusal is a message
                    status = 400 if "/accounts/login" not in response["Location"] else 302
                assert status in allowed, (table.name, name, data, response.status_code)
        assert _table_state(table) == before, name
    assert guest.get(reverse("table_detail", args=[private.pk])).status_code == 404


def test_a_private_tables_finished_game_and_chat_stay_private(alice, bob):
    table = start_table(alice, seats=2)
    Table.objects.filter(pk=table.pk).update(is_private=True)
    game = Game.objects.get(table=table)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    message = ChatMessage.objects.create(table=table, user=alice, text="gg")
    guest = _client(bob)
    assert guest.get(reverse("game_detail", args=[game.pk])).status_code == 404
    assert _client(alice).get(reverse("game_detail", args=[game.pk])).status_code == 200
    report = guest.post(reverse("chat_report", args=[message.pk]), {"reason": "spam"})
    assert report.status_code == 400 and not message.reports.exists()


# Organisers run tournaments from the admin; staff outside their group are refused there
# (tests/tournaments/test_admin.py), and players never get in.
TOURNAMENT_ADMIN = "/admin/tournaments/tournament/"


def test_the_admin_is_closed_to_players(alice_client):
    for url in ["/admin/", "/admin/games/table/", "/admin/accounts/user/", TOURNAMENT_ADMIN]:
        response = alice_client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_account_settings_only_ever_change_the_senders_account(alice, bob):
    page = _client(alice).get(reverse("accounts:settings")).content.decode()
    fields = set(re.findall(r'name="(\w+)"', page)) - {"csrfmiddlewaretoken"}
    data = {field: "x" for field in fields}
    data.update(id=bob.pk, pk=bob.pk, user=bob.pk, username="bob", display_name="Mallory")
    _client(alice).post(reverse("accounts:settings"), data)
    bob.refresh_from_db()
    assert bob.display_name == "Bob"


# --- headers and inline code ---------------------------------------------------------------


def test_pages_carry_a_strict_content_security_policy_and_the_other_headers(alice):
    table = start_table(alice, seats=2)
    for url in ["/", reverse("table_detail", args=[table.pk]), reverse("accounts:login")]:
        response = _client(alice).get(url)
        policy = response["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["script-src"] == "'self'"
        assert directives["style-src"] == "'self'"
        assert directives["frame-ancestors"] == "'none'"
        assert directives["object-src"] == "'none'"
        assert "unsafe" not in policy
        assert "ws://testserver" in directives["connect-src"]
        assert response["X-Frame-Options"] == "DENY"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Content-Type-Options"] == "nosniff"


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "inline <script>"),
    (re.compile(r"<[^>]+\son[a-z]+\s*=", re.I), "on* handler"),
    (re.compile(r"<[^>]+\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"<style\b", re.I), "<style> element"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
    (re.compile(r"\shx-on[:-]", re.I), "hx-on handler (evaluated code)"),
]


def _inline_code(html: str) -> list[str]:
    return [what for pattern, what in INLINE if pattern.search(html)]


def test_no_template_needs_an_exception_to_the_policy():
    found = {
        str(path.relative_to(TEMPLATES)): _inline_code(path.read_text())
        for path in TEMPLATES.rglob("*.html")
    }
    assert {k: v for k, v in found.items() if v} == {}


def test_rendered_pages_have_no_inline_code(alice, client):
    table = start_table(alice, seats=2)
    player = _client(alice)
    for page in [
        client.get("/"),
        client.get(reverse("accounts:login")),
        client.get(reverse("accounts:signup")),
        player.get("/"),
        player.get(reverse("table_detail", args=[table.pk])),
        player.get(reverse("accounts:settings")),
    ]:
        assert page.status_code == 200
        assert _inline_code(page.content.decode()) == []


def test_the_inline_code_check_finds_what_it_looks_for():
    assert _inline_code('<div onclick="x()">') == ["on* handler"]
    assert _inline_code("<script>alert(1)</script>") == ["inline <script>"]
    assert _inline_code('<p style="color:red">') == ["style attribute"]
    assert _inline_code('<script src="/static/js/site.js" defer></script>') == []
