"""The table page as a table top: seats around it, melds by owner, the pile, the messages.

Template and presenter tests of issue 19's table: what each seat is shown, and that the
page offers only moves the engine allows and says why when it refuses.
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import engine, selectors
from games.models import Hand, Seat, Table
from games.services import moves, shared, tables, turn_clock
from games.table import display, presenters
from tests.games.conftest import redeal, start_table

NAMES = ["Alice", "Medium bot 2", "Medium bot 3"]


def dealt(seats: int = 3, dealer: int = 2, **hands) -> engine.HandState:
    rules = engine.make_rules("standard")
    deck = engine.stack_deck(
        rules, seats, dealer, hands={int(k[1:]): v for k, v in hands.items()}, upcard="9S"
    )
    return engine.new_hand(rules, seats, dealer, deck=deck)


def play(state: engine.HandState, *actions: engine.Action) -> engine.HandState:
    for action in actions:
        state, _ = engine.apply(state, action)
    return state


def legal_of(state: engine.HandState, seat: int) -> list[dict]:
    return [engine.action_to_json(a) for a in engine.legal_actions(state, seat)]


# --- around the table ------------------------------------------------------------------------


def test_the_other_seats_sit_in_playing_order_after_mine_and_mine_is_apart():
    rows = [{"index": i, "name": f"P{i}"} for i in range(4)]
    others, me = display.around_the_table(rows, 2)
    assert [r["index"] for r in others] == [3, 0, 1]
    assert me["index"] == 2
    everyone, nobody = display.around_the_table(rows, None)
    assert [r["index"] for r in everyone] == [0, 1, 2, 3] and nobody is None


def test_melds_are_grouped_by_owner_under_the_full_name_and_lay_offs_carry_a_seat_token():
    state = dealt(s0=["9C", "9D", "2S", "KD", "5H", "6H", "7H"], s1=["8H", "3C"])
    state = play(
        state,
        engine.TakeDiscard(0, 0),
        engine.Meld(0, ("9C", "9D", "9S")),
        engine.Meld(0, ("5H", "6H", "7H")),
        engine.Discard(0, "2S"),
        engine.DrawStock(1),
        engine.LayOff(1, "8H", 2),
    )
    melds = display.table_melds(engine.view(state, 1), NAMES)
    groups = display.melds_by_owner(melds, NAMES, 1)
    assert [(g["name"], [m["id"] for m in g["melds"]]) for g in groups] == [("Alice", [1, 2])]
    laid_off = groups[0]["melds"][1]["cards"][-1]
    # The 8♥ scored by "Medium bot 2" shows its seat's token, never an initial ("M" twice).
    assert 'class="pcard-owner" aria-hidden="true" title="Medium bot 2">2<' in laid_off["html"]
    own = groups[0]["melds"][1]["cards"][0]
    assert "pcard-owner" not in own["html"]
    assert "scored by Alice" in own["html"]


def test_a_card_laid_off_below_a_run_leaves_the_meld_with_who_laid_it_down():
    """The 4♥ laid off by seat 1 becomes the run's first card: the meld stays in Alice's
    group, her cards unmarked, the 4♥ marked with seat 1's token (it once moved the whole
    meld to seat 1 and marked Alice's cards instead)."""
    state = dealt(s0=["9C", "9D", "2S", "KD", "5H", "6H", "7H"], s1=["4H", "3C"])
    state = play(
        state,
        engine.TakeDiscard(0, 0),
        engine.Meld(0, ("9C", "9D", "9S")),
        engine.Meld(0, ("5H", "6H", "7H")),
        engine.Discard(0, "2S"),
        engine.DrawStock(1),
        engine.LayOff(1, "4H", 2),
    )
    assert state.melds[1].owners[0] == 1  # the engine credits the 4♥ to seat 1
    melds = display.table_melds(engine.view(state, 1), NAMES)
    groups = display.melds_by_owner(melds, NAMES, 1)
    assert [(g["name"], [m["id"] for m in g["melds"]]) for g in groups] == [("Alice", [1, 2])]
    run = groups[0]["melds"][1]["cards"]
    assert ">2</span>" in run[0]["html"] and "scored by Medium bot 2" in run[0]["html"]
    assert all("pcard-owner" not in c["html"] for c in run[1:])


def test_my_melds_come_first_then_the_others_in_playing_order():
    melds = [
        {"id": 1, "owner": 0, "owner_name": "A", "cards": []},
        {"id": 2, "owner": 2, "owner_name": "C", "cards": []},
        {"id": 3, "owner": 1, "owner_name": "B", "cards": []},
    ]
    groups = display.melds_by_owner(melds, ["A", "B", "C"], 1)
    assert [g["seat"] for g in groups] == [1, 2, 0]
    assert groups[0]["is_me"]


def test_lay_off_here_is_offered_only_on_melds_the_legal_moves_name():
    melds = [
        {"id": 1, "owner": 0, "owner_name": "A", "cards": []},
        {"id": 2, "owner": 1, "owner_name": "B", "cards": []},
    ]
    legal = [{"type": "lay_off", "card": "8H", "meld": 1}, {"type": "discard", "card": "8H"}]
    groups = display.melds_by_owner(melds, ["A", "B"], 0, legal)
    offered = {m["id"]: m["can_lay_off"] for g in groups for m in g["melds"]}
    assert offered == {1: True, 2: False}


# --- the message bar offers only possible moves -------------------------------------------


def test_the_status_line_offers_the_pile_only_when_a_pile_card_can_be_taken():
    state = dealt(s0=["2C", "4D", "6S", "8C", "TD", "QC", "KH"])  # nothing uses the 9♠
    legal = legal_of(state, 0)
    assert not any(a["type"] == "take_discard" for a in legal)
    line = display.status_text(engine.view(state, 0), NAMES, 0, legal)
    assert line == "Your turn: draw from the stock."
    both = [{"type": "draw_stock"}, {"type": "take_discard", "depth": 0}]
    assert "or take from the pile" in display.status_text(engine.view(state, 0), NAMES, 0, both)
    only_pile = [{"type": "take_discard", "depth": 0}]
    assert display.status_text(engine.view(state, 0), NAMES, 0, only_pile) == (
        "Your turn: take from the pile (the stock is empty)."
    )


def test_the_hand_end_line_does_not_say_the_hand_is_over_twice():
    said = "Alice went out; the hand is over"
    assert display.hand_end_line(said, "The hand is over.") == ""
    assert display.hand_end_line("Bob drew", "Your turn: draw.") == "Your turn: draw."


def test_clicking_a_pile_card_that_cannot_be_taken_has_a_reason():
    state = dealt(s0=["2C", "4D", "6S", "8C", "TD", "QC", "KH"])
    view = engine.view(state, 0)
    assert "draw from the stock" in display.pile_refusal(view, legal_of(state, 0))
    assert display.pile_refusal(engine.view(state, 1), []) == "It is not your turn."
    assert display.pile_refusal(engine.view(state, None), []).startswith("You are watching")
    drawn = play(state, engine.DrawStock(0))
    assert "drawn already" in display.pile_refusal(engine.view(drawn, 0), legal_of(drawn, 0))


def test_taking_only_the_top_card_is_marked_as_bringing_nothing():
    state = dealt(s0=["9C", "9D", "2S", "KD", "5H", "6H", "7H"])
    pile = display.discard_pile(engine.view(state, 0), legal_of(state, 0))
    assert 'data-brings="0"' in pile[-1]["button_html"]


def test_the_history_keeps_counting_when_old_lines_are_dropped():
    view = {"history": [{}] * 20}
    assert display.log_start(view, limit=14) == 7
    assert display.log_start({"history": [{}] * 3}, limit=14) == 1


def test_an_oklahoma_refusal_names_the_meld_owner_instead_of_a_seat_number():
    message = "In this game you lay off only on your own melds; meld 1 belongs to seat 1."
    named = display.named_seats(message, ["Alice", "Bob"])
    assert named.endswith("meld 1 belongs to Bob.")
    html = presenters.error_html("illegal", message, ["Alice", "Bob"])
    assert "belongs to Bob" in html and "seat 1" not in html


# --- the page and its fragments ---------------------------------------------------------------


def test_the_live_fragment_draws_the_table_top_for_a_seat(alice):
    table = start_table(alice, seats=4)
    html = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    seats = re.search(r'<section id="players".*?</section>', html, re.S).group(0)
    # The other three, in playing order after Alice; Alice's own seat is by her hand.
    assert re.findall(r'class="player[^"]*" data-seat="(\d)"', seats) == ["1", "2", "3"]
    hand = re.search(r'<section id="my-hand".*?</section>', html, re.S).group(0)
    assert "Your hand" in hand and 'class="seat-token"' in hand
    assert 'id="seat-tools"' in html and "Leave" in html  # in the fragment: live after a start
    assert 'id="pile"' in html and "stock-back" in html


def test_leave_the_game_reaches_a_page_loaded_before_the_start(alice, bob):
    table = tables.table_create(
        host=alice, name="T", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_set_bot(table_id=table.pk, by=alice, index=1, level="easy")
    waiting = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    assert 'class="leave-form"' not in waiting  # the waiting room has its own "Leave"
    tables.table_start(table_id=table.pk, by=alice)
    started = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    leave = re.search(r'<form [^>]*class="leave-form"', started).group(0)
    assert reverse("seat_leave", args=[table.pk]) in leave


def test_after_leaving_the_page_shows_no_turn_and_no_move_buttons(alice):
    table = start_table(alice, seats=2)
    redeal(table, dealer=1, seed=3)  # Alice (seat 0) plays first
    snap = selectors.load_snapshot(table.pk)
    assert "Your turn" in presenters.state_html(snap, 0, alice)
    tables.seat_leave(table_id=table.pk, user=alice)
    html = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    assert "Your turn" not in html
    assert 'id="draw-button"' not in html and 'id="meld-button"' not in html
    assert 'class="hand-card' not in html
    assert 'data-my-turn="false"' in html


def _finish_hand(table: Table, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(2000):
        snap = selectors.load_snapshot(table.pk)
        if snap.hand.status == Hand.Status.OVER:
            return
        seat = snap.state.to_act[0]
        action = rng.choice(engine.legal_actions(snap.state, seat))
        moves.move_submit(
            table_id=table.pk,
            seat=seat,
            action=engine.action_to_json(action),
            expected_version=snap.version,
        )
    pytest.fail("the hand did not end")


def test_the_hand_summary_stays_after_the_next_deal_with_its_figures(alice):
    table = start_table(alice, seats=2)
    _finish_hand(table)
    over = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    summary = re.search(r'<section id="hand-end".*?</section>', over, re.S).group(0)
    assert "hidden>" not in summary.split("\n")[0]
    assert "Ready for the next hand" in summary
    assert "went out" in summary or "in hand" in summary
    tables.hand_next(table_id=table.pk)
    later = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    kept = re.search(r'<section id="hand-end".*?</section>', later, re.S).group(0)
    assert "Hand 1 is over" in kept and 'data-hand-key="' in kept
    assert "Ready for the next hand" not in kept
    assert "breakdown-card" not in kept  # the old hand's cards would read as this hand's


# --- Ready between hands ----------------------------------------------------------------------


@pytest.fixture
def two_people(alice, bob) -> Table:
    table = tables.table_create(
        host=alice, name="Pair", preset="standard", options={}, num_seats=2, turn_seconds=60
    )
    tables.seat_join(table_id=table.pk, user=bob)
    tables.table_start(table_id=table.pk, by=alice)
    Seat.objects.filter(table=table).update(present_until=timezone.now() + timedelta(minutes=5))
    selectors.clear_cache()
    return table


def _hands(table: Table) -> int:
    return Hand.objects.filter(game__table=table).count()


def test_the_pause_ends_when_every_connected_person_is_ready(two_people, alice, bob):
    _finish_hand(two_people)
    assert tables.hand_ready(table_id=two_people.pk, user=alice) is False
    assert _hands(two_people) == 1  # Bob has not said so yet
    assert tables.hand_ready(table_id=two_people.pk, user=bob) is True
    assert _hands(two_people) == 2


def test_a_disconnected_person_does_not_hold_up_the_ready(two_people, alice):
    _finish_hand(two_people)
    Seat.objects.filter(table=two_people, index=1).update(present_until=None)
    assert tables.hand_ready(table_id=two_people.pk, user=alice) is True
    assert _hands(two_people) == 2


def test_ready_is_refused_while_a_hand_is_played(two_people, alice):
    with pytest.raises(shared.TableError) as refused:
        tables.hand_ready(table_id=two_people.pk, user=alice)
    assert refused.value.code == "not_between_hands"
    assert _hands(two_people) == 1


def test_the_pause_still_ends_by_itself_whatever_anyone_pressed(two_people, alice):
    _finish_hand(two_people)
    tables.hand_ready(table_id=two_people.pk, user=alice)
    table = Table.objects.get(pk=two_people.pk)
    # The armed task (or the sweeper) deals at the pause's end with the version it was armed
    # for: pressing Ready did not move the version, so that deal still happens.
    assert tables.hand_next(table_id=table.pk, expected_version=table.version) is not None


def test_ready_is_not_a_score_figure_in_the_state_frame(two_people, alice):
    _finish_hand(two_people)
    tables.hand_ready(table_id=two_people.pk, user=alice)
    selectors.clear_cache()
    sheet = presenters.score_sheet(selectors.load_snapshot(two_people.pk))
    assert "ready" not in sheet[0]["result"]


def test_the_ready_button_posts_to_the_ready_view(two_people, alice, client):
    _finish_hand(two_people)
    client.force_login(alice)
    response = client.post(reverse("hand_ready", args=[two_people.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    assert Hand.objects.filter(game__table=two_people).order_by("number").first().result[
        "ready"
    ] == [0]


def test_the_pause_has_one_definition(settings):
    from games import tasks
    from games.services import clock

    settings.HAND_PAUSE_SECONDS = 5
    assert clock.hand_pause_s() == tasks.hand_pause_seconds() == tables.hand_pause_seconds() == 5


def test_a_first_timeout_tells_the_player_a_move_was_made_for_them(alice):
    from datetime import timedelta

    table = start_table(alice, seats=2)
    redeal(table, dealer=1)  # Alice to move
    table.refresh_from_db()
    before = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    assert "time ran out" not in before
    late = table.due_at + timedelta(seconds=1)
    assert turn_clock.clock_expired(table_id=table.pk, version=table.version, now=late)
    html = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    state_bar = re.search(r'<div id="table-state".*?</div>', html, re.S).group(0)
    assert "The clock ran out: it drew for you and discarded the " in state_bar
    assert not Seat.objects.get(table=table, index=0).autoplay  # only the second hands it on


def test_oklahoma_offers_lay_off_here_only_on_the_players_own_melds(alice):
    from games.services import bot_turns

    table = start_table(alice, seats=2, preset="oklahoma")
    rng = random.Random(11)
    checked = 0
    for _ in range(3000):
        table.refresh_from_db()
        snap = selectors.load_snapshot(table.pk)
        if table.status != Table.Status.PLAYING or checked >= 5:
            break
        if snap.hand.status == Hand.Status.OVER:
            tables.hand_next(table_id=table.pk)
            continue
        state = snap.state
        theirs = [m.id for m in state.melds if m.owners[0] != 0]
        if state.to_act == (0,) and state.phase == engine.Phase.PLAY and theirs:
            html = presenters.state_html(snap, 0, alice)
            offered = {int(n) for n in re.findall(r"Lay off here<span[^>]*> on meld (\d+)", html)}
            assert not offered & set(theirs), (offered, theirs)
            checked += 1
        if not bot_turns.play_one(table.pk, table.version, rng=rng):
            seat = state.to_act[0]
            action = rng.choice(engine.legal_actions(state, seat))
            moves.move_submit(
                table_id=table.pk,
                seat=seat,
                action=engine.action_to_json(action),
                expected_version=snap.version,
            )
    assert checked >= 1, "no position with an opponent's meld on Alice's turn"


def test_an_empty_discard_pile_says_so(alice):
    """Once the only pile card is taken, the heading read "Discard pile (0, top card last)"."""
    table = start_table(alice, seats=2)
    rules = engine.Rules.from_json(table.rules)
    deck = engine.stack_deck(
        rules, 2, 1, hands={0: ["9C", "9D", "2S", "KD", "5H", "6H", "7H"]}, upcard="9S"
    )
    redeal(table, dealer=1, deck=deck)
    outcome = moves.move_submit(
        table_id=table.pk,
        seat=0,
        action={"type": "take_discard", "depth": 0},
        expected_version=table.version,
    )
    html = presenters.state_html(selectors.load_snapshot(table.pk, outcome.version), 0, alice)
    heading = re.search(r'<h2 id="pile-heading".*?</h2>', html, re.S).group(0)
    assert "(empty)" in heading and "0," not in heading
