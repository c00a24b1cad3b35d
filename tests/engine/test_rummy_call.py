"""Option rummy_call: claiming a playable discard during the claim window (Ruling 11)."""

import pytest

from games.engine import (
    ClaimRummy,
    CloseClaims,
    Discard,
    DrawStock,
    IllegalAction,
    LayOff,
    Meld,
    PassClaim,
    Phase,
    apply,
    legal_actions,
    view,
)
from tests.engine.helpers import arrange, kinds, play


def after_discard(card="8H", discard="2D", **options):
    options.setdefault("rummy_call", True)
    state = arrange(
        hands={1: "8H 2C KS QD 3S 4D 7D", 2: "9H TH JH 5S 6S 7C 2S"},
        melds=[(0, "5H 6H 7H")],
        discard=discard,
        phase="play",
        **options,
    )
    return apply(state, Discard(1, card))


def test_a_playable_discard_opens_a_window_for_every_other_player():
    state, events = after_discard()
    assert state.phase is Phase.CLAIM
    assert state.to_act == (2, 3, 0)
    assert state.claim.depths == (0,) and state.claim.discarder == 1
    assert kinds(events) == ["discard", "claim_window"]
    assert legal_actions(state, 2) == [ClaimRummy(2, 0), PassClaim(2)]
    assert legal_actions(state, -1) == [CloseClaims()]
    assert legal_actions(state, 1) == []
    assert view(state, 3)["claim"] == {"discarder": 1, "depths": [0], "next": 2}


def test_an_unplayable_discard_opens_no_window():
    state, events = after_discard(card="KS")
    assert state.phase is Phase.DRAW and state.to_act == (2,)
    assert "claim_window" not in kinds(events)


def test_without_the_option_there_is_no_window():
    state, _events = after_discard(rummy_call=False)
    assert state.phase is Phase.DRAW


def test_when_everyone_passes_the_next_player_draws():
    state, _events = after_discard()
    state = play(state, PassClaim(2), PassClaim(0))
    assert state.phase is Phase.CLAIM and state.to_act == (3,)
    with pytest.raises(IllegalAction, match="already passed"):
        apply(state, PassClaim(2))
    state = play(state, PassClaim(3))
    assert state.phase is Phase.DRAW and state.to_act == (2,)


def test_the_table_clock_closes_the_window():
    state, _events = after_discard()
    with pytest.raises(IllegalAction, match="Only the table clock"):
        apply(state, CloseClaims(2))
    state, events = apply(state, CloseClaims())
    assert kinds(events) == ["close_claims"]
    assert state.phase is Phase.DRAW and state.to_act == (2,)


def test_nobody_may_move_on_while_the_window_is_open():
    state, _events = after_discard()
    with pytest.raises(IllegalAction, match="may still call Rummy"):
        apply(state, DrawStock(2))


def test_the_discarder_may_not_call_rummy_on_their_own_discard():
    state, _events = after_discard()
    with pytest.raises(IllegalAction, match="your own discard"):
        apply(state, ClaimRummy(1, 0))


def test_the_caller_uses_the_card_melds_more_discards_and_play_moves_on_from_the_caller():
    state, _events = after_discard()
    state, events = apply(state, ClaimRummy(3, 0))
    assert kinds(events) == ["claim_rummy"]
    assert state.phase is Phase.PLAY and state.to_act == (3,)
    assert state.obligation.card == "8H" and state.obligation.source == "claim"
    with pytest.raises(IllegalAction, match="called Rummy on the 8♥"):
        apply(state, Discard(3, "8H"))
    state = play(state, LayOff(3, "8H", 1))
    discard = next(a for a in legal_actions(state, 3) if isinstance(a, Discard))
    state = play(state, discard)
    assert state.phase in (Phase.DRAW, Phase.CLAIM)
    if state.phase is Phase.CLAIM:
        state = play(state, CloseClaims())
    assert state.to_act == (0,)


def test_the_first_claim_wins():
    state, _events = after_discard()
    state = play(state, ClaimRummy(0, 0))
    with pytest.raises(IllegalAction, match="right after a discard"):
        apply(state, ClaimRummy(2, 0))


def test_rummy_may_be_called_on_top_cards_that_meld_on_their_own():
    state, _events = after_discard(card="7D", discard="KC 5D 6D")
    assert state.claim.depths == (2,)
    state = play(state, ClaimRummy(2, 2))
    assert state.hands[2][-3:] == ("5D", "6D", "7D")
    assert Meld(2, ("5D", "6D", "7D")) in legal_actions(state, 2)


def test_a_claim_on_a_card_that_cannot_be_played_is_refused():
    state, _events = after_discard(discard="KC")
    with pytest.raises(IllegalAction, match="Rummy cannot be called"):
        apply(state, ClaimRummy(2, 1))


def test_with_last_discard_only_the_caller_lays_it_off_and_the_turn_returns():
    state, _events = after_discard(rummy_last_discard_only=True)
    assert legal_actions(state, 3) == [ClaimRummy(3, 0), PassClaim(3)]
    state = play(state, ClaimRummy(3, 0))
    assert legal_actions(state, 3) == [LayOff(3, "8H", 1)]
    with pytest.raises(IllegalAction, match="lay it off"):
        apply(state, Discard(3, state.hands[3][0]))
    state, _events = apply(state, LayOff(3, "8H", 1))
    assert state.phase is Phase.DRAW and state.to_act == (2,)
    assert state.melds[0].owners[-1] == 3


def test_with_last_discard_only_buried_cards_cannot_be_claimed():
    state, _events = after_discard(card="7D", discard="KC 5D 6D", rummy_last_discard_only=True)
    assert state.phase is Phase.DRAW
    state, _events = after_discard(rummy_last_discard_only=True)
    with pytest.raises(IllegalAction, match="latest discard"):
        apply(state, ClaimRummy(2, 1))
