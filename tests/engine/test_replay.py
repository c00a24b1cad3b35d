"""The hand record: one line per move, readable, and replayed into the identical state."""

import pytest

from games.engine import (
    ClaimRummy,
    CloseClaims,
    DeclineDraw,
    Discard,
    DrawStock,
    Float,
    FormatError,
    LayOff,
    Meld,
    PassClaim,
    SwitchJoker,
    TakeDiscard,
    action_to_json,
    hand_record,
    make_rules,
    new_hand,
    parse_record,
    replay,
    stack_deck,
)
from games.engine.records import parse_move
from tests.engine.helpers import play, play_out


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [
        ("standard", 4, {}),
        ("jokers", 2, {"rummy_call": True}),
        ("classic", 6, {"stock_refill": True, "floating": True}),
        ("rummy-school", 3, {"thirty_point_rule": True, "discards_displayed": True}),
    ],
)
def test_a_record_replays_into_the_identical_state(preset, players, options):
    state = play_out(preset, players, seed=21, **options)
    assert replay(hand_record(state)) == state


def test_a_record_reads_like_a_score_sheet():
    state = play_out("standard", 3, seed=1)
    text = hand_record(state, names=["Ann", "Ben", "Cleo"])
    lines = text.splitlines()
    assert lines[0] == '[Engine "rummy500 record 1"]'
    assert '[Preset "standard"]' in lines and '[Seats "3"]' in lines
    assert f'[Seed "{state.seed}"]' in lines
    assert '[Names "Ann | Ben | Cleo"]' in lines
    first_move = next(line for line in lines if line.startswith("1. "))
    first = (state.dealer + 1) % 3
    name = ["Ann", "Ben", "Cleo"][first]
    assert first_move.startswith(f"1. s{first} ") and first_move.split("; ")[1].startswith(name)
    assert lines[-1].startswith("; ") and "hand is over" in lines[-1]
    assert len([line for line in lines if line[:1].isdigit()]) == len(state.actions)


def test_a_hand_from_an_explicit_deck_records_the_deck():
    rules = make_rules()
    deck = stack_deck(rules, 2, 0, hands={1: ["5H", "6H", "7H"]})
    state = play(new_hand(rules, 2, 0, seed=5, deck=deck), DrawStock(1))
    record = hand_record(state)
    assert "[Deck " in record
    assert replay(record) == state


def test_moves_and_their_setup_replay_without_a_record():
    state = play_out("jokers", 4, seed=8)
    again = replay(
        list(state.actions),
        rules=state.rules,
        num_seats=4,
        dealer=state.dealer,
        totals=state.totals,
        seed=state.seed,
    )
    assert again == state
    stored = [{"seat": action.seat, **action_to_json(action)} for action in state.actions]
    assert (
        replay(stored, rules=state.rules, num_seats=4, dealer=state.dealer, seed=state.seed)
        == state
    )


def test_replaying_moves_needs_the_setup():
    with pytest.raises(FormatError, match="needs the rules"):
        replay([DrawStock(1)])


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("s1 draw", DrawStock(1)),
        ("s2 take 3", TakeDiscard(2, 3)),
        ("s0 meld 5H 6H 7H", Meld(0, ("5H", "6H", "7H"))),
        ("s0 meld 9D JK JK = 9D TD JD", Meld(0, ("9D", "JK", "JK"), ("9D", "TD", "JD"))),
        ("s3 layoff 8H 2", LayOff(3, "8H", 2)),
        ("s3 layoff JK 2 = 4H", LayOff(3, "JK", 2, "4H")),
        ("s1 switch 8C 1", SwitchJoker(1, "8C", 1)),
        ("s1 discard 9C", Discard(1, "9C")),
        ("s2 rummy 0", ClaimRummy(2, 0)),
        ("s2 pass", PassClaim(2)),
        ("clock close", CloseClaims()),
        ("s0 decline", DeclineDraw(0)),
        ("s0 float", Float(0)),
    ],
)
def test_every_move_has_a_one_line_form(text, action):
    assert parse_move(text) == action


@pytest.mark.parametrize(
    "text", ["draw", "s1 fly", "s1 take", "s1 take x", "s1 layoff 8H 2 4H", "x1 draw", "s1 draw 2"]
)
def test_an_unreadable_move_is_refused(text):
    with pytest.raises(FormatError, match="Cannot read the move"):
        parse_move(text)


def test_a_broken_record_is_refused_with_the_reason():
    record = hand_record(play_out("standard", 3, seed=1))
    with pytest.raises(FormatError, match="out of sequence"):
        parse_record(record.replace("\n2. ", "\n7. "))
    with pytest.raises(FormatError, match="Cannot read the line"):
        parse_record(record + "nonsense\n")
    with pytest.raises(FormatError, match="Not a rummy500 hand record"):
        parse_record(record.replace("record 1", "record 9"))
    with pytest.raises(FormatError, match="lacks the Seed tag"):
        parse_record("\n".join(line for line in record.splitlines() if "Seed" not in line))
    with pytest.raises(FormatError, match="tags are not valid"):
        parse_record(record.replace('[Preset "standard"]', '[Preset "poker"]'))
    with pytest.raises(FormatError, match="Options tag"):
        parse_record(record.replace('[Options "{}"]', '[Options "[]"]'))


def test_a_record_with_an_illegal_move_names_the_move():
    state = play_out("standard", 3, seed=1)
    first = (state.dealer + 1) % 3
    record = hand_record(state)
    broken = record.replace(f"1. s{first} draw", f"1. s{first} discard AS", 1)
    with pytest.raises(FormatError, match=rf"Move 1 \(s{first} discard AS\) does not apply"):
        replay(broken)


def test_a_record_with_a_bad_setup_is_refused():
    record = hand_record(play_out("standard", 3, seed=1))
    with pytest.raises(FormatError, match="setup is not valid"):
        replay(record.replace('[Dealer "', '[Dealer "9', 1))
