"""The create-a-table form: fields from the engine's presets and options, refusals in its words."""

from __future__ import annotations

import pytest

from games import engine, rules_pages
from games.forms import UNTIMED, TableCreateForm, option_field_name
from games.services import tables


def form_data(preset: str = "standard", **overrides) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "",
        "preset": preset,
        "options_for": preset,
        "num_seats": 4,
        "turn_seconds": "60",
        "bot_level": "easy",
        "spectators_allowed": "on",
        "chat_enabled": "on",
    }
    for name, info in engine.OPTIONS.items():
        default = info.default_for(preset)
        if info.type == "bool":
            if default:
                data[option_field_name(name)] = "on"
        else:
            data[option_field_name(name)] = str(default)
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def test_every_engine_option_is_a_field_with_a_human_label_and_its_description_as_help():
    form = TableCreateForm()
    for name, info in engine.OPTIONS.items():
        field = form.fields[option_field_name(name)]
        assert str(field.label) == rules_pages.option_label(name)
        assert "_" not in str(field.label) and str(field.label) != name
        assert str(field.help_text) == info.description
    assert [f.name for f in form.option_fields()] == [
        option_field_name(name) for name in engine.OPTIONS
    ]


def test_only_playable_presets_are_offered():
    choices = dict(TableCreateForm().fields["preset"].choices)
    assert set(choices) == {name for name, p in engine.PRESETS.items() if p.playable}
    assert choices["standard"] == engine.PRESETS["standard"].title
    assert not set(choices) & set(engine.PLANNED_PRESETS)


@pytest.mark.parametrize("preset", list(engine.PRESETS))
def test_the_house_rules_start_at_the_presets_defaults(preset):
    form = TableCreateForm(initial={"preset": preset})
    for name, info in engine.OPTIONS.items():
        assert form.fields[option_field_name(name)].initial == info.default_for(preset)


def test_each_option_carries_every_presets_default_for_the_page_script():
    widget = TableCreateForm().fields[option_field_name("top_discard_free")].widget
    defaults = dict(pair.split("=") for pair in widget.attrs["data-defaults"].split())
    assert defaults["standard"] == "off" and defaults["jokers"] == "on"


def test_a_valid_form_gives_the_service_its_arguments():
    form = TableCreateForm(
        form_data(name="Pals", num_seats=3, opt_target="300", opt_rummy_call="on", is_private="on")
    )
    assert form.is_valid(), form.errors
    kwargs = form.service_kwargs()
    assert kwargs["name"] == "Pals"
    assert kwargs["num_seats"] == 3
    assert kwargs["turn_seconds"] == 60
    assert kwargs["is_private"] is True
    assert kwargs["options"]["target"] == 300
    assert kwargs["options"]["rummy_call"] is True
    engine.make_rules(kwargs["preset"], **kwargs["options"])  # the engine accepts them


def test_an_untimed_private_table_has_no_turn_time():
    form = TableCreateForm(form_data(turn_seconds=UNTIMED, is_private="on"))
    assert form.is_valid(), form.errors
    assert form.service_kwargs()["turn_seconds"] is None


def test_an_untimed_public_table_is_refused_at_the_turn_time_field():
    form = TableCreateForm(form_data(turn_seconds=UNTIMED))
    assert not form.is_valid()
    assert form.errors["turn_seconds"] == ["Only private tables may be untimed."]


def test_an_impossible_combination_is_refused_with_the_engines_own_reason():
    form = TableCreateForm(form_data("oklahoma", opt_boathouse=None))
    assert not form.is_valid()
    with pytest.raises(engine.RulesError) as refused:
        engine.make_rules("oklahoma", boathouse=False)
    assert form.non_field_errors() == [rules_pages.in_words(refused.value.reason)]
    assert "boathouse" not in form.non_field_errors()[0]
    assert "“Discard to go out”" in form.non_field_errors()[0]


def test_seats_beyond_the_presets_limits_are_refused_with_the_engines_reason():
    form = TableCreateForm(form_data("rummy-school", num_seats=5))
    assert not form.is_valid()
    with pytest.raises(engine.RulesError) as refused:
        engine.make_rules("rummy-school").validate_players(5)
    assert form.errors["num_seats"] == [refused.value.reason]


@pytest.mark.parametrize(
    ("field", "value"),
    [("opt_target", "10"), ("opt_target", "many"), ("num_seats", "1"), ("preset", "poker")],
)
def test_out_of_range_or_unknown_values_are_refused(field, value):
    form = TableCreateForm(form_data(**{field: value}))
    assert not form.is_valid()
    assert field in form.errors


def test_house_rules_shown_for_another_preset_are_not_taken_silently():
    data = {**form_data("standard"), "preset": "jokers"}
    form = TableCreateForm(data)
    assert not form.is_valid()
    reset = TableCreateForm(form.reset_options_data())
    assert reset.data["options_for"] == "jokers"
    assert reset.is_valid(), reset.errors
    assert reset.service_kwargs()["options"]["top_discard_free"] is True


def test_a_service_refusal_lands_next_to_its_field():
    form = TableCreateForm(form_data())
    assert form.is_valid()
    form.add_service_error("invalid_clock", "Turn time must be between 15 seconds and 5 minutes.")
    form.add_service_error("busy", "You are already playing elsewhere.")
    assert form.errors["turn_seconds"] == ["Turn time must be between 15 seconds and 5 minutes."]
    assert form.non_field_errors() == ["You are already playing elsewhere."]


@pytest.mark.django_db
def test_a_table_is_rated_unless_the_host_unticks_it(alice):
    assert TableCreateForm()["rated"].initial is True
    ticked = TableCreateForm(form_data(rated="on"))
    unticked = TableCreateForm(form_data())
    assert ticked.is_valid() and unticked.is_valid()
    assert ticked.service_kwargs()["rated"] is True
    table = tables.table_create(host=alice, **unticked.service_kwargs())
    assert table.rated is False


def test_the_house_rules_are_one_component_shared_with_the_tournament_form():
    from games.forms import HouseRulesForm
    from tournaments.forms import TournamentForm

    assert issubclass(TableCreateForm, HouseRulesForm)
    assert issubclass(TournamentForm, HouseRulesForm)
    assert [f.name for f in TableCreateForm().option_fields()] == [
        option_field_name(name) for name in engine.OPTIONS
    ]


def test_house_rules_left_from_another_preset_ask_the_host_to_create_the_table_again():
    form = TableCreateForm({**form_data("standard"), "preset": "jokers"})
    assert not form.is_valid()
    assert form.non_field_errors() == [
        "The house rules below were for other rules; they now show the defaults of "
        f"{engine.PRESETS['jokers'].title}. Check them and create the table again."
    ]


def _hidden(form: TableCreateForm) -> set[str]:
    return {name for name in engine.OPTIONS if form.fields[option_field_name(name)].hidden_here}


def test_options_that_cannot_apply_are_hidden_without_any_script():
    standard = _hidden(TableCreateForm())
    assert {"jokers", "claim_window_s", "rummy_last_discard_only", "partners_by_draw"} <= standard
    assert "rummy_call" not in standard and "target" not in standard
    calls_on = _hidden(TableCreateForm(form_data(opt_rummy_call="on")))
    assert "claim_window_s" not in calls_on and "rummy_last_discard_only" not in calls_on
    oklahoma_jokers = _hidden(TableCreateForm(initial={"preset": "oklahoma-jokers"}))
    assert "jokers" not in oklahoma_jokers


def test_options_the_engine_refuses_for_a_preset_are_hidden_for_it():
    """Michigan is a single hand: a target score was offered, then refused on "Create"."""
    michigan = _hidden(TableCreateForm(initial={"preset": "michigan"}))
    assert {"target", "rummy_call", "thirty_point_rule"} <= michigan
    persian = _hidden(TableCreateForm(initial={"preset": "persian"}))
    assert {"thirty_point_rule", "pip5_scoring"} <= persian
    assert "stock_refill" in _hidden(TableCreateForm(initial={"preset": "rummy-school"}))
    assert "target" not in _hidden(TableCreateForm(initial={"preset": "standard"}))
    for preset in engine.PRESETS:  # what stays shown can be changed
        shown = engine.OPTIONS.keys() - _hidden(TableCreateForm(initial={"preset": preset}))
        for name in shown - {"rummy_last_discard_only", "claim_window_s"}:
            info = engine.OPTIONS[name]
            value = info.default_for(preset)
            other = (
                (not value) if info.type == "bool" else info.allowed[int(value == info.allowed[0])]
            )
            engine.make_rules(preset, **{name: other})


def test_the_lobby_draws_those_options_hidden(client, alice):
    client.force_login(alice)
    html = client.get("/").content.decode()
    for name in ("jokers", "claim_window_s"):
        field = html.split(f'data-option="{name}"')[0].rsplit('<div class="field', 1)[1]
        assert field.split(">", 1)[0].endswith(" hidden"), name
    rummy = html.split('data-option="rummy_call"')[0].rsplit('<div class="field', 1)[1]
    assert "hidden" not in rummy.split(">", 1)[0]


def test_a_dependent_option_left_set_while_its_switch_is_off_is_not_taken():
    form = TableCreateForm(form_data(opt_rummy_last_discard_only="on", opt_claim_window_s="30"))
    assert form.is_valid(), form.errors
    options = form.service_kwargs()["options"]
    assert options["rummy_last_discard_only"] is False
    assert options["claim_window_s"] == engine.OPTIONS["claim_window_s"].default_for("standard")


def test_engine_refusals_read_with_labels_and_titles_not_identifiers():
    said = rules_pages.in_words(
        "rummy_last_discard_only changes the Rummy call: turn on rummy_call too."
    )
    assert said == (
        "“Rummy on the latest discard only” changes the Rummy call: turn on “Rummy calls” too."
    )
    title = engine.PRESETS["oklahoma-jokers"].title
    assert rules_pages.in_words("The jokers option is only for oklahoma-jokers.") == (
        f"The jokers option is only for {title}."
    )
