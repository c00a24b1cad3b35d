"""Table chat: post, mute, unmute, report. Escaping happens when a line is shown, not here."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import signals
from games.models import Seat, Table
from games.services.shared import TableError, after_commit
from games.text_rules import text_problem

CHAT_MIN_INTERVAL_S = 1.0


def chat_post(*, table_id: int, user: User, text: str) -> Any:
    """Post a line of chat as a player at the table. Escaping happens when it is shown."""
    from games.models import ChatMessage

    text = " ".join(text.split())
    if not text:
        raise TableError("empty", "Say something first.")
    problem = text_problem(text)
    if problem is not None:
        raise TableError("bad_text", f"A chat line {problem}.")
    if len(text) > ChatMessage.MAX_LENGTH:
        limit = ChatMessage.MAX_LENGTH
        raise TableError("too_long", f"Chat lines are limited to {limit} characters.")
    with transaction.atomic():
        table = Table.objects.filter(pk=table_id).first()
        if table is None:
            raise TableError("no_table", "There is no such table.")
        if not table.chat_enabled:
            raise TableError("chat_off", "Chat is turned off at this table.")
        if not Seat.objects.filter(table=table, user=user).exists():
            raise TableError("not_seated", "Only the players at this table can chat.")
        # The poster's row is locked while their last line is read and the new one written:
        # lines sent at once (many sockets, one script) each read the same last line and
        # all passed the interval on PostgreSQL.
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).first()
        last = (
            ChatMessage.objects.filter(table=table, user=user)
            .order_by("-created_at")
            .values_list("created_at", flat=True)
            .first()
        )
        if last is not None and (timezone.now() - last).total_seconds() < CHAT_MIN_INTERVAL_S:
            raise TableError("rate_limited", "You are chatting too fast; wait a moment.")
        message = ChatMessage.objects.create(table=table, user=user, text=text)
    after_commit(
        lambda: signals.chat_posted.send(sender=Table, table_id=table_id, message_id=message.pk)
    )
    return message


def chat_mute(*, user: User, muted: User) -> None:
    from games.models import ChatMute

    if user.pk == muted.pk:
        raise TableError("forbidden", "You cannot mute yourself.")
    ChatMute.objects.get_or_create(user=user, muted=muted)


def chat_unmute(*, user: User, muted: User) -> None:
    from games.models import ChatMute

    ChatMute.objects.filter(user=user, muted=muted).delete()


def chat_report(*, message_id: int, reporter: User, reason: str = "") -> None:
    from games.models import ChatMessage, ChatReport

    message = ChatMessage.objects.filter(pk=message_id).select_related("table").first()
    if message is None:
        raise TableError("no_message", "There is no such message.")
    if not Seat.objects.filter(table=message.table, user=reporter).exists():
        raise TableError("forbidden", "Only players at that table can report its chat.")
    ChatReport.objects.get_or_create(
        message=message, reporter=reporter, defaults={"reason": reason[:200]}
    )
