"""Which tournament games the game review waits to be asked for (games.signals.review_policy).

A multi-table round is one hand per table: reviewed only when someone asks from the replay
page. A duplicate round deals the same cards at every table, so its review must not come out
while another table still plays that deal: ``review_allowed`` says when it may.

``review_allowed`` is the duplicate format's own predicate when the tournaments app has one
(``tournaments.duplicate.review_allowed``, issue 21). Until then the local one below stands in:
it says False for a duplicate game until every open table of the event has settled the round
of this game, and True for every game of another format. It recognises a duplicate event by
``Tournament.Format.DUPLICATE``, which main does not have yet, so on main it never holds a
game back; it is the conservative reading of "once every table has finished it".
"""

from __future__ import annotations

from typing import Any

from games.models import Game
from tournaments.models import Tournament, TournamentTable


def on_review_policy(sender: Any, *, game: Game, **kwargs: Any) -> str | None:
    link = (
        TournamentTable.objects.filter(table_id=game.table_id).select_related("tournament").first()
    )
    if link is None:
        return None
    if is_duplicate(link.tournament):
        return "on_request" if review_allowed(game) else "not_yet"
    if link.tournament.format == Tournament.Format.MTT:
        return "on_request"
    return None


def is_duplicate(tournament: Tournament) -> bool:
    duplicate = getattr(Tournament.Format, "DUPLICATE", None)
    return duplicate is not None and tournament.format == duplicate


def review_allowed(game: Game) -> bool:
    """May the review of this tournament game be shown (and computed) now?"""
    try:
        from tournaments import duplicate  # type: ignore[attr-defined]
    except ImportError:
        duplicate = None
    provided = getattr(duplicate, "review_allowed", None)
    if provided is not None:
        return bool(provided(game))
    return local_review_allowed(game)


def local_review_allowed(game: Game) -> bool:
    """False for a duplicate game until every open table of its event has settled its round."""
    link = (
        TournamentTable.objects.filter(table_id=game.table_id).select_related("tournament").first()
    )
    if link is None or not is_duplicate(link.tournament):
        return True
    tournament = link.tournament
    if tournament.status in Tournament.OVER:
        return True
    latest = Game.objects.filter(table_id=game.table_id).order_by("-number").first()
    # The table's latest game is of the round it plays; an earlier one, of a round it settled.
    is_latest = latest is not None and latest.pk == game.pk
    round_of_game = link.round if is_latest else link.settled_round
    return not TournamentTable.objects.filter(
        tournament=tournament, status=TournamentTable.Status.OPEN, settled_round__lt=round_of_game
    ).exists()
