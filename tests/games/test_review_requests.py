"""Asking for a game's review from the replay page: who may, when, and how often."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import review_requests, signals, tasks
from games.models import Game, GameReview, Table
from tests.conftest import make_player
from tests.games.test_game_reviews import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture(name="sent")
def sent_fixture(monkeypatch) -> list:
    sent: list = []
    monkeypatch.setattr(tasks.review_game, "apply_async", lambda args, **kw: sent.append(args))
    return sent


def _ask(client, game, capture):
    with capture(execute=True):
        return client.post(reverse("game_review_request", args=[game.pk]), follow=True)


def _one_hand_game(host) -> Game:
    game = finished_game(host, hands=1)
    Table.objects.filter(pk=game.table_id).update(managed=True, hands_per_game=1)
    return game


def test_anyone_who_may_see_a_public_replay_may_ask(
    alice, bob, client, sent, django_capture_on_commit_callbacks
):
    game = _one_hand_game(alice)
    client.force_login(bob)
    assert "Review this game" in client.get(reverse("game_detail", args=[game.pk])).text
    _ask(client, game, django_capture_on_commit_callbacks)
    assert sent == [(game.pk,)]
    assert GameReview.objects.get(game=game).requested_by == bob


def test_a_stranger_to_a_private_table_gets_no_page_and_no_review(
    alice, bob, client, sent, django_capture_on_commit_callbacks
):
    game = _one_hand_game(alice)
    Table.objects.filter(pk=game.table_id).update(is_private=True)
    client.force_login(bob)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 404
    assert _ask(client, game, django_capture_on_commit_callbacks).status_code == 404
    assert sent == [] and not GameReview.objects.exists()


def test_asking_needs_a_login_and_the_form_token(alice, sent):
    game = _one_hand_game(alice)
    url = reverse("game_review_request", args=[game.pk])
    assert Client().post(url).status_code == 302  # to the login page
    guarded = Client(enforce_csrf_checks=True)
    guarded.force_login(alice)
    assert guarded.post(url).status_code == 403
    assert guarded.get(url).status_code in (403, 405)
    assert sent == [] and not GameReview.objects.exists()


def test_asking_twice_queues_the_review_once(
    alice, client, sent, django_capture_on_commit_callbacks
):
    game = _one_hand_game(alice)
    client.force_login(alice)
    _ask(client, game, django_capture_on_commit_callbacks)
    _ask(client, game, django_capture_on_commit_callbacks)
    assert sent == [(game.pk,)] and GameReview.objects.count() == 1


def test_requests_are_limited_per_hour_with_a_clear_message(
    alice, client, sent, django_capture_on_commit_callbacks
):
    games = [_one_hand_game(alice) for _ in range(review_requests.REQUESTS_PER_HOUR + 1)]
    client.force_login(alice)
    for game in games[:-1]:
        _ask(client, game, django_capture_on_commit_callbacks)
    response = _ask(client, games[-1], django_capture_on_commit_callbacks)
    assert "please ask again later" in response.text
    assert len(sent) == review_requests.REQUESTS_PER_HOUR
    assert not GameReview.objects.filter(game=games[-1]).exists()


def test_a_bots_only_game_cannot_be_asked_for(
    alice, client, sent, django_capture_on_commit_callbacks
):
    game = finished_game(alice, human=False, hands=1)
    client.force_login(alice)
    assert "Review this game" not in client.get(reverse("game_detail", args=[game.pk])).text
    response = _ask(client, game, django_capture_on_commit_callbacks)
    assert "Only finished games with a person" in response.text
    assert sent == [] and not GameReview.objects.exists()


def test_a_game_its_manager_holds_back_is_refused_until_it_lets_go(
    alice, client, sent, django_capture_on_commit_callbacks
):
    game = _one_hand_game(alice)
    answer = {"value": review_requests.NOT_YET}

    def manager(sender, *, game, **kwargs):
        return answer["value"]

    signals.review_policy.connect(manager, dispatch_uid="test.review_policy")
    try:
        client.force_login(alice)
        page = client.get(reverse("game_detail", args=[game.pk])).text
        assert "Review this game" not in page and "every table has finished it" in page
        response = _ask(client, game, django_capture_on_commit_callbacks)
        assert "once every table has finished it" in response.text
        assert sent == [] and not GameReview.objects.exists()
        answer["value"] = review_requests.ON_REQUEST
        _ask(client, game, django_capture_on_commit_callbacks)
        assert sent == [(game.pk,)]
    finally:
        signals.review_policy.disconnect(dispatch_uid="test.review_policy")


def test_a_private_tables_review_is_shown_only_to_those_who_may_see_its_replay(alice, bob, client):
    from games import game_reviews

    game = finished_game(alice, hands=1)
    Table.objects.filter(pk=game.table_id).update(is_private=True)
    game_reviews.request_review(game, deals=4)
    game_reviews.run_review(game.pk)
    url = reverse("game_detail", args=[game.pk])
    client.force_login(bob)
    assert client.get(url).status_code == 404
    client.force_login(alice)  # the host
    assert "Game review" in client.get(url).text


def test_an_unfinished_game_is_not_reviewed(alice):
    from games import game_reviews

    game = finished_game(alice, hands=1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING)
    assert game_reviews.run_review(game.pk) is None
    assert not GameReview.objects.exists()
    assert review_requests.policy(Game.objects.get(pk=game.pk)) == review_requests.NOT_REVIEWED


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_requests_sent_at_once_are_counted_one_after_the_other(postgres_url, monkeypatch):
    """Twenty requests for twenty games at the same moment (a script) each counted the hour's
    requests before any was written, and queued twenty reviews; the asker's row is locked
    now, so the hour's limit holds."""
    assert connection.vendor == "postgresql"
    monkeypatch.setattr(tasks.review_game, "apply_async", lambda *args, **kwargs: None)
    carol = make_player("carol", "Carol")
    games = [_one_hand_game(carol) for _ in range(20)]
    barrier = threading.Barrier(len(games))
    answers: list[int] = []

    def ask(game: Game) -> None:
        client = Client()
        client.force_login(carol)
        barrier.wait()
        try:
            answers.append(client.post(reverse("game_review_request", args=[game.pk])).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [302] * len(games)  # each told the outcome on the replay page
    assert GameReview.objects.count() == review_requests.REQUESTS_PER_HOUR
