"""Rules as data: presets, options with descriptions, defaults and refused combinations."""

import pytest

from games.engine import OPTIONS, PLANNED_PRESETS, PRESETS, Rules, RulesError, make_rules

ALL_PRESETS = {**PRESETS, **PLANNED_PRESETS}


def test_the_presets_of_this_release_are_playable():
    assert {"standard", "jokers", "classic", "rummy-school", "throw-down"} <= set(PRESETS)
    for info in PRESETS.values():
        assert info.playable
        assert info.title and info.description and info.source
        assert 2 <= info.min_players <= info.max_players <= 8


def test_later_presets_are_described_but_refused_with_a_reason():
    assert set(ALL_PRESETS) == {
        "standard",
        "jokers",
        "classic",
        "rummy-school",
        "persian",
        "oklahoma",
        "oklahoma-jokers",
        "michigan",
        "five-thousand",
        "throw-down",
    }
    assert not set(PRESETS) & set(PLANNED_PRESETS)
    for name in PLANNED_PRESETS:
        with pytest.raises(RulesError, match="later release"):
            make_rules(name)


def test_planned_presets_carry_the_data_they_will_need():
    assert ALL_PRESETS["persian"].partnerships == ((0, 2), (1, 3))
    assert ALL_PRESETS["oklahoma"].wild_rank == "2"
    assert ALL_PRESETS["five-thousand"].deal_face_up_count
    assert ALL_PRESETS["throw-down"].discard_layout == "scattered"
    assert dict(ALL_PRESETS["oklahoma"].defaults)["target"] == 1000


def test_every_option_has_a_one_line_description_and_allowed_values():
    assert {
        "target",
        "top_discard_free",
        "deepest_card_new_meld",
        "boathouse",
        "floating",
        "stock_refill",
        "rummy_call",
        "claim_window_s",
        "rummy_last_discard_only",
        "thirty_point_rule",
        "discards_displayed",
        "group_suits_distinct",
        "pip5_scoring",
        "jokers",
        "partners_by_draw",
    } <= set(OPTIONS)
    for info in OPTIONS.values():
        assert info.description and "\n" not in info.description
        assert info.type in ("bool", "int")
        assert len(info.allowed) == 2


@pytest.mark.parametrize(
    ("preset", "free"),
    [("standard", False), ("jokers", True), ("classic", True), ("rummy-school", True)],
)
def test_top_discard_free_default_follows_the_preset(preset, free):
    assert make_rules(preset).top_discard_free is free
    assert OPTIONS["top_discard_free"].default_for(preset) is free


def test_defaults_match_the_rulings():
    rules = make_rules()
    assert rules.preset == "standard"
    assert rules.target == 500 and rules.claim_window_s == 5
    assert rules.group_suits_distinct
    assert not (rules.rummy_call or rules.boathouse or rules.floating or rules.pip5_scoring)


def test_rules_are_frozen_hashable_and_compare_by_value():
    assert make_rules("jokers", target=300) == make_rules("jokers", target=300)
    assert len({make_rules(), make_rules(), make_rules("classic")}) == 2
    with pytest.raises(AttributeError):
        make_rules().target = 1  # type: ignore[misc]


def test_rules_round_trip_through_json():
    rules = make_rules("rummy-school", rummy_call=True, target=250)
    assert Rules.from_json(rules.to_json()) == rules
    assert rules.changed_options() == {"rummy_call": True, "target": 250}


@pytest.mark.parametrize(
    ("preset", "options", "reason"),
    [
        ("poker", {}, "Unknown preset"),
        ("standard", {"jokers_wild": True}, "Unknown option"),
        ("standard", {"boathouse": "yes"}, "on or off"),
        ("standard", {"target": 10}, "between"),
        ("standard", {"target": True}, "whole number"),
        ("standard", {"claim_window_s": 0}, "between"),
        ("standard", {"rummy_last_discard_only": True}, "turn on rummy_call"),
        ("rummy-school", {"stock_refill": True}, "cannot apply"),
        ("rummy-school", {"pip5_scoring": True}, "own card values"),
    ],
)
def test_bad_presets_values_and_combinations_are_refused_with_a_reason(preset, options, reason):
    with pytest.raises(RulesError, match=reason):
        make_rules(preset, **options)


def test_floating_with_boathouse_is_accepted_and_floats():
    rules = make_rules(boathouse=True, floating=True)
    assert not rules.must_discard_to_go_out


@pytest.mark.parametrize("data", [None, [], {"preset": 3}, {"preset": "standard", "x": 1}])
def test_malformed_stored_rules_are_refused(data):
    with pytest.raises(RulesError):
        Rules.from_json(data)


@pytest.mark.parametrize(
    ("preset", "players", "ok"),
    [
        ("standard", 1, False),
        ("standard", 2, True),
        ("standard", 8, True),
        ("standard", 9, False),
        ("classic", 2, False),
        ("rummy-school", 5, False),
        ("rummy-school", 4, True),
    ],
)
def test_player_counts_are_checked_per_preset(preset, players, ok):
    rules = make_rules(preset)
    if ok:
        rules.validate_players(players)
    else:
        with pytest.raises(RulesError, match="played by"):
            rules.validate_players(players)


def test_a_non_integer_player_count_is_refused():
    with pytest.raises(RulesError, match="whole number"):
        make_rules().validate_players("4")  # type: ignore[arg-type]
