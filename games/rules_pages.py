"""What the /rules/ pages show: every preset and every house rule, read from the engine's data.

Why from the data: the presets and options are defined once, in ``games.engine``; the pages
list them from there, so a new preset or option appears on them without editing a template.
The explanation of each preset is written by hand, one template per preset
(``templates/games/rules/<preset>.html``).
"""

from __future__ import annotations

import re
from typing import Any

from django.template.loader import select_template

from games import engine

FALLBACK_TEMPLATE = "games/rules/_preset_fallback.html"

# What people read for each house rule: the engine's option names (``top_discard_free``,
# ``boathouse``) are identifiers, not words. One place, used by the rules pages, the create
# form, the lobby and the table's house-rule list.
OPTION_LABELS: dict[str, str] = {
    "target": "Target score",
    "top_discard_free": "Take the top discard freely",
    "deepest_card_new_meld": "Deepest card into a new meld",
    "boathouse": "Discard to go out",
    "floating": "Floating",
    "stock_refill": "Reuse the pile as stock",
    "rummy_call": "Rummy calls",
    "claim_window_s": "Seconds to call Rummy",
    "rummy_last_discard_only": "Rummy on the latest discard only",
    "thirty_point_rule": "30-point start",
    "discards_displayed": "Taken discards stay shown",
    "group_suits_distinct": "Groups of different suits",
    "pip5_scoring": "Flat card values",
    "partners_by_draw": "Partners by draw",
    "jokers": "Number of jokers",
}


def option_label(name: str) -> str:
    """The human label of a house rule; a new option without one reads as words, not code."""
    return OPTION_LABELS.get(name) or name.replace("_", " ").capitalize()


def in_words(reason: str) -> str:
    """An engine refusal as people read it: house-rule identifiers become their labels and
    preset slugs their titles ("boathouse stays on" -> "“Discard to go out” stays on").

    The engine knows no labels (it depends on nothing); the pages translate at the edge.
    """
    for name in sorted(engine.OPTIONS, key=len, reverse=True):
        if "_" in name or name == "boathouse":
            reason = re.sub(rf"\b{re.escape(name)}\b", f"“{option_label(name)}”", reason)
    for slug, info in all_presets().items():
        if "-" in slug:
            reason = re.sub(rf"(?<![\w-]){re.escape(slug)}(?![\w-])", info.title, reason)
    return reason


def option_text(name: str, value: Any) -> str:
    """ "Rummy calls: on", "Target score: 300": a house rule and its value, in words."""
    if isinstance(value, bool):
        return f"{option_label(name)}: {'on' if value else 'off'}"
    return f"{option_label(name)}: {value}"


def all_presets() -> dict[str, engine.PresetInfo]:
    """Every preset: the playable ones, then those planned for a later release."""
    return {**engine.PRESETS, **engine.PLANNED_PRESETS}


def _value_text(info: engine.OptionInfo, value: Any) -> str:
    if info.type == "bool":
        return "on" if value else "off"
    return str(value)


def preset_rows() -> list[dict[str, Any]]:
    """One row per preset for the index."""
    return [
        {
            "name": name,
            "title": info.title,
            "description": info.description,
            "source": info.source,
            "players": _players(info),
            "playable": name in engine.PRESETS,
        }
        for name, info in all_presets().items()
    ]


def _players(info: engine.PresetInfo) -> str:
    if info.min_players == info.max_players:
        return f"{info.min_players}"
    return f"{info.min_players} to {info.max_players}"


def applies(option: str, preset: engine.PresetInfo) -> bool:
    """Whether a house rule means anything in this preset's game: the number of jokers is
    Oklahoma with jokers' alone, partners by draw only where partners play. (Persian's page
    listed "Number of jokers: 2" beside its own four jokers.)"""
    if option == "jokers":
        return preset.jokers_option
    if option == "partners_by_draw":
        return bool(preset.partnerships)
    return True


def option_rows(preset: str | None = None) -> list[dict[str, Any]]:
    """One row per house rule: its default, and (for the index) where a preset differs."""
    presets = all_presets()
    rows = []
    for name, info in engine.OPTIONS.items():
        if preset is not None and not applies(name, presets[preset]):
            continue
        row: dict[str, Any] = {
            "name": name,
            "label": option_label(name),
            "description": info.description,
            "source": info.source,
            "default": _value_text(info, info.default_for(preset or "standard")),
        }
        if info.type == "int":
            low, high = info.allowed
            row["allowed"] = f"{low} to {high}"
        if preset is None:
            row["default"] = _value_text(info, info.default)
            row["differs"] = [
                {
                    "preset": other,
                    "title": presets[other].title,
                    "value": _value_text(info, info.default_for(other)),
                }
                for other in presets
                if info.default_for(other) != info.default
            ]
        rows.append(row)
    return rows


def preset_page(preset: str) -> dict[str, Any] | None:
    """The context of ``/rules/<preset>/`` (None: there is no such preset)."""
    info = all_presets().get(preset)
    if info is None:
        return None
    return {
        "preset": info,
        "name": preset,
        "playable": preset in engine.PRESETS,
        "players": _players(info),
        "options": option_rows(preset),
        "template": select_template([f"games/rules/{preset}.html", FALLBACK_TEMPLATE]),
    }
