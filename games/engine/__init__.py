"""The Rummy 500 rules engine: pure Python, no Django, no I/O, deterministic from a seed.

Everything that plays, checks, shows or stores a hand goes through this package; it is the only
place where the rules live. States are immutable values: ``apply`` returns a new one.

Cards
    Two-character codes, rank then suit (``"7H"``, ``"TS"``, ``"AC"``), ``"JK"`` for a joker.
    With two packs the same code may appear twice; copies are interchangeable. Helpers:
    ``card_label("TS") == "10♠"``, ``card_name("7H") == "seven of hearts"``, ``SUIT_SYMBOLS``,
    ``RANKS``, ``SUITS``. A *reading* is what a card stands for in a meld: itself, a full code
    for a wild card in a run (``"8C"``), a rank with ``*`` for a wild card in a group (``"9*"``).

Rules
    ``make_rules(preset="standard", **options) -> Rules`` (frozen, hashable) or ``RulesError``.
    ``PRESETS`` / ``OPTIONS`` describe the presets and house rules for players;
    ``PLANNED_PRESETS`` holds the data of the presets of a later release.
    ``Rules.to_json()`` / ``Rules.from_json(d)``; ``rules.validate_players(n)``.

Dealing
    ``new_hand(rules, num_seats, dealer, totals=None, seed=None, deck=None, on_board=None)``.
    Seats are 0..n-1 clockwise; the player left of the dealer moves first. ``seed`` defaults
    to ``secrets.randbits(64)``; ``deck`` is an explicit order for tests (``deck[0]`` is dealt
    first, one card at a time from the dealer's left, then the up-card, then the stock top
    first); ``stack_deck(...)`` builds one from wanted hands.

Moves
    Actions are frozen dataclasses with a ``seat``: ``DrawStock``, ``TakeDiscard(depth)``
    (0 = top), ``Meld(cards, reading=None)``, ``LayOff(card, meld, reading=None, ace_end=None)``
    (meld ids start at 1; ``ace_end="low"`` puts an ace on a 2..K run at the low end, left out
    it goes high), ``SwitchJoker(card, meld)``, ``Discard(card)``, ``ClaimRummy(depth)``,
    ``PassClaim``, ``CloseClaims`` (seat -1, the table clock), ``DeclineDraw``, ``Float``,
    ``PassUpcard`` (oklahoma's offered up-card), ``PlayNatural(card, meld)`` (five-thousand:
    the natural card of a melded wild card, put down in front).

Wild ranks
    ``state.wild`` is the rank whose cards are wild this hand besides jokers: oklahoma's deuces,
    five-thousand's dealer's face-up rank. They go through the joker machinery (``wilds``): a
    card of that rank reading as itself in a meld is a natural card.
    ``legal_actions(state, seat)`` lists every legal move in canonical form (a reading only
    where a wild card is involved); ``apply(state, action) -> (state, events)`` or
    ``IllegalAction(reason)`` with the state untouched. ``action_to_json`` /
    ``action_from_json(d, seat)`` / ``describe_action(action, names, state=None)``.

Phases
    ``Phase.DRAW`` -> ``Phase.PLAY`` -> (discard) -> ``Phase.CLAIM`` when Rummy may be called
    -> next ``DRAW`` ... ``Phase.HAND_OVER``. ``state.to_act`` holds the seat to move, or the
    seats that may still call Rummy, or nothing once the hand is over.

Views
    ``view(state, seat)`` (None: spectator) is JSON-ready and holds only what that seat may
    see; ``view_for_seat(public, state, seat)`` is the same seat view built from the
    spectator's; ``deal_from_view(view, sample_or_rng)`` builds a full state consistent with it.

Scoring
    ``hand_result(state)`` (per seat and per card), ``game_outcome(rules, totals)``,
    ``next_dealer``, ``first_dealer_draw``, and ``new_game`` / ``start_hand`` /
    ``finish_hand`` for a whole game.

Preset modules
    ``scatter`` (throw-down's scattered discard area), ``persian`` (aces high, groups of
    jokers), ``partnerships`` (sides, ``partnership_draw``, pooled scores), ``michigan`` (one
    hand per game, the Stop call) and ``exact_takes`` (the exact pile check those presets use).

Storage
    ``state_to_json`` / ``state_from_json`` (versioned, ``FormatError`` on bad data);
    ``hand_record(state)`` (one line per move) and ``replay(record_or_actions, ...)``.

See DECISIONS.md in this folder for the points the rule documents leave open.
"""

from .actions import (
    Action,
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    Discard,
    DrawStock,
    Float,
    LayOff,
    Meld,
    PassClaim,
    PassUpcard,
    PlayNatural,
    SwitchJoker,
    TakeDiscard,
    action_from_json,
    action_to_json,
    describe_action,
)
from .cards import (
    JOKER,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    card_label,
    card_name,
    is_card,
    sort_cards,
)
from .errors import EngineError, FormatError, IllegalAction, RulesError
from .events import Event
from .game import (
    DealerDraw,
    GameState,
    finish_hand,
    first_dealer_draw,
    new_game,
    next_dealer,
    start_hand,
)
from .melds import TableMeld
from .moves import apply, canonical, is_legal, legal_actions
from .partnerships import PartnershipDraw, SideScore, partnership_draw, side_of
from .presets import PLANNED_PRESETS, PRESETS, CardValues, PresetInfo
from .records import (
    FORMAT,
    hand_record,
    parse_record,
    replay,
    state_from_json,
    state_to_json,
)
from .rules import OPTIONS, OptionInfo, Rules, make_rules
from .scoring import (
    GameOutcome,
    HandResult,
    ScoreLine,
    SeatScore,
    excluded_totals,
    game_outcome,
    hand_result,
    settle_game,
)
from .state import ClaimWindow, HandEnd, HandState, Obligation, Phase, new_hand, stack_deck
from .views import (
    actions_from_history,
    deal_from_view,
    known_holdings,
    move_numbers,
    view,
    view_for_seat,
)

__all__ = [
    "FORMAT",
    "JOKER",
    "OPTIONS",
    "PLANNED_PRESETS",
    "PRESETS",
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "Action",
    "CardValues",
    "ClaimRummy",
    "ClaimWindow",
    "CloseClaims",
    "DealerDraw",
    "DeclineDraw",
    "Discard",
    "DrawStock",
    "EngineError",
    "Event",
    "Float",
    "FormatError",
    "GameOutcome",
    "GameState",
    "HandEnd",
    "HandResult",
    "HandState",
    "IllegalAction",
    "LayOff",
    "Meld",
    "Obligation",
    "OptionInfo",
    "PartnershipDraw",
    "PassClaim",
    "PassUpcard",
    "Phase",
    "PlayNatural",
    "PresetInfo",
    "Rules",
    "RulesError",
    "ScoreLine",
    "SeatScore",
    "SideScore",
    "SwitchJoker",
    "TableMeld",
    "TakeDiscard",
    "action_from_json",
    "action_to_json",
    "actions_from_history",
    "apply",
    "canonical",
    "card_label",
    "card_name",
    "deal_from_view",
    "describe_action",
    "excluded_totals",
    "finish_hand",
    "first_dealer_draw",
    "game_outcome",
    "hand_record",
    "hand_result",
    "is_card",
    "is_legal",
    "known_holdings",
    "legal_actions",
    "make_rules",
    "move_numbers",
    "new_game",
    "new_hand",
    "next_dealer",
    "parse_record",
    "partnership_draw",
    "replay",
    "settle_game",
    "side_of",
    "sort_cards",
    "stack_deck",
    "start_hand",
    "state_from_json",
    "state_to_json",
    "view",
    "view_for_seat",
]
