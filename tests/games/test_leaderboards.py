"""Public leaderboards: boards, windows, pagination, search, JSON, bad input, query counts."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from games.models import Game, Rating, Table
from games.ratings import history_seed, leaderboards, ratings
from tests.conftest import make_player


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def table(db):
    return Table.objects.create(name="History", preset="standard", rules={}, num_seats=4)


def play(table, seats, hands, *, when, preset="standard"):
    game = history_seed.finished_game(
        table=table,
        number=Game.objects.filter(table=table).count() + 1,
        seats=seats,
        hands=hands,
        finished_at=when,
        preset=preset,
    )
    game.save()
    assert ratings.rate_game(game.pk)
    return game


@pytest.fixture
def field(table):
    """Twelve players; player 0 beats everyone, player 11 loses to everyone."""
    people = [make_player(f"lb{i}", f"Racer {i:02d}") for i in range(12)]
    now = timezone.now()
    for round_ in range(6):
        for i in range(0, 12, 2):
            a, b = people[i], people[i + 1]
            play(table, [a, b], [[80 - i, 10 + i]], when=now - dt.timedelta(minutes=round_ + i))
    play(table, [people[0], people[11]], [[100, 0]], when=now)
    return people


def get(client, board, **params):
    return client.get(f"/leaderboards/{board}/", params)


def test_the_index_shows_the_rating_board(client, db):
    response = client.get("/leaderboards/")
    assert response.status_code == 302
    assert response["Location"] == "/leaderboards/rating/"
    assert client.get(response["Location"]).status_code == 200


def test_the_rating_board_orders_by_rating_and_marks_provisional_players(client, field):
    response = get(client, "rating")
    rows = response.context["rows"]
    assert rows[0]["player"] == "Racer 00"
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    assert all(r["provisional"] for r in rows)  # nobody has 10 rated games yet
    assert b"Provisional" in response.content


def test_the_rating_board_shows_the_1500_scale_with_a_question_mark(client, field):
    response = get(client, "rating")
    top = response.context["rows"][0]
    ordinal = Rating.objects.get(user=field[0], family="standard", pool="humans").ordinal
    assert top["display_rating"] == round(1500 + 60 * ordinal)
    assert top["rating"] == round(ordinal, 1)  # the ordinal stays as it was
    html = response.content.decode()
    assert re.search(rf"<td>{top['display_rating']}<abbr [^>]*>\?</abbr></td>", html)
    assert f"<td>{top['rating']}<abbr" not in html


def test_bots_are_on_their_own_board_only(client, field, table):
    play(table, [field[3], "hard"], [[10, 90]], when=timezone.now())
    human = get(client, "rating").context["rows"]
    assert all(not r["player"].endswith("bot") for r in human)
    bots = get(client, "bots").context["rows"]
    assert [r["player"] for r in bots] == ["Hard bot"]


def test_wins_board_and_windows(client, field, table):
    old = timezone.now() - dt.timedelta(days=70)
    play(table, [field[5], field[6]], [[90, 0]], when=old)
    all_time = {r["player"]: r["wins"] for r in get(client, "wins").context["rows"]}
    this_week = {r["player"]: r["wins"] for r in get(client, "wins", window="week").context["rows"]}
    assert all_time["Racer 05"] == this_week.get("Racer 05", 0) + 1
    assert all_time["Racer 00"] == 7


def test_window_boundaries_follow_calendar_weeks_and_months():
    monday = dt.datetime(2026, 3, 2, 0, 5, tzinfo=dt.UTC)
    assert leaderboards.window_start("week", monday) == dt.date(2026, 3, 2)
    assert leaderboards.window_start("week", monday - dt.timedelta(minutes=10)) == dt.date(
        2026, 2, 23
    )
    assert leaderboards.window_start("month", monday) == dt.date(2026, 3, 1)


def test_average_board_needs_a_minimum_of_games(client, field, table):
    newcomer = make_player("newbie", "Newbie")
    play(table, [newcomer, field[1]], [[200, 0]], when=timezone.now())
    rows = get(client, "average").context["rows"]
    names = [r["player"] for r in rows]
    assert "Newbie" not in names
    assert names[0] == "Racer 00"
    assert [r["average_hand"] for r in rows] == sorted(
        (r["average_hand"] for r in rows), reverse=True
    )


def test_pagination_and_search(client, field):
    first = get(client, "rating", per_page=5)
    assert [r["rank"] for r in first.context["rows"]] == [1, 2, 3, 4, 5]
    assert 'href="?per_page=5&amp;page=2" rel="next"' in first.content.decode()
    third = get(client, "rating", per_page=5, page=3)
    assert [r["rank"] for r in third.context["rows"]] == [11, 12]
    assert 'href="?per_page=5&amp;page=2" rel="prev"' in third.content.decode()
    found = get(client, "rating", q="racer 1")
    assert {r["player"] for r in found.context["rows"]} == {"Racer 10", "Racer 11"}


def test_my_own_row_is_highlighted_when_logged_in(field):
    client = Client()
    client.force_login(field[4], backend="django.contrib.auth.backends.ModelBackend")
    response = get(client, "rating")
    assert b'class="board-me"' in response.content
    assert response.content.count(b'class="board-me"') == 1


@pytest.mark.parametrize(
    "path",
    [
        "/leaderboards/nope/",
        "/leaderboards/rating/?family=gin",
        "/leaderboards/wins/?window=year",
        "/leaderboards/rating/?page=99",
        "/leaderboards/rating/?page=zero",
        "/leaderboards/rating/?page=-1",
        "/leaderboards/rating/?per_page=x",
        "/leaderboards/nope.json",
        "/leaderboards/wins.json?window=fortnight",
        "/leaderboards/rating.json?page=50",
    ],
)
def test_bad_parameters_get_a_404_with_a_reason(client, field, path):
    response = client.get(path)
    assert response.status_code == 404
    if path.endswith(".json") or ".json?" in path:
        assert "error" in response.json()
    else:
        assert b'role="alert"' in response.content


def test_a_bad_window_says_which_windows_exist(client, db):
    response = client.get("/leaderboards/wins/", {"window": "<i>year</i>"})
    assert response.status_code == 404
    content = response.content.decode()
    assert "There is no window" in content and "all, month, week" in content
    assert "<i>year</i>" not in content


def test_the_json_endpoint_is_public_cached_and_hides_private_fields(client, field):
    response = client.get("/leaderboards/rating.json", {"per_page": 3})
    assert response.status_code == 200
    assert response["Cache-Control"] == "public, max-age=60"
    data = response.json()
    assert (data["board"], data["family"], data["page"], data["count"]) == (
        "rating",
        "standard",
        1,
        12,
    )
    assert data["rows"][0]["player"] == "Racer 00"
    assert set(data["rows"][0]) == {
        "rank",
        "player",
        "games",
        "rating",
        "display_rating",
        "mu",
        "sigma",
        "provisional",
    }
    top_ordinal = Rating.objects.get(user=field[0], family="standard", pool="humans").ordinal
    assert data["rows"][0]["display_rating"] == ratings.display_rating(top_ordinal)
    assert b"@example.com" not in response.content
    # cached: a new rating does not show until the entry expires
    Rating.objects.filter(user=field[11]).update(ordinal=1000)
    assert client.get("/leaderboards/rating.json", {"per_page": 3}).json() == data
    cache.clear()
    assert (
        client.get("/leaderboards/rating.json", {"per_page": 3}).json()["rows"][0]["player"]
        == "Racer 11"
    )


def test_deleted_players_leave_the_boards(client, field):
    type(field[0]).objects.filter(pk=field[0].pk).update(deleted_at=timezone.now())
    names = [r["player"] for r in get(client, "rating").context["rows"]]
    assert "Racer 00" not in names


def test_display_names_with_markup_are_escaped(client, field):
    # The sign-up form refuses markup; rows written any other way must still be escaped.
    type(field[2]).objects.filter(pk=field[2].pk).update(display_name="<b>x</b>")
    response = get(client, "rating")
    assert b"<b>x</b>" not in response.content
    assert b"&lt;b&gt;x&lt;/b&gt;" in response.content


@pytest.mark.parametrize("board", ["rating", "wins", "average", "bots"])
def test_a_board_page_costs_the_same_queries_whatever_its_size(
    board, field, django_assert_max_num_queries
):
    client = Client()
    client.force_login(field[0], backend="django.contrib.auth.backends.ModelBackend")
    for size in (2, 100):
        with django_assert_max_num_queries(4):  # session, user, count, rows
            assert get(client, board, per_page=size).status_code == 200
        cache.clear()
        with django_assert_max_num_queries(2):  # count, rows
            assert client.get(f"/leaderboards/{board}.json", {"per_page": size}).status_code == 200


def test_the_row_count_is_cached_so_a_repeated_page_costs_one_query(
    client, field, django_assert_num_queries
):
    with django_assert_num_queries(2):
        get(client, "wins", window="month", q="racer")
    with django_assert_num_queries(1):
        assert get(client, "wins", window="month", q="racer", page=1).status_code == 200
