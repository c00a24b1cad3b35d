"""The one way tournament code tells a player something: ``notify``.

A notice is stored (so the player's tournament lobby lists it even if no page of theirs was
open) and, after the caller's transaction commits, sent to every socket of the player's
account; the base layout shows it on whatever page they are on ("take me there" follows
``url``). Kinds are the tournament events players asked to hear about; a new kind is one
more line in ``KINDS`` (the page styles and the browser Notification title read it).

Call it inside the service's transaction, after the change it announces is written: a
rolled-back change then sends nothing.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.urls import Resolver404, resolve

from accounts import notices as account_notices
from accounts.models import Notice
from accounts.notices import NoticeError

__all__ = ["KINDS", "NoticeError", "for_lobby", "notify", "notify_many", "topic"]

STARTING = "starting"
SEATED = "seated"
MOVED = "moved"
BREAK = "break"
FINISHED = "finished"
CANCELLED = "cancelled"

# kind -> the short title a browser notification carries
KINDS: dict[str, str] = {
    STARTING: "Tournament starting",
    SEATED: "You are seated",
    MOVED: "You were moved",
    BREAK: "Break",
    FINISHED: "Tournament result",
    CANCELLED: "Tournament cancelled",
}
# Kinds after which a player's own tournament page (lobby, table) goes to ``url`` by itself.
FOLLOWED = frozenset({SEATED, MOVED})


def topic(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def notify(
    user_id: int,
    kind: str,
    text: str,
    url: str | None = None,
    *,
    tournament_id: int | None = None,
    key: str = "",
) -> Notice | None:
    """Tell ``user_id`` about ``kind`` (one of ``KINDS``), linking to the site path ``url``.

    The tournament it is about is ``tournament_id``, or else found from ``url`` (a page of a
    tournament or a tournament table); a notice about no tournament is still sent, just not
    listed on a tournament page. ``key`` makes it a once-only notice per player (None is
    returned when it was sent before). Bad input raises ``NoticeError`` and sends nothing.
    """
    if kind not in KINDS:
        raise NoticeError(f"Unknown notice kind {kind!r}; known: {', '.join(KINDS)}.")
    if tournament_id is None and url:
        tournament_id = tournament_of(url)
    return account_notices.post(
        user_id,
        kind,
        text,
        url,
        topic=topic(tournament_id) if tournament_id is not None else "",
        key=key,
        live={"title": KINDS[kind], "follow": kind in FOLLOWED, "tournament": tournament_id},
    )


def notify_many(
    notes: list[tuple[int, str, str | None]],
    kind: str,
    *,
    tournament_id: int,
    key: str = "",
) -> list[Notice]:
    """``notify`` for many players of one tournament at once: (user id, text, url) each.
    One INSERT and one batch of sends, for the events that tell a whole field (the start,
    the end)."""
    if kind not in KINDS:
        raise NoticeError(f"Unknown notice kind {kind!r}; known: {', '.join(KINDS)}.")
    return account_notices.post_many(
        notes,
        kind,
        topic=topic(tournament_id),
        key=key,
        live={"title": KINDS[kind], "follow": kind in FOLLOWED, "tournament": tournament_id},
    )


def tournament_of(url: str) -> int | None:
    """The tournament a site path belongs to: its own pages, or one of its tables."""
    try:
        match = resolve(urlsplit(url).path)
    except Resolver404:
        return None
    if "tournament_id" in match.kwargs:
        return int(match.kwargs["tournament_id"])
    if match.url_name == "table_detail" and "table_id" in match.kwargs:
        from tournaments.models import TournamentTable

        return (
            TournamentTable.objects.filter(table_id=match.kwargs["table_id"])
            .values_list("tournament_id", flat=True)
            .first()
        )
    return None


def for_lobby(user_id: int, tournament_id: int) -> list[Notice]:
    """The player's notices of one tournament, newest first, marked read as they are shown
    (the list keeps showing them; ``read_at`` says which were new on this visit)."""
    rows = account_notices.listed(user_id, topic(tournament_id))
    account_notices.mark_read(user_id, [n.pk for n in rows if n.read_at is None])
    return rows
