"""Organizers run tournaments here: settings, the level schedule, entrants, state changes, CSV.

Members of the "Tournament organizers" group (staff, not superusers) hold the model
permissions plus ``manage_tournament``, which every state-changing action needs. A tournament's
change page has buttons for the actions that apply in its state (``tournaments.organizer``),
each through a confirmation page; the list page keeps bulk actions. Both call
``tournaments.services`` (which refuse what makes no sense in the current state, with a
message) and write the admin history with ``log_change``. The form is
``tournaments.forms.TournamentForm`` (house rules as the table form's fields). Settings freeze
once a tournament has started: from then on only the services change it.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import slugify

from tournaments import organizer, schedule, selectors, services
from tournaments.forms import HOUSE_RULE_FIELDS, AddBotsForm, TournamentForm
from tournaments.forms import MODEL_FIELDS as _FIELDS
from tournaments.models import ChipLedger, Entry, Level, Tournament, TournamentTable

MANAGE = "tournaments.manage_tournament"


def confirmed_or_ask(
    modeladmin: admin.ModelAdmin,  # type: ignore[type-arg]
    request: HttpRequest,
    queryset: QuerySet[Any],
    question: str,
    button: str,
) -> HttpResponse | None:
    """A bulk action that cannot be undone asks first, as the change page's buttons do:
    None once confirmed, else the page that asks (it posts the same selection back)."""
    if request.POST.get("confirmed") == "yes":
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "opts": modeladmin.model._meta,
        "title": button,
        "question": question,
        "button": button,
        "queryset": queryset,
        "action": request.POST.get("action", ""),
    }
    return TemplateResponse(request, "admin/tournaments/confirm_bulk.html", context)


def player_link(user: Any) -> str:
    """A player's name, linked to their public page: organizers may not open accounts in
    the admin (Django's own link to the account answered them 403 Forbidden)."""
    if user is None:
        return "-"
    url = reverse("player_detail", kwargs={"name": user.display_name})
    return format_html('<a href="{}">{}</a>', url, user.display_name)


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
        t = self.instance  # holds the tournament form's values
        if not found and fmt == Tournament.Format.MTT and t.status in Tournament.UPCOMING:
            found = schedule.flow_problems(
                steps, break_every=t.break_every, late_level=t.late_registration_level
            )
        if found:
            raise forms.ValidationError(found)


class LevelInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Level
    formset = LevelFormSet
    extra = 0
    fields = ("number", "pcr", "duration")


class EntryInline(admin.TabularInline):  # type: ignore[type-arg]
    """Standings, read-only: entrants are added and removed through the Entry admin (or the
    "Add bots" button); the last column disqualifies, through a confirmation page."""

    model = Entry
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "place",
        "player",
        "player_kind",
        "status_shown",
        "chips",
        "score",
        "table",
        "out_round",
        "disqualify_link",
    )
    ordering = ("place", "-chips", "registered_at")
    verbose_name_plural = "Standings"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """Chips and out rounds are a multi-table's; a game total a single table's."""
        mtt = obj is None or obj.is_mtt
        drop = ("score",) if mtt else ("chips", "out_round")
        return [f for f in self.fields if f not in drop]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        return super().get_queryset(request).select_related("user", "table", "tournament")

    @admin.display(description="Player")
    def player(self, entry: Entry) -> str:
        return player_link(entry.user)

    @admin.display(description="Status")
    def status_shown(self, entry: Entry) -> str:
        """As the public standings say it: nobody is "eliminated" from a single table."""
        return selectors.status_text(entry.tournament, entry)

    @admin.display(description="Bot?")
    def player_kind(self, entry: Entry) -> str:
        return selectors.player_kind(entry.user)

    @admin.display(description="")
    def disqualify_link(self, entry: Entry) -> str:
        if not organizer.may_disqualify(entry.tournament, entry):
            return ""
        url = reverse(
            "admin:tournaments_tournament_disqualify", args=[entry.tournament_id, entry.pk]
        )
        return format_html('<a href="{}">Disqualify…</a>', url)


class TableInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentTable
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "number", "status", "round", "settled_round", "level", "pcr", "break_until", "watch",
        "stop_link",
    )  # fmt: skip
    verbose_name_plural = "Tables"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """A single table has no rounds, levels, PCR or breaks of its own to show."""
        if obj is None or obj.is_mtt:
            return self.fields
        return [f for f in self.fields if f in ("number", "status", "watch", "stop_link")]

    def get_queryset(self, request: HttpRequest) -> QuerySet[TournamentTable]:
        return super().get_queryset(request).select_related("tournament")

    @admin.display(description="Live table")
    def watch(self, table: TournamentTable) -> str:
        if table.table_id is None:
            return "-"
        url = reverse("table_detail", args=[table.table_id])
        return format_html('<a href="{}">watch</a>', url)

    @admin.display(description="")
    def stop_link(self, table: TournamentTable) -> str:
        if not organizer.may_stop(table.tournament, table):
            return ""
        url = reverse(
            "admin:tournaments_tournament_stop_table", args=[table.tournament_id, table.pk]
        )
        return format_html('<a href="{}">Stop…</a>', url)


def _state_action(
    fn: Callable[..., Any], description: str, done: str, **kwargs: Any
) -> Callable[[Any, HttpRequest, QuerySet[Tournament]], None]:
    def action(
        modeladmin: TournamentAdmin, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        modeladmin.run_service(request, queryset, fn, done, **kwargs)

    action.__name__ = fn.__name__
    return admin.action(description=description, permissions=["manage"])(action)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    form = TournamentForm
    list_display = (  # what an organizer scans for first fits 1280 px (created: the dates bar)
        "name",
        "format",
        "status",
        "scheduled_start",
        "entrants",
        "level_and_pcr",
        "preset",
        "attention",
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
        "lock_step",
        "break_until",
        "creator",
        "pcr_in_force",
    )
    change_form_template = "admin/tournaments/tournament/change_form.html"
    actions = (
        _state_action(
            services.registration_open, "Open registration", "Registration opened", by_hand=True
        ),
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
        fields = [*super().get_readonly_fields(request, obj), "status", "house_rules"]
        if obj is not None and obj.status not in Tournament.UPCOMING:
            fields += [f for f in _FIELDS if f not in fields and f not in ("id", "notice")]
        return fields

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        """Grouped as an organizer thinks of them; house rules as fields until the start."""
        started = obj is not None and obj.status not in Tournament.UPCOMING
        rules = ("house_rules",) if started else ("options_for", *HOUSE_RULE_FIELDS)
        mtt_only = ("round", "level", "pcr_in_force", "lock_step", "break_until")
        state = (
            "status",
            "public_page",
            "round",
            "level",
            "pcr_in_force",
            "started_at",
            "finished_at",
            "paused_at",
            "lock_step",
            "break_until",
            "creator",
        )
        if obj is not None and not obj.is_mtt:  # a quick game or STT has none of these
            state = tuple(f for f in state if f not in mtt_only)
        sets: list[tuple[str | None, dict[str, Any]]] = [
            (None, {"fields": ("name", "format", "preset", "notice")}),
            (
                "House rules",
                {
                    "fields": rules,
                    "description": "The same house rules as a table's; they start at the "
                    "chosen preset's defaults.",
                },
            ),
            (
                "Format",
                {"fields": ("seats_per_table", "starting_chips", "level_unit", "target", "hands")},
            ),
            (
                "Registration",
                {
                    "fields": (
                        "registration_opens_at",
                        "registration_closes_at",
                        "scheduled_start",
                        "min_entrants",
                        "max_entrants",
                    )
                },
            ),
            ("Tables", {"fields": ("turn_seconds", "bots_allowed", "spectators_allowed")}),
            (
                "Sit-and-go and prizes",
                {"fields": ("sit_and_go", "sit_and_go_seconds", "prizes", "duplicate")},
            ),
            (
                "Multi-table flow",
                {
                    "fields": (
                        "hand_for_hand",
                        "hand_for_hand_tables",
                        "hand_for_hand_bubble",
                        "break_every",
                        "break_minutes",
                        "late_registration_level",
                    ),
                    "description": "Tables play independently (each deals again once its own "
                    "hand is settled) unless hand-for-hand is asked for.",
                },
            ),
        ]
        if obj is not None:
            sets.append(("Running state", {"fields": state}))
        if started:  # frozen settings fold away: the state, tables and standings come first
            for _name, options in sets[1:-1]:
                options["classes"] = ("collapse",)
            sets.insert(1, sets.pop())
        return sets

    @admin.display(description="PCR")
    def pcr_in_force(self, t: Tournament) -> int:
        return t.pcr

    @admin.display(description="Created by")
    def creator(self, t: Tournament) -> str:
        return player_link(t.created_by)

    @admin.display(description="House rules")
    def house_rules(self, t: Tournament) -> str:
        summary = selectors.house_rules(t)
        if not summary:
            return "The preset's own rules."
        return format_html_join(", ", "{}: {}", summary)

    # --- the change page's buttons: confirm, run the service, write the history ------------

    def get_urls(self) -> list[Any]:
        wrap = self.admin_site.admin_view
        name = "tournaments_tournament_"
        return [
            path(
                "<int:object_id>/act/<slug:slug>/",
                wrap(self.state_action_view),
                name=name + "act",
            ),
            path(
                "<int:object_id>/disqualify/<int:entry_id>/",
                wrap(self.disqualify_view),
                name=name + "disqualify",
            ),
            path(
                "<int:object_id>/stop/<int:table_id>/",
                wrap(self.stop_table_view),
                name=name + "stop_table",
            ),
            path("<int:object_id>/add-bots/", wrap(self.add_bots_view), name=name + "add_bots"),
            path("<int:object_id>/results.csv", wrap(self.results_csv_view), name=name + "results"),
            path("<int:object_id>/ledger.csv", wrap(self.ledger_csv_view), name=name + "ledger"),
            *super().get_urls(),
        ]

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: Any = None
    ) -> Any:
        t = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if t is not None:
            manage = self.has_manage_permission(request)
            extra["state_actions"] = organizer.available(t) if manage else []
            extra["may_add_bots"] = manage and organizer.may_add_bots(t)
            extra["attention"] = organizer.attention(t)
        return super().change_view(request, object_id, form_url, extra)

    def _managed(self, request: HttpRequest, object_id: int) -> Tournament:
        if not self.has_manage_permission(request):
            raise PermissionDenied
        return get_object_or_404(Tournament, pk=object_id)

    def _back(self, t: Tournament) -> HttpResponseRedirect:
        return redirect("admin:tournaments_tournament_change", t.pk)

    def _confirm(
        self, request: HttpRequest, t: Tournament, question: str, button: str, **more: Any
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": t,
            "title": button,
            "question": question,
            "button": button,
            **more,
        }
        return TemplateResponse(request, "admin/tournaments/tournament/confirm.html", context)

    def state_action_view(self, request: HttpRequest, object_id: int, slug: str) -> HttpResponse:
        t = self._managed(request, object_id)
        action = organizer.BY_SLUG.get(slug)
        if action is None:
            raise Http404("No such action.")
        if request.method != "POST":
            if not action.applies(t):
                self.message_user(
                    request, f"{action.label}: {organizer.no_longer_applies(t)}", messages.ERROR
                )
                return self._back(t)
            return self._confirm(request, t, action.question, action.label, danger=action.danger)
        try:
            action.run(t.pk)
        except services.TournamentError as exc:
            self.message_user(request, f"{action.label}: {exc.message}", messages.ERROR)
        else:
            self.log_change(request, t, action.done)
            self.message_user(request, f"{t}: {action.done.lower()}.", messages.SUCCESS)
        return self._back(t)

    def disqualify_view(self, request: HttpRequest, object_id: int, entry_id: int) -> HttpResponse:
        t = self._managed(request, object_id)
        entry = get_object_or_404(Entry.objects.select_related("user"), pk=entry_id, tournament=t)
        label = f"Disqualify {entry.user}"
        if request.method != "POST":
            if not organizer.may_disqualify(t, entry):
                self.message_user(
                    request,
                    f"{label}: that no longer applies ({entry.get_status_display().lower()}, "
                    f"tournament {t.get_status_display().lower()}).",
                    messages.ERROR,
                )
                return self._back(t)
            question = f"Disqualify {entry.user} for good? They get no place" + (
                " and their chips go back to the bank (nobody gains them)." if t.is_mtt else "."
            )
            return self._confirm(request, t, question, label, danger=True)
        try:
            services.disqualify(tournament_id=t.pk, user=entry.user)
        except services.TournamentError as exc:
            self.message_user(request, f"{label}: {exc.message}", messages.ERROR)
        else:
            self.log_change(request, t, f"Disqualified {entry.user}")
            self.message_user(request, f"{entry.user} disqualified.", messages.SUCCESS)
        return self._back(t)

    def stop_table_view(self, request: HttpRequest, object_id: int, table_id: int) -> HttpResponse:
        t = self._managed(request, object_id)
        table = get_object_or_404(TournamentTable, pk=table_id, tournament=t)
        label = f"Stop {table}"
        if request.method != "POST":
            if not organizer.may_stop(t, table):
                self.message_user(
                    request,
                    f"{label}: that no longer applies ({table.get_status_display().lower()}, "
                    f"tournament {t.get_status_display().lower()}).",
                    messages.ERROR,
                )
                return self._back(t)
            return self._confirm(request, t, organizer.stop_question(t, table), label, danger=True)
        try:
            services.table_stop(tournament_id=t.pk, table_id=table.pk)
        except services.TournamentError as exc:
            self.message_user(request, f"{label}: {exc.message}", messages.ERROR)
        else:
            self.log_change(request, t, f"Stopped {table}")
            self.message_user(request, f"{table} stopped.", messages.SUCCESS)
        return self._back(t)

    def add_bots_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        t = self._managed(request, object_id)
        form = AddBotsForm(request.POST or None)
        if request.method != "POST" or not form.is_valid():
            if not organizer.may_add_bots(t):
                self.message_user(
                    request, f"Add bots: {organizer.no_longer_applies(t)}", messages.ERROR
                )
                return self._back(t)
            question = (
                "Enter bot players (they play at the easy level). "
                "They count as entrants like anyone else."
            )
            return self._confirm(request, t, question, "Add bots", form=form)
        count = form.cleaned_data["count"]
        try:
            organizer.add_bots(t, count)
        except services.TournamentError as exc:
            self.message_user(request, f"Add bots: {exc.message}", messages.ERROR)
        else:
            done = f"Added {count} bot{'s' if count != 1 else ''}"
            self.log_change(request, t, done)
            self.message_user(request, f"{t}: {done.lower()}.", messages.SUCCESS)
        return self._back(t)

    def results_csv_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        t = get_object_or_404(Tournament, pk=object_id)
        return self.export_results(request, Tournament.objects.filter(pk=t.pk))

    def ledger_csv_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        t = get_object_or_404(Tournament, pk=object_id)
        return self.export_ledger(request, Tournament.objects.filter(pk=t.pk))

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return (LevelInline,)
        if not obj.is_mtt and obj.status not in Tournament.UPCOMING:
            return (TableInline, EntryInline)  # no level schedule: it has none
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

    @admin.display(description="Needs attention")
    def attention(self, t: Tournament) -> str:
        return organizer.attention(t) or ""

    @admin.display(description="Level (PCR)", ordering="level")
    def level_and_pcr(self, t: Tournament) -> str:
        return f"{t.level} (PCR {t.pcr})" if t.level else "-"

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
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse | None:
        question = (
            "Cancel these tournaments for good? Their public pages will say "
            f'"{organizer.CANCEL_NOTICE}" and their entrants are told.'
        )
        ask = confirmed_or_ask(self, request, queryset, question, "Cancel")
        if ask is not None:
            return ask
        self.run_service(
            request, queryset, services.cancel, "Cancelled", notice=organizer.CANCEL_NOTICE
        )
        return None

    @admin.action(description="Export results as CSV", permissions=["view"])
    def export_results(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse:
        response = HttpResponse(content_type="text/csv")
        response["Content-Disposition"] = _attachment("results", queryset)
        writer = csv.writer(response)
        writer.writerow(RESULT_COLUMNS)
        for t in queryset:
            for e in selectors.standings(t):  # with filler bots' places
                writer.writerow(spreadsheet_safe(result_row(t, e)))
            self.log_change(request, t, "Exported results as CSV")
        return response

    @admin.action(description="Export the chip ledger as CSV", permissions=["view"])
    def export_ledger(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> HttpResponse:
        response = HttpResponse(content_type="text/csv")
        response["Content-Disposition"] = _attachment("ledger", queryset)
        writer = csv.writer(response)
        writer.writerow(LEDGER_COLUMNS)
        for t in queryset:
            rows = ChipLedger.objects.filter(tournament=t).select_related(
                "payer__user", "payee__user", "table"
            )
            for row in rows.iterator():
                writer.writerow(spreadsheet_safe(ledger_row(t, row)))
            self.log_change(request, t, "Exported the chip ledger as CSV")
        return response


RESULT_COLUMNS = [
    "tournament",
    "date",
    "place",
    "player",
    "bot",
    "status",
    "chips",
    "score",
    "out_round",
    "trophies",  # the prize won (site points); last, so the columns before keep their places
]
LEDGER_COLUMNS = [
    "tournament",
    "date",
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


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(row: list[Any]) -> list[Any]:
    """The row with every text cell that a spreadsheet would run as a formula quoted.

    Organizers open these files in spreadsheets, which treat a cell starting with = + - @
    (or a tab or carriage return before one) as a formula: a tournament named
    ``=HYPERLINK("https://evil.example", "Results")`` would run in whoever opens the
    export (OWASP "CSV injection"). Such text gets a leading apostrophe, which spreadsheets
    show as plain text; numbers (negative ones too) stay numbers.
    """
    return [
        f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
        for cell in row
    ]


def event_date(t: Tournament) -> str:
    """The day it was played (or is planned for): started, else scheduled, else created."""
    when = t.started_at or t.scheduled_start or t.created_at
    return timezone.localdate(when).isoformat() if when else ""


def _attachment(kind: str, queryset: QuerySet[Tournament]) -> str:
    """One tournament's file is named after it and its date; several, by what they hold."""
    only = list(queryset[:2])
    if len(only) == 1:
        t = only[0]
        name = f"{slugify(t.name) or 'tournament'}-{event_date(t)}-{kind}.csv"
    else:
        name = f"tournament-{kind}.csv"
    return f'attachment; filename="{name}"'


def result_row(t: Tournament, e: Entry) -> list[Any]:
    return [
        t.name,
        event_date(t),
        e.place or "",
        e.user.display_name,
        selectors.player_kind(e.user) if e.user.is_bot else "",
        e.status,
        e.chips,
        e.score,
        e.out_round or "",
        getattr(e, "trophies", 0) or 0,  # a filler bot's place pays nobody
    ]


def ledger_row(t: Tournament, row: ChipLedger) -> list[Any]:
    return [
        t.name,
        event_date(t),
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


class PlayerSearch(AutocompleteJsonView):
    """The entrant picker's search: organizers find players by user or display name.

    Django's own autocomplete asks for the right to view accounts (their e-mails and all),
    which organizers do not hold; this one answers for ``Entry.user`` only, to anyone who
    may add entrants, and searches names only.
    """

    def process_request(self, request: HttpRequest) -> Any:
        term, model_admin, source_field, to_field = super().process_request(request)
        if source_field is not Entry._meta.get_field("user"):
            raise PermissionDenied
        return term, model_admin, source_field, to_field

    def has_perm(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.has_perm("tournaments.add_entry")

    def get_queryset(self) -> QuerySet[Any]:
        users = Entry._meta.get_field("user").related_model._default_manager
        term = self.term.strip()
        return (
            users.filter(is_active=True, deleted_at__isnull=True)
            .filter(Q(username__icontains=term) | Q(display_name__icontains=term))
            .order_by("display_name", "pk")
        )


class PlayerSelect(AutocompleteSelect):
    """The entrant picker, searching through ``PlayerSearch``."""

    def get_url(self) -> str:
        return reverse("admin:tournaments_entry_players")


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Add and remove entrants (before the start) and disqualify players (during it)."""

    list_display = (
        "user",
        "player_kind",
        "tournament",
        "status",
        "place",
        "chips",
        "score",
        "table",
    )
    list_filter = ("status", "tournament")
    search_fields = ("user__username", "user__display_name", "tournament__name")
    list_select_related = ("user", "tournament", "table")
    actions = ("disqualify", "remove")

    def get_urls(self) -> list[Any]:
        search = PlayerSearch.as_view(admin_site=self.admin_site)
        players = path(
            "players/", self.admin_site.admin_view(search), name="tournaments_entry_players"
        )
        return [players, *super().get_urls()]

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "user":
            kwargs["widget"] = PlayerSelect(db_field, self.admin_site)
        elif db_field.name == "tournament":  # only events that may still take an entrant
            kwargs["queryset"] = Tournament.objects.exclude(status__in=Tournament.OVER)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_manage_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(MANAGE)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        """Removing is for entrants before the start; after it a player is disqualified.
        (An entry's Delete button after the start led to a page saying the organizer may
        not delete "chip ledger" objects.)"""
        if obj is not None and obj.tournament.status not in Tournament.UPCOMING:
            return False
        return super().has_delete_permission(request, obj)

    @admin.display(description="Bot?", ordering="user__is_bot")
    def player_kind(self, entry: Entry) -> str:
        return selectors.player_kind(entry.user)

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        kwargs["form"] = EntryAddForm
        return super().get_form(request, obj, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ("tournament", "user")
        fields = [f for f in super().get_fields(request, obj) if f != "player"]
        return ["player" if f == "user" else f for f in fields]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return (*super().get_readonly_fields(request, obj), "player")

    @admin.display(description="Player")
    def player(self, entry: Entry) -> str:
        return player_link(entry.user)

    def save_model(self, request: HttpRequest, obj: Entry, form: Any, change: bool) -> None:
        entry = services.entrant_add(tournament_id=obj.tournament_id, user=obj.user)
        obj.pk = entry.pk
        self.log_change(request, obj.tournament, f"Added entrant {obj.user}")

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context: Any = None) -> Any:
        try:
            return super().add_view(request, form_url, extra_context)
        except services.TournamentError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return redirect(request.get_full_path())

    def response_add(self, request: HttpRequest, obj: Entry, post_url_continue: Any = None) -> Any:
        """Back to the tournament's page (where "Add a player…" was), unless adding another."""
        if "_addanother" in request.POST:
            return super().response_add(request, obj, post_url_continue)
        self.message_user(request, f"{obj.user} entered.", messages.SUCCESS)
        return redirect("admin:tournaments_tournament_change", obj.tournament_id)

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
        description="Disqualify (no place; chips go back to the bank)", permissions=["manage"]
    )
    def disqualify(self, request: HttpRequest, queryset: QuerySet[Entry]) -> HttpResponse | None:
        question = (
            "Disqualify these players for good? They get no place; in a multi-table tourney "
            "their chips go back to the bank."
        )
        ask = confirmed_or_ask(self, request, queryset, question, "Disqualify")
        if ask is not None:
            return ask
        for entry in queryset.select_related("user", "tournament"):
            try:
                services.disqualify(tournament_id=entry.tournament_id, user=entry.user)
            except services.TournamentError as exc:
                self.message_user(request, f"{entry.user}: {exc.message}", messages.ERROR)
            else:
                self.log_change(request, entry.tournament, f"Disqualified {entry.user}")
                self.message_user(request, f"{entry.user} disqualified.", messages.SUCCESS)
        return None

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
    list_display = (
        "id", "tournament", "round", "level", "pcr", "table", "kind", "paid_by", "paid_to",
        "amount",
    )  # fmt: skip
    list_filter = ("kind", "tournament")
    list_select_related = ("tournament", "table", "payer__user", "payee__user")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        """The hand as a link to its game's public page: the games admin, where Django
        linked it, answers organizers 403 Forbidden."""
        return ["hand_link" if f == "hand" else f for f in super().get_fields(request, obj)]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return (*super().get_readonly_fields(request, obj), "hand_link")

    @admin.display(description="Hand")
    def hand_link(self, row: ChipLedger) -> str:
        if row.hand is None:
            return "-"
        url = reverse("game_detail", args=[row.hand.game_id])
        return format_html(
            '<a href="{}">Hand {} of game {}</a>', url, row.hand.number, row.hand.game_id
        )

    @admin.display(description="From", ordering="payer")
    def paid_by(self, row: ChipLedger) -> str:
        return str(row.payer) if row.payer else "bank"

    @admin.display(description="To", ordering="payee")
    def paid_to(self, row: ChipLedger) -> str:
        return str(row.payee) if row.payee else "bank"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
