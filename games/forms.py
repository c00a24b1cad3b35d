"""The create-a-table form: preset, house rules from the engine, seats, clock, privacy, bots.

Why the engine checks the combination here already: the form can then show its reason next
to the field it concerns. The service checks again (it is the one write path), and the view
shows its refusals in the form too.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django import forms

from games import engine
from games.rules_pages import in_words, option_label
from games.services import tables

OPTION_PREFIX = "opt_"
UNTIMED = "untimed"
TURN_CHOICES = [
    ("15", "15 seconds"),
    ("30", "30 seconds"),
    ("45", "45 seconds"),
    ("60", "1 minute"),
    ("90", "1½ minutes"),
    ("120", "2 minutes"),
    ("180", "3 minutes"),
    ("300", "5 minutes"),
    (UNTIMED, "Untimed (private tables only)"),
]
DEFAULT_PRESET = "standard"
MIN_SEATS = min(p.min_players for p in engine.PRESETS.values())
MAX_SEATS = max(p.max_players for p in engine.PRESETS.values())

# House rules that mean something only while another is on: hidden (and left at their
# defaults) while it is off, so nobody sets the seconds to call Rummy at a table without it.
NEEDS: dict[str, str] = {"claim_window_s": "rummy_call", "rummy_last_discard_only": "rummy_call"}

# Where the service's refusal codes belong in the form (None: above the form).
ERROR_FIELDS = {
    "invalid_seats": "num_seats",
    "invalid_clock": "turn_seconds",
    "invalid_bot": "bot_level",
    "invalid_name": "name",
    "invalid_rules": None,
    "busy": None,
}


def preset_choices() -> list[tuple[str, str]]:
    return [(name, info.title) for name, info in engine.PRESETS.items() if info.playable]


def option_field_name(name: str) -> str:
    return OPTION_PREFIX + name


class HouseRulesMixin:
    """The house rules of a preset as labelled fields, shared by every form that sets them.

    The create-a-table form and the tournament admin form both use it, so a house rule has
    one label, one help text and one check (the engine's) wherever it is chosen. The fields
    are declared on ``HouseRulesForm`` (below) so that a ModelForm (which the admin builds
    from declared fields) can inherit them; ``init_house_rules`` (called by the host form's
    ``__init__``) sets their initial values to the
    defaults of the preset shown. ``house_rules_exclude`` names options the host form sets
    another way (a tournament's own target field).
    """

    preset_field = "preset"
    save_again = "save again"
    house_rules_exclude: frozenset[str] = frozenset()
    fields: dict[str, forms.Field]
    data: Any
    initial: dict[str, Any]
    is_bound: bool

    def init_house_rules(self) -> None:
        preset = self._shown_preset()
        self.fields["options_for"].initial = preset
        for name in list(engine.OPTIONS):
            key = option_field_name(name)
            if name in self.house_rules_exclude:
                self.fields.pop(key, None)
                continue
            self.fields[key] = _option_field(engine.OPTIONS[name], preset)
        self._hide_what_cannot_apply(preset)

    def _hide_what_cannot_apply(self, preset: str) -> None:
        """Mark the house rules that cannot apply to what the form shows, so the page draws
        them hidden without any script: those the preset settles itself, those of other
        presets (partners by draw), and those needing a switch that is off. house_rules.js (for the
        lobby and the admin) redoes this as the preset or the switch changes."""
        for name in self.house_rule_names():
            info = engine.OPTIONS[name]
            field = self.fields[option_field_name(name)]
            needs = NEEDS.get(name)
            field.hidden_here = (  # type: ignore[attr-defined]
                preset in _fixed_attr(info).split()
                or (bool(_only_for(info)) and preset not in _only_for(info))
                or (needs is not None and not self._switch_on(needs, preset))
            )

    def _switch_on(self, name: str, preset: str) -> bool:
        if self.is_bound:
            return self.data.get(option_field_name(name)) not in (None, "", "off", "false")
        return bool(engine.OPTIONS[name].default_for(preset))

    def house_rule_names(self) -> list[str]:
        return [name for name in engine.OPTIONS if name not in self.house_rules_exclude]

    def _shown_preset(self) -> str:
        if self.is_bound:
            shown = self.data.get("options_for") or self.data.get(self.preset_field)
        else:
            shown = self.initial.get(self.preset_field)
        return shown if shown in engine.PRESETS else DEFAULT_PRESET

    def option_fields(self) -> list[forms.BoundField]:
        return [self[option_field_name(name)] for name in self.house_rule_names()]  # type: ignore[index]

    def clean_house_rules(self, data: dict[str, Any]) -> engine.Rules | None:
        """The chosen options (into ``data["options"]``) and the rules they make; None, with
        the reason added to the form, when the engine refuses them or they were shown for
        another preset."""
        preset = data.get(self.preset_field)
        if not preset:
            return None
        shown_for = self.data.get("options_for")
        if shown_for and shown_for != preset:
            self.add_error(  # type: ignore[attr-defined]
                None,
                "The house rules below were for other rules; they now show the defaults of "
                f"{engine.PRESETS[preset].title}. Check them and {self.save_again}.",
            )
            return None
        options = {
            name: data[option_field_name(name)]
            for name in self.house_rule_names()
            if data.get(option_field_name(name)) is not None
        }
        for name, needs in NEEDS.items():  # hidden while their switch is off: not taken
            if name in self.house_rules_exclude:
                continue
            if not options.get(needs, engine.OPTIONS[needs].default_for(preset)):
                options[name] = engine.OPTIONS[name].default_for(preset)
        try:
            rules = engine.make_rules(preset, **options)
        except engine.RulesError as exc:
            self.add_error(None, in_words(exc.reason))  # type: ignore[attr-defined]
            return None
        data["options"] = options
        return rules

    def reset_options_data(self) -> dict[str, Any]:
        """The submitted data with the house rules set to the chosen preset's defaults."""
        data = self.data.copy()
        preset = data.get(self.preset_field)
        if preset not in engine.PRESETS:
            return data
        data["options_for"] = preset
        for name in self.house_rule_names():
            info = engine.OPTIONS[name]
            key = option_field_name(name)
            default = info.default_for(preset)
            if info.type == "bool":
                if default:
                    data[key] = "on"
                else:
                    data.pop(key, None)
            else:
                data[key] = str(default)
        return data

    def set_house_rules(self, options: dict[str, Any]) -> None:
        """Show saved options (a tournament being edited) instead of the preset's defaults."""
        for name, value in (options or {}).items():
            field = self.fields.get(option_field_name(name))
            if field is not None:
                field.initial = value


def _declared_house_rules() -> dict[str, Any]:
    fields: dict[str, Any] = {
        # Which preset the house rules were shown for: if the preset changed without the page
        # updating them (no JavaScript), the form shows that preset's defaults first.
        "options_for": forms.CharField(widget=forms.HiddenInput, required=False),
    }
    for name, info in engine.OPTIONS.items():
        fields[option_field_name(name)] = _option_field(info, DEFAULT_PRESET)
    return fields


def _option_field(info: engine.OptionInfo, preset: str) -> forms.Field:
    default = info.default_for(preset)
    attrs = {
        "data-option": info.name,
        "data-defaults": _defaults_attr(info),
        "data-fixed": _fixed_attr(info),
    }
    only_for = _only_for(info)
    if only_for:
        attrs["data-only-for"] = " ".join(only_for)
    if info.name in NEEDS:
        attrs["data-needs"] = option_field_name(NEEDS[info.name])
    if info.type == "bool":
        return forms.BooleanField(
            label=option_label(info.name),
            help_text=info.description,
            required=False,
            initial=default,
            widget=forms.CheckboxInput(attrs=attrs),
        )
    low, high = info.allowed
    return forms.IntegerField(
        label=option_label(info.name),
        help_text=info.description,
        min_value=low,
        max_value=high,
        initial=default,
        required=False,
        widget=forms.NumberInput(attrs=attrs),
    )


def _only_for(info: engine.OptionInfo) -> list[str]:
    """The presets a house rule means something in (empty: all of them); the page hides it
    for the others. ``partners_by_draw`` only concerns presets played in partnerships."""
    if info.name == "partners_by_draw":
        return [name for name, preset in engine.PRESETS.items() if preset.partnerships]
    return []


def _defaults_attr(info: engine.OptionInfo) -> str:
    """ "standard=500 jokers=500 ...": each preset's default, for the page script."""
    return " ".join(f"{name}={_attr_value(info.default_for(name))}" for name in engine.PRESETS)


def _fixed_attr(info: engine.OptionInfo) -> str:
    """ "oklahoma five-thousand": the presets whose own rules settle this option (the page
    script hides it there; the engine refuses a change with the reason)."""
    fixed = []
    for name, preset in engine.PRESETS.items():
        settled = {option for option, _why in preset.fixed_options}
        if (
            info.name in settled
            or (info.name == "jokers" and not preset.jokers_option)
            or _refused_alone(info.name, name)
        ):
            fixed.append(name)
    return " ".join(fixed)


@cache
def _refused_alone(option: str, preset: str) -> bool:
    """The engine refuses any change of this option in ``preset`` (Michigan's target score,
    a single hand; Persian's thirty-point rule, scored by side): offering it only earns a
    refusal. Options hidden for another reason (another preset's, a switch that is off) are
    left to that rule."""
    info = engine.OPTIONS[option]
    if option in NEEDS or _only_for(info):
        return False
    default = info.default_for(preset)
    if info.type == "bool":
        other: Any = not default
    else:
        low, high = info.allowed
        other = high if default == low else low
    try:
        engine.make_rules(preset, **{option: other})
    except engine.RulesError:
        return True
    return False


def _attr_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# The declared fields come from the engine's options, so the class is built, not written.
HouseRulesForm = type(
    "HouseRulesForm",
    (HouseRulesMixin, forms.Form),
    {"__module__": __name__, "__doc__": HouseRulesMixin.__doc__, **_declared_house_rules()},
)


class TableCreateForm(HouseRulesForm):  # type: ignore[misc,valid-type]
    save_again = "create the table again"
    name = forms.CharField(
        max_length=60,
        required=False,
        label="Table name",
        help_text="Left empty, the table is named after you.",
    )
    preset = forms.ChoiceField(label="Rules", choices=preset_choices, initial=DEFAULT_PRESET)
    num_seats = forms.IntegerField(
        label="Seats", min_value=MIN_SEATS, max_value=MAX_SEATS, initial=4
    )
    turn_seconds = forms.ChoiceField(label="Time per turn", choices=TURN_CHOICES, initial="60")
    is_private = forms.BooleanField(
        label="Private table (only people with the invite link can join or watch)", required=False
    )
    spectators_allowed = forms.BooleanField(label="Allow spectators", required=False, initial=True)
    chat_enabled = forms.BooleanField(label="Table chat", required=False, initial=True)
    auto_start = forms.BooleanField(
        label="Start by itself when every seat is taken", required=False
    )
    rated = forms.BooleanField(
        label="Rated: results count on the leaderboards", required=False, initial=True
    )
    fill_with_bots = forms.BooleanField(label="Fill empty seats with bots", required=False)
    bot_level = forms.ChoiceField(
        label="Bot level",
        choices=[(level, level.title()) for level in tables.BOT_LEVELS],
        initial="easy",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.init_house_rules()

    def main_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("name", "preset", "num_seats", "turn_seconds")]

    def setting_fields(self) -> list[forms.BoundField]:
        names = ("is_private", "spectators_allowed", "chat_enabled", "auto_start", "rated")
        return [self[name] for name in names]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        rules = self.clean_house_rules(data)
        if rules is None:
            return data
        seats = data.get("num_seats")
        if seats is not None:
            try:
                rules.validate_players(seats)
            except engine.RulesError as exc:
                self.add_error("num_seats", in_words(exc.reason))
        if data.get("turn_seconds") == UNTIMED and not data.get("is_private"):
            self.add_error("turn_seconds", "Only private tables may be untimed.")
        return data

    def service_kwargs(self) -> dict[str, Any]:
        """What tables.table_create needs, from cleaned data."""
        data = self.cleaned_data
        turn = data["turn_seconds"]
        return {
            "name": data["name"],
            "preset": data["preset"],
            "options": data["options"],
            "num_seats": data["num_seats"],
            "turn_seconds": None if turn == UNTIMED else int(turn),
            "is_private": data["is_private"],
            "spectators_allowed": data["spectators_allowed"],
            "chat_enabled": data["chat_enabled"],
            "auto_start": data["auto_start"],
            "rated": data["rated"],
            "fill_with_bots": data["fill_with_bots"],
            "bot_level": data["bot_level"],
        }

    def add_service_error(self, code: str, message: str) -> None:
        self.add_error(ERROR_FIELDS.get(code), in_words(message))
