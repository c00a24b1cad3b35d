"""The public player page: ratings, chart, stats, recent games, the tournaments fragment."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import escape

from games.models import Game, Rating, Table
from games.ratings import charts, history_seed, leaderboard_views, ratings
from tests.conftest import make_player


@pytest.fixture
def table(db):
    return Table.objects.create(name="History", preset="standard", rules={}, num_seats=4)


@pytest.fixture
def private_table(db):
    return Table.objects.create(
        name="Secret", preset="standard", rules={}, num_seats=4, is_private=True
    )


def play(table, seats, hands, *, minutes, preset="standard"):
    game = history_seed.finished_game(
        table=table,
        number=Game.objects.filter(table=table).count() + 1,
        seats=seats,
        hands=hands,
        finished_at=timezone.now() - dt.timedelta(minutes=minutes),
        preset=preset,
    )
    game.save()
    ratings.rate_game(game.pk)
    return game


@pytest.fixture
def carol_history(table):
    carol = make_player("carol", "Carol")
    dave = make_player("dave", "Dave")
    for i in range(12):
        hands = [[70, 20], [40, 35]] if i % 3 else [[10, 80]]
        play(table, [carol, dave], hands, minutes=100 - i)
    play(table, [carol, dave], [[5, 50]], minutes=1, preset="jokers")
    return carol


def test_it_shows_ratings_stats_chart_and_recent_games(client, carol_history):
    response = client.get("/players/carol/")  # any letter case
    assert response.status_code == 200
    profile = response.context["profile"]
    assert [(r["family"], r["games"], r["provisional"]) for r in profile.ratings] == [
        ("jokers", 1, True),
        ("standard", 12, False),
    ]
    assert profile.chart_family == "standard"
    assert profile.stats["games"] == 13
    assert profile.stats["wins"] == 8
    assert profile.stats["best_hand"] == 70
    assert profile.stats["best_total"] == 110
    assert profile.stats["favourite_preset"] == "Standard 500 Rum"
    assert profile.stats["average_hand"] == round((8 * 110 + 4 * 10 + 5) / (8 * 2 + 4 + 1), 1)
    content = response.content.decode()
    assert '<svg class="rating-chart"' in content
    assert content.count("<polyline") == 1
    assert len(profile.recent) == 13
    assert profile.recent[0].preset == "jokers"
    assert "<td>500 Rummy with jokers</td>" in content
    assert f'href="/games/{profile.recent[0].game_id}/"' in content


def test_the_recent_games_table_scrolls_in_its_box_on_a_narrow_screen(client, carol_history):
    """Six columns were 484 px wide on a 390 px phone: the whole page scrolled sideways."""
    content = client.get("/players/carol/").content.decode()
    assert re.search(r'<div class="board-scroll">\s*<table class="board">', content)


def test_the_chart_can_show_another_family(client, carol_history):
    response = client.get("/players/Carol/", {"family": "jokers"})
    assert response.context["profile"].chart_family == "jokers"
    assert client.get("/players/Carol/", {"family": "gin"}).status_code == 404


def test_private_games_are_listed_without_a_replay_link(client, private_table):
    erin, fay = make_player("erin", "Erin"), make_player("fay", "Fay")
    game = play(private_table, [erin, fay], [[50, 0]], minutes=1)
    content = client.get("/players/Erin/").content.decode()
    assert "Replay" not in content
    assert f"/games/{game.pk}/" not in content


def test_unknown_and_deleted_players_are_404(client, carol_history):
    response = client.get("/players/nobody/")
    assert response.status_code == 404
    assert b"There is no player called" in response.content
    type(carol_history).objects.filter(pk=carol_history.pk).update(deleted_at=timezone.now())
    assert client.get("/players/Carol/").status_code == 404


def test_a_player_without_games_gets_a_page(client, db):
    make_player("gus", "Gus")
    response = client.get("/players/Gus/")
    assert response.status_code == 200
    assert b"No rated games yet" in response.content
    assert b"<svg" not in response.content


def test_a_name_in_other_scripts_has_its_page(client, db):
    """SQLite's LOWER() folds ASCII letters only: "Ωμέγα" lowered in the database stayed
    "Ωμέγα" while the address's name was lowered to "ωμέγα", and the page was a 404 even at
    the exact address the site links to. The exact name is found first; another letter case
    is still found by the database's folding (ASCII on SQLite, all letters on PostgreSQL)."""
    make_player("omega", "Ωμέγα Παπαδοπούλου")
    make_player("zoe", "Zoë Ärger")
    for name in ("Ωμέγα Παπαδοπούλου", "Zoë Ärger"):
        response = client.get(reverse("player_detail", args=[name]))
        assert response.status_code == 200, name
        assert escape(name).encode() in response.content
    assert client.get(reverse("player_detail", args=["Ωμέγα"])).status_code == 404


def test_bot_levels_have_a_page_with_their_rating(client, table):
    hal = make_player("hal", "Hal")
    play(table, [hal, "hard"], [[0, 90]], minutes=1)
    response = client.get("/players/Hard bot/")
    assert response.status_code == 200
    assert [r["pool"] for r in response.context["profile"].ratings] == ["bots"]


def test_e_mail_addresses_are_never_shown(client, carol_history):
    response = client.get("/players/Carol/")
    assert b"carol@example.com" not in response.content
    assert b"@example.com" not in client.get("/leaderboards/rating/").content


def test_markup_in_names_is_escaped_in_the_page_and_the_chart(client, carol_history):
    type(carol_history).objects.filter(pk=carol_history.pk).update(
        display_name="<script>x</script>"
    )
    response = client.get("/players/<script>x</script>/")
    assert response.status_code == 200
    assert b"<script>x</script>" not in response.content
    assert b"&lt;script&gt;x&lt;/script&gt;" in response.content


def test_the_chart_escapes_its_label_and_scales_to_the_box():
    svg = charts.rating_chart([1.0, 5.0, 3.0], label='a "b" <c>')
    assert "<c>" not in svg
    assert "&lt;c&gt;" in svg
    assert 'points="32.0,' in svg
    assert charts.rating_chart([], label="x") == ""


def test_the_tournaments_fragment_loads_only_when_its_url_exists(
    client, carol_history, monkeypatch
):
    content = client.get("/players/Carol/").content.decode()
    try:
        url = leaderboard_views.reverse("tournaments:player-results", kwargs={"name": "Carol"})
    except NoReverseMatch:
        url = None
    if url is None:
        assert "hx-get" not in content
    monkeypatch.setattr(
        leaderboard_views,
        "reverse",
        lambda name, kwargs: f"/tournaments/players/{kwargs['name']}/results/",
    )
    content = client.get("/players/Carol/").content.decode()
    assert 'hx-get="/tournaments/players/Carol/results/" hx-trigger="load"' in content

    def missing(name, kwargs):
        raise NoReverseMatch(name)

    monkeypatch.setattr(leaderboard_views, "reverse", missing)
    assert "hx-get" not in client.get("/players/Carol/").content.decode()


def test_the_page_costs_the_same_queries_whatever_the_history(
    client, table, django_assert_max_num_queries
):
    ivy, joe = make_player("ivy", "Ivy"), make_player("joe", "Joe")
    play(table, [ivy, joe], [[50, 0]], minutes=500)
    # player, ratings, career totals, recent, chart, review accuracy (games.game_reviews)
    with django_assert_max_num_queries(6):
        assert client.get("/players/Ivy/").status_code == 200
    for i in range(40):
        play(table, [ivy, joe], [[i, 30]], minutes=400 - i, preset=["standard", "jokers"][i % 2])
    with django_assert_max_num_queries(6):
        assert client.get("/players/Ivy/").status_code == 200


def test_ratings_show_on_the_1500_scale_with_a_question_mark_while_provisional(
    client, carol_history
):
    response = client.get("/players/Carol/")
    shown = {r["family"]: r for r in response.context["profile"].ratings}
    standard = Rating.objects.get(user=carol_history, family="standard", pool="humans")
    assert shown["standard"]["display_rating"] == round(1500 + 60 * standard.ordinal)
    html = response.content.decode()
    assert f"<strong>{shown['standard']['display_rating']}</strong>" in html
    assert re.search(rf"<strong>{shown['jokers']['display_rating']}<abbr [^>]*>\?</abbr>", html)
    assert f"<strong>{shown['standard']['rating']}</strong>" not in html


def test_a_rating_from_one_game_against_a_bot_has_its_chart(client, table):
    kim = make_player("kim", "Kim")
    play(table, [kim, "easy"], [[90, 10]], minutes=1)
    response = client.get("/players/Kim/")
    assert [r["pool"] for r in response.context["profile"].ratings] == ["bots"]
    html = response.content.decode()
    assert "No rated games in this family yet" not in html
    assert '<svg class="rating-chart"' in html
    # its one point sits in the middle, clear of the rating written at the left edge
    assert f'<circle class="chart-last" cx="{charts.WIDTH / 2:.1f}"' in html


def test_the_tournaments_heading_appears_once_with_its_fragment(client, carol_history):
    page = client.get("/players/Carol/").content.decode()
    url = re.search(r'hx-get="([^"]+)"', page).group(1)
    fragment = client.get(url).content.decode()
    assert (page + fragment).count(">Tournaments</h2>") == 1


def test_the_replays_and_results_name_link_to_public_pages(client, table):
    lou, max_ = make_player("lou", "Lou"), make_player("max", "Max")
    game = play(table, [lou, max_], [[60, 10]], minutes=1)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert '<a href="/players/Lou/">Lou</a>' in html
    assert '<a href="/players/Max/">Max</a>' in html
