"""Tables of the presets from issue 6 part A play whole games with bots through the services."""

from __future__ import annotations

import random

import pytest

from games import engine, selectors
from games.models import Game, Table
from games.services import bot_turns, shared, tables
from tests.games.conftest import play_one, redeal, start_table

pytestmark = pytest.mark.django_db


def play_to_the_end(table: Table, rng: random.Random, max_moves: int = 6000) -> Game:
    """Bots move through their task path; the host's seat plays random legal moves."""
    for _ in range(max_moves):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            return Game.objects.filter(table=table).latest("number")
        snap = selectors.load_snapshot(table.pk)
        if snap.state.phase is engine.Phase.HAND_OVER:
            tables.hand_next(table_id=table.pk)
            continue
        if not bot_turns.play_one(table.pk, table.version, rng=rng):
            play_one(table, rng)
    raise AssertionError("the game did not end")


def test_a_throw_down_table_plays_a_whole_game_with_bots(alice):
    table = start_table(alice, seats=3, preset="throw-down", target=100)
    game = play_to_the_end(table, random.Random(5))
    assert game.status == Game.Status.FINISHED
    assert max(game.totals) >= 100 and len(game.winners) == 1
    hand = game.hands.latest("number")
    assert len(hand.state["scatter"]) == len(hand.state["discard"])


def test_the_scattered_pile_says_what_each_card_lies_over_and_what_a_take_brings():
    view = {"discard": ["KH", "5C", "9D", "2S"], "scatter": [0, 0b1, 0b10, 0b1]}
    legal = [{"type": "take_discard", "depth": 2}]
    from games.table import display

    pile = display.discard_pile(view, legal)
    assert [card["lies_over"] for card in pile] == ["", "K♥", "5♣", "K♥"]
    assert pile[1]["take_text"] == "the 5♣ and the 1 above it: 9♦"
    assert not pile[0]["takeable"] and pile[1]["takeable"]


def test_a_persian_table_seats_partners_by_a_shown_draw_and_plays_to_the_end(alice):
    table = start_table(alice, seats=4, preset="persian", target=150)
    game = Game.objects.get(table=table)
    drawn = game.dealer_draw[0]
    assert sorted(seat for seat, _card in drawn) == [0, 1, 2, 3]
    first = {seat: card for seat, card in drawn}
    if len(game.dealer_draw) == 1:
        rank = {card: "23456789TJQKA".index(card[0]) for card in first.values()}
        assert min(rank[first[0]], rank[first[2]]) > max(rank[first[1]], rank[first[3]])
        assert first[game.first_dealer] == min(first.values(), key=rank.__getitem__)
    seats = list(table.seats.order_by("index"))
    assert sum(seat.user_id == alice.pk for seat in seats) == 1
    assert game.players[[s.user_id for s in seats].index(alice.pk)]["user"] == alice.pk
    game = play_to_the_end(table, random.Random(3))
    assert game.status == Game.Status.FINISHED
    assert sorted(game.winners) in ([0, 2], [1, 3])
    assert game.totals[0] == game.totals[2] and game.totals[1] == game.totals[3]
    last = game.hands.latest("number").result
    assert {tuple(side["seats"]) for side in last["sides"]} == {(0, 2), (1, 3)}
    winning = next(side for side in last["sides"] if side["seats"] == sorted(game.winners))
    assert winning["game_bonus"] == 50 and winning["total_after"] >= 150


def test_a_persian_table_needs_exactly_four_players(alice):
    with pytest.raises(shared.TableError, match="4 to 4 players, not 3"):
        start_table(alice, seats=3, preset="persian")
    with pytest.raises(shared.TableError, match="partnerships"):
        start_table(alice, seats=4, preset="standard", partners_by_draw=True)


def test_the_side_sheet_pools_partners_and_shows_the_game_bonus():
    from games.table import display

    rows = [
        {
            "hand": 1,
            "result": {
                "sides": [
                    {"seats": [0, 2], "score": 40, "game_bonus": 0, "total_after": 40},
                    {"seats": [1, 3], "score": -5, "game_bonus": 0, "total_after": -5},
                ]
            },
        },
        {
            "hand": 2,
            "result": {
                "sides": [
                    {"seats": [0, 2], "score": 120, "game_bonus": 50, "total_after": 210},
                    {"seats": [1, 3], "score": 10, "game_bonus": 0, "total_after": 5},
                ]
            },
        },
    ]
    sheet = display.side_sheet(rows, ((0, 2), (1, 3)), ["Alice", "Bob", "Cleo", "Dan"])
    assert [c["name"] for c in sheet["columns"]] == ["Alice & Cleo", "Bob & Dan"]
    assert sheet["rows"][1]["cells"][0] == {"score": 120, "bonus": 50, "total": 210}
    assert display.side_sheet(rows, (), []) is None
    seats = [{"index": i, "name": n, "connected": True} for i, n in enumerate("ABCD")]
    shown = display.players(None, seats, 0, [10, 20, 10, 20], ((0, 2), (1, 3)))
    assert shown[0]["side"] == 1 and shown[0]["partners"] == ["C"]
    assert shown[3]["side"] == 2 and shown[3]["partners"] == ["B"]


def test_a_michigan_table_is_one_hand_ranked_by_its_scores(alice, client):
    table = start_table(alice, seats=3, preset="michigan")
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert "this hand" in page  # running scores are shown while the hand is played
    assert "<span>one hand</span>" in page and "to 500" not in page
    game = play_to_the_end(table, random.Random(8))
    assert game.status == Game.Status.FINISHED and game.hands.count() == 1
    best = max(game.totals)
    assert game.winners == [seat for seat, total in enumerate(game.totals) if total == best]
    result = game.hands.get().result
    assert game.totals == [seat["total_after"] for seat in result["seats"]]


def test_michigan_says_stop_where_other_presets_say_rummy():
    from games.table import display

    view = {"preset": "michigan", "phase": "claim", "to_act": [2], "discard": ["TH"]}
    assert display.claim_word(view) == "Stop"
    assert display.status_text(view, ["A", "B", "C"], 2).startswith("Your chance to call Stop")
    # the history too (it said "Rummy may be called", "B did not call Rummy" at Michigan tables)
    history = [{"kind": "claim_window", "seat": 1}, {"kind": "pass_claim", "seat": 1}]
    assert display.action_log({**view, "history": history}, ["A", "B", "C"]) == [
        "Stop may be called on the pile",
        "B did not call Stop",
    ]
    legal = [{"type": "claim_rummy", "depth": 0}, {"type": "pass_claim"}]
    assert "Call Stop on" in display.discard_pile(view, legal)[0]["button_html"]
    assert display.controls(legal, view)["extra"][0]["text"] == "Pass (do not call Stop)"
    assert display.claim_word({"preset": "standard"}) == "Rummy"
    seats = [{"index": i, "name": n, "connected": True} for i, n in enumerate("ABC")]
    shown = display.players(
        {
            **view,
            "running": [24, 0, 10],
            "hand_sizes": [7, 7, 7],
            "dealer": 0,
            "public_cards": {"known": [[], [], []]},
        },
        seats,
        0,
        [0, 0, 0],
    )
    assert [p["running"] for p in shown] == [24, 0, 10]


def test_with_the_draw_off_the_hosts_seating_stands(alice):
    table = tables.table_create(
        host=alice,
        name="Fixed partners",
        preset="persian",
        options={"partners_by_draw": False},
        num_seats=4,
        turn_seconds=60,
        fill_with_bots=True,
    )
    tables.table_start(table_id=table.pk, by=alice)
    assert table.seats.get(index=0).user_id == alice.pk
    game = Game.objects.get(table=table)
    assert game.players[0]["user"] == alice.pk
    assert all(len(round_) >= 1 for round_ in game.dealer_draw)


def test_the_throw_down_table_page_shows_what_each_discard_lies_over(alice, client):
    table = start_table(alice, seats=2, preset="throw-down")
    redeal(table, dealer=1, seed=11)  # a known deal: the moves below always scatter discards
    rng = random.Random(2)
    for _ in range(12):
        if not bot_turns.play_one(table.pk, Table.objects.get(pk=table.pk).version, rng=rng):
            play_one(table, rng)
    client.force_login(alice)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    hand = Game.objects.get(table=table).hands.latest("number")
    assert "Discard area" in page
    assert any(hand.state["scatter"])
    assert 'class="lies-over muted">over ' in page


def test_the_hand_end_sums_up_each_side():
    from games.table import display

    view = {
        "result": {
            "sides": [
                {"seats": [0, 2], "score": 44, "game_bonus": 0, "total_after": 84},
                {"seats": [1, 3], "score": 3, "game_bonus": 50, "total_after": 553},
            ]
        }
    }
    rows = display.side_breakdown(view, ["Alice", "Bob", "Cleo", "Dan"])
    assert rows == [
        {"name": "Alice & Cleo", "score": 44, "bonus": 0, "total": 84},
        {"name": "Bob & Dan", "score": 3, "bonus": 50, "total": 553},
    ]
    assert display.side_breakdown({"result": {}}, []) == []


def test_the_create_form_marks_partners_by_draw_as_a_partnership_rule():
    from games.forms import TableCreateForm, option_field_name

    form = TableCreateForm()
    assert 'data-only-for="persian"' in str(form[option_field_name("partners_by_draw")])
    assert "data-only-for" not in str(form[option_field_name("boathouse")])
