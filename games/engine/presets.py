"""Presets as data: everything that differs between the named rule sets.

Why data and not subclasses: a table's rules must be shown to players, stored with every hand
and compared for equality, and the later presets (persian, oklahoma, michigan, five-thousand,
throw-down) differ mostly in numbers and switches. Each field below is read by exactly one
place in the engine; a planned preset lists what it will need so that the stored format and the
rules object do not have to change when it becomes playable.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class CardValues:
    """Points per card, melded (positive) or left in hand (counted against the holder)."""

    pips: tuple[int, ...]
    """Value by rank index 2..13 (index 0 and 1 unused: aces have their own fields)."""
    ace_low: int
    ace_high: int
    ace_group: int
    ace_in_hand: int
    joker_melded: int | None
    """None: a melded joker is worth the card it stands for."""
    joker_in_hand: int
    special: tuple[tuple[str, int, int], ...] = ()
    """Per-card overrides (code, melded, in hand), e.g. oklahoma's queen of spades."""
    wild_as: tuple[tuple[str, int], ...] = ()
    """What a wild card (not a joker) standing for this card is worth melded (oklahoma: a
    deuce standing for the queen of spades scores 10, not the queen's 50)."""
    wild_rank_value: int | None = None
    """five-thousand: every card of the wild rank is worth this, melded or in hand..."""
    wild_ace_value: int | None = None
    """...and this when aces are the wild rank."""


FACE_VALUES = (0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
PIP5_VALUES = (0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10)

STANDARD_VALUES = CardValues(FACE_VALUES, 1, 15, 15, 15, 15, 15)
PIP5_CARD_VALUES = CardValues(PIP5_VALUES, 5, 15, 15, 15, 15, 15)
RUMMY_SCHOOL_VALUES = CardValues(FACE_VALUES, 1, 11, 11, 15, None, 15)
PERSIAN_VALUES = CardValues(FACE_VALUES, 15, 15, 15, 15, 20, 20)
OKLAHOMA_VALUES = CardValues(
    (0, 0, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10),
    20,
    20,
    20,
    20,
    None,
    20,
    special=(("QS", 50, 100), ("2C", 5, 20), ("2D", 5, 20), ("2H", 5, 20), ("2S", 5, 20)),
    wild_as=(("QS", 10),),
)
OKLAHOMA_JOKERS_VALUES = replace(OKLAHOMA_VALUES, joker_melded=100, joker_in_hand=200)
FIVE_THOUSAND_VALUES = CardValues(
    PIP5_VALUES, 100, 100, 100, 100, 100, 100, wild_rank_value=100, wild_ace_value=200
)


OKLAHOMA_FIXED = (
    ("boathouse", "Oklahoma always ends with a discard: boathouse stays on."),
    ("floating", "Oklahoma always ends with a discard, so nobody can float."),
    (
        "top_discard_free",
        "In Oklahoma the top discard (with the whole pile) must be used at once.",
    ),
    ("stock_refill", "Oklahoma ends in a block when the stock runs out; it is never refilled."),
    ("rummy_call", "Oklahoma has no Rummy call: you lay off only on your own melds."),
    ("pip5_scoring", "Oklahoma has its own card values; pip5_scoring cannot change them."),
)


@dataclass(frozen=True)
class PresetInfo:
    """One named rule set. ``playable`` presets can be used by tables now."""

    name: str
    title: str
    description: str
    source: str
    min_players: int
    max_players: int
    playable: bool = True
    two_packs_from: int | None = 5
    """Number of players from which two packs are shuffled together (None: never)."""
    packs: int = 1
    jokers_per_pack: int = 0
    jokers_wild: bool = True
    wild_rank: str | None = None
    """A rank that is wild ("2" in oklahoma, "dealer" in five-thousand: the dealer's card)."""
    deal_two_players: int = 13
    deal_default: int = 7
    deal_face_up_count: bool = False
    """five-thousand: a face-up first card sets how many more cards each player gets."""
    values: CardValues = STANDARD_VALUES
    aces_low: bool = True
    duty_timing: str = "next_play"
    """When the card chosen from the pile must be used: "next_play" or "this_turn"."""
    several_taken_discard: str = "any"
    """After taking several cards, which may be discarded: "any" or "any_but_bottom"."""
    joker_switching: bool = False
    empty_stock: str = "play_from_pile"
    """"play_from_pile", "end_after_last_draw" (rummy-school) or "block" (oklahoma)."""
    lay_off_on: str = "any"
    upcard_offered: bool = False
    take_top_takes_pile: bool = False
    discard_layout: str = "pile"
    partnerships: tuple[tuple[int, ...], ...] = ()
    going_out_bonus: int = 0
    concealed_going_out_bonus: int = 0
    game_bonus: int = 0
    double_group_of_four: bool = False
    single_hand_game: bool = False
    stop_call: bool = False
    undiscardable: tuple[str, ...] = ()
    defaults: tuple[tuple[str, object], ...] = field(default=())
    """Option defaults that differ from the option's own default."""
    fixed_options: tuple[tuple[str, str], ...] = ()
    """Options this preset's own rules settle: (name, why it cannot be changed)."""
    jokers_option: bool = False
    """The table's ``jokers`` option says how many jokers join the packs (oklahoma-jokers)."""
    joker_lowest_in_draw: bool = False
    """A joker drawn for first dealer counts lowest instead of being drawn again."""
    in_hand_to_winner: bool = False
    """five-thousand: cards left in hand cost their holders nothing; whoever goes out scores
    them instead."""
    rummy_call_needs_meld: bool = False
    """five-thousand: only a player with a meld of their own on the table may call Rummy."""
    naturals_in_front: bool = False
    """five-thousand: the natural card a melded wild card stands for may be played in front."""


PLAYABLE = (
    PresetInfo(
        name="standard",
        title="Standard 500 Rum",
        description=(
            "One pack (two from five players), no jokers; any card taken from the pile must be "
            "used at once."
        ),
        source="000",
        min_players=2,
        max_players=8,
    ),
    PresetInfo(
        name="jokers",
        title="500 Rummy with jokers",
        description=(
            "Two wild jokers per pack; the top discard may be taken and kept; jokers score 15."
        ),
        source="001, 002",
        min_players=2,
        max_players=8,
        jokers_per_pack=2,
        defaults=(("top_discard_free", True),),
    ),
    PresetInfo(
        name="classic",
        title="Classic 500 Rummy (Michigan Rummy)",
        description="Three to eight players, 7 cards each; the top discard may be kept.",
        source="003",
        min_players=3,
        max_players=8,
        deal_two_players=7,
        defaults=(("top_discard_free", True),),
    ),
    PresetInfo(
        name="rummy-school",
        title="Rummy School 500",
        description=(
            "Up to four players, 7 cards each, two jokers that can be switched; aces 1 or 11; "
            "the hand ends after the last stock card is drawn."
        ),
        source="004",
        min_players=2,
        max_players=4,
        two_packs_from=None,
        jokers_per_pack=2,
        deal_two_players=7,
        values=RUMMY_SCHOOL_VALUES,
        duty_timing="this_turn",
        several_taken_discard="any_but_bottom",
        joker_switching=True,
        empty_stock="end_after_last_draw",
        defaults=(("top_discard_free", True),),
    ),
)

PLANNED = (
    PresetInfo(
        name="persian",
        title="Persian Rummy",
        description="Two partnerships; four jokers that are not wild and meld only together.",
        source="000",
        min_players=4,
        max_players=4,
        two_packs_from=None,
        jokers_per_pack=4,
        jokers_wild=False,
        deal_two_players=7,
        values=PERSIAN_VALUES,
        aces_low=False,
        partnerships=((0, 2), (1, 3)),
        going_out_bonus=25,
        game_bonus=50,
        double_group_of_four=True,
        defaults=(("partners_by_draw", True),),
    ),
    PresetInfo(
        name="oklahoma",
        title="Oklahoma (Arlington)",
        description="Two packs, deuces wild, 13 cards; the queen of spades is special; 1000 wins.",
        source="000",
        min_players=2,
        max_players=4,
        two_packs_from=None,
        packs=2,
        wild_rank="2",
        deal_default=13,
        values=OKLAHOMA_VALUES,
        empty_stock="block",
        lay_off_on="own",
        upcard_offered=True,
        take_top_takes_pile=True,
        going_out_bonus=100,
        concealed_going_out_bonus=250,
        game_bonus=200,
        undiscardable=("QS",),
        defaults=(("target", 1000), ("boathouse", True), ("group_suits_distinct", False)),
        fixed_options=OKLAHOMA_FIXED,
    ),
    PresetInfo(
        name="oklahoma-jokers",
        title="Oklahoma with jokers",
        description="Oklahoma plus one to four jokers that their player may take back.",
        source="000",
        min_players=2,
        max_players=4,
        two_packs_from=None,
        packs=2,
        jokers_per_pack=1,
        wild_rank="2",
        deal_default=13,
        values=OKLAHOMA_JOKERS_VALUES,
        joker_switching=True,
        jokers_option=True,
        joker_lowest_in_draw=True,
        empty_stock="block",
        lay_off_on="own",
        upcard_offered=True,
        take_top_takes_pile=True,
        going_out_bonus=100,
        concealed_going_out_bonus=250,
        game_bonus=200,
        undiscardable=("QS",),
        defaults=(("target", 1000), ("boathouse", True), ("group_suits_distinct", False)),
        fixed_options=OKLAHOMA_FIXED,
    ),
    PresetInfo(
        name="michigan",
        title="Michigan Rummy",
        description="Scores run during the hand; each hand is a game; a 'Stop' call.",
        source="000",
        min_players=2,
        max_players=8,
        single_hand_game=True,
        stop_call=True,
    ),
    PresetInfo(
        name="five-thousand",
        title="5000 Rummy",
        description="Face-up first card sets the deal; the dealer's rank is wild; 5000 wins.",
        source="000",
        min_players=2,
        max_players=8,
        wild_rank="dealer",
        deal_face_up_count=True,
        values=FIVE_THOUSAND_VALUES,
        empty_stock="end_when_empty",
        in_hand_to_winner=True,
        rummy_call_needs_meld=True,
        naturals_in_front=True,
        defaults=(
            ("target", 5000),
            ("floating", True),
            ("rummy_call", True),
            ("rummy_last_discard_only", True),
        ),
        fixed_options=(
            ("floating", "In 5000 a player who melds every card floats: floating stays on."),
            ("stock_refill", "In 5000 the hand ends when the stock runs out; it is not refilled."),
            ("pip5_scoring", "5000 has its own card values; pip5_scoring cannot change them."),
            ("rummy_call", "5000 has its own Rummy call (after a meld of your own)."),
            (
                "rummy_last_discard_only",
                "In 5000 Rummy is called only on the latest discard, to lay it off.",
            ),
        ),
    ),
    PresetInfo(
        name="throw-down",
        title="500 Throw-down Rum",
        description="Discards land scattered; taking a card takes every card lying over it.",
        source="000",
        min_players=2,
        max_players=8,
        discard_layout="scattered",
    ),
)

# A planned preset becomes playable by flipping its ``playable`` flag above.
PRESETS: dict[str, PresetInfo] = {
    preset.name: preset for preset in (*PLAYABLE, *PLANNED) if preset.playable
}
PLANNED_PRESETS: dict[str, PresetInfo] = {
    preset.name: preset for preset in PLANNED if not preset.playable
}
