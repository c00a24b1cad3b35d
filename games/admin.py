"""Staff views of tables, games, hands and moves (read-only), and chat moderation.

Read-only because every write to a game goes through games.services: the admin may only
abort a broken game (tables.table_abort records why and tells the players) and act on
chat reports (hide the message, suspend the author's account).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import ChatMessage, ChatReport, Game, Hand, Move, Seat, Table
from games.services import shared, tables


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Inspection only: rows are written by the services, never by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = readonly_fields = (
        "index",
        "user",
        "bot_level",
        "autoplay",
        "left",
        "timeouts",
        "present_until",
    )


class GameInline(ReadOnlyInline):
    model = Game
    fields = readonly_fields = (
        "number",
        "status",
        "totals",
        "winners",
        "started_at",
        "finished_at",
    )


class AbortForm(ActionForm):
    reason = forms.CharField(
        required=False,
        max_length=200,
        help_text="Told to the players and kept with the table.",
    )


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "name",
        "preset",
        "status",
        "num_seats",
        "is_private",
        "version",
        "created_at",
    )
    list_filter = ("status", "preset", "is_private")
    search_fields = ("name", "host__username", "host__display_name")
    exclude = ("invite_token",)
    inlines = (SeatInline, GameInline)
    action_form = AbortForm
    actions = ("abort_game",)

    @admin.action(description="Abort the game (players are told)")
    def abort_game(self, request: HttpRequest, queryset: QuerySet[Table]) -> None:
        reason = request.POST.get("reason", "").strip() or "Stopped by staff."
        aborted = 0
        for table in queryset:
            try:
                tables.table_abort(table_id=table.pk, reason=reason)
            except shared.TableError as exc:
                self.message_user(request, f"{table}: {exc.message}", messages.WARNING)
            else:
                aborted += 1
        if aborted:
            self.message_user(request, f"Aborted {aborted} table(s).", messages.SUCCESS)


class HandInline(ReadOnlyInline):
    model = Hand
    fields = readonly_fields = (
        "number",
        "dealer",
        "status",
        "moves_count",
        "started_at",
        "finished_at",
    )


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "number", "status", "started_at", "finished_at")
    list_filter = ("status",)
    search_fields = ("table__name",)
    inlines = (HandInline,)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "number", "dealer", "status", "moves_count", "started_at")
    list_filter = ("status",)
    search_fields = ("game__table__name",)


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("id", "hand", "seq", "seat", "actor", "action", "table_version", "created_at")
    list_filter = ("actor",)
    search_fields = ("hand__game__table__name", "client_id")


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "user", "text", "hidden", "created_at")
    list_filter = ("hidden",)
    search_fields = ("text", "user__username", "user__display_name")


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "message_text", "author", "reporter", "reason", "resolved", "created_at")
    list_filter = ("resolved",)
    list_select_related = ("message__user", "reporter")
    readonly_fields = ("message", "reporter", "reason", "created_at")
    actions = ("hide_messages", "suspend_authors", "dismiss")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Message")
    def message_text(self, report: ChatReport) -> str:
        return report.message.text

    @admin.display(description="Author")
    def author(self, report: ChatReport) -> str:
        return str(report.message.user)

    @admin.action(description="Hide the reported messages")
    def hide_messages(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        ids = list(queryset.values_list("message_id", flat=True))
        ChatMessage.objects.filter(pk__in=ids).update(hidden=True)
        queryset.update(resolved=True)
        self.message_user(request, f"Hid {len(set(ids))} message(s).", messages.SUCCESS)

    @admin.action(description="Suspend the authors' accounts (they can no longer log in)")
    def suspend_authors(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        from accounts import sockets
        from accounts.models import User

        author_ids = set(queryset.values_list("message__user_id", flat=True))
        author_ids.discard(request.user.pk)
        to_suspend = User.objects.filter(pk__in=author_ids, is_superuser=False, is_active=True)
        suspended_ids = list(to_suspend.values_list("pk", flat=True))
        suspended = to_suspend.update(is_active=False)
        for user_id in suspended_ids:  # a bulk update skips User.save, which would tell them
            sockets.close_user_sockets(user_id, reason=sockets.REASON_ACCOUNT_SUSPENDED)
        queryset.update(resolved=True)
        self.message_user(request, f"Suspended {suspended} account(s).", messages.SUCCESS)

    @admin.action(description="Dismiss (mark resolved, no action)")
    def dismiss(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        queryset.update(resolved=True)
