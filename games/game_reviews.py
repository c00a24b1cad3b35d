"""Game reviews for the site: which games are reviewed, running one, storing it with progress.

The review itself (games.review) knows nothing of Django; this module loads a finished game's
hands, keeps the stored ``GameReview`` row up to date while the worker goes through the hands,
and answers what the replay page and the player page show.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import engine, review_requests, signals
from games.models import Game, GameReview, Hand
from games.review import Budget, review_game
from games.review_requests import human_seats

log = logging.getLogger(__name__)

DEFAULT_SEED = "site"
"""Seeds every stored review (with the game id): the same game always gets the same review,
and never the live hard bot's random generators."""


def wants_review(game: Game) -> bool:
    """A finished game with a human seat that the site reviews without being asked
    (games.review_requests: one-hand tournament games and duplicate rounds wait for a request)."""
    return review_requests.policy(game) == review_requests.AUTO


def finished_hands(game: Game) -> list[tuple[int, engine.HandState]]:
    """(hand number, final state) of every hand played to its end, in order."""
    hands = game.hands.filter(status=Hand.Status.OVER).order_by("number")
    return [(hand.number, engine.state_from_json(hand.state)) for hand in hands]


def request_review(
    game: Game,
    *,
    seed: str | None = None,
    deals: int | None = None,
    requested_by: int | None = None,
) -> GameReview:
    """The review row of ``game``, created pending if there is none yet (computed once)."""
    budget = Budget() if deals is None else Budget.scaled(deals)
    review, _created = GameReview.objects.get_or_create(
        game=game,
        defaults={
            "seats": human_seats(game),
            "seed": seed if seed is not None else f"{DEFAULT_SEED}/{game.pk}",
            "deals": budget.deals,
            "requested_by_id": requested_by,
        },
    )
    return review


def run_review(
    game_id: int,
    *,
    force: bool = False,
    seats: list[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameReview | None:
    """Review ``game_id`` and store the result; a done review is left alone unless ``force``.

    Returns None when the game is not finished.
    """
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status != Game.Status.FINISHED:
        return None
    review = request_review(game)
    if review.status == GameReview.Status.DONE and not force:
        return review
    # A review left "running" by a worker that died is taken up again by the redelivered task
    # (acks_late): the result is deterministic, so a rare duplicate run only costs time.
    GameReview.objects.filter(pk=review.pk).update(status=GameReview.Status.RUNNING, hands_done=0)
    hands = finished_hands(game)
    names = [player.get("name", f"Seat {i + 1}") for i, player in enumerate(game.players)]
    reviewed = seats if seats is not None else (review.seats or human_seats(game))

    def step(done: int, total: int) -> None:
        GameReview.objects.filter(pk=review.pk).update(hands_done=done, hands_total=total)
        if progress is not None:
            progress(done, total)

    budget = Budget.scaled(review.deals)
    try:
        result = review_game(
            [state for _number, state in hands],
            reviewed,
            review.seed,
            budget,
            names=names,
            progress=step,
            numbers=[number for number, _state in hands],
        )
    except Exception as error:  # a bad stored hand must not wedge the queue
        log.exception("Review of game %s failed", game_id)
        GameReview.objects.filter(pk=review.pk).update(
            status=GameReview.Status.FAILED, error=str(error)[:300]
        )
        raise
    GameReview.objects.filter(pk=review.pk).update(
        status=GameReview.Status.DONE,
        result=result,
        seats=reviewed,
        hands_done=len(hands),
        hands_total=len(hands),
        finished_at=timezone.now(),
        error="",
    )
    review.refresh_from_db()
    return review


def replay_review(review: GameReview | None, hand_number: int) -> dict[str, Any] | None:
    """What the replay page shows of ``review`` for one hand, or None while it is not done."""
    if review is None or review.status != GameReview.Status.DONE or not review.result:
        return None
    result = review.result
    hands = {hand["number"]: hand for hand in result.get("hands", [])}
    decisions = hands.get(hand_number, {}).get("decisions", [])
    return {
        "players": result.get("players", []),
        "decisions": {decision["index"] + 1: decision for decision in decisions},
        "decision_list": decisions,
        "thresholds": result.get("thresholds", {}),
        "scored_as": result.get("scored_as", "seat"),
        "deals": result.get("deals"),
    }


def accuracy_history(user_id: int, limit: int = 50) -> dict[str, list[float]]:
    """A player's accuracy per reviewed game, oldest first, by rating family (ratings.ratings).

    Only games at public tables: the player page is public, and a private table's replay is
    not. Reads the player's seat and family from the rated result of each game.
    """
    from games.models import GameResult

    found: dict[str, list[float]] = {}
    results = (
        GameResult.objects.filter(
            user_id=user_id,
            game__review__status=GameReview.Status.DONE,
            game__table__is_private=False,
        )
        .order_by("-finished_at", "-id")
        .values_list("seat", "family", "game__review__result")[:limit]
    )
    for seat, family, result in reversed(list(results)):
        for player in (result or {}).get("players", []):
            if player["seat"] == seat and player.get("accuracy") is not None:
                found.setdefault(family, []).append(player["accuracy"])
    return found


def accuracy_charts(user_id: int, name: str) -> list[dict[str, Any]]:
    """One chart of review accuracy per rating family the player has reviewed games in."""
    from games.ratings import charts, ratings

    return [
        {
            "family": family,
            "title": ratings.FAMILY_TITLES.get(family, family),
            "games": len(values),
            "latest": values[-1],
            "chart": charts.rating_chart(
                values,
                label=f"Review accuracy of {name} in {ratings.FAMILY_TITLES.get(family, family)}",
            ),
        }
        for family, values in sorted(accuracy_history(user_id).items())
    ]


def replay_context(
    game: Game, hand_number: int | None, steps: list[dict[str, Any]], user_id: int | None = None
) -> dict:
    """The review part of the replay page: status or progress, each player's accuracy and
    costliest decisions, and for the chosen hand the chart; ``steps`` (display.replay_steps)
    get each reviewed move's verdict under ``step["review"]``."""
    from games.ratings import charts

    review = GameReview.objects.filter(game=game).first()
    asking = review is None and user_id is not None
    found = review_requests.policy(game) if asking else None
    context: dict[str, Any] = {
        "review": review,
        "review_players": [],
        "review_chart": "",
        "may_request_review": found in (review_requests.AUTO, review_requests.ON_REQUEST),
        "review_not_yet": found == review_requests.NOT_YET,
    }
    shown = replay_review(review, hand_number) if hand_number is not None else None
    if shown is None:
        return context
    names = [player.get("name", f"Seat {i + 1}") for i, player in enumerate(game.players)]
    context["review_players"] = shown["players"]
    context["review_thresholds"] = shown["thresholds"]
    context["review_scored_as"] = shown["scored_as"]
    for step in steps:
        step["review"] = shown["decisions"].get(step["number"])
    series = []
    for player in shown["players"]:
        values = [
            (decision["index"] + 1, decision["value"])
            for decision in shown["decision_list"]
            if decision["seat"] == player["seat"] and decision["value"] is not None
        ]
        series.append((names[player["seat"]], values))
    context["review_chart"] = charts.review_chart(
        series,
        moves=max(len(steps) - 1, 1),
        label=f"Expected hand score after each reviewed move, hand {hand_number}",
    )
    return context


def request_on_demand(game: Game, user_id: int | None = None) -> GameReview:
    """Someone asked for the review (the replay page's button; games.review_requests says
    whether they may): queue it unless it exists."""
    existing = GameReview.objects.filter(game=game).first()
    if existing is not None:
        return existing
    review = request_review(game, requested_by=user_id)
    transaction.on_commit(lambda: signals.review_requested.send(Game, game_id=game.pk))
    return review
