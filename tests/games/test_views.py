"""The lobby, table, invite and finished-game pages: who sees what, and what each button does."""

from __future__ import annotations

import random
import re
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import engine, rules_pages, selectors
from games.models import ChatMessage, ChatMute, ChatReport, Game, Hand, Seat, Table
from games.services import tables
from games.table import display, presenters
from tests.conftest import make_player
from tests.games.conftest import play_one, start_table

HTMX = {"HTTP_HX_REQUEST": "true"}


def create_form_data(**overrides) -> dict[str, object]:
    """What the lobby's form posts for a standard table, house rules at their defaults."""
    data: dict[str, object] = {
        "name": "Evening game",
        "preset": "standard",
        "options_for": "standard",
        "num_seats": 3,
        "turn_seconds": "60",
        "spectators_allowed": "on",
        "chat_enabled": "on",
        "bot_level": "easy",
    }
    for name, info in engine.OPTIONS.items():
        default = info.default_for("standard")
        if info.type == "bool":
            if default:
                data[f"opt_{name}"] = "on"
        else:
            data[f"opt_{name}"] = str(default)
    data.update(overrides)
    return {key: value for key, value in data.items() if value is not None}


def waiting_table(host, **overrides) -> Table:
    fields = {
        "host": host,
        "name": "Waiting table",
        "preset": "standard",
        "options": {},
        "num_seats": 3,
        "turn_seconds": 60,
    }
    fields.update(overrides)
    return tables.table_create(**fields)


def occupants(table: Table) -> list[object]:
    return [s.user_id or s.bot_level or None for s in table.seats.order_by("index")]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def finish_game(table: Table, seed: int = 7) -> Game:
    """Play random legal moves until the table's game is over."""
    rng = random.Random(seed)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status != Table.Status.PLAYING:
            break
        hand = Hand.objects.filter(game__table=table).order_by("-game__number", "-number")[0]
        if hand.status == Hand.Status.OVER:
            tables.hand_next(table_id=table.pk)
        else:
            play_one(table, rng)
    game = Game.objects.get(table=table)
    assert game.status == Game.Status.FINISHED
    return game


# --- the lobby -----------------------------------------------------------------------------


def test_the_lobby_lists_open_public_tables_but_not_private_ones(client, alice, bob):
    waiting_table(alice, name="Open to all")
    waiting_table(bob, name="Friends only", is_private=True)
    page = client.get("/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Open to all" in html
    assert "Friends only" not in html
    assert 'ws-connect="/ws/lobby/"' in html
    assert 'id="lobby-tables"' in html


def test_the_lobby_list_is_rendered_once_while_its_tables_do_not_change(client, alice, bob):
    presenters._lobby_rendered.clear()  # ids may repeat between tests on SQLite
    waiting_table(alice, name="First table")
    with mock.patch.object(
        presenters, "render_to_string", wraps=presenters.render_to_string
    ) as rendered:
        client.get("/")
        client.get("/")
        assert rendered.call_count == 1
        waiting_table(bob, name="Second table")  # a change: rendered afresh, never stale
        html = client.get("/").content.decode()
        assert rendered.call_count == 2
    assert "First table" in html and "Second table" in html


def test_the_lobby_list_takes_two_queries_however_many_tables_and_seats(
    alice, bob, django_assert_num_queries
):
    for n in range(3):
        table = waiting_table(alice if n % 2 else bob, name=f"Table {n}")
        tables.seat_set_bot(table_id=table.pk, by=table.host, index=1, level="easy")
    with django_assert_num_queries(2):
        listing = selectors.public_tables()
    assert [t.name for t in listing] == ["Table 2", "Table 1", "Table 0"]
    rows = presenters.lobby_rows(listing)
    # bots named as the table names them (by seat), not "Easy bot" for every one
    assert rows[0]["players"] == ["Bob", "Easy bot 2", None]
    assert rows[0]["taken"] == 2 and rows[0]["host"] == bob.pk


def test_a_lobby_row_tells_the_same_settings_as_the_tables_own_frames(alice):
    table = waiting_table(alice, name="House rules", options={"target": 1000})
    table.refresh_from_db()
    (row,) = presenters.lobby_rows(selectors.public_tables())
    summary = presenters.table_summary(table)
    assert {key: row[key] for key in summary} == summary
    assert summary["rules"]["options"]["target"] == 1000


def test_the_lobby_describes_each_distinct_rule_set_once(alice, bob):
    presenters._lobby_rules.cache_clear()
    for n in range(3):
        waiting_table(alice, name=f"Same rules {n}")
    waiting_table(bob, name="Longer game", options={"target": 1000})
    with mock.patch.object(
        presenters.display, "rules_summary", wraps=presenters.display.rules_summary
    ) as described:
        rows = presenters.lobby_rows(selectors.public_tables())
        presenters.lobby_rows(selectors.public_tables())
    assert described.call_count == 2
    assert [row["target"] for row in rows] == ["1000", "500", "500", "500"]


def test_the_lobby_socket_list_follows_a_seat_taken_after_the_page_was_rendered(client, alice):
    table = waiting_table(alice, name="Seats change")
    before = presenters.lobby_html(selectors.public_tables(), None)
    assert "1/3" in before
    tables.seat_set_bot(table_id=table.pk, by=alice, index=1, level="easy")
    after = presenters.lobby_html(selectors.public_tables(), None)
    assert "2/3" in after and 'hx-swap-oob="true"' in after


def test_a_lobby_row_says_rules_seats_target_turn_time_players_and_spectators(client, alice):
    waiting_table(alice, name="Rummy night", options={"target": 300, "rummy_call": True})
    html = client.get("/").content.decode()
    row = html[html.index("Rummy night") :]
    assert "Standard 500 Rum" in row
    assert "Rummy calls: on" in row
    assert "1/3" in row
    assert "300" in row
    assert "<dd>1 min</dd>" in row
    assert "Alice" in row
    assert "welcome" in row


def test_turn_times_read_as_the_create_form_offers_them(alice, client):
    """The table's header said "300 s a turn" for the form's "5 minutes"."""
    assert [display.turn_text(s) for s in (15, 45, 60, 90, 120, 300, None)] == [
        "15 s", "45 s", "1 min", "1½ min", "2 min", "5 min", "untimed"
    ]  # fmt: skip
    table = waiting_table(alice, turn_seconds=300)
    html = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "<span>5 min a turn</span>" in html and "300 s" not in html
    assert "<dd>5 min</dd>" in client.get("/").content.decode()


def test_visitors_see_no_create_form_and_players_see_every_engine_option(client, alice_client):
    assert 'id="create-form"' not in client.get("/").content.decode()
    html = alice_client.get("/").content.decode()
    assert 'id="create-form"' in html
    for info in engine.OPTIONS.values():
        assert f'name="opt_{info.name}"' in html
        assert escape(info.description) in html
    for preset in engine.PRESETS.values():
        assert f'<option value="{preset.name}"' in html


def test_creating_a_table_seats_the_host_and_opens_its_page(alice_client, alice):
    response = alice_client.post(
        reverse("table_create"),
        create_form_data(fill_with_bots="on", opt_target="250", opt_rummy_call="on"),
    )
    table = Table.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table_detail", args=[table.pk])
    assert occupants(table) == [alice.pk, "easy", "easy"]
    rules = engine.Rules.from_json(table.rules)
    assert rules.target == 250 and rules.rummy_call is True


def test_an_impossible_combination_is_refused_with_the_engines_reason(alice_client):
    data = create_form_data(opt_jokers="3")
    response = alice_client.post(reverse("table_create"), data)
    with pytest.raises(engine.RulesError) as engine_says:
        engine.make_rules("standard", jokers=3)
    assert response.status_code == 400
    assert escape(rules_pages.in_words(engine_says.value.reason)) in response.content.decode()
    assert "oklahoma-jokers" not in response.content.decode().split("form-errors")[1][:300]
    assert not Table.objects.exists()


def test_seats_outside_the_presets_limits_are_refused_next_to_the_seat_field(alice_client):
    response = alice_client.post(
        reverse("table_create"),
        create_form_data(preset="rummy-school", options_for="rummy-school", num_seats=6),
    )
    html = response.content.decode()
    assert response.status_code == 400
    errors = re.search(r'id="id_num_seats_errors"[^>]*>(.*?)</ul>', html, re.S)
    assert errors and "2 to 4 players" in errors.group(1)
    assert not Table.objects.exists()


def test_only_private_tables_may_be_untimed(alice_client):
    refused = alice_client.post(reverse("table_create"), create_form_data(turn_seconds="untimed"))
    assert refused.status_code == 400
    assert "Only private tables may be untimed." in refused.content.decode()
    accepted = alice_client.post(
        reverse("table_create"), create_form_data(turn_seconds="untimed", is_private="on")
    )
    assert accepted.status_code == 302
    assert Table.objects.get().turn_seconds is None


def test_a_changed_preset_without_the_page_script_shows_its_defaults_before_creating(
    alice_client,
):
    """The house rules were shown for standard; jokers keeps the top discard by default."""
    response = alice_client.post(
        reverse("table_create"), create_form_data(preset="jokers", options_for="standard")
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert not Table.objects.exists()
    assert re.search(r'<input type="checkbox" name="opt_top_discard_free"[^>]*checked', html)
    assert 'name="options_for" value="jokers"' in html


def test_someone_already_playing_elsewhere_cannot_create_a_table(alice_client, alice):
    start_table(alice)
    response = alice_client.post(reverse("table_create"), create_form_data())
    assert response.status_code == 400
    assert "already playing" in response.content.decode()
    assert Table.objects.count() == 1


# --- the waiting room ----------------------------------------------------------------------


def test_the_waiting_room_offers_each_person_what_they_may_do(alice, bob, client):
    table = waiting_table(alice)
    url = reverse("table_detail", args=[table.pk])
    host = client_for(alice).get(url).content.decode()
    assert "Add bot" in host and "Start the game" in host and "disabled" in host
    guest = client_for(bob).get(url).content.decode()
    assert "Sit here" in guest and "Add bot" not in guest and "Start the game" not in guest
    visitor = client.get(url).content.decode()
    assert "Log in" in visitor and "Sit here" not in visitor


def test_joining_changing_seat_and_leaving_ask_the_page_to_reload(alice, bob):
    table = waiting_table(alice)
    bob_client = client_for(bob)
    joined = bob_client.post(reverse("seat_join", args=[table.pk]), {"index": 2}, **HTMX)
    assert joined.status_code == 200 and joined["HX-Refresh"] == "true"
    assert occupants(table) == [alice.pk, None, bob.pk]
    moved = bob_client.post(reverse("seat_change", args=[table.pk]), {"index": 1}, **HTMX)
    assert moved["HX-Refresh"] == "true"
    assert occupants(table) == [alice.pk, bob.pk, None]
    left = bob_client.post(reverse("seat_leave", args=[table.pk]), **HTMX)
    assert left["HX-Refresh"] == "true"
    assert occupants(table) == [alice.pk, None, None]


def test_a_refused_join_shows_the_reason_and_changes_nothing(alice, bob):
    table = waiting_table(alice, num_seats=2)
    carol = make_player("carol", "Carol")
    client_for(bob).post(reverse("seat_join", args=[table.pk]), {"index": 1})
    version = Table.objects.get(pk=table.pk).version
    refused = client_for(carol).post(reverse("seat_join", args=[table.pk]), {"index": 1}, **HTMX)
    html = refused.content.decode()
    assert refused.status_code == 400
    assert 'id="room-error"' in html and 'hx-swap-oob="true"' in html
    assert "That seat is taken." in html
    assert Table.objects.get(pk=table.pk).version == version


def test_without_htmx_a_refusal_is_a_message_on_the_table_page(alice, bob):
    table = waiting_table(alice)
    response = client_for(bob).post(reverse("seat_bot", args=[table.pk]), {"index": 1}, follow=True)
    assert "Only the host can do that." in response.content.decode()
    assert occupants(table) == [alice.pk, None, None]


def test_the_host_adds_and_removes_bots_and_removes_a_player(alice, bob):
    table = waiting_table(alice)
    host = client_for(alice)
    tables.seat_join(table_id=table.pk, user=bob, index=1)
    added = host.post(reverse("seat_bot", args=[table.pk]), {"index": 2, "level": "easy"}, **HTMX)
    assert added.status_code == 204
    assert occupants(table) == [alice.pk, bob.pk, "easy"]
    host.post(reverse("seat_bot", args=[table.pk]), {"index": 2}, **HTMX)
    assert occupants(table) == [alice.pk, bob.pk, None]
    removed = host.post(reverse("seat_remove", args=[table.pk]), {"index": 1}, **HTMX)
    assert removed.status_code == 204
    assert occupants(table) == [alice.pk, None, None]


def test_someone_else_cannot_act_as_host(alice, bob):
    table = waiting_table(alice)
    tables.seat_join(table_id=table.pk, user=bob, index=1)
    guest = client_for(bob)
    for name, data in [
        ("seat_bot", {"index": 2, "level": "easy"}),
        ("seat_remove", {"index": 0}),
        ("table_start", {}),
    ]:
        response = guest.post(reverse(name, args=[table.pk]), data, **HTMX)
        assert response.status_code == 400
        assert "Only the host can do that." in response.content.decode()
    assert occupants(table) == [alice.pk, bob.pk, None]
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING


def test_the_host_starts_a_full_table(alice):
    table = waiting_table(alice, fill_with_bots=True)
    response = client_for(alice).post(reverse("table_start", args=[table.pk]), **HTMX)
    assert response.status_code == 204
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_full_waiting_table_says_who_starts_it_instead_of_waiting_for_players(alice, bob):
    table = waiting_table(alice, num_seats=2)
    tables.seat_join(table_id=table.pk, user=bob)
    url = reverse("table_detail", args=[table.pk])
    host = client_for(alice).get(url).content.decode()
    guest = client_for(bob).get(url).content.decode()
    assert "Waiting for players" not in host and "Waiting for players" not in guest
    assert "Every seat is taken: start the game when you are ready." in host
    assert "Every seat is taken: the host starts the game." in guest
    tables.seat_leave(table_id=table.pk, user=bob)
    assert "Waiting for players: 1 of 2 seats taken." in client_for(alice).get(url).content.decode()


def test_an_auto_start_table_filled_with_bots_starts_when_it_is_created(alice_client, alice):
    alice_client.post(
        reverse("table_create"), create_form_data(fill_with_bots="on", auto_start="on")
    )
    table = Table.objects.get(host=alice)
    assert table.status == Table.Status.PLAYING
    assert Game.objects.get(table=table).hands.count() == 1


def test_an_auto_start_table_starts_when_the_host_puts_a_bot_in_its_last_seat(alice, bob):
    table = waiting_table(alice, auto_start=True)
    tables.seat_join(table_id=table.pk, user=bob, index=1)
    host = client_for(alice)
    host.post(reverse("seat_bot", args=[table.pk]), {"index": 2, "level": "easy"}, **HTMX)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING
    assert Game.objects.filter(table=table).count() == 1


def test_without_auto_start_a_table_filled_with_bots_waits_for_the_host(alice):
    table = waiting_table(alice, fill_with_bots=True)
    assert Table.objects.get(pk=table.pk).status == Table.Status.WAITING


def test_changing_a_table_needs_a_login_and_a_post(client, alice):
    table = waiting_table(alice)
    assert client.post(reverse("seat_join", args=[table.pk])).status_code == 302
    assert client_for(alice).get(reverse("table_start", args=[table.pk])).status_code == 405


# --- private tables and invite links -------------------------------------------------------


def test_a_private_table_is_not_found_without_its_invite(alice, bob):
    table = waiting_table(alice, is_private=True)
    bob_client = client_for(bob)
    assert bob_client.get(reverse("table_detail", args=[table.pk])).status_code == 404
    refused = bob_client.post(reverse("seat_join", args=[table.pk]), {"index": 1})
    assert refused.status_code == 404
    assert occupants(table) == [alice.pk, None, None]


def test_the_invite_link_lets_a_friend_see_and_join_a_private_table(alice, bob):
    table = waiting_table(alice, is_private=True)
    bob_client = client_for(bob)
    followed = bob_client.get(reverse("table_invite", args=[table.invite_token]))
    assert followed["Location"] == reverse("table_detail", args=[table.pk])
    page = bob_client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert f"?invite={table.invite_token}" in page  # the spectator socket needs it
    bob_client.post(reverse("seat_join", args=[table.pk]), {"index": 1})
    assert occupants(table) == [alice.pk, bob.pk, None]


def test_a_wrong_invite_token_is_not_found(client, db):
    assert client.get(reverse("table_invite", args=["not-a-token"])).status_code == 404


def test_seated_players_of_a_private_table_see_its_invite_link(alice):
    table = waiting_table(alice, is_private=True)
    html = client_for(alice).get(reverse("table_detail", args=[table.pk])).content.decode()
    assert reverse("table_invite", args=[table.invite_token]) in html


# --- the live table ------------------------------------------------------------------------


def test_a_player_sees_their_hand_with_spoken_names_and_the_legal_moves(alice):
    table = start_table(alice, seats=3)
    snap = selectors.load_snapshot(table.pk)
    html = client_for(alice).get(reverse("table_detail", args=[table.pk])).content.decode()
    for code in snap.state.hands[0]:
        assert f'data-card="{code}"' in html
        assert f'aria-label="{engine.card_name(code)}"' in html
    assert 'hx-ext="ws"' in html and f'ws-connect="/ws/tables/{table.pk}/"' in html
    assert f'data-version="{snap.version}"' in html
    assert "data-legal=" in html
    assert f"Stock: <strong>{len(snap.state.stock)}</strong>" in html


def test_a_spectator_sees_no_hand_and_no_controls(client, alice):
    table = start_table(alice, seats=3)
    snap = selectors.load_snapshot(table.pk)
    html = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert 'class="hand-card' not in html
    assert "data-card=" not in html
    for code in snap.state.hands[0]:
        assert f'aria-label="{engine.card_name(code)}"' not in html or code in snap.state.discard
    assert "watching" in html


def test_the_melds_region_which_scrolls_can_be_reached_by_keyboard(client, alice):
    """The melds scroll in their own box once they fill it; someone watching (or a player
    with nothing to lay off) had no way to scroll it from the keyboard (axe:
    scrollable-region-focusable). The region itself takes focus, on the page and in frames."""
    table = start_table(alice, seats=3)
    html = client.get(reverse("table_detail", args=[table.pk])).content.decode()
    assert '<section id="melds" hx-swap-oob="true" class="area melds" tabindex="0"' in html
    html = client_for(alice).get(reverse("table_detail", args=[table.pk])).content.decode()
    assert '<section id="melds" hx-swap-oob="true" class="area melds" tabindex="0"' in html


def test_a_table_without_spectators_refuses_strangers_once_started(client, alice):
    table = start_table(alice, seats=3)
    Table.objects.filter(pk=table.pk).update(spectators_allowed=False)
    assert client.get(reverse("table_detail", args=[table.pk])).status_code == 403


def test_the_discard_pile_shows_every_card_and_what_taking_it_brings():
    view = {"discard": ["7H", "8C", "KD"]}
    pile = display.discard_pile(view, [{"type": "take_discard", "depth": 2}])
    assert [c["depth"] for c in pile] == [2, 1, 0]
    assert pile[0]["takeable"] and not pile[1]["takeable"]
    assert pile[0]["take_text"] == "the 7♥ and the 2 above it: 8♣ and K♦"
    assert (
        'aria-label="Take the seven of hearts and the 2 above it: eight of clubs and king of '
        'diamonds"' in pile[0]["button_html"]
    )
    assert "button_html" not in pile[1]


def test_a_socket_that_lost_its_seat_is_shown_the_public_view(alice, bob):
    """Bob's socket still says seat 1 after the host removed him and Carol sat down."""
    carol = make_player("carol", "Carol")
    table = waiting_table(alice, num_seats=3, fill_with_bots=False)
    tables.seat_join(table_id=table.pk, user=bob, index=1)
    tables.seat_remove_player(table_id=table.pk, by=alice, index=1)
    tables.seat_join(table_id=table.pk, user=carol, index=1)
    tables.seat_set_bot(table_id=table.pk, by=alice, index=2, level="easy")
    tables.table_start(table_id=table.pk, by=alice)
    snap = selectors.load_snapshot(table.pk)
    assert presenters.checked_seat(snap, 1, bob) is None
    assert presenters.checked_seat(snap, 1, carol) == 1
    html = presenters.state_html(snap, 1, bob)
    for code in snap.state.hands[1]:
        assert f'data-card="{code}"' not in html


def test_the_table_page_shows_the_chat_with_muted_players_left_out(alice, bob):
    table = start_table(alice, seats=3)
    Seat.objects.filter(table=table, index=1).update(user=bob, bot_level="")
    ChatMessage.objects.create(table=table, user=bob, text="<b>hello</b> all")
    carol = make_player("carol", "Carol")
    ChatMessage.objects.create(table=table, user=carol, text="spam spam")
    ChatMute.objects.create(user=alice, muted=carol)
    html = client_for(alice).get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "&lt;b&gt;hello&lt;/b&gt; all" in html
    assert "spam spam" not in html
    assert 'id="chat-form"' in html


def test_mute_and_report_through_the_chat_buttons(alice, bob):
    table = start_table(alice, seats=3)
    Seat.objects.filter(table=table, index=1).update(user=bob, bot_level="")
    message = ChatMessage.objects.create(table=table, user=bob, text="rude words")
    alice_client = client_for(alice)
    muted = alice_client.post(reverse("chat_mute", args=[bob.pk]), **HTMX)
    assert muted.status_code == 204 and "chatMuted" in muted["HX-Trigger"]
    assert ChatMute.objects.filter(user=alice, muted=bob).exists()
    reported = alice_client.post(
        reverse("chat_report", args=[message.pk]), {"reason": "rude"}, **HTMX
    )
    assert reported.status_code == 200 and "Reported" in reported.content.decode()
    assert ChatReport.objects.get().reason == "rude"
    assert alice_client.post(reverse("chat_mute", args=[alice.pk])).status_code == 400


# --- finished games ------------------------------------------------------------------------


def test_a_game_page_does_not_exist_before_the_game_is_over(client, alice):
    table = start_table(alice, seats=3)
    game = Game.objects.get(table=table)
    assert client.get(reverse("game_detail", args=[game.pk])).status_code == 404
    assert client_for(alice).get(reverse("game_detail", args=[game.pk])).status_code == 404


def test_a_finished_game_shows_standings_score_sheet_and_a_face_up_replay(client, alice):
    table = start_table(alice, seats=3, target=50)
    game = finish_game(table)
    hands = list(game.hands.order_by("number"))
    page = client.get(reverse("game_detail", args=[game.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Final standings" in html and "winner" in html
    assert html.count('<th scope="row">') == len(hands)
    for name in display.player_names(game.players):
        assert f'<th scope="col">{name}</th>' in html
    first = engine.state_from_json(hands[0].state)
    assert html.count('class="replay-step"') == len(first.actions) + 1
    start = engine.new_hand(
        first.rules, first.num_seats, first.dealer, first.totals,
        seed=first.seed, deck=first.deck, on_board=first.on_board,
    )  # fmt: skip
    replay_start = html[html.index('data-step="0"') : html.index('data-step="1"')]
    for hand in start.hands:  # every hand of the deal is shown face up
        for code in hand:
            assert engine.card_name(code) in replay_start


def test_two_bots_of_one_level_are_told_apart_on_the_game_page(client, alice):
    table = start_table(alice, seats=3, target=50)
    game = finish_game(table)
    # The record names a bot by its level only (the leaderboards group bots so).
    assert [p["name"] for p in game.players] == ["Alice", "Easy bot", "Easy bot"]
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    standings = html[html.index('class="standings"') : html.index("</ol>")]
    assert "Easy bot 2" in standings and "Easy bot 3" in standings
    assert "Players: " in html and "Easy bot 2 (bot, easy), Easy bot 3 (bot, easy)" in html
    assert display.player_names([{"name": "Ann"}, {"name": "Hard bot", "bot": "hard"}]) == [
        "Ann",
        "Hard bot",
    ]  # a name that is not repeated stays as it is


def test_the_table_page_offers_play_again_and_the_replay_once_the_game_is_over(alice):
    table = start_table(alice, seats=3, target=50)
    game = finish_game(table)
    html = client_for(alice).get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Game over" in html and "Play again" in html
    assert reverse("game_detail", args=[game.pk]) in html
    again = client_for(alice).post(reverse("table_start", args=[table.pk]), **HTMX)
    assert again.status_code == 204
    assert Game.objects.filter(table=table).count() == 2


def test_a_player_at_a_finished_table_is_offered_leave_and_then_watches(alice):
    """Leaving was offered only while a game ran, so someone done with a finished table
    could not say so before the host played again."""
    table = start_table(alice, seats=2, target=50)
    finish_game(table)

    def seat_tools() -> str:
        page = client_for(alice).get(reverse("table_detail", args=[table.pk])).content.decode()
        start = page.index('id="seat-tools"')
        return page[start : page.index("</div>", start)]

    tools = seat_tools()
    assert "Leave" in tools and "the table" in tools and " hidden" not in tools.split(">")[0]
    left = client_for(alice).post(reverse("seat_leave", args=[table.pk]), **HTMX)
    assert left.status_code in (200, 204)
    assert "Leave" not in seat_tools()


def test_the_game_over_standings_name_a_bot_as_the_table_does(alice):
    """The table calls its one bot "Easy bot 2" everywhere, the last hand's summary included;
    the standings just below it said "Easy bot" (the game's record names only the level)."""
    table = start_table(alice, seats=2, target=50)
    finish_game(table)
    html = client_for(alice).get(reverse("table_detail", args=[table.pk])).content.decode()
    standings = html[html.index('<ol class="standings">') :]
    standings = standings[: standings.index("</ol>")]
    assert "Easy bot 2:" in standings and "Alice:" in standings


def test_during_a_rummy_call_window_claimants_get_call_and_pass_controls(alice):
    table = start_table(alice, seats=3, rummy_call=True)
    rng = random.Random(11)
    for _ in range(400):
        snap = selectors.load_snapshot(table.pk)
        if snap.state.phase is engine.Phase.CLAIM:
            break
        if snap.hand.status == Hand.Status.OVER:
            tables.hand_next(table_id=table.pk)
        else:
            play_one(table, rng)
    else:
        pytest.fail("no Rummy call window opened")
    claimant = snap.state.to_act[0]
    html = presenters.state_html(snap, claimant, None)
    assert "Pass (do not call Rummy)" in html
    assert 'data-kind="claim_rummy"' in html
    assert "Rummy may be called" in html
    bar = re.search(r'<div id="table-state".*?</div>', html, re.S).group(0)
    assert bar.count("may be called") == 1, bar  # once said "Rummy may be called" twice
    assert "Your chance to call Rummy" in bar
    watcher = presenters.state_html(snap, None, None)
    assert 'data-kind="claim_rummy"' not in watcher and "Pass (do not" not in watcher


def test_the_replay_groups_melds_by_who_laid_them_and_shows_what_a_joker_stands_for():
    from games.engine.melds import TableMeld

    melds = [
        TableMeld(1, "run", ("5H", "6H", "7H", "8H"), ("5H", "6H", "7H", "8H"), (1, 1, 1, 0),
                  "H", "", 5, 8),
        TableMeld(2, "group", ("9C", "9D", "JK"), ("9C", "9D", "9S"), (0, 0, 0), "", "9", 9, 9),
        TableMeld(3, "group", ("KC", "KD", "KS"), ("KC", "KD", "KS"), (1, 1, 1), "", "K", 13, 13),
    ]  # fmt: skip
    groups = display._replay_melds(melds, ["Ann", "Ben"])
    assert [(g["name"], [m["id"] for m in g["melds"]]) for g in groups] == [
        ("Ann", [2]),
        ("Ben", [1, 3]),
    ]
    joker = groups[0]["melds"][0]["cards"][2]
    assert joker["stands_for"] == "9♠"
    assert "=9♠" in joker["small_html"] and "as 9♠" in joker["small_html"]
    assert not groups[1]["melds"][0]["cards"][0].get("stands_for")


def test_the_replay_keeps_a_meld_with_who_laid_it_down_and_marks_only_lay_offs():
    """Ben's 4♥ laid off below Ann's run is the meld's first card: the meld stays Ann's, her
    cards unmarked, the 4♥ marked with Ben's seat token (once every card carried an initial,
    the same "E" for "Easy bot 2" and "Easy bot 3")."""
    from games.engine.melds import TableMeld

    run = TableMeld(
        1, "run", ("4H", "5H", "6H", "7H"), ("4H", "5H", "6H", "7H"), (1, 0, 0, 0), "H", "", 4, 7
    )
    history = [
        engine.Event("meld", 0, (("meld", 1), ("cards", ("5H", "6H", "7H")))),
        engine.Event("lay_off", 1, (("meld", 1), ("card", "4H"))),
    ]
    groups = display._replay_melds([run], ["Ann", "Ben"], display.melders(history))
    assert [(g["name"], [m["id"] for m in g["melds"]]) for g in groups] == [("Ann", [1])]
    cards = groups[0]["melds"][0]["cards"]
    assert 'title="Ben">2</span>' in cards[0]["small_html"]
    assert all("pcard-owner" not in c["small_html"] for c in cards[1:])


def test_the_replay_puts_each_meld_on_its_own_line_and_separates_names_from_cards(client, alice):
    table = start_table(alice, seats=3, target=50)
    game = finish_game(table)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'class="replay-meld-list"' in html
    assert re.search(r'<li class="replay-meld">', html)
    assert "Melds of " in html
    # the name is its own element, followed by a colon, before "no cards" or the cards
    assert re.search(r'<span class="replay-name">(<a [^>]+>)?[^<]+(</a>)?:</span>', html)
    assert f'<a href="/players/{alice.display_name}/">{alice.display_name}</a>' in html


# --- joining from the lobby ----------------------------------------------------------------


def test_lobby_join_takes_a_free_seat_and_opens_the_table(client, alice, bob):
    table = waiting_table(alice)
    lobby = client_for(bob).get(reverse("home")).content.decode()
    join = reverse("seat_join", args=[table.pk])
    assert f'hx-post="{join}"' in lobby and 'name="from" value="lobby"' in lobby
    response = client_for(bob).post(join, {"from": "lobby"}, **HTMX)
    assert response["HX-Redirect"] == reverse("table_detail", args=[table.pk])
    assert occupants(table) == [alice.pk, bob.pk, None]


def test_lobby_join_without_script_still_sits_down_and_opens_the_table(alice, bob):
    table = waiting_table(alice)
    response = client_for(bob).post(reverse("seat_join", args=[table.pk]), {"from": "lobby"})
    assert response.status_code == 302
    assert response.url == reverse("table_detail", args=[table.pk])
    assert occupants(table) == [alice.pk, bob.pk, None]


def test_lobby_join_asks_a_visitor_to_log_in_first(client, alice):
    table = waiting_table(alice)
    response = client.post(reverse("seat_join", args=[table.pk]), {"from": "lobby"}, **HTMX)
    assert response["HX-Redirect"] == f"/accounts/login/?next=/tables/{table.pk}/"
    assert occupants(table) == [alice.pk, None, None]


def test_lobby_join_while_playing_elsewhere_says_the_one_game_rule(alice, bob):
    start_table(bob)
    table = waiting_table(alice)
    response = client_for(bob).post(
        reverse("seat_join", args=[table.pk]), {"from": "lobby"}, **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="lobby-error"' in html and 'hx-swap-oob="true"' in html
    assert "one running game at a time" in html and "watch any number of tables" in html
    assert occupants(table) == [alice.pk, None, None]


def test_the_table_page_offers_no_way_around_the_one_game_rule(alice, bob):
    table = waiting_table(alice)
    html = client_for(bob).get(reverse("table_detail", args=[table.pk])).content.decode()
    assert "Sit here" in html
    assert "allow_multiple" not in html and "even if I am playing" not in html
    start_table(bob, seats=2)
    forced = client_for(bob).post(
        reverse("seat_join", args=[table.pk]), {"index": 1, "allow_multiple": "1"}, **HTMX
    )
    assert forced.status_code == 400  # the old flag no longer lets anyone past the rule
    assert "one running game at a time" in forced.content.decode()
    assert occupants(table) == [alice.pk, None, None]
    creating = client_for(bob).post(reverse("table_create"), create_form_data())
    assert "one running game at a time" in creating.content.decode()


def test_favicon_ico_is_served(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/x-icon"
    body = response.content
    assert body[:4] == b"\x00\x00\x01\x00" and b"PNG" in body[:40]
    assert 'href="/favicon.ico"' in client.get("/").content.decode()


def test_lobby_join_at_a_table_where_i_already_sit_just_opens_it(alice):
    table = waiting_table(alice)
    response = client_for(alice).post(
        reverse("seat_join", args=[table.pk]), {"from": "lobby"}, **HTMX
    )
    assert response["HX-Redirect"] == reverse("table_detail", args=[table.pk])
    assert occupants(table) == [alice.pk, None, None]


def test_the_hosts_remove_button_for_a_bot_is_as_short_as_for_a_person(alice):
    """The words "Remove bot" wrapped to a line of their own beside each bot on a phone; a person's
    "Remove" stayed inline; the words for screen readers still say which seat it empties."""
    table = waiting_table(alice)
    tables.seat_set_bot(table_id=table.pk, by=alice, index=1, level="easy")
    html = client_for(alice).get(reverse("table_detail", args=[table.pk])).content.decode()
    assert '>Remove<span class="visually-hidden"> the bot from seat 2</span></button>' in html
    assert "Remove bot" not in html
