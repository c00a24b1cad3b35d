"""Which finished games the site reviews by itself, which only when someone asks, and who may ask.

Why: a review costs one to two minutes of a core. Every finished game with a person's seat is
worth it, except the short games of a tournament (one hand each, a multi-table round) and the
rounds of a duplicate event, which would fill the review queue with games few people open:
those are reviewed on request from the replay page. A duplicate deal is not reviewed while
other tables still play it (the review would tell them the cards' best use). games knows only
its own tables; the app that runs a table says the rest through ``signals.review_policy``.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import signals
from games.models import Game, GameReview

AUTO = "auto"
ON_REQUEST = "on_request"
NOT_YET = "not_yet"
NOT_REVIEWED = "not_reviewed"

REQUESTS_PER_HOUR = 6
"""Reviews one account may ask for in an hour: each takes the review worker a minute or two."""


def human_seats(game: Game) -> list[int]:
    """Seats a person played (bots and empty seats are not reviewed)."""
    return [
        index
        for index, player in enumerate(game.players or [])
        if player.get("user") is not None and not player.get("bot")
    ]


def policy(game: Game) -> str:
    """AUTO, ON_REQUEST, NOT_YET (on request, later) or NOT_REVIEWED for ``game``."""
    if game.status != Game.Status.FINISHED or not human_seats(game):
        return NOT_REVIEWED
    answers = {answer for _receiver, answer in signals.review_policy.send(Game, game=game)}
    if NOT_YET in answers:
        return NOT_YET
    if ON_REQUEST in answers:
        return ON_REQUEST
    table = game.table
    if table.managed and table.hands_per_game == 1:
        return ON_REQUEST  # a one-hand game of a manager nobody told us about
    return AUTO


def refusal(game: Game, user_id: int) -> str | None:
    """Why ``user_id`` may not ask for the review of ``game`` now (None: they may).

    The caller has checked that the user may see the game's replay. Asking for a review that
    exists already is allowed (it changes nothing).
    """
    found = policy(game)
    if found == NOT_REVIEWED:
        return "Only finished games with a person's seat are reviewed."
    if found == NOT_YET:
        return (
            "Other tables are still playing this deal: the review can be asked for once "
            "every table has finished it."
        )
    if GameReview.objects.filter(game=game).exists():
        return None
    since = timezone.now() - timedelta(hours=1)
    asked = GameReview.objects.filter(requested_by_id=user_id, created_at__gte=since).count()
    if asked >= REQUESTS_PER_HOUR:
        return (
            f"You have asked for {asked} reviews in the last hour, the most there can be; "
            "please ask again later."
        )
    return None


def ask(game: Game, user_id: int) -> str | None:
    """``user_id`` asks for the review of ``game``: queued unless ``refusal`` says why not
    (returned; nothing queued). The caller has checked that the user may see the replay.

    The asker's row is locked while the hour's requests are counted and the new one is
    written, so simultaneous requests are counted one after the other: twenty sent at once
    used to pass the count together and queue twenty reviews.
    """
    from accounts.models import User
    from games import game_reviews

    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user_id).values_list("pk", flat=True).first()
        refused = refusal(game, user_id)
        if refused is None:
            game_reviews.request_on_demand(game, user_id)
    return refused
