"""Random legal play for 2-8 players, every preset of this release and mixes of options.

Each example plays one whole hand with random legal moves and checks, at every step, that
cards are conserved, that exactly one seat may move (or a claim window is open), that the
list of legal moves is exact, that a refused move changes nothing, and that views hide what
they must; at the end, that the hand ended, replays identically, stores and loads, and scores
melded minus in-hand card by card.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    JOKER,
    OPTIONS,
    PRESETS,
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    Discard,
    DrawStock,
    Float,
    HandState,
    IllegalAction,
    LayOff,
    Meld,
    PassClaim,
    Phase,
    Rules,
    SwitchJoker,
    TakeDiscard,
    actions_from_history,
    apply,
    canonical,
    deal_from_view,
    hand_result,
    legal_actions,
    make_rules,
    new_hand,
    replay,
    state_from_json,
    state_to_json,
    view,
)
from games.engine.duties import take_depths
from games.engine.going_out import can_go_out_this_turn
from games.engine.oklahoma import everyone_passed
from games.engine.transitions import exec_take
from tests.engine.helpers import all_cards, movers

SWITCHES = (
    "top_discard_free",
    "deepest_card_new_meld",
    "boathouse",
    "floating",
    "stock_refill",
    "rummy_call",
    "rummy_last_discard_only",
    "thirty_point_rule",
    "discards_displayed",
    "group_suits_distinct",
    "pip5_scoring",
)
MAX_STEPS = 4000


@st.composite
def tables(draw: st.DrawFn, presets: tuple[str, ...] = ()) -> tuple[Rules, int, int]:
    """A playable table: preset, player count, a mix of options and the hand's seed."""
    preset = draw(st.sampled_from(sorted(presets or PRESETS)))
    info = PRESETS[preset]
    players = draw(st.integers(info.min_players, info.max_players))
    options = {name: draw(st.booleans()) for name in SWITCHES}
    if options["rummy_last_discard_only"]:
        options["rummy_call"] = True
    if preset == "rummy-school":
        options["stock_refill"] = options["pip5_scoring"] = False
    if preset == "persian":
        options["thirty_point_rule"] = options["pip5_scoring"] = False
    if preset == "michigan":
        options["rummy_call"] = options["rummy_last_discard_only"] = False
        options["thirty_point_rule"] = False
    for name, _reason in info.fixed_options:
        options[name] = OPTIONS[name].default_for(preset)
    if not options["rummy_call"]:
        options["rummy_last_discard_only"] = False
    seed = draw(st.integers(0, 2**64 - 1))
    return make_rules(preset, **options), players, seed


def candidates(state: HandState, seat: int, rng: random.Random) -> list[object]:
    """Moves worth trying: the legal ones and near misses of every kind."""
    hand = list(state.hands[seat]) if seat >= 0 else []
    pool = [*hand, "7H", "AS", JOKER, "KD"]
    tries: list[object] = [
        DrawStock(seat),
        TakeDiscard(seat, rng.randrange(len(state.discard) + 2)),
        Discard(seat, rng.choice(pool)),
        DeclineDraw(seat),
        Float(seat),
        PassClaim(seat),
        ClaimRummy(seat, rng.randrange(3)),
        CloseClaims(),
        Discard((seat + 1) % state.num_seats, rng.choice(pool)),
    ]
    if len(hand) >= 3:
        chosen = rng.sample(hand, rng.randint(3, min(5, len(hand))))
        tries.append(Meld(seat, tuple(chosen)))
        tries.append(Meld(seat, tuple(sorted(chosen))))
        if JOKER in chosen:
            reading = tuple(rng.choice(["9*", "8C", "AS"]) if c == JOKER else c for c in chosen)
            tries.append(Meld(seat, tuple(chosen), reading))
    for meld in state.melds:
        card = rng.choice(pool)
        tries.append(LayOff(seat, card, meld.id))
        tries.append(LayOff(seat, card, meld.id, rng.choice(["4H", "9*", card])))
        tries.append(LayOff(seat, card, meld.id, None, rng.choice(["low", "high", "top"])))
        tries.append(SwitchJoker(seat, card, meld.id))
    return tries


def check_exactness(state: HandState, seat: int, rng: random.Random) -> None:
    """Listed moves apply; another move applies only as a listed move spelled differently."""
    listed = legal_actions(state, seat)
    for action in listed:
        apply(state, action)
    before = state_to_json(state)
    for action in candidates(state, seat, rng):
        try:
            form = canonical(state, action)  # type: ignore[arg-type]
        except IllegalAction as refusal:
            assert refusal.reason
            assert action not in legal_actions(state, getattr(action, "seat", seat))
            continue
        assert form in legal_actions(state, form.seat), (action, form)
        apply(state, action)  # type: ignore[arg-type]
    assert state_to_json(state) == before


def check_takes(state: HandState, seat: int) -> None:
    """A depth is offered exactly when the taker then has a legal move (never stuck)."""
    if state.phase not in (Phase.DRAW, Phase.OFFER) or state.floating_turn:
        return
    offered = set(take_depths(state, seat))
    depths = range(len(state.discard))
    if state.rules.spec.take_top_takes_pile:
        if everyone_passed(state):
            assert not offered
            return
        depths = range(min(1, len(state.discard)))  # the top card, and the pile with it
    for depth in depths:
        after = exec_take(state, TakeDiscard(seat, depth), None, [])
        assert (depth in offered) == bool(legal_actions(after, seat)), depth


def check_view(state: HandState, seat: int, rng: random.Random) -> None:
    """The seat's view is the same whatever the hidden cards are."""
    shown = view(state, seat)
    json.dumps(shown)
    for trial in range(2):
        rebuilt = deal_from_view(shown, random.Random(rng.random() + trial))
        assert view(rebuilt, seat) == shown
        assert all_cards(rebuilt) == all_cards(state)


def reference_in_hand(rules: Rules, card: str) -> int:
    """Card values left in hand, written out again from the rule documents."""
    if rules.preset == "five-thousand":
        return 0  # whoever goes out scores them instead
    if rules.preset.startswith("oklahoma"):
        if card == JOKER:
            return 200
        if card == "QS":
            return 100
        if card[0] in "A2":
            return 20
        return 10 if card[0] in "89TJQK" else 5
    if card == JOKER and rules.preset == "persian":
        return 20
    if card == JOKER or card[0] == "A":
        return 15
    if rules.pip5_scoring:
        return 5 if card[0] in "23456789" else 10
    return 10 if card[0] in "TJQK" else int(card[0])


@settings(deadline=None)
@given(tables())
def test_random_legal_play_keeps_every_invariant(table: tuple[Rules, int, int]) -> None:
    check_random_hand(table)


@settings(deadline=None, max_examples=40)
@given(tables(("persian", "throw-down", "michigan")))
def test_random_legal_play_keeps_every_invariant_in_the_presets_of_issue_6a(
    table: tuple[Rules, int, int],
) -> None:
    check_random_hand(table)


def check_random_hand(table: tuple[Rules, int, int]) -> None:
    """One whole hand of random legal play, checked at every step and at the end."""
    rules, players, seed = table
    rng = random.Random(seed)
    state = new_hand(rules, players, seed % players, seed=seed)
    deck = Counter(rules.deck(players))
    steps = 0
    while state.phase is not Phase.HAND_OVER:
        assert all_cards(state) == deck
        if state.phase is Phase.CLAIM:
            assert state.to_act and state.claim and state.claim.discarder not in state.to_act
        else:
            assert state.to_act == (state.current,)
        seats = movers(state)
        seat = rng.choice(seats)
        options = legal_actions(state, seat)
        assert options, (state, seat)
        if state.phase is Phase.PLAY and state.locked and state.hands[seat] == (state.locked,):
            assert can_go_out_this_turn(state, seat)  # Ruling 18: only a way out leaves it alone
        idle = [other for other in range(players) if other not in seats]
        if idle:
            assert legal_actions(state, rng.choice(idle)) == []
        if steps % 6 == 0:
            check_exactness(state, seat, rng)
            check_takes(state, seat)
        if steps % 12 == 0:
            check_view(state, rng.randrange(players), rng)
        state, events = apply(state, rng.choice(options))
        assert events
        steps += 1
        assert steps < MAX_STEPS, "the hand did not end"
    assert state.to_act == () and state.end is not None
    assert all_cards(state) == deck
    assert actions_from_history(state.history) == state.actions
    assert (
        replay(
            list(state.actions),
            rules=rules,
            num_seats=players,
            dealer=state.dealer,
            totals=state.totals,
            seed=state.seed,
        )
        == state
    )
    assert state_from_json(json.loads(json.dumps(state_to_json(state)))) == state
    result = hand_result(state)
    table_total = sum(len(meld.cards) for meld in state.melds) + len(state.fronts)
    assert sum(len([line for line in seat.lines if line.points >= 0]) for seat in result.seats) >= 0
    assert (
        sum(
            1
            for seat in result.seats
            for line in seat.lines
            if not line.reason.startswith("left in hand")
        )
        == table_total
    )
    for seat in result.seats:
        assert seat.score == seat.melded - seat.in_hand + seat.bonus
        if seat.bonus:
            assert state.end.reason == "went_out" and state.end.seat == seat.seat
        if not (rules.spec.concealed_going_out_bonus or rules.spec.in_hand_to_winner):
            going_out = rules.spec.going_out_bonus if seat.seat == result.went_out else 0
            assert seat.bonus == going_out
        assert seat.in_hand == sum(
            reference_in_hand(rules, card) for card in state.hands[seat.seat]
        )
        melded_cards = [
            card
            for meld in state.melds
            for card, owner in zip(meld.cards, meld.owners, strict=True)
            if owner == seat.seat
        ] + [card for owner, card, _meld in state.fronts if owner == seat.seat]
        played = [line.card for line in seat.lines if not line.reason.startswith("left in hand")]
        assert sorted(played) == sorted(melded_cards)
        if rules.spec.partnerships:
            side = next(side for side in result.sides if seat.seat in side.seats)
            assert seat.total_after == side.total_after
            partners = sum(result.seats[other].counted for other in side.seats)
            assert side.total_after == side.total_before + partners + side.game_bonus
        else:
            assert seat.total_after == seat.total_before + seat.counted


@settings(deadline=None)
@given(tables(), st.integers(0, 300))
def test_a_state_part_way_through_stores_replays_and_views_identically(
    table: tuple[Rules, int, int], stop: int
) -> None:
    rules, players, seed = table
    rng = random.Random(seed)
    state = new_hand(rules, players, seed % players, seed=seed)
    for _ in range(stop):
        if state.phase is Phase.HAND_OVER:
            break
        seat = rng.choice(movers(state))
        state, _events = apply(state, rng.choice(legal_actions(state, seat)))
    assert state_from_json(json.loads(json.dumps(state_to_json(state))), verify=True) == state
    for seat in range(players):
        check_view(state, seat, rng)
    check_view(state, None, rng)  # type: ignore[arg-type]
