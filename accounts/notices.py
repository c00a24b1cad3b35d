"""Notices for one player: stored first, then sent live to every socket of the account.

The site tells a signed-in player about things that happen away from the page they are on
("your tournament starts in 2 minutes", "you were moved to table 5"). The live copy travels
on the account's socket group (``accounts.sockets.user_group``), which every socket of the
account joins; the base layout's notice socket shows it. The channel layer delivers at most
once and a player may have no page open at all, so the row is written first, in the
caller's transaction, and sent only after that commits: what the socket missed, the pages
that list notices still show.

The accounts app is the bottom app, so a notice names what it is about with a plain
``topic`` string that the app above chooses (tournaments use ``tournament-<id>``); other
apps call their own thin wrapper (``tournaments.notices.notify``), not this module.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import sockets
from accounts.models import Notice

log = logging.getLogger(__name__)

NOTICE_EVENT = "account.notice"
KIND_PATTERN = re.compile(r"^[a-z][a-z_]{0,19}$")
TEXT_MAX = Notice._meta.get_field("text").max_length or 200
URL_MAX = Notice._meta.get_field("url").max_length or 200
TOPIC_MAX = Notice._meta.get_field("topic").max_length or 40
KEY_MAX = Notice._meta.get_field("key").max_length or 80


class NoticeError(ValueError):
    """A notice the site cannot send as asked; nothing was stored or sent."""


def post(
    user_id: int,
    kind: str,
    text: str,
    url: str | None = None,
    *,
    topic: str = "",
    key: str = "",
    live: dict[str, object] | None = None,
) -> Notice | None:
    """Store a notice for ``user_id`` and send it to their sockets once the caller's
    transaction commits. Returns the notice, or None when ``key`` was used already (the
    notice went out before; a sweep that runs again must not repeat it). ``live`` adds
    fields to the live copy only (a title, whether the page follows the link)."""
    text = _checked(kind, text, url, topic, key)
    try:
        with transaction.atomic():  # a savepoint: a repeated key leaves the caller's work alone
            notice = Notice.objects.create(
                user_id=user_id, kind=kind, text=text, url=url or "", topic=topic, key=key
            )
    except IntegrityError:
        if key and Notice.objects.filter(user_id=user_id, key=key).exists():
            return None
        raise
    event = {"type": NOTICE_EVENT, "notice": {**(live or {}), **payload(notice)}}
    group = sockets.user_group(user_id)
    transaction.on_commit(lambda: sockets._send(group, event))
    return notice


def post_many(
    notes: list[tuple[int, str, str | None]],
    kind: str,
    *,
    topic: str = "",
    key: str = "",
    live: dict[str, object] | None = None,
) -> list[Notice]:
    """``post`` for many players at once: (user id, text, url) each, one kind and topic.

    One INSERT for all and, after the commit, every send on one event loop: a start seats a
    whole field at once, and a savepoint, an insert and a loop per player held the
    tournament's lock for seconds at a thousand (bench/tournaments/notices_cost.py). With a
    ``key``, players who had that notice already are left out."""
    rows = [
        Notice(user_id=user_id, kind=kind, text=_checked(kind, text, url, topic, key),
               url=url or "", topic=topic, key=key)
        for user_id, text, url in notes
    ]  # fmt: skip
    if key and rows:
        had = set(
            Notice.objects.filter(user_id__in=[n.user_id for n in rows], key=key).values_list(
                "user_id", flat=True
            )
        )
        rows = [n for n in rows if n.user_id not in had]
    if not rows:
        return []
    try:
        with transaction.atomic():
            made = Notice.objects.bulk_create(rows)
    except IntegrityError:  # a key taken meanwhile by another sender: one by one then
        one_by_one = (
            post(n.user_id, kind, n.text, n.url or None, topic=topic, key=key, live=live)
            for n in rows
        )
        return [n for n in one_by_one if n is not None]
    events = [
        (
            sockets.user_group(n.user_id),
            {"type": NOTICE_EVENT, "notice": {**(live or {}), **payload(n)}},
        )
        for n in made
    ]
    transaction.on_commit(lambda: _send_all(events))
    return made


def _send_all(events: list[tuple[str, dict[str, object]]]) -> None:
    """Every send on one event loop. As games.broadcast._send does for one message (which
    owns the pitfalls: a socket's deferred sends, the channels-redis pools of a loop that
    dies with the call), imported here so that accounts does not load games at start-up."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from games.broadcast import _deferred, _on_a_fresh_loop, flush

    box = _deferred.get()
    if box is not None:
        box.extend(events)
        return
    layer = get_channel_layer()
    if layer is None:
        return
    close_after = _on_a_fresh_loop() and hasattr(type(layer), "close_pools")

    async def send() -> None:
        try:
            await flush(events)  # logs and goes on past a failed send
        finally:
            if close_after:
                await layer.close_pools()

    try:
        async_to_sync(send)()
    except Exception:  # the change is committed and the rows kept; pages list them
        log.exception("notice sends failed")


def _checked(kind: str, text: str, url: str | None, topic: str, key: str) -> str:
    if not isinstance(kind, str) or not KIND_PATTERN.match(kind):
        raise NoticeError(f"A notice kind is a short lowercase word, not {kind!r}.")
    text = " ".join(str(text).split())
    if not text:
        raise NoticeError("A notice needs a text.")
    if len(text) > TEXT_MAX:
        raise NoticeError(f"A notice's text is at most {TEXT_MAX} characters.")
    if url is not None and not is_site_path(url):
        raise NoticeError("A notice links only to a page of this site (a path such as /tables/3/).")
    if len(topic) > TOPIC_MAX or len(key) > KEY_MAX:
        raise NoticeError("A notice's topic or key is too long.")
    return text


def is_site_path(url: str) -> bool:
    """A path on this site: '/x/'; not '//host/' (another site) nor a scheme."""
    return (
        isinstance(url, str)
        and 0 < len(url) <= URL_MAX
        and url.startswith("/")
        and not url.startswith("//")
        and "\\" not in url
        and not any(ch.isspace() or ord(ch) < 32 for ch in url)
    )


def payload(notice: Notice) -> dict[str, object]:
    """What a page gets: nothing but the player's own notice."""
    return {
        "id": notice.pk,
        "kind": notice.kind,
        "text": notice.text,
        "url": notice.url or None,
        "topic": notice.topic,
        "at": notice.created_at.isoformat(),
    }


def listed(user_id: int, topic: str, *, limit: int = 50) -> list[Notice]:
    """A topic's notices for one player, newest first."""
    return list(Notice.objects.filter(user_id=user_id, topic=topic)[:limit])


def mark_read(
    user_id: int,
    notice_ids: list[int] | None = None,
    *,
    topic: str | None = None,
    now: datetime | None = None,
) -> int:
    """Mark the player's own notices read (by ids, or all of a topic); returns how many.
    Other players' ids are ignored: a player can only ever touch their own rows."""
    rows = Notice.objects.filter(user_id=user_id, read_at__isnull=True)
    if notice_ids is not None:
        rows = rows.filter(pk__in=notice_ids)
    if topic is not None:
        rows = rows.filter(topic=topic)
    return rows.update(read_at=now or timezone.now())


def dismiss(user_id: int, notice_id: int, *, now: datetime | None = None) -> bool:
    """Mark one of the player's own notices read; False when they have no such notice
    (another player's id and an id that does not exist get the same answer, so the reply
    tells nothing about other players' notices). Dismissing twice is fine."""
    if mark_read(user_id, [notice_id], now=now):
        return True
    return Notice.objects.filter(user_id=user_id, pk=notice_id).exists()


def unread_since(user_id: int, after_id: int, *, limit: int = 10) -> list[Notice]:
    """Unread notices newer than ``after_id``: what a page that just opened its socket
    missed while the player moved from page to page."""
    rows = Notice.objects.filter(user_id=user_id, read_at__isnull=True, pk__gt=after_id)
    return list(rows.order_by("-id")[:limit])[::-1]
