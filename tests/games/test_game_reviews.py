"""Stored game reviews: which games get one, the task on its own queue, progress, the command."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games import engine, game_reviews, tasks
from games.bots import choose_action
from games.models import Game, GameReview, Hand, Table

pytestmark = pytest.mark.django_db


def finished_game(host, *, human: bool = True, hands: int = 2, seed: int = 3) -> Game:
    """A finished two-seat game of ``hands`` hands played by medium bots, stored as the site
    stores one (seat 0 is ``host`` when ``human``)."""
    rules = engine.make_rules("standard")
    table = Table.objects.create(
        name="Review table",
        host=host,
        preset="standard",
        rules=rules.to_json(),
        num_seats=2,
        status=Table.Status.FINISHED,
    )
    first = (
        {"user": host.pk, "name": "Alice", "bot": ""}
        if human
        else {
            "user": None,
            "name": "Medium bot",
            "bot": "medium",
        }
    )
    game = Game.objects.create(
        table=table,
        number=1,
        rules=rules.to_json(),
        players=[first, {"user": None, "name": "Medium bot", "bot": "medium"}],
        first_dealer=0,
        totals=[0, 0],
        status=Game.Status.FINISHED,
        finished_at=timezone.now(),
    )
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(2)]
    for number in range(1, hands + 1):
        state = engine.new_hand(rules, 2, number % 2, seed=seed * 100 + number)
        while state.phase is not engine.Phase.HAND_OVER:
            seat = state.to_act[0]
            legal = engine.legal_actions(state, seat)
            action = choose_action("medium", engine.view(state, seat), legal, rngs[seat])
            state, _events = engine.apply(state, action)
        Hand.objects.create(
            game=game,
            number=number,
            dealer=state.dealer,
            status=Hand.Status.OVER,
            state=engine.state_to_json(state),
        )
    return game


def test_a_finished_game_with_a_person_is_reviewed_after_the_commit(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        tasks.review_game, "apply_async", lambda args, **kw: sent.append((args, kw))
    )
    game = finished_game(alice, hands=1)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        tasks.review_game_after_commit(game.pk)
    assert sent == []
    for callback in callbacks:
        callback()
    assert sent == [((game.pk,), {"queue": "review"})]
    assert GameReview.objects.get(game=game).status == GameReview.Status.PENDING


def test_a_table_of_bots_is_not_reviewed(alice, monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr(tasks.review_game, "apply_async", lambda *a, **kw: sent.append(a))
    game = finished_game(alice, human=False, hands=1)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.review_game_after_commit(game.pk)
    assert sent == []
    assert not GameReview.objects.filter(game=game).exists()


def test_the_review_task_stores_the_review_once(alice):
    game = finished_game(alice)
    game_reviews.request_review(game, deals=4)
    assert tasks.review_game(game.pk) is True
    review = GameReview.objects.get(game=game)
    assert review.status == GameReview.Status.DONE
    assert review.seats == [0]
    assert (review.hands_done, review.hands_total) == (2, 2)
    assert [player["seat"] for player in review.result["players"]] == [0]
    review.result = {"marker": True}
    review.save(update_fields=["result"])
    tasks.review_game(game.pk)
    assert GameReview.objects.get(game=game).result == {"marker": True}


def test_progress_names_the_hand_being_reviewed(alice):
    game = finished_game(alice, hands=1)
    review = GameReview(
        game=game, status=GameReview.Status.RUNNING, seed="s", deals=4, hands_done=2, hands_total=7
    )
    assert review.progress == "reviewing: hand 3 of 7"


def test_progress_is_stored_while_the_worker_goes_through_the_hands(alice):
    game = finished_game(alice)
    game_reviews.request_review(game, deals=4)
    seen = []

    def watch(done, total):
        seen.append(GameReview.objects.get(game=game).progress)

    game_reviews.run_review(game.pk, progress=watch)
    assert seen[:2] == ["reviewing: hand 1 of 2", "reviewing: hand 2 of 2"]


def test_the_command_is_deterministic_for_a_seed(alice):
    game = finished_game(alice)
    err = io.StringIO()
    call_command(
        "review_games",
        str(game.pk),
        "--seed",
        "7",
        "--deals",
        "4",
        stderr=err,
        stdout=io.StringIO(),
    )
    first = GameReview.objects.get(game=game).result
    assert "game 1/1" in err.getvalue() and "hand 2/2" in err.getvalue()
    call_command(
        "review_games",
        str(game.pk),
        "--seed",
        "7",
        "--deals",
        "4",
        "--force",
        stderr=io.StringIO(),
        stdout=io.StringIO(),
    )
    assert GameReview.objects.get(game=game).result == first
    call_command(
        "review_games",
        str(game.pk),
        "--seed",
        "8",
        "--deals",
        "4",
        "--force",
        stderr=io.StringIO(),
        stdout=io.StringIO(),
    )
    assert GameReview.objects.get(game=game).result["seed"] == f"8/{game.pk}"


def test_the_command_refuses_an_unknown_game(alice):
    with pytest.raises(CommandError, match="No finished game with id 999"):
        call_command("review_games", "999", stdout=io.StringIO(), stderr=io.StringIO())


def test_reviews_have_their_own_queue_and_worker():
    from config.celery import app

    assert app.conf.task_routes["games.tasks.review_game"] == {"queue": "review"}
    procfile = (Path(__file__).resolve().parents[2] / "config" / "Procfile").read_text()
    line = next(line for line in procfile.splitlines() if line.startswith("review:"))
    assert "--queues=review" in line and "--concurrency=1" in line


# --- the replay page -----------------------------------------------------------------------


def _page(client, game, hand=1):
    from django.urls import reverse

    return client.get(reverse("game_detail", args=[game.pk]), {"hand": hand})


def test_the_replay_page_shows_progress_while_reviewing(alice, client):
    game = finished_game(alice, hands=1)
    game_reviews.request_review(game, deals=4)
    GameReview.objects.filter(game=game).update(
        status=GameReview.Status.RUNNING, hands_done=0, hands_total=1
    )
    html = _page(client, game).content.decode()
    assert "reviewing: hand 1 of 1" in html
    assert "review-chart" not in html


def test_the_replay_page_shows_each_verdict_accuracy_and_a_chart(alice, client):
    game = finished_game(alice, hands=1)
    game_reviews.request_review(game, deals=4)
    review = game_reviews.run_review(game.pk)
    html = _page(client, game).content.decode()
    player = review.result["players"][0]
    assert f"{player['accuracy']}%" in html
    assert "Costliest decisions" in html or not player["costliest"]
    assert '<svg class="rating-chart review-chart"' in html
    assert "<script" not in html.split("</head>")[1]
    decisions = review.result["hands"][0]["decisions"]
    weighed = [d for d in decisions if d["verdict"] != "forced"]
    assert html.count('class="review-move"') == len(decisions)
    assert f"over {weighed[0]['deals']} deals" in html


def test_a_player_with_the_link_sees_the_review_too(alice, bob, client):
    game = finished_game(alice, hands=1)
    game_reviews.request_review(game, deals=4)
    game_reviews.run_review(game.pk)
    client.force_login(bob)
    assert "Game review" in _page(client, game).content.decode()


def test_an_unfinished_game_shows_no_review(alice, client):
    game = finished_game(alice, hands=1)
    game_reviews.request_review(game, deals=4)
    game_reviews.run_review(game.pk)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.PLAYING)
    assert _page(client, game).status_code == 404


# --- the player page -----------------------------------------------------------------------


def _reviewed_result(game, user, accuracy, *, family="standard", minutes=0):
    from games.models import GameResult

    GameResult.objects.create(
        game=game,
        user=user,
        seat=0,
        preset=game.table.preset,
        family=family,
        pool="bots",
        rank=1,
        won=True,
        total=0,
        hands=1,
        hand_points=0,
        best_hand=0,
        finished_at=timezone.now() - timezone.timedelta(minutes=minutes),
    )
    GameReview.objects.create(
        game=game,
        status=GameReview.Status.DONE,
        seats=[0],
        seed="s",
        deals=4,
        result={"players": [{"seat": 0, "accuracy": accuracy}]},
    )


def test_the_player_page_charts_review_accuracy_per_family(alice, client):
    from django.urls import reverse

    for minutes, accuracy in ((30, 61.5), (20, 72.25), (10, 80.0)):
        _reviewed_result(finished_game(alice, hands=0), alice, accuracy, minutes=minutes)
    assert game_reviews.accuracy_history(alice.pk) == {"standard": [61.5, 72.25, 80.0]}
    html = client.get(reverse("player_detail", args=[alice.display_name])).content.decode()
    assert "Game review accuracy over time" in html
    assert "3 reviewed games; latest 80.0%." in html


def test_private_games_stay_out_of_the_public_accuracy_history(alice):
    game = finished_game(alice, hands=0)
    Table.objects.filter(pk=game.table_id).update(is_private=True)
    _reviewed_result(game, alice, 50.0)
    assert game_reviews.accuracy_history(alice.pk) == {}


# --- review on request ---------------------------------------------------------------------


def test_a_one_hand_managed_game_is_reviewed_only_on_request(
    alice, client, monkeypatch, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    sent = []
    monkeypatch.setattr(tasks.review_game, "apply_async", lambda args, **kw: sent.append(args))
    game = finished_game(alice, hands=1)
    Table.objects.filter(pk=game.table_id).update(managed=True, hands_per_game=1)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.review_game_after_commit(game.pk)
    assert sent == [] and not GameReview.objects.filter(game=game).exists()
    client.force_login(alice)
    assert "Review this game" in _page(client, game).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("game_review_request", args=[game.pk]))
    assert response.status_code == 302
    assert sent == [(game.pk,)]
    review = GameReview.objects.get(game=game)
    assert review.status == GameReview.Status.PENDING and review.requested_by == alice


def test_a_managed_game_of_several_hands_is_reviewed_by_itself(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(tasks.review_game, "apply_async", lambda args, **kw: sent.append(args))
    game = finished_game(alice, hands=2)
    Table.objects.filter(pk=game.table_id).update(managed=True, hands_per_game=3)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.review_game_after_commit(game.pk)
    assert sent == [(game.pk,)]


def test_a_review_left_running_by_a_dead_worker_is_taken_up_again(alice):
    game = finished_game(alice, hands=1)
    game_reviews.request_review(game, deals=4)
    GameReview.objects.filter(game=game).update(status=GameReview.Status.RUNNING)
    assert tasks.review_game(game.pk) is True
    assert GameReview.objects.get(game=game).status == GameReview.Status.DONE
