"""Turn clocks, claim windows, timeouts, disconnects and "I'm back", with a controlled clock."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from games import engine, selectors
from games.engine.scoring import in_hand_line
from games.models import Move, Seat, Table
from games.services import clock, presence, shared, tables, turn_clock
from games.services import moves as moves_service
from games.services.timeouts import timeout_action
from tests.games.conftest import redeal, start_table


def _late(table: Table, seconds: float = 1) -> object:
    table.refresh_from_db()
    return table.due_at + timedelta(seconds=seconds)


@pytest.fixture
def alice_first(alice) -> Table:
    """Alice (seat 0) against one bot, Alice to move, 60 s a turn."""
    table = start_table(alice, seats=2)
    redeal(table, dealer=1)
    return table


def test_a_persons_turn_has_a_deadline_in_the_database(alice_first):
    table = alice_first
    assert table.due_kind == clock.CLOCK
    assert 55 <= clock.seconds_left(table) <= 60


def test_the_deadline_holds_for_the_whole_turn(alice_first):
    table = alice_first
    deadline = table.due_at
    moves_service.move_submit(
        table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=table.version
    )
    table.refresh_from_db()
    assert (table.due_kind, table.due_at) == (clock.CLOCK, deadline)


def test_a_timeout_plays_the_default_turn_and_counts_it(alice_first):
    table = alice_first
    hand_before = selectors.load_snapshot(table.pk).state.hands[0]
    assert turn_clock.clock_expired(table_id=table.pk, version=table.version, now=_late(table))
    moves = list(Move.objects.order_by("seq"))
    assert [m.actor for m in moves] == [Move.Actor.CLOCK, Move.Actor.CLOCK]
    assert moves[0].action == {"type": "draw_stock"}
    assert moves[1].action["type"] == "discard"
    snap = selectors.load_snapshot(table.pk)
    assert snap.state.current == 1 and len(snap.state.hands[0]) == len(hand_before)
    assert Seat.objects.get(table=table, index=0).timeouts == 1
    table.refresh_from_db()
    assert table.due_kind == clock.BOT  # the bot's turn now


@pytest.mark.parametrize("seed", range(5))
def test_the_default_discard_is_the_costliest_card(seed):
    rules = engine.make_rules("standard")
    state = engine.new_hand(rules, 2, 1, seed=seed)
    state, _ = engine.apply(state, engine.DrawStock(0))
    action = timeout_action(engine.view(state, 0), engine.legal_actions(state, 0))
    costs = {c: -in_hand_line(rules.values, c).points for c in state.hands[0]}
    assert isinstance(action, engine.Discard)
    assert costs[action.card] == max(costs.values())


def test_a_move_just_before_the_deadline_wins_over_the_timeout(alice_first):
    table = alice_first
    armed = table.version
    moves_service.move_submit(
        table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=armed
    )
    assert not turn_clock.clock_expired(table_id=table.pk, version=armed, now=_late(table))
    assert Move.objects.filter(actor=Move.Actor.CLOCK).count() == 0
    assert Seat.objects.get(table=table, index=0).timeouts == 0


def test_the_clock_does_nothing_before_the_deadline(alice_first):
    table = alice_first
    early = table.due_at - timedelta(seconds=1)
    assert not turn_clock.clock_expired(table_id=table.pk, version=table.version, now=early)
    assert not Move.objects.exists()


def _timeout_alices_turn(table: Table) -> None:
    """Let Alice's clock run out, then let the bot play its turn (the task, run directly)."""
    from games.services import bot_turns

    table.refresh_from_db()
    assert turn_clock.clock_expired(table_id=table.pk, version=table.version, now=_late(table))
    table.refresh_from_db()
    while selectors.load_snapshot(table.pk).state.current == 1:
        assert bot_turns.play_one(table.pk, table.version, rng=random.Random(0))
        table.refresh_from_db()


def test_the_second_timeout_in_a_row_hands_the_seat_to_a_bot_until_im_back(alice, alice_first):
    table = alice_first
    _timeout_alices_turn(table)
    seat = Seat.objects.get(table=table, index=0)
    assert seat.timeouts == 1 and not seat.autoplay
    _timeout_alices_turn(table)
    seat.refresh_from_db()
    assert seat.autoplay
    table.refresh_from_db()
    assert table.due_kind == clock.BOT  # Alice's turn, played by the bot now
    presence.seat_back(table_id=table.pk, user=alice)
    seat.refresh_from_db()
    table.refresh_from_db()
    assert not seat.autoplay and seat.timeouts == 0
    assert table.due_kind == clock.CLOCK


def test_a_persons_own_move_resets_the_timeout_count(alice_first):
    table = alice_first
    _timeout_alices_turn(table)
    table.refresh_from_db()
    moves_service.move_submit(
        table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=table.version
    )
    assert Seat.objects.get(table=table, index=0).timeouts == 0


def test_a_covered_persons_own_move_takes_the_seat_back_from_the_bot(alice, alice_first):
    """A move sent from a seat a bot covers was stored as the person's, and the cover stayed
    on: the bot went on to play the rest of their turns."""
    table = alice_first
    _timeout_alices_turn(table)
    _timeout_alices_turn(table)
    table.refresh_from_db()
    assert Seat.objects.get(table=table, index=0).autoplay and table.due_kind == clock.BOT
    moves_service.move_submit(
        table_id=table.pk, seat=0, action={"type": "draw_stock"}, expected_version=table.version
    )
    seat = Seat.objects.get(table=table, index=0)
    table.refresh_from_db()
    assert not seat.autoplay and seat.timeouts == 0
    assert table.due_kind == clock.CLOCK  # her own turn goes on under her clock
    assert not selectors.load_snapshot(table.pk).seats[0].autoplay


def test_im_back_is_refused_when_not_covered(alice, alice_first):
    with pytest.raises(shared.TableError) as refused:
        presence.seat_back(table_id=alice_first.pk, user=alice)
    assert refused.value.code == "not_autoplay"


def test_untimed_tables_have_no_turn_clock(alice):
    table = tables.table_create(
        host=alice,
        name="Private",
        preset="standard",
        options={},
        num_seats=2,
        turn_seconds=None,
        is_private=True,
        fill_with_bots=True,
    )
    tables.table_start(table_id=table.pk, by=alice)
    table.refresh_from_db()
    redeal(table, dealer=1)
    assert table.due_kind == "" and table.due_at is None


def test_the_claim_window_closes_at_its_deadline(alice):
    table = start_table(alice, seats=2, rummy_call=True)
    rng = random.Random(4)
    for _ in range(400):
        snap = selectors.load_snapshot(table.pk)
        if snap.state.phase == engine.Phase.CLAIM:
            break
        seat = snap.state.to_act[0]
        legal = engine.legal_actions(snap.state, seat)
        outcome = moves_service.move_submit(
            table_id=table.pk,
            seat=seat,
            action=engine.action_to_json(rng.choice(legal)),
            expected_version=snap.version,
        )
        if outcome.hand_over:
            tables.hand_next(table_id=table.pk)
    else:
        pytest.fail("no claim window opened in 400 random moves")
    table.refresh_from_db()
    assert table.due_kind == clock.CLOCK
    assert turn_clock.clock_expired(table_id=table.pk, version=table.version, now=_late(table))
    last = Move.objects.order_by("-id").first()
    assert (last.seat, last.actor, last.action) == (-1, Move.Actor.CLOCK, {"type": "close_claims"})
    assert selectors.load_snapshot(table.pk).state.phase != engine.Phase.CLAIM


def test_the_state_frame_carries_the_servers_deadline(alice_first):
    from games.table import presenters

    frame = presenters.state_payload(selectors.load_snapshot(alice_first.pk), 0)
    assert frame["clock"]["deadline"] == alice_first.due_at.isoformat()
    assert 0 < frame["clock"]["seconds_left"] <= 60


def test_a_covered_player_sees_im_back_and_takes_the_seat_back(alice, alice_first, client):
    from django.urls import reverse

    from games.table import presenters

    table = alice_first
    Seat.objects.filter(table=table, index=0).update(autoplay=True)
    Table.objects.filter(pk=table.pk).update(version=table.version + 1)
    html = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    assert "I'm back" in html
    client.force_login(alice)
    response = client.post(reverse("seat_back", args=[table.pk]))
    assert response.status_code in (204, 302)
    assert not Seat.objects.get(table=table, index=0).autoplay
    html = presenters.state_html(selectors.load_snapshot(table.pk), 0, alice)
    assert "I'm back" not in html
