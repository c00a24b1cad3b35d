"""Organizers run tournaments here: settings, the level schedule, entrants, state changes, CSV.

Members of the "Tournament organizers" group (staff, not superusers) hold the model
permissions plus ``manage_tournament``, which every state-changing action needs. Actions call
``tournaments.services`` (which refuse what makes no sense in the current state, with a
message) and are written to the admin history with ``log_change``. Settings freeze once a
tournament has started: from then on only the services change it.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from copy import copy
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html

from tournaments import schedule, selectors, services
from tournaments.models import ChipLedger, Entry, Level, Tournament, TournamentTable

MANAGE = "tournaments.manage_tournament"
STEP_FIELDS = ("number", "pcr", "duration")


class LevelFormSet(BaseInlineFormSet):  # type: ignore[type-arg]
    """The whole schedule is checked at once: positive PCRs and durations, no overlap."""

    def validate_unique(self) -> None:
        """Overlapping numbers get the schedule's own message from ``clean`` instead."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        steps = [
            schedule.Step(*(f.cleaned_data.get(k, getattr(f.instance, k)) for k in STEP_FIELDS))
            for f in self.forms
            if f.cleaned_data and not f.cleaned_data.get("DELETE")
        ]
        fmt = self.data.get("format", getattr(self.instance, "format", ""))
        if not steps and fmt != Tournament.Format.MTT:
            return
        found = schedule.problems(steps)
        if found:
            raise forms.ValidationError(found)


class LevelInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Level
    formset = LevelFormSet
    extra = 0
    fields = ("number", "pcr", "duration")


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Tournament
        fields = (
            "name",
            "format",
            "preset",
            "options",
            "seats_per_table",
            "starting_chips",
            "level_unit",
            "target",
            "hands",
            "registration_opens_at",
            "registration_closes_at",
            "scheduled_start",
            "min_entrants",
            "max_entrants",
            "turn_seconds",
            "bots_allowed",
            "spectators_allowed",
            "notice",
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        probe = copy(self.instance)  # fields frozen after the start are not in ``data``
        for name, value in data.items():
            if name in _FIELDS:
                setattr(probe, name, value)
        try:
            services.check_settings(probe)
        except services.TournamentError as exc:
            raise forms.ValidationError(exc.message) from None
        return data


_FIELDS = {f.name for f in Tournament._meta.get_fields() if f.concrete and not f.is_relation}


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    """Standings, read-only: entrants are added and removed through the Entry admin."""

    model = Entry
    extra = 0
    can_delete = False
    fields = readonly_fields = ("place", "user", "status", "chips", "score", "table", "out_round")
    ordering = ("place", "-chips", "registered_at")
    verbose_name_plural = "Standings"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class TableInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentTable
    extra = 0
    can_delete = False
    fields = readonly_fields = ("number", "status", "round", "settled_round", "watch")
    verbose_name_plural = "Tables"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Live table")
    def watch(self, table: TournamentTable) -> str:
        if table.table_id is None:
            return "-"
        url = reverse("table_detail", args=[table.table_id])
        return format_html('<a href="{}">watch</a>', url)


def _state_action(
    fn: Callable[..., Any], description: str, done: str
) -> Callable[[Any, HttpRequest, QuerySet[Tournament]], None]:
    def action(
        modeladmin: TournamentAdmin, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        modeladmin.run_service(request, queryset, fn, done)

    action.__name__ = fn.__name__
    return admin.action(description=description, permissions=["manage"])(action)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TournamentForm
    list_display = (
        "name",
        "format",
        "status",
        "preset",
        "entrants",
        "level",
        "pcr",
        "scheduled_start",
        "created_at",
    )
    list_filter = ("status", "format", "preset", "scheduled_start", "created_at")
    search_fields = ("name",)
    date_hierarchy = "created_at"
    inlines = (LevelInline, TableInline, EntryInline)
    readonly_fields = (
        "public_page",
        "round",
        "level",
        "pcr",
        "started_at",
        "finished_at",
        "paused_at",
        "created_by",
    )
    exclude = ("paused_seconds",)
    actions = (
        _state_action(services.registration_open, "Open registration", "Registration opened"),
        _state_action(services.registration_close, "Close registration", "Registration closed"),
        _state_action(services.start, "Start", "Started"),
        _state_action(services.pause, "Pause (clocks stop)", "Paused"),
        _state_action(services.resume, "Resume", "Resumed"),
        "cancel",
        "export_results",
        "export_ledger",
    )

    def has_manage_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(MANAGE)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = [*super().get_readonly_fields(request, obj), "status"]
        if obj is not None and obj.status not in Tournament.UPCOMING:
            fields += [f for f in _FIELDS if f not in fields and f not in ("id", "notice")]
        return fields

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return (LevelInline,)
        return self.inlines

    def get_inline_instances(self, request: HttpRequest, obj: Any = None) -> Any:
        instances = super().get_inline_instances(request, obj)
        if obj is not None and obj.status not in Tournament.UPCOMING:
            for inline in instances:
                if isinstance(inline, LevelInline):
                    inline.max_num = 0
                    inline.can_delete = False
                    inline.readonly_fields = inline.fields
        return instances

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)

    @admin.display(description="Entrants")
    def entrants(self, t: Tournament) -> int:
        return t.entries.count()

    @admin.display(description="Public page")
    def public_page(self, t: Tournament) -> str:
        if t.pk is None:
            return "-"
        return format_html('<a href="{}">{}</a>', t.get_absolute_url(), t.get_absolute_url())

    def run_service(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        fn: Callable[..., Any],
        done: str,
        **kwargs: Any,
    ) -> None:
        for t in queryset:
            try:
                fn(tournament_id=t.pk, **kwargs)
            except services.TournamentError as exc:
                self.message_user(request, f"{t}: {exc.message}", messages.ERROR)
            else:
                self.log_change(request, t, done)
                self.message_user(request, f"{t}: {done.lower()}.", messages.SUCCESS)

    @admin.action(description="Cancel (with a notice)", permissions=["manage"])
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self.run_service(
            request, queryset, services.cancel, "Cancelled", notice="Cancelled by the organizer."
        )

    @admin.action(description="Export results as CSV", permissions=["view"])
    def export_results(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse:
        response = HttpResponse(content_type="text/csv")
        response["Content-Disposition"] = 'attachment; filename="tournament-results.csv"'
        writer = csv.writer(response)
        writer.writerow(RESULT_COLUMNS)
        for t in queryset:
            for e in selectors.standings(t):  # with filler bots' places
                writer.writerow(result_row(t, e))
            self.log_change(request, t, "Exported results as CSV")
        return response

    @admin.action(description="Export the chip ledger as CSV", permissions=["view"])
    def export_ledger(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse:
        response = HttpResponse(content_type="text/csv")
        response["Content-Disposition"] = 'attachment; filename="tournament-ledger.csv"'
        writer = csv.writer(response)
        writer.writerow(LEDGER_COLUMNS)
        for t in queryset:
            rows = ChipLedger.objects.filter(tournament=t).select_related(
                "payer__user", "payee__user", "table"
            )
            for row in rows.iterator():
                writer.writerow(ledger_row(t, row))
            self.log_change(request, t, "Exported the chip ledger as CSV")
        return response


RESULT_COLUMNS = ["tournament", "place", "player", "status", "chips", "score", "out_round"]
LEDGER_COLUMNS = [
    "tournament",
    "entry",
    "round",
    "level",
    "pcr",
    "table",
    "hand",
    "kind",
    "from",
    "to",
    "amount",
    "at",
]


def result_row(t: Tournament, e: Entry) -> list[Any]:
    return [t.pk, e.place or "", e.user.display_name, e.status, e.chips, e.score, e.out_round or ""]


def ledger_row(t: Tournament, row: ChipLedger) -> list[Any]:
    return [
        t.pk,
        row.pk,
        row.round,
        row.level,
        row.pcr,
        row.table.number if row.table else "",
        row.hand_id or "",
        row.kind,
        row.payer.user.display_name if row.payer else "bank",
        row.payee.user.display_name if row.payee else "bank",
        row.amount,
        row.created_at.isoformat(),
    ]


class EntryAddForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Entry
        fields = ("tournament", "user")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Add and remove entrants (before the start) and disqualify players (during it)."""

    list_display = ("user", "tournament", "status", "place", "chips", "score", "table")
    list_filter = ("status", "tournament")
    search_fields = ("user__username", "user__display_name", "tournament__name")
    list_select_related = ("user", "tournament", "table")
    autocomplete_fields = ("user",)
    actions = ("disqualify", "remove")

    def has_manage_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(MANAGE)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        kwargs["form"] = EntryAddForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ("tournament", "user")
        return super().get_fields(request, obj)

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        entry = services.entrant_add(tournament_id=obj.tournament_id, user=obj.user)
        obj.pk = entry.pk
        self.log_change(request, obj.tournament, f"Added entrant {obj.user}")

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> Any:
        try:
            return super().add_view(request, form_url, extra_context)
        except services.TournamentError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            from django.shortcuts import redirect

            return redirect(request.get_full_path())

    def delete_model(self, request: HttpRequest, obj: Entry) -> None:
        services.entrant_remove(tournament_id=obj.tournament_id, user=obj.user)
        self.log_change(request, obj.tournament, f"Removed entrant {obj.user}")

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset:
            self.delete_model(request, entry)

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    @admin.action(
        description="Disqualify (chips go to their table: see docs)", permissions=["manage"]
    )
    def disqualify(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset.select_related("user", "tournament"):
            try:
                services.disqualify(tournament_id=entry.tournament_id, user=entry.user)
            except services.TournamentError as exc:
                self.message_user(request, f"{entry.user}: {exc.message}", messages.ERROR)
            else:
                self.log_change(request, entry.tournament, f"Disqualified {entry.user}")
                self.message_user(request, f"{entry.user} disqualified.", messages.SUCCESS)

    @admin.action(
        description="Remove from the tournament (before the start)", permissions=["manage"]
    )
    def remove(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset.select_related("user", "tournament"):
            try:
                self.delete_model(request, entry)
            except services.TournamentError as exc:
                self.message_user(request, f"{entry.user}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{entry.user} removed.", messages.SUCCESS)


@admin.register(ChipLedger)
class ChipLedgerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("id", "tournament", "round", "level", "pcr", "kind", "payer", "payee", "amount")
    list_filter = ("kind", "tournament")
    list_select_related = ("tournament", "payer__user", "payee__user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
