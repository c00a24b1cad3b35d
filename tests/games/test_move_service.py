"""The one move path: versions, idempotence, refusals that change nothing, the move log."""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from games import engine, selectors
from games.models import Hand, Move, Table
from games.services import moves as moves_service
from games.services import shared, tables
from tests.games.conftest import acting_seat, play_one, start_table


def _hand(table: Table) -> Hand:
    return Hand.objects.filter(game__table=table).order_by("-game__number", "-number").first()


def _fingerprint(table: Table) -> tuple:
    table.refresh_from_db()
    hand = _hand(table)
    return table.version, hand.state, hand.moves_count, Move.objects.count()


def test_it_applies_a_move_and_bumps_the_version(bot_table):
    before = _fingerprint(bot_table)
    seat = acting_seat(bot_table)
    outcome = moves_service.move_submit(
        table_id=bot_table.pk,
        seat=seat,
        action={"type": "draw_stock"},
        expected_version=before[0],
        client_id="m1",
    )
    assert outcome.version == before[0] + 1
    move = Move.objects.get()
    assert (move.seq, move.seat, move.client_id, move.action) == (
        1,
        seat,
        "m1",
        {"type": "draw_stock"},
    )
    assert move.table_version == outcome.version
    state = engine.state_from_json(_hand(bot_table).state)
    assert state.phase == engine.Phase.PLAY


def test_a_stale_version_is_refused_and_changes_nothing(bot_table):
    before = _fingerprint(bot_table)
    with pytest.raises(shared.TableError) as refused:
        moves_service.move_submit(
            table_id=bot_table.pk,
            seat=acting_seat(bot_table),
            action={"type": "draw_stock"},
            expected_version=before[0] - 1,
        )
    assert refused.value.code == "stale"
    assert refused.value.version == before[0]
    assert _fingerprint(bot_table) == before


def test_an_illegal_action_is_refused_with_the_engines_reason(bot_table):
    before = _fingerprint(bot_table)
    seat = acting_seat(bot_table)
    with pytest.raises(shared.TableError) as refused:
        moves_service.move_submit(
            table_id=bot_table.pk,
            seat=seat,
            action={"type": "discard", "card": "7H"},
            expected_version=before[0],
        )
    assert refused.value.code == "illegal"
    assert refused.value.message  # the engine's sentence for a person
    assert _fingerprint(bot_table) == before


def test_it_refuses_a_move_for_a_seat_whose_turn_it_is_not(bot_table):
    before = _fingerprint(bot_table)
    other = (acting_seat(bot_table) + 1) % 4
    with pytest.raises(shared.TableError) as refused:
        moves_service.move_submit(
            table_id=bot_table.pk,
            seat=other,
            action={"type": "draw_stock"},
            expected_version=before[0],
        )
    assert refused.value.code == "illegal"
    assert _fingerprint(bot_table) == before


@pytest.mark.parametrize(
    "action",
    [
        {},
        {"type": "fly"},
        {"type": "take_discard", "depth": "x"},
        {"type": "meld", "cards": ["ZZ"]},
    ],
)
def test_malformed_actions_are_refused(bot_table, action):
    before = _fingerprint(bot_table)
    with pytest.raises(shared.TableError) as refused:
        moves_service.move_submit(
            table_id=bot_table.pk,
            seat=acting_seat(bot_table),
            action=action,
            expected_version=before[0],
        )
    assert refused.value.code == "illegal"
    assert _fingerprint(bot_table) == before


def test_a_repeated_client_id_gets_the_same_answer_and_changes_nothing(bot_table):
    version = _fingerprint(bot_table)[0]
    seat = acting_seat(bot_table)
    first = moves_service.move_submit(
        table_id=bot_table.pk,
        seat=seat,
        action={"type": "draw_stock"},
        expected_version=version,
        client_id="same",
    )
    after_first = _fingerprint(bot_table)
    again = moves_service.move_submit(
        table_id=bot_table.pk,
        seat=seat,
        action={"type": "draw_stock"},
        expected_version=version,
        client_id="same",
    )
    assert again.duplicate and again.version == first.version and again.seq == first.seq
    assert _fingerprint(bot_table) == after_first


def test_the_move_log_is_continuous_and_replays_to_the_stored_state(bot_table):
    rng = random.Random(7)
    for _ in range(40):
        hand = _hand(bot_table)
        if hand.status != Hand.Status.PLAYING:
            break
        play_one(bot_table, rng)
    hand = _hand(bot_table)
    moves = list(hand.moves.order_by("seq"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
    versions = [m.table_version for m in moves]
    assert versions == sorted(set(versions))
    stored = engine.state_from_json(hand.state)
    start = engine.new_hand(
        stored.rules, stored.num_seats, stored.dealer, totals=stored.totals, seed=stored.seed
    )
    state = start
    for move in moves:
        state, _ = engine.apply(state, engine.action_from_json(move.action, move.seat))
    assert engine.state_to_json(state) == hand.state


def test_a_whole_game_runs_to_its_end_through_the_service(alice):
    table = start_table(alice, seats=2, target=60)
    rng = random.Random(3)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        hand = _hand(table)
        if hand.status == Hand.Status.OVER:
            assert tables.hand_next(table_id=table.pk) is not None
            continue
        play_one(table, rng)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    game = table.games.get()
    assert game.status == game.Status.FINISHED
    assert max(game.totals) >= 60
    assert game.winners and all(game.totals[w] == max(game.totals) for w in game.winners)
    hands = list(game.hands.order_by("number"))
    assert all(h.result is not None for h in hands)
    # each hand's result carries the running totals that the game ends with
    last = hands[-1].result["seats"]
    assert [s["total_after"] for s in last] == game.totals


def test_the_next_hand_is_dealt_only_once(alice):
    table = start_table(alice, seats=2, target=5000)
    rng = random.Random(11)
    while _hand(table).status == Hand.Status.PLAYING:
        play_one(table, rng)
    table.refresh_from_db()
    version = table.version
    assert tables.hand_next(table_id=table.pk, expected_version=version) is not None
    assert tables.hand_next(table_id=table.pk, expected_version=version) is None
    assert tables.hand_next(table_id=table.pk) is None  # the new hand is not over
    assert Hand.objects.filter(game__table=table).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submissions_for_one_turn_apply_exactly_once(alice):
    table = start_table(alice, seats=2)
    snap = selectors.load_snapshot(table.pk)
    seat = snap.state.to_act[0]
    barrier = threading.Barrier(2)
    results: list[object] = []

    def submit(client_id: str) -> None:
        barrier.wait()
        try:
            results.append(
                moves_service.move_submit(
                    table_id=table.pk,
                    seat=seat,
                    action={"type": "draw_stock"},
                    expected_version=snap.version,
                    client_id=client_id,
                )
            )
        except shared.TableError as exc:
            results.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(f"c{i}",)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    applied = [r for r in results if isinstance(r, shared.MoveOutcome)]
    refused = [r for r in results if isinstance(r, shared.TableError)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].code == "stale"
    assert Move.objects.filter(hand__game__table=table).count() == 1


def test_a_move_judged_on_an_old_cached_version_is_stale_not_illegal(bot_table):
    seat = acting_seat(bot_table)
    old = selectors.load_snapshot(bot_table.pk)  # cached, as a socket would have it
    moves_service.move_submit(
        table_id=bot_table.pk,
        seat=seat,
        action={"type": "draw_stock"},
        expected_version=old.version,
    )
    card = old.state.hands[seat][0]  # discarding was not allowed at the old version
    with pytest.raises(shared.TableError) as refused:
        moves_service.move_submit(
            table_id=bot_table.pk,
            seat=seat,
            action={"type": "discard", "card": card},
            expected_version=old.version,
        )
    assert refused.value.code == "stale"
    assert refused.value.version == old.version + 1
