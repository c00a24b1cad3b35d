"""The organizer's tournament form: the preset from the engine's list, house rules as fields.

The house rules are the create-a-table form's own fields (``games.forms.HouseRulesForm``): the
same labels, help and engine check, saved into ``Tournament.options``. The tournament's own
target field sets a single table tourney's target, so the ``target`` house rule is left out
here rather than asked twice.
"""

from __future__ import annotations

from copy import copy
from typing import Any

from django import forms
from django.utils import timezone

from games import engine
from games import forms as game_forms
from games.rules_pages import in_words
from tournaments import prizes, services
from tournaments.models import Tournament

FIELDS = (
    "name",
    "format",
    "preset",
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
    "sit_and_go",
    "sit_and_go_seconds",
    "prizes",
    "duplicate",
    "hand_for_hand",
    "hand_for_hand_tables",
    "hand_for_hand_bubble",
    "break_every",
    "break_minutes",
    "late_registration_level",
    "notice",
)
DEFAULTED = ("hand_for_hand_tables", "break_every", "break_minutes", "late_registration_level")
"""Multi-table flow settings an organizer may leave empty: the model's default then."""
HOUSE_RULE_FIELDS = tuple(
    game_forms.option_field_name(name) for name in engine.OPTIONS if name != "target"
)
MODEL_FIELDS = {f.name for f in Tournament._meta.get_fields() if f.concrete and not f.is_relation}
FIELD_OF = {
    "invalid_preset": "preset",
    "invalid_seats": "seats_per_table",
    "invalid_entrants": "min_entrants",
    "invalid_seat_cap": "max_entrants",
    "invalid_maximum": "max_entrants",
    "too_many_entered": "max_entrants",
    "invalid_clock": "turn_seconds",
    "invalid_window": "registration_closes_at",
    "invalid_start": "scheduled_start",
    "invalid_hands": "hands",
    "invalid_target": "target",
    "invalid_prizes": "prizes",
    "invalid_countdown": "sit_and_go_seconds",
    "invalid_duplicate": "duplicate",
    "invalid_break": "break_minutes",
    "invalid_chips": "starting_chips",
}
"""Where ``services.check_settings``' refusal is shown: beside the field it is about."""
PAST_CHECKED = {
    "registration_closes_at": "That time has passed: registration would close at once.",
    "scheduled_start": "That time has passed: the sweeper would start (or cancel) it at once.",
}
"""Times an organizer sets that must lie ahead (when changed: an old one stays as it is)."""


def default_preset() -> str:
    """The model's default (new tournaments), if the engine offers it; else the first preset."""
    default = Tournament._meta.get_field("preset").default
    choices = [name for name, _title in game_forms.preset_choices()]
    return default if default in choices else choices[0]


class TournamentForm(game_forms.HouseRulesForm, forms.ModelForm):  # type: ignore[misc,valid-type,type-arg]
    preset = forms.ChoiceField(
        label="Rules",
        choices=game_forms.preset_choices,
        help_text="The preset every table plays; its house rules are below.",
    )
    prizes = forms.CharField(
        label="Prizes (trophies by place)",
        required=False,
        help_text="Trophies for 1st, 2nd, 3rd... separated by commas, e.g. 100, 60, 30. "
        "Empty: the default table (about the top 15% paid, the winner most).",
    )
    opt_target = None  # the tournament's own target field (single table tourney) sets it
    house_rules_exclude = frozenset({"target"})

    class Meta:
        model = Tournament
        fields = FIELDS
        help_texts = {
            "turn_seconds": "Seconds a player has for each turn, 15 to 300 (as at any table).",
            "min_entrants": "Fewer entered at the scheduled start cancels it; a start by hand "
            "is refused. Bots filling a single table's seats do not count.",
            "max_entrants": "Registration closes to newcomers once this many have entered "
            "(a quick game or single table tourney: one table's seats at most).",
        }

    class Media:
        js = ("js/house_rules.js", "js/house_rules_admin.js")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        instance = kwargs.get("instance")
        initial = kwargs.setdefault("initial", {})
        if instance is None or instance.pk is None:
            initial.setdefault("preset", default_preset())
        super().__init__(*args, **kwargs)
        for name in ("sit_and_go_seconds", *DEFAULTED):  # empty: the usual value
            if name in self.fields:
                self.fields[name].required = False
        if isinstance(self.initial.get("prizes"), list):
            self.initial["prizes"] = ", ".join(str(p) for p in self.initial["prizes"])
        self.init_house_rules()
        self.preset_changed = False
        if self.is_bound and self.data.get("options_for") not in (
            None,
            "",
            self.data.get("preset"),
        ):
            # The preset changed but the house rules on the page are another preset's (no
            # script updated them): show the new preset's defaults, and say so in ``clean``.
            self.data = self.reset_options_data()
            self.preset_changed = True
            self.init_house_rules()
        if self.instance.status not in Tournament.UPCOMING:
            # Settings freeze at the start (the admin shows them read-only): a declared field
            # would still be in the form, and required, so it goes.
            for name in ("preset", "options_for", *HOUSE_RULE_FIELDS):
                self.fields.pop(name, None)
            return
        if not self.is_bound and self.instance.pk is not None:
            self.set_house_rules(self.instance.options)

    def clean_sit_and_go_seconds(self) -> int:
        value = self.cleaned_data.get("sit_and_go_seconds")
        if value is None:
            return int(Tournament._meta.get_field("sit_and_go_seconds").default)
        return int(value)

    def _defaulted(self, name: str) -> int:
        value = self.cleaned_data.get(name)
        return int(Tournament._meta.get_field(name).default if value is None else value)

    def clean_hand_for_hand_tables(self) -> int:
        return self._defaulted("hand_for_hand_tables")

    def clean_break_every(self) -> int:
        return self._defaulted("break_every")

    def clean_break_minutes(self) -> int:
        return self._defaulted("break_minutes")

    def clean_late_registration_level(self) -> int:
        return self._defaulted("late_registration_level")

    def clean_prizes(self) -> list[int]:
        try:
            return prizes.parse(self.cleaned_data.get("prizes") or "")
        except prizes.PrizeError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.preset_changed and "preset" in self.fields:
            preset = engine.PRESETS.get(data.get("preset", ""))
            title = preset.title if preset else "the chosen preset"
            self.add_error(
                None,
                f"The house rules were another preset's; they now show the defaults of {title}. "
                "Check them and save again.",
            )
            return data
        if "preset" in self.fields and self.clean_house_rules(data) is None:
            return data
        now = timezone.now()
        for name, message in PAST_CHECKED.items():
            when = data.get(name)
            if name in self.changed_data and when is not None and when <= now:
                self.add_error(name, message)
        probe = copy(self.instance)  # fields frozen after the start are not in ``data``
        for name, value in data.items():
            if name in MODEL_FIELDS:
                setattr(probe, name, value)
        try:
            services.check_settings(probe)
        except services.TournamentError as exc:
            field = FIELD_OF.get(exc.code)
            # the engine's refusals name options by identifier ("Option target ..."): in words
            message = in_words(exc.message) if exc.code == "invalid_rules" else exc.message
            self.add_error(field if field in self.fields else None, message)
        return data

    def _post_clean(self) -> None:
        super()._post_clean()
        if "options" in self.cleaned_data:
            self.instance.options = self.cleaned_data["options"]


class LobbyFilterForm(forms.Form):
    """The lobby's filters (GET): an unknown value is an error shown on the page, not applied."""

    format = forms.ChoiceField(
        label="Format", required=False, choices=[("", "Any format"), *Tournament.Format.choices]
    )
    preset = forms.ChoiceField(label="Rules", required=False, choices=())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [("", "Any rules"), *game_forms.preset_choices()]

    def filters(self) -> dict[str, str]:
        """The valid filters (none if any value is unknown: nothing half-applied)."""
        if not self.is_valid():
            return {}
        return {k: v for k, v in self.cleaned_data.items() if v}


class AddBotsForm(forms.Form):
    count = forms.IntegerField(
        label="How many bots",
        min_value=1,
        max_value=200,
        initial=4,
        help_text="Bot accounts are made the first time they are needed.",
    )
