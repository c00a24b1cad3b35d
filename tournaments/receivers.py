"""Listen to games (games.signals).

A hand that ended at a tournament table arms ``advance``, and so does the Ready of everyone
there that ends the pause after it early; a tournament table's page gets a
line naming its tournament (and, for entrants, the socket that moves them with their seat).
"""

from __future__ import annotations

from typing import Any

from games import secrecy, signals
from tournaments.models import TournamentTable


def on_hand_finished(sender: Any, *, table_id: int, game_over: bool, **kwargs: Any) -> None:
    """Advance at once: the scores go to the standings now, and ``advance`` itself waits for
    the pause after the hand (re-arming for its end) before the next deal or round. The
    tournament's pages are told at once too: running scores and table banners change when
    the hand ends, not when the next one is dealt."""
    tournament_id = (
        TournamentTable.objects.filter(table_id=table_id).values_list("tournament_id", flat=True)
    ).first()
    if tournament_id is None:
        return
    from tournaments import broadcast, tasks

    broadcast.tournament_changed(tournament_id)

    tasks.advance.delay(tournament_id)


def on_hand_pause_over(sender: Any, *, table_id: int, **kwargs: Any) -> None:
    """Everyone at a tournament table said Ready: advance now rather than at the pause's
    end (``advance`` asks games.services.clock whether the pause is really over, table by table)."""
    tournament_id = (
        TournamentTable.objects.filter(table_id=table_id).values_list("tournament_id", flat=True)
    ).first()
    if tournament_id is None:
        return
    from tournaments import tasks

    tasks.advance.delay(tournament_id)


def connect() -> None:
    signals.hand_finished.connect(on_hand_finished, dispatch_uid="tournaments.hand_finished")
    signals.hand_pause_over.connect(on_hand_pause_over, dispatch_uid="tournaments.pause_over")
    signals.managed_table_banner.connect(table_banner, dispatch_uid="tournaments.table_banner")
    secrecy.deal_held_back.connect(deal_held_back, dispatch_uid="tournaments.deal_held_back")
    secrecy.watch_refused.connect(watch_refused, dispatch_uid="tournaments.watch_refused")
    from tournaments.review_policy import on_review_policy

    signals.review_policy.connect(on_review_policy, dispatch_uid="tournaments.review_policy")


def table_banner(sender: Any, *, table: Any, user: Any, **kwargs: Any) -> str | None:
    """The tournament line on a tournament table's page, kept current by tournament.js.

    Everyone sees the tournament, its format and (MTT) the level, PCR and when the next PCR
    comes; an entrant also sees their chips or score, and their result once they are out or
    the event is over. An entrant's page follows their seat when they are moved.
    """
    link = TournamentTable.objects.filter(table_id=table.pk).select_related("tournament").first()
    if link is None:
        return None
    from django.template.loader import render_to_string

    from tournaments import selectors

    return render_to_string("tournaments/partials/table_banner.html", selectors.banner(link, user))


def deal_held_back(sender: Any, *, game_id: int, **kwargs: Any) -> bool:
    """games.secrecy asks: is this game a duplicate deal another table still plays?"""
    from tournaments import duplicate

    return duplicate.held_back(game_id)


def watch_refused(sender: Any, *, table_id: int, user: Any, **kwargs: Any) -> str | None:
    """games.secrecy asks: may ``user`` watch this tournament table now?"""
    from tournaments import duplicate

    return duplicate.watch_refused(table_id, user)
