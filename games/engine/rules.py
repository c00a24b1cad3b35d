"""A table's rules: one preset plus its options (house rules), as one immutable value.

Why one frozen object: it is shown to players, stored with every hand, compared when hands are
replayed and used as a cache key, so it must be hashable and must never change under a game.
``make_rules`` is the way to build one: it fills the preset's defaults and refuses unknown names,
bad values and combinations that cannot be played, with a reason a table creator can act on.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any

from .cards import JOKER, build_deck
from .errors import RulesError
from .presets import PIP5_CARD_VALUES, PLANNED_PRESETS, PRESETS, CardValues, PresetInfo


@dataclass(frozen=True)
class OptionInfo:
    """One house rule as shown to players when they create or join a table."""

    name: str
    description: str
    type: str
    """"bool" or "int"."""
    default: Any
    allowed: tuple[Any, ...]
    """(False, True) for switches, (minimum, maximum) for numbers."""
    source: str

    def default_for(self, preset: str) -> Any:
        """The default this option takes under ``preset``."""
        info = PRESETS.get(preset) or PLANNED_PRESETS.get(preset)
        if info is not None:
            for name, value in info.defaults:
                if name == self.name:
                    return value
        return self.default


def _switch(name: str, description: str, source: str, default: bool = False) -> OptionInfo:
    return OptionInfo(name, description, "bool", default, (False, True), source)


OPTIONS: dict[str, OptionInfo] = {
    option.name: option
    for option in (
        OptionInfo(
            "target",
            "The game ends after a hand in which a total reaches this score.",
            "int",
            500,
            (50, 100_000),
            "000, 001",
        ),
        _switch(
            "top_discard_free",
            "You may take the top discard alone and keep it without using it.",
            "000",
        ),
        _switch(
            "deepest_card_new_meld",
            "The deepest card you take from the pile must go into a new meld, not a lay-off.",
            "002",
        ),
        _switch("boathouse", "You must discard to go out; you may not meld your last card.", "001"),
        _switch(
            "floating",
            "You may meld every card and float with an empty hand instead of going out.",
            "002",
        ),
        _switch(
            "stock_refill",
            "When the stock runs out, the discard pile but its top card becomes a new stock.",
            "001",
        ),
        _switch(
            "rummy_call",
            "After a discard, the other players may call Rummy and take a playable discard.",
            "000, 001, 002",
        ),
        OptionInfo(
            "claim_window_s",
            "Seconds the other players have to call Rummy after a discard.",
            "int",
            5,
            (1, 60),
            "000",
        ),
        _switch(
            "rummy_last_discard_only",
            "Rummy may be called only on the latest discard, and only to lay it off.",
            "002",
        ),
        _switch(
            "thirty_point_rule",
            "Your scores count from your first hand worth 30 points or more.",
            "001",
        ),
        _switch(
            "discards_displayed",
            "Cards taken from the pile and not melded stay face up until the taker's next turn.",
            "000",
        ),
        _switch(
            "group_suits_distinct",
            "The cards of a group must all be of different suits.",
            "001, 002",
            default=True,
        ),
        _switch(
            "pip5_scoring",
            "Cards 2 to 9 score 5, tens and pictures 10, jokers 15, a low ace 5.",
            "002",
        ),
        _switch(
            "partners_by_draw",
            "Partnerships: a shown draw seats the partners (off: the host's seating stands).",
            "000",
        ),
        OptionInfo(
            "jokers",
            "Oklahoma with jokers: how many jokers join the two packs.",
            "int",
            2,
            (1, 4),
            "000",
        ),
    )
}


@dataclass(frozen=True)
class Rules:
    """A preset plus every option's value. Build it with ``make_rules``."""

    preset: str = "standard"
    target: int = 500
    top_discard_free: bool = False
    deepest_card_new_meld: bool = False
    boathouse: bool = False
    floating: bool = False
    stock_refill: bool = False
    rummy_call: bool = False
    claim_window_s: int = 5
    rummy_last_discard_only: bool = False
    thirty_point_rule: bool = False
    discards_displayed: bool = False
    group_suits_distinct: bool = True
    pip5_scoring: bool = False
    jokers: int = 2
    partners_by_draw: bool = False

    def __post_init__(self) -> None:
        _check(self)

    # Derived data, computed once per rules object ------------------------------------------

    @cached_property
    def spec(self) -> PresetInfo:
        """The preset's data."""
        return PRESETS[self.preset]

    @cached_property
    def values(self) -> CardValues:
        """The card values in force (the preset's, or pip-5 when that option is on)."""
        return PIP5_CARD_VALUES if self.pip5_scoring else self.spec.values

    @cached_property
    def wild_jokers(self) -> bool:
        """True when jokers are in the deck and wild."""
        return self.spec.jokers_per_pack > 0 and self.spec.jokers_wild

    @cached_property
    def wild_rank(self) -> str | None:
        """The rank whose cards are wild besides jokers ("2" in oklahoma), or None."""
        rank = self.spec.wild_rank
        return rank if rank is not None and len(rank) == 1 else None

    @cached_property
    def scattered(self) -> bool:
        """Throw-down: discards lie scattered, each over a few of the cards before it."""
        return self.spec.discard_layout == "scattered"

    @cached_property
    def persian_melds(self) -> bool:
        """Aces high only and non-wild jokers that meld in their own group (persian)."""
        return not self.spec.aces_low or (self.spec.jokers_per_pack > 0 and not self.wild_jokers)

    @cached_property
    def claims_open(self) -> bool:
        """A discard may be claimed: Rummy calls (option) or michigan's Stop call."""
        return self.rummy_call or self.spec.stop_call

    @cached_property
    def claims_word(self) -> str:
        """What a claim of a discard is called at this table."""
        return "Stop" if self.spec.stop_call else "Rummy"

    @cached_property
    def exact_takes(self) -> bool:
        """Pile takes and Rummy calls need the slower exact check (see exact_takes.py)."""
        return self.scattered or self.persian_melds

    @cached_property
    def must_discard_to_go_out(self) -> bool:
        """Boathouse without floating: a hand may never be emptied by melding."""
        return self.boathouse and not self.floating

    def packs(self, num_seats: int) -> int:
        """How many packs are shuffled together for ``num_seats`` players."""
        spec = self.spec
        if spec.two_packs_from is not None and num_seats >= spec.two_packs_from:
            return 2
        return spec.packs

    def deal_size(self, num_seats: int) -> int:
        """Cards dealt to each player."""
        return self.spec.deal_two_players if num_seats == 2 else self.spec.deal_default

    def deck(self, num_seats: int) -> tuple[str, ...]:
        """The unshuffled deck for ``num_seats`` players."""
        if self.spec.jokers_option:
            return build_deck(self.packs(num_seats), 0) + (JOKER,) * self.jokers
        return build_deck(self.packs(num_seats), self.spec.jokers_per_pack)

    def validate_players(self, num_seats: int) -> None:
        """Raise RulesError unless this preset can be played by ``num_seats`` players."""
        spec = self.spec
        if isinstance(num_seats, bool) or not isinstance(num_seats, int):
            raise RulesError(f"The number of players must be a whole number, not {num_seats!r}.")
        if not spec.min_players <= num_seats <= spec.max_players:
            raise RulesError(
                f"{spec.title} is played by {spec.min_players} to {spec.max_players} players, "
                f"not {num_seats}."
            )

    def options(self) -> dict[str, Any]:
        """Every option's value, by name."""
        return {name: getattr(self, name) for name in OPTIONS}

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from the preset's defaults (what a table summary shows)."""
        return {
            name: value
            for name, value in self.options().items()
            if value != OPTIONS[name].default_for(self.preset)
        }

    def to_json(self) -> dict[str, Any]:
        """{"preset": ..., "options": {every option}} for storage and views."""
        return {"preset": self.preset, "options": self.options()}

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Rebuild rules stored by ``to_json``; raises RulesError on anything else."""
        if not isinstance(data, dict) or set(data) - {"preset", "options"}:
            raise RulesError("Stored rules must be an object with 'preset' and 'options'.")
        preset = data.get("preset", "standard")
        options = data.get("options", {})
        if not isinstance(preset, str) or not isinstance(options, dict):
            raise RulesError("Stored rules have a malformed 'preset' or 'options'.")
        return make_rules(preset, **options)


def make_rules(preset: str = "standard", **options: Any) -> Rules:
    """The rules of ``preset`` with ``options`` changed; raises RulesError with a reason."""
    if not isinstance(preset, str) or preset not in PRESETS:
        if isinstance(preset, str) and preset in PLANNED_PRESETS:
            raise RulesError(
                f"The {preset} preset is planned for a later release and cannot be played yet."
            )
        known = ", ".join(PRESETS)
        raise RulesError(f"Unknown preset {preset!r}; choose one of: {known}.")
    values = {name: info.default_for(preset) for name, info in OPTIONS.items()}
    for name, value in options.items():
        if name not in OPTIONS:
            raise RulesError(f"Unknown option {name!r}.")
        values[name] = value
    return Rules(preset=preset, **values)


def _check(rules: Rules) -> None:
    """Refuse bad values and impossible combinations, with the reason."""
    if rules.preset not in PRESETS:
        raise RulesError(f"Unknown preset {rules.preset!r}.")
    for item in fields(rules):
        if item.name == "preset":
            continue
        info = OPTIONS[item.name]
        value = getattr(rules, item.name)
        if info.type == "bool":
            if not isinstance(value, bool):
                raise RulesError(f"Option {info.name} is on or off (true or false), not {value!r}.")
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(f"Option {info.name} must be a whole number, not {value!r}.")
            low, high = info.allowed
            if not low <= value <= high:
                raise RulesError(f"Option {info.name} must be between {low} and {high}.")
    spec = PRESETS[rules.preset]
    if not spec.jokers_option and rules.jokers != OPTIONS["jokers"].default:
        raise RulesError("The jokers option is only for oklahoma-jokers.")
    for name, reason in spec.fixed_options:
        if getattr(rules, name) != OPTIONS[name].default_for(rules.preset):
            raise RulesError(reason)
    if rules.rummy_last_discard_only and not rules.rummy_call:
        raise RulesError("rummy_last_discard_only changes the Rummy call: turn on rummy_call too.")
    if rules.preset == "rummy-school" and rules.stock_refill:
        raise RulesError(
            "rummy-school ends the hand when the stock runs out, so stock_refill cannot apply."
        )
    if rules.spec.single_hand_game:
        if rules.rummy_call:
            raise RulesError(
                f"{rules.preset} has its own Stop call, so rummy_call cannot be turned on."
            )
        if rules.target != OPTIONS["target"].default:
            raise RulesError(f"{rules.preset} is a single hand, so a target score does not apply.")
        if rules.thirty_point_rule:
            raise RulesError(f"{rules.preset} is a single hand, so thirty_point_rule cannot apply.")
    if rules.partners_by_draw and not rules.spec.partnerships:
        raise RulesError(
            "partners_by_draw seats partners, and only persian is played in partnerships."
        )
    if rules.spec.partnerships and rules.thirty_point_rule:
        raise RulesError(
            f"{rules.preset} scores by partnership, so thirty_point_rule (per player) cannot apply."
        )
    if rules.preset == "persian" and rules.pip5_scoring:
        raise RulesError("persian has its own card values; pip5_scoring cannot change them.")
    if rules.preset == "rummy-school" and rules.pip5_scoring:
        raise RulesError("rummy-school has its own card values; pip5_scoring cannot change them.")
